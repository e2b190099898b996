/**
 * Dartagnan's Vulkan suite (corpus/vulkan-dat3m/) under gpumm's Vulkan model: the results table of
 * docs/conformance.md is what the model computes, every disagreement with the suite's expected
 * verdicts has its explanation there, and the cat model (models/vulkan.cat) gives the fast search's
 * reports on the tests it runs quickly.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadModel } from '../cat/load.ts';
import { corpusExpectations, corpusTests } from '../cli/vulkan-corpus.ts';
import type { Report } from '../enumerate/report.ts';
import {
  type ConformanceRow,
  conformanceRow,
  conformanceTable,
  disagrees,
  explanationAnchor,
  TABLE_BEGIN,
  TABLE_END,
} from './conformance.ts';
import { DEFAULT_VK_RUN } from './run.ts';

const root = join(import.meta.dirname, '..', '..');
const doc = readFileSync(join(root, 'docs', 'conformance.md'), 'utf8');
const expected = corpusExpectations();
const runs: { row: ConformanceRow; report: Report; text: string }[] = [];
for (const { test, text } of corpusTests()) {
  const r = conformanceRow(test, text, expected);
  if ('diagnostics' in r) throw new Error(`${test}: ${r.diagnostics.map((d) => d.message).join('; ')}`);
  runs.push({ ...r, text });
}

/** What a report says, without its timing. */
function verdicts(r: Report) {
  return {
    states: r.states.map((s) => [s.values, s.count, s.race, s.condition]),
    condition: r.condition?.verdict,
    flags: r.flags,
    stop: r.stop,
  };
}

describe("Dartagnan's Vulkan suite", () => {
  it('runs every test of the corpus, whose expectations name only files it has or lists', () => {
    expect(runs.length).toBe(63);
    const names = new Set(runs.map((r) => r.row.test));
    // The race CSV names five XF-Barrier tests the copied folders do not have (docs/conformance.md).
    const missing = [...expected.condition.keys(), ...expected.raceFree.keys()].filter((t) => !names.has(t));
    expect(missing.sort()).toEqual([
      'Manual/XF-Barrier-relacq.litmus',
      'Manual/XF-Barrier-relacq2.litmus',
      'Manual/XF-Barrier-rlx.litmus',
      'Manual/XF-Barrier-weak.litmus',
      'Manual/XF-Barrier.litmus',
    ]);
  });

  it("docs/conformance.md's table is the model's (scripts/vulkan-conformance.ts rewrites it)", () => {
    const a = doc.indexOf(TABLE_BEGIN) + TABLE_BEGIN.length;
    const b = doc.indexOf(TABLE_END);
    expect(doc.slice(a, b).trim()).toBe(conformanceTable(runs.map((r) => r.row)));
  });

  it('every disagreement with an expected verdict is explained in docs/conformance.md', () => {
    for (const { row } of runs.filter((r) => disagrees(r.row)))
      expect(
        doc,
        `${row.test} disagrees with the suite: explain why under id ${explanationAnchor(row.test)}`,
      ).toContain(`<a id="${explanationAnchor(row.test)}"></a>`);
    // No explanation outlives its disagreement.
    const explained = [...doc.matchAll(/<a id="(why-[^"]+)"><\/a>/g)].map((m) => m[1]);
    expect(explained.sort()).toEqual(
      runs
        .filter((r) => disagrees(r.row))
        .map((r) => explanationAnchor(r.row.test))
        .sort(),
    );
  });

  it('every test is decided: no undecided verdict and no search cut short', () => {
    for (const { row, report } of runs) {
      expect(report.stop, row.test).toBe('done');
      expect(row.condition.gpumm, row.test).not.toBe('?');
    }
  });

  it('models/vulkan.cat through the cat enumerator gives the fast search report on the smaller tests', () => {
    const { model } = loadModel(
      readFileSync(join(root, 'models', 'vulkan.cat'), 'utf8'),
      'models/vulkan.cat',
      () => null,
    );
    if (!model) throw new Error('models/vulkan.cat does not load');
    let compared = 0;
    for (const { row, report, text } of runs) {
      if (row.executions > 2000) continue;
      const cat = conformanceRow(row.test, text, expected, { ...DEFAULT_VK_RUN, engine: 'cat', model });
      if ('diagnostics' in cat) throw new Error(row.test);
      expect(verdicts(cat.report), row.test).toEqual(verdicts(report));
      compared++;
    }
    expect(compared).toBe(58);
  });
});
