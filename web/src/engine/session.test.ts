import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RUN, explain } from '../../../src/enumerate/verdict.ts';
import { parse } from '../../../src/syntax/parser.ts';
import { modelNames, targetInfos } from './choices.ts';
import { analyse } from './diagnostics.ts';
import type { Budgets, RunResult, RunSettings } from './protocol.ts';
import { MAX_LISTED, Session } from './session.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const MODELS = Object.fromEntries(
  readdirSync(join(ROOT, 'models'))
    .filter((f) => f.endsWith('.cat'))
    .map((f) => [f, readFileSync(join(ROOT, 'models', f), 'utf8')]),
);
const litmus = (name: string) => readFileSync(join(ROOT, 'litmus', name), 'utf8');
const SETTINGS: RunSettings = { noThinAir: true, valueRules: 'literal', observe: 'all' };
const BUDGETS: Budgets = { timeoutMs: 60_000, maxExecutions: Number.POSITIVE_INFINITY, maxStates: 1_000_000 };

async function run(s: Session, text: string, model = 'amdgpu'): Promise<RunResult> {
  const r = await s.run(
    text,
    model === 'amdgpu' ? { kind: 'amdgpu' } : { kind: 'cat', name: model },
    SETTINGS,
    BUDGETS,
  );
  if (r.kind !== 'run') throw new Error(JSON.stringify(r.diagnostics));
  return r.result;
}

