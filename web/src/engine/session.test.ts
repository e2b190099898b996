import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadModel } from '../../../src/cat/load.ts';
import { runsOf } from '../../../src/cli/check.ts';
import { DEFAULT_RUN, explain, runTest } from '../../../src/enumerate/verdict.ts';
import { parseAnyTest } from '../../../src/run/syntaxes.ts';
import { parse } from '../../../src/syntax/parser.ts';
import type { VulkanTest } from '../../../src/vulkan/ast.ts';
import { amdgpuToVulkan } from '../../../src/vulkan/from-amdgpu.ts';
import { vulkanFront } from '../../../src/vulkan/front.ts';
import { DEFAULT_VK_RUN, explainVulkan, runVulkan } from '../../../src/vulkan/run.ts';
import { vulkanToAmdgpu } from '../../../src/vulkan/translate.ts';
import { checkRuns, modelNames, targetInfos } from './choices.ts';
import { analyse } from './diagnostics.ts';
import type { Budgets, ModelChoice, RunResult, RunSettings, TargetsChoice } from './protocol.ts';
import { MAX_LISTED, Session } from './session.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const MODELS = Object.fromEntries(
  readdirSync(join(ROOT, 'models'))
    .filter((f) => f.endsWith('.cat'))
    .map((f) => [f, readFileSync(join(ROOT, 'models', f), 'utf8')]),
);
const litmus = (name: string) => readFileSync(join(ROOT, 'litmus', name), 'utf8');
const file = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const SETTINGS: RunSettings = {
  noThinAir: true,
  valueRules: 'literal',
  observe: 'all',
  vulkan: { unroll: 2, chains: true, fr: 'dartagnan', deviceScope: 'system' },
};
const BUDGETS: Budgets = { timeoutMs: 60_000, maxExecutions: Number.POSITIVE_INFINITY, maxStates: 1_000_000 };
const VULKAN_CAT = loadModel(MODELS['vulkan.cat']!, 'vulkan.cat', () => null).model;
const MP_AVVIS = 'corpus/vulkan-dat3m/Manual/MP-avvis.litmus';

async function run(s: Session, text: string, model = 'amdgpu'): Promise<RunResult> {
  const choice: ModelChoice =
    model === 'amdgpu' || model === 'vulkan' ? { kind: model } : { kind: 'cat', name: model };
  const r = await s.run(text, choice, SETTINGS, BUDGETS);
  if (r.kind !== 'run') throw new Error(JSON.stringify(r.diagnostics));
  return r.result;
}

const vulkanTest = (text: string, name: string) => parseAnyTest(text, name).test as VulkanTest;

