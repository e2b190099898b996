/**
 * The Vulkan model on its own terms: the tests of litmus-vulkan/ (one per relation of the spec's
 * Memory Model appendix, in both syntaxes) with their expectations, under the fast search and
 * models/vulkan.cat alike; then each named check of models/vulkan.cat one by one — a test only it
 * forbids, which `--explain` attributes to it and which the model without it allows.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Model } from '../cat/ast.ts';
import { loadModel } from '../cat/load.ts';
import type { Report } from '../enumerate/report.ts';
import { parseAnyTest } from '../run/syntaxes.ts';
import { isVulkan, type VulkanTest } from './ast.ts';
import { DEFAULT_VK_RUN, runVulkan } from './run.ts';

const root = join(import.meta.dirname, '..', '..');
const dir = join(root, 'litmus-vulkan');
const { model } = loadModel(
  readFileSync(join(root, 'models', 'vulkan.cat'), 'utf8'),
  'models/vulkan.cat',
  () => null,
);

function load(file: string): VulkanTest {
  const r = parseAnyTest(readFileSync(join(dir, file), 'utf8'), file);
  expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  if (!r.test || !isVulkan(r.test)) throw new Error(`${file} is not a Vulkan test`);
  return r.test;
}

function same(r: Report) {
  return {
    states: r.states.map((s) => [s.values, s.count, s.race, s.condition]),
    condition: r.condition?.verdict,
    flags: r.flags,
    expectations: r.expectations,
  };
}

/** The model without the check named `name`. */
function without(m: Model, name: string): Model {
  const instrs = m.instrs.filter((i) => !(i.kind === 'check' && i.name === name));
  expect(instrs.length).toBe(m.instrs.length - 1);
  return { ...m, instrs };
}

const files = readdirSync(dir).filter((f) => f.endsWith('.litmus') || f.endsWith('.test'));

describe('litmus-vulkan/: one test per relation of the spec', () => {
  it('has tests in both syntaxes, each with expectations', () => {
    expect(files.filter((f) => f.endsWith('.test')).length).toBeGreaterThanOrEqual(5);
    expect(files.filter((f) => f.endsWith('.litmus')).length).toBeGreaterThanOrEqual(20);
  });

  for (const f of files)
    it(`${f}: every expectation holds, and the cat model gives the fast search's report`, () => {
      const t = load(f);
      const fast = runVulkan(t, DEFAULT_VK_RUN);
      expect(fast.expectations.length, 'a test of its own needs expectations').toBeGreaterThan(0);
      for (const e of fast.expectations) expect(e, `${e.key} ${e.expected}`).toMatchObject({ ok: true });
      const cat = runVulkan(t, { ...DEFAULT_VK_RUN, engine: 'cat', model });
      expect(same(cat)).toEqual(same(fast));
    });
});

/**
 * Each named check of models/vulkan.cat, and the test of litmus-vulkan/ only it decides: the test's
 * condition fails (`exists`) because of it, or (co-locord, whose only effect is on final values)
 * holds (`forall`) because of it.
 */
const AXIOMS: Record<string, string> = {
  consistency: 'CoRR.atom.dv.litmus',
  'visible-to': 'MP.visible-to.racy-write.litmus',
  'co-locord': 'CoWW.final.litmus',
};

describe('the checks of models/vulkan.cat one by one', () => {
  it('every named check that can reject an execution has its test', () => {
    const checks = model.instrs.flatMap((i) => (i.kind === 'check' && !i.flag ? [i.name] : []));
    expect(checks.sort()).toEqual(Object.keys(AXIOMS).sort());
  });

  for (const [axiom, file] of Object.entries(AXIOMS))
    it(`${axiom}: ${file} is decided by it alone (and --explain names it)`, () => {
      const t = load(file);
      const run = (m: Model, explain = false) =>
        runVulkan(t, { ...DEFAULT_VK_RUN, engine: 'cat', model: m, explain });
      const r = run(model, true);
      const weaker = run(without(model, axiom));
      if (t.condition?.quantifier === 'forall') {
        // A final state only the check rules out (an undef final value: --explain, which selects
        // the states satisfying the condition, has nothing to say).
        expect(r.condition?.verdict).toBe('holds');
        expect(weaker.condition?.verdict).not.toBe('holds');
        expect(weaker.states.length).toBeGreaterThan(r.states.length);
        return;
      }
      expect(r.condition?.verdict).toBe('fails');
      expect(weaker.condition?.verdict).toBe('holds');
      expect(r.explanations.length).toBeGreaterThan(0);
      expect(new Set(r.explanations.map((e) => e.axiom))).toEqual(new Set([axiom]));
      expect(r.explanations[0]!.text).toMatch(new RegExp(`^${axiom} \\(`));
      // The fast search's --explain asks the same cat model.
      const fast = runVulkan(t, { ...DEFAULT_VK_RUN, model, explain: true });
      expect(fast.explanations.map((e) => e.axiom)).toEqual(r.explanations.map((e) => e.axiom));
    });

  it("the race flag is the spec's data race: racy and race-free tests of the suite above", () => {
    expect(runVulkan(load('MP.nonpriv.racy.litmus'), DEFAULT_VK_RUN).flags.race).toBe(true);
    expect(runVulkan(load('CoRR.atom.dv.litmus'), DEFAULT_VK_RUN).flags.race).toBe(false);
    const flags = model.instrs.flatMap((i) => (i.kind === 'check' && i.flag ? [i.name] : []));
    expect(flags).toEqual(['race']);
  });
});