describe('explorer engine', () => {
  it('offers the fast search and every cat model of the registry, and the targets with tables', () => {
    expect(modelNames()).toEqual(['amdgpu', 'amdgpu-cat', 'rc11', 'vulkan-cat']);
    const gfx = targetInfos();
    expect(gfx.map((t) => t.name)).toContain('gfx1200');
    expect(gfx.find((t) => t.name === 'gfx1200')!.wgpMode).toBe(true);
  });

  it('places the parser diagnostics at their line and column', () => {
    const text = litmus('MP+rel+acq.agent.litmus').replace('store i32 1', 'stor i32 1');
    const { test, diagnostics } = analyse(text);
    expect(test).toBeNull();
    const line = text.split('\n').findIndex((l) => l.includes('stor i32 1')) + 1;
    expect(diagnostics[0]).toMatchObject({ severity: 'error', line, col: 3 });
  });

  it('MP: the report, every candidate with its axiom, and a histogram with the forbidden outcome', async () => {
    const s = new Session(MODELS);
    const r = await run(s, litmus('MP+rel+acq.agent.litmus'));
    expect(r.report.states.map((s) => s.values)).toEqual([
      { 'P1:r0': 0, 'P1:r1': 'undef' },
      { 'P1:r0': 1, 'P1:r1': 1 },
    ]);
    expect(r.report.condition?.verdict).toBe('fails');
    const allowed = r.candidates.filter((c) => c.consistent);
    expect(allowed.length).toBe(r.report.stats.consistent);
    const forbidden = r.histogram.filter((b) => b.category === 'forbidden');
    expect(forbidden.map((b) => b.state)).toContain('P1:r0=1; P1:r1=0;');
    // The rejected candidate that reaches the forbidden outcome: its graph and --explain's words.
    const k = r.candidates.findIndex((c) => !c.consistent && c.state === 'P1:r0=1; P1:r1=0;');
    const g = s.graph(k, ['po', 'rf'], true)!;
    expect(g.consistent).toBe(false);
    expect(g.dot).toContain('edge-witness');
    expect(g.dot).toContain('cluster_s_agent 0/cluster 0/workgroup 1');
    const test = parse(litmus('MP+rel+acq.agent.litmus'), 'x').test!;
    const texts = explain(test, { ...DEFAULT_RUN, explain: true }).map((e) => e.text);
    expect(texts).toContain(g.explanation);
  });

  it('edge toggles choose the edges drawn', async () => {
    const s = new Session(MODELS);
    const r = await run(s, litmus('MP+rel+acq.agent.litmus'));
    const k = r.candidates.findIndex((c) => c.consistent && c.state === 'P1:r0=1; P1:r1=1;');
    expect(s.graph(k, ['po', 'rf', 'sw'], true)!.dot).toContain('edge-sw');
    expect(s.graph(k, ['po', 'rf'], true)!.dot).not.toContain('edge-sw');
    expect(s.graph(k, ['po', 'rf', 'hb'], false)!.dot).not.toContain('cluster_s_');
  });

  it('a cat model: its checks name the rejections, with the text of --explain', async () => {
    const s = new Session(MODELS);
    const r = await run(s, litmus('MP+rel+acq.agent.litmus'), 'amdgpu-cat');
    expect(r.report.condition?.verdict).toBe('fails');
    expect(r.edgeKinds).toEqual(['po', 'rf', 'co']);
    const k = r.candidates.findIndex((c) => !c.consistent && c.state === 'P1:r0=1; P1:r1=0;');
    const g = s.graph(k, ['po', 'rf', 'sw'], true)!;
    expect(g.explanation).toMatch(/^\S+/);
    expect(g.dot).not.toContain('edge-sw');
  });

  it('a pasted cat file with an error: a diagnostic at its line, for the cat editor', async () => {
    const s = new Session(MODELS);
    const r = await s.run(
      litmus('MP+rel+acq.agent.litmus'),
      { kind: 'user-cat', text: '"mine"\nlet x = po |\n' },
      SETTINGS,
      BUDGETS,
    );
    expect(r.kind).toBe('diagnostics');
    // At the file's last character, where the cat parser puts an end-of-file error (as the CLI shows it).
    if (r.kind === 'diagnostics') expect(r.diagnostics[0]).toMatchObject({ source: 'cat', line: 2, col: 12 });
  });

  it('the list of candidates stops at its cap and says so', async () => {
    const s = new Session(MODELS);
    const r = await run(s, litmus('IRIW+rlx.agent.litmus'));
    expect(r.candidates.length).toBeLessThanOrEqual(MAX_LISTED);
    expect(r.candidatesPartial).toBe(r.candidates.length === MAX_LISTED);
  });

  it('lowers per thread and checks on the machine; a machine outcome can be traced state by state', async () => {
    const s = new Session(MODELS);
    const text = litmus('MP+rel+acq.agent.litmus');
    const choice = { target: 'gfx900', mode: 'cu', lang: 'hsa', tgsplit: false } as const;
    const low = s.lower(text, choice);
    if (!('threads' in low)) throw new Error('no lowering');
    expect(low.threads[0]!.instrs[1]!.asm.join(' ')).toMatch(/buffer_wbinvl1_vol|s_waitcnt/);
    const other = s.lower(text, { ...choice, target: 'gfx1200' });
    expect(JSON.stringify(other)).not.toBe(JSON.stringify(low));
    const c = await s.check(text, choice, 60_000);
    if ('diagnostics' in c) throw new Error('diagnostics');
    expect(c.verdict).toBe('sound');
    const t = s.trace(choice, 0)!;
    expect(t.states.length).toBe(t.steps.length + 1);
    expect(t.machine.caches.length).toBeGreaterThan(0);
    expect(t.states[0]!.lines[0]!.every((l) => l.st === 'clean')).toBe(true);
  });

  it('an unsound check (LB+rlx.agent: no-thin-air against the machine): the run to the forbidden outcome', async () => {
    const s = new Session(MODELS);
    const choice = { target: 'gfx900', mode: 'cu', lang: 'hsa', tgsplit: false } as const;
    const c = await s.check(litmus('LB+rlx.agent.litmus'), choice, 60_000);
    if ('diagnostics' in c) throw new Error('diagnostics');
    expect(c.verdict).toBe('UNSOUND');
    const k = c.machine.findIndex((m) => !m.allowed);
    expect(c.machine[k]!.values).toEqual(c.forbidden!.values);
    const t = s.trace(choice, k)!;
    const last = t.states.at(-1)!;
    const p0 = t.machine.threads.findIndex((th) => th.name === 'P0');
    expect(last.regs[p0]![t.machine.threads[p0]!.regs.indexOf('r0')]).toBe(c.forbidden!.values['P0:r0']);
    expect(t.steps.map((x) => x.kind)).toContain('perform');
  });
});