describe('explorer engine', () => {
  it('offers the fast searches and every cat model of the registry, and the targets with tables', () => {
    expect(modelNames()).toEqual(['amdgpu', 'vulkan', 'amdgpu-cat', 'rc11', 'vulkan-cat']);
    const gfx = targetInfos();
    expect(gfx.map((t) => t.name)).toContain('gfx1200');
    expect(gfx.find((t) => t.name === 'gfx1200')!.wgpMode).toBe(true);
    expect(gfx.filter((t) => t.vendor === 'Intel').map((t) => t.name)).toEqual([
      'dg2',
      'mtl',
      'arl',
      'pvc',
      'lnl',
      'bmg',
      'ptl',
    ]);
  });

  it('the hardware check covers the runs of gpumm check --all-targets: every family, the Intel groups, TgSplit', () => {
    const key = (c: { target: string | { name: string }; mode: string; tgsplit?: boolean }) =>
      `${typeof c.target === 'string' ? c.target : c.target.name}|${c.mode}|${c.tgsplit === true}`;
    const cli = runsOf({ errorLimit: 0, allTargets: true, lowering: 'doc', maxStates: 1, workers: 1 });
    expect(checkRuns(targetInfos()).map(key)).toEqual(cli.map(key));
    expect(cli.map(key)).toEqual(expect.arrayContaining(['pvc|cu|false', 'dg2|cu|false', 'gfx942|cu|true']));
  });

  it('places the parser diagnostics at their line and column, in each syntax', () => {
    const text = litmus('MP+rel+acq.agent.litmus').replace('store i32 1', 'stor i32 1');
    const { test, diagnostics } = analyse(text);
    expect(test).toBeNull();
    const line = text.split('\n').findIndex((l) => l.includes('stor i32 1')) + 1;
    expect(diagnostics[0]).toMatchObject({ severity: 'error', line, col: 3 });
    // Dartagnan's syntax: a modifier the Vulkan parser does not know, where `gpumm parse` puts it.
    const vk = file(MP_AVVIS).replace('ld.vis.dv.sc0', 'ld.vis.xx.sc0');
    const d = analyse(vk);
    expect(d.syntax).toBe('dat3m');
    expect(d.test).toBeNull();
    const cli = parseAnyTest(vk, 'test.litmus').diagnostics[0]!;
    expect(d.diagnostics[0]).toMatchObject({ code: cli.code, line: cli.span.line, col: cli.span.col });
    expect(vk.split('\n')[cli.span.line - 1]).toContain('ld.vis.xx.sc0');
    // The Khronos format.
    expect(analyse(file('litmus-vulkan/SSW.avvis.test')).syntax).toBe('khronos');
  });

  it('MP: the report, every candidate with its axiom, and a histogram with the forbidden outcome', async () => {
    const s = new Session(MODELS);
    const r = await run(s, litmus('MP+rel+acq.agent.litmus'));
    expect(r.language).toBe('AMDGPU');
    expect(r.translation).toBeNull();
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
    const low = await s.lower(text, { targets: ['gfx900'], mode: 'cu', lang: 'hsa', tgsplit: false });
    if (!('threads' in low)) throw new Error('no lowering');
    expect(low.threads[0]!.instrs[1]!.cells[0]!.asm.join(' ')).toMatch(/buffer_wbinvl1_vol|s_waitcnt/);
    const other = await s.lower(text, { targets: ['gfx1200'], mode: 'cu', lang: 'hsa', tgsplit: false });
    expect(JSON.stringify(other)).not.toBe(JSON.stringify(low));
    const c = await s.check(text, choice, 60_000);
    if ('diagnostics' in c) throw new Error('diagnostics');
    expect(c.verdict).toBe('sound');
    const t = s.trace(choice, 0)!;
    expect(t.states.length).toBe(t.steps.length + 1);
    expect(t.machine.caches.length).toBeGreaterThan(0);
    expect(t.machine.memory).toBe('memory');
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

describe('explorer engine: side by side and the machine picture', () => {
  const SBS: TargetsChoice = { targets: ['gfx942', 'pvc'], mode: 'wgp', lang: 'hsa', tgsplit: false };

  it('lowers for several targets side by side, cell by cell as gpumm lower --target gfx942,pvc', async () => {
    const s = new Session(MODELS);
    const v = await s.lower(litmus('MP+rel+acq.agent.litmus'), SBS);
    if (!('threads' in v)) throw new Error('no lowering');
    expect(v.columns.map((c) => c.target)).toEqual(['gfx942', 'pvc']);
    expect(v.columns[1]!.title).toBe('pvc (Xe-HPC, dGPU, OpenCL/SPIR-V)');
    const release = v.threads[0]!.instrs[1]!;
    expect(release.cells).toHaveLength(2);
    expect(release.cells[0]!.asm.join(' ')).toMatch(/buffer_wbl2|s_waitcnt/);
    expect(release.cells[1]!.asm.join(' ')).toMatch(/lsc_fence\.ugm\.evict\.gpu/);
    expect(release.cells[1]!.rows.length).toBeGreaterThan(0);
    // The same cells as each target alone.
    const alone = await s.lower(litmus('MP+rel+acq.agent.litmus'), { ...SBS, targets: ['pvc'] });
    if (!('threads' in alone)) throw new Error('no lowering');
    expect(alone.threads[0]!.instrs[1]!.cells[0]).toEqual(release.cells[1]);
  });

  it('shows lowering warnings as gpumm lower does: an amdgcn-av annotation means nothing on Intel (LW2014)', async () => {
    const s = new Session(MODELS);
    const v = await s.lower(litmus('MP+rel.none+acq.agent.litmus'), SBS);
    if (!('threads' in v)) throw new Error('no lowering');
    const cells = v.threads.flatMap((t) => t.instrs.map((i) => i.cells));
    const pvc = cells.flatMap((c) => c[1]!.warnings);
    expect(pvc).toHaveLength(1);
    expect(pvc[0]).toMatch(/^LW2014: .*amdgcn-av.*pvc/);
    // The code is there all the same, and gfx942 has no such warning.
    expect(cells.every((c) => c[1]!.asm.length > 0)).toBe(true);
    expect(cells.flatMap((c) => c[0]!.warnings)).toEqual([]);
  });

  it('an unknown target among several is a diagnostic with the nearest names', async () => {
    const s = new Session(MODELS);
    const v = await s.lower(litmus('MP+rel+acq.agent.litmus'), { ...SBS, targets: ['gfx942', 'gfx9422'] });
    expect(v).toMatchObject({ diagnostics: [{ code: 'LW2001' }] });
  });

  it("names the machine's memory level as its traces do (Intel on one agent folds its GPU-wide level into it)", async () => {
    const s = new Session(MODELS);
    const text = litmus('MP+rel+acq.agent.litmus');
    for (const [target, name] of [
      ['dg2', 'L3'],
      ['pvc', 'GPU'],
    ] as const) {
      const choice = { target, mode: 'cu', lang: 'hsa', tgsplit: false } as const;
      const c = await s.check(text, choice, 60_000);
      if ('diagnostics' in c) throw new Error('diagnostics');
      expect(c.verdict).toBe('sound');
      const t = s.trace(choice, c.machine.length - 1)!;
      expect(t.machine.memory).toBe(name);
      // The trace's own words name it so.
      expect(t.steps.map((x) => x.detail).join('\n')).toContain(` ${name}`);
      expect(t.steps.map((x) => x.detail).join('\n')).not.toContain('memory');
    }
  });
});

describe('explorer engine: Vulkan tests', () => {
  it('a corpus test under the fast Vulkan search: the CLI’s states, each candidate with the check --explain names', async () => {
    const s = new Session(MODELS);
    const text = file(MP_AVVIS);
    const r = await run(s, text, 'vulkan');
    expect(r.language).toBe('Vulkan');
    expect(r.translation).toBeNull();
    const test = vulkanTest(text, MP_AVVIS);
    const cli = runVulkan(test, { ...DEFAULT_VK_RUN, model: VULKAN_CAT });
    expect(r.report.states).toEqual(cli.states);
    expect(r.report.condition).toEqual(cli.condition);
    // Every consistent candidate is an execution of the report; the forbidden outcome is drawn.
    expect(r.candidates.filter((c) => c.consistent)).toHaveLength(cli.stats.consistent);
    expect(r.histogram.find((b) => b.category === 'forbidden')?.state).toBe('P1:r0=1; P1:r1=0;');
    const k = r.candidates.findIndex((c) => !c.consistent && c.state === 'P1:r0=1; P1:r1=0;');
    const g = s.graph(k, ['po', 'rf', 'co', 'sw', 'lo'], true)!;
    expect(g.axiom).toBe('consistency');
    const texts = explainVulkan(test, vulkanFront(test), { ...DEFAULT_VK_RUN, model: VULKAN_CAT }).map(
      (e) => e.text,
    );
    expect(texts).toContain(g.explanation);
    // Drawn with its scope instances, the model's relations and the witness.
    expect(g.dot).toContain('cluster_s_queue family 0/workgroup 0/subgroup 1');
    expect(g.dot).toContain('edge-witness');
    expect(g.dot).toContain('edge-sw');
    expect(g.dot).toContain('edge-lo');
    expect(g.dot).toContain('label="P1:2 ld.vis.dv.sc0 r1, x = 0"');
  });

  it('the Vulkan relations as toggles: those models/vulkan.cat binds, drawn only when asked', async () => {
    const s = new Session(MODELS);
    const r = await run(s, file('litmus-vulkan/MP.semav-semvis.litmus'), 'vulkan');
    expect(r.edgeKinds).toEqual(['po', 'rf', 'co', 'sw', 'hb', 'lo', 'av', 'vis']);
    // The execution where the acquire reads the release: synchronised, the data made available and visible.
    const k = r.candidates.findIndex((c) => c.consistent && c.state === 'P1:r0=1; P1:r1=1;');
    const all = s.graph(k, r.edgeKinds, true)!.dot;
    expect(all).toMatch(/label="av (sh|qf|wg|sg)"/);
    expect(all).toMatch(/label="vis (sh|qf|wg|sg)"/);
    expect(all).toContain('edge-hb');
    const few = s.graph(k, ['po', 'rf'], true)!.dot;
    for (const kind of ['edge-av', 'edge-vis', 'edge-hb', 'edge-sw', 'edge-co'])
      expect(few).not.toContain(kind);
  });

  it('vulkan-cat gives the fast search’s states', async () => {
    const s = new Session(MODELS);
    const text = file('corpus/vulkan-dat3m/Manual/IRIW.litmus');
    const fast = await run(s, text, 'vulkan');
    const cat = await run(s, text, 'vulkan-cat');
    expect(cat.report.states).toEqual(fast.report.states);
    expect(cat.model).toBe('vulkan-cat');
  });

  it('a Khronos test: its SATISFIABLE / NOSOLUTION lines checked, as gpumm run checks them', async () => {
    const s = new Session(MODELS);
    const text = file('litmus-vulkan/SSW.avvis.test');
    const r = await run(s, text, 'vulkan');
    const cli = runVulkan(vulkanTest(text, 'SSW.avvis.test'), DEFAULT_VK_RUN);
    expect(r.report.expectations).toEqual(cli.expectations);
    expect(r.report.expectations.some((e) => e.key === 'assertion')).toBe(true);
  });

  it('a Vulkan test under the AMDGPU model runs its AMDGPU translation, as gpumm run --model amdgpu', async () => {
    const s = new Session(MODELS);
    const text = file(MP_AVVIS);
    const r = await run(s, text, 'amdgpu');
    expect(r.language).toBe('AMDGPU');
    expect(r.translation).toMatchObject({ from: 'Vulkan', to: 'AMDGPU' });
    const translated = vulkanToAmdgpu(vulkanTest(text, MP_AVVIS), 'system').test!;
    expect(r.translation!.text).toContain('AMDGPU MP-avvis');
    const cli = await runTest(translated, { ...DEFAULT_RUN, explain: false, keepExamples: false });
    expect(r.report.states).toEqual(cli.states);
    // The device scope of the translation is the page's setting (--device-scope).
    const agent = await s.run(
      text,
      { kind: 'amdgpu' },
      { ...SETTINGS, vulkan: { ...SETTINGS.vulkan, deviceScope: 'agent' } },
      BUDGETS,
    );
    if (agent.kind !== 'run') throw new Error('no run');
    expect(agent.result.translation!.text).toContain('metadata !"agent"');
    expect(r.translation!.text).not.toContain('metadata !"agent"');
  });

  it('an AMDGPU test under the Vulkan model runs its Vulkan translation, as gpumm run --model vulkan', async () => {
    const s = new Session(MODELS);
    const text = litmus('MP+rel+acq.agent.litmus');
    const r = await run(s, text, 'vulkan');
    expect(r.translation).toMatchObject({ from: 'AMDGPU', to: 'Vulkan' });
    expect(r.translation!.text).toMatch(/^VULKAN MP\+rel\+acq\.agent/);
    const translated = amdgpuToVulkan(parse(text, 'x').test!).test!;
    expect(r.report.states).toEqual(runVulkan(translated, DEFAULT_VK_RUN).states);
    const k = r.candidates.findIndex((c) => !c.consistent);
    expect(s.graph(k, ['po', 'rf'], true)!.dot).toContain('ld.nonpriv.sc0');
  });

  it('what a translation cannot say stops the run with a diagnostic at its line', async () => {
    const s = new Session(MODELS);
    // Two references to one location have no AMDGPU translation (VK4008).
    const text = file('litmus-vulkan/SLOC.private.test');
    const r = await s.run(text, { kind: 'amdgpu' }, SETTINGS, BUDGETS);
    expect(r.kind).toBe('diagnostics');
    if (r.kind === 'diagnostics') {
      expect(r.diagnostics[0]).toMatchObject({ code: 'VK4008', source: 'test' });
      expect(text.split('\n')[r.diagnostics[0]!.line - 1]).toMatch(/SLOC/);
    }
  });

  it('a Vulkan test lowers and is checked through its AMDGPU translation, as gpumm lower does', async () => {
    const s = new Session(MODELS);
    const text = file('litmus-vulkan/MP.sw-atomic.dv.litmus');
    const v = await s.lower(text, { targets: ['gfx942', 'pvc'], mode: 'cu', lang: 'hsa', tgsplit: false });
    if (!('threads' in v)) throw new Error(JSON.stringify(v));
    expect(v.translation).toMatchObject({ from: 'Vulkan', to: 'AMDGPU' });
    expect(v.threads[0]!.instrs.map((i) => i.ir)).toContain(
      'store atomic i32 1, ptr addrspace(1) @y release, !mmra !{!"amdgcn-av", !"none"}',
    );
    const translated = vulkanToAmdgpu(vulkanTest(text, 'x.litmus'), 'system').test!;
    expect(v.threads.flatMap((t) => t.instrs.map((i) => i.line))).toEqual(
      translated.threads.flatMap((t) => t.body.map((i) => i.span.line)),
    );
    const c = await s.check(text, { target: 'gfx942', mode: 'cu', lang: 'hsa', tgsplit: false }, 60_000);
    if ('diagnostics' in c) throw new Error(JSON.stringify(c));
    expect(['sound', 'unsupported']).toContain(c.verdict);
    expect(c.test).toBe(translated.name);
  });
});
