import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATALOGUE_DIR } from '../cli/demo.ts';
import { VULKAN_CORPUS } from '../cli/vulkan-corpus.ts';
import { parseAnyTest } from '../run/syntaxes.ts';
import { parse } from '../syntax/parser.ts';
import { isVulkan } from '../vulkan/ast.ts';
import { DEFAULT_VK_RUN, runVulkan } from '../vulkan/run.ts';
import { formatReport, type Report, ReportSchema, stateCount, writeReport } from './report.ts';
import { DEFAULT_RUN, runTestSync } from './verdict.ts';

const catalogue = (name: string): Report => {
  const file = join(CATALOGUE_DIR, name);
  const { test } = parse(readFileSync(file, 'utf8'), relative(join(CATALOGUE_DIR, '..'), file));
  return runTestSync(test!, DEFAULT_RUN);
};
const vulkan = (name: string): Report => {
  const file = join(VULKAN_CORPUS, name);
  const t = parseAnyTest(readFileSync(file, 'utf8'), file).test;
  if (!t || !isVulkan(t)) throw new Error(`${name} does not parse`);
  return runVulkan(t, DEFAULT_VK_RUN);
};
const untimed = { timing: false };
/** `writeReport`'s pieces. */
const pieces = (r: Report): string[] => {
  const out: string[] = [];
  writeReport(r, (text) => out.push(text), untimed);
  return out;
};

// A report's states come from the collector's columns until `states` is read (withStateTable).
describe('reports over the collector state table', () => {
  // Undef reads and races (a `forall`); an `exists`; 65536 states of many values.
  const cases: [string, () => Report][] = [
    ['AV-Prop1.hb-before-lo', () => catalogue('AV-Prop1.hb-before-lo.litmus')],
    ['MP+rel+acq.agent', () => catalogue('MP+rel+acq.agent.litmus')],
    ['xf-barrier-load-rlx-1', () => vulkan('Manual/xf-barrier-load-rlx-1.litmus')],
  ];
  for (const [name, run] of cases)
    it(`prints the same text from the table as from the state objects (${name})`, () => {
      const r = run();
      const n = stateCount(r);
      const text = formatReport(r, untimed);
      const parts = pieces(r);
      expect(parts.join('')).toBe(text);
      // Each piece but the last ends a line and stays near 64 KB.
      for (const p of parts.slice(0, -1)) {
        expect(p.endsWith('\n')).toBe(true);
        expect(p.length).toBeLessThan(1 << 17);
      }
      expect(text.split('\n')[1]).toBe(`States ${n}`);
      // The same report with plain state objects (as read back from --json) prints the same.
      const plain: Report = JSON.parse(JSON.stringify(r));
      expect(plain.states).toHaveLength(n);
      expect(formatReport(plain, untimed)).toBe(text);
      expect(stateCount(plain)).toBe(n);
      expect(JSON.stringify(ReportSchema.parse(r))).toBe(JSON.stringify(plain));
      // Read, the objects are the states: the same array each time, printed from.
      expect(r.states).toBe(r.states);
      expect(formatReport(r, untimed)).toBe(text);
    });

  it('keeps a change made to the states once read, and a states array assigned', () => {
    const r = catalogue('MP+rel+acq.agent.litmus');
    const before = formatReport(r, untimed);
    r.states[0]!.count = 123456789;
    const after = formatReport(r, untimed);
    expect(after).not.toBe(before);
    expect(after).toContain('# ×123456789');
    const s = catalogue('MP+rel+acq.agent.litmus');
    s.states = s.states.slice(0, 1);
    expect(stateCount(s)).toBe(1);
    expect(formatReport(s, untimed)).toContain('States 1\n');
    expect(Object.keys(s)).toEqual(Object.keys(r));
  });

  it('lists the states in JSON and in a spread copy, in the key order of a plain report', () => {
    const r = catalogue('AV-Prop1.hb-before-lo.litmus');
    const n = stateCount(r);
    const copy = { ...r };
    expect(copy.states).toHaveLength(n);
    const keys = Object.keys(JSON.parse(JSON.stringify(catalogue('AV-Prop1.hb-before-lo.litmus'))));
    expect(keys.indexOf('states')).toBe(keys.indexOf('observables') + 1);
  });
});
