/**
 * Conformance with Dartagnan's Vulkan suite (corpus/vulkan-dat3m/): each test's verdicts under
 * gpumm's Vulkan model beside the suite's expected ones, and the table of docs/conformance.md. The
 * callers read the files (the test in src/vulkan/conformance.test.ts, the script
 * scripts/vulkan-conformance.ts, the benchmark bench/vulkan.ts); no Node APIs here.
 */

import type { SourceDiagnostic } from '../core/diagnostics.ts';
import type { Report } from '../enumerate/report.ts';
import { parseDat3m } from './dat3m.ts';
import { DEFAULT_VK_RUN, runVulkan, type VkRunOptions } from './run.ts';

/** A verdict of the suite's CSV files: `1` (the condition holds / race-free) or `0`. */
export type Bit = '0' | '1';

/** `test,1|0` lines after a header, by test (its path below the corpus folder). */
export function parseExpectations(csv: string): Map<string, Bit> {
  const out = new Map<string, Bit>();
  for (const line of csv.split(/\r?\n/).slice(1)) {
    const [test, bit] = line.split(',').map((s) => s.trim());
    if (!test) continue;
    if (bit !== '0' && bit !== '1') throw new Error(`expected 0 or 1 after ${test}, not '${bit ?? ''}'`);
    out.set(test, bit);
  }
  return out;
}

/** One test of the suite: what the suite expects and what gpumm finds. */
export interface ConformanceRow {
  test: string;
  condition: { expected: Bit | null; gpumm: Bit | '?' };
  raceFree: { expected: Bit | null; gpumm: Bit | '?' };
  states: number;
  executions: number;
  ms: number;
}

/** gpumm's condition verdict as the suite writes it (`?` when gpumm cannot decide it). */
export function conditionBit(r: Report): Bit | '?' {
  const v = r.condition?.verdict;
  return v === 'holds' ? '1' : v === 'fails' ? '0' : '?';
}

/** gpumm's race verdict as the suite writes it: `1` when no consistent execution has a data race. */
export function raceFreeBit(r: Report): Bit | '?' {
  if (r.stop !== 'done') return '?';
  return r.flags.race ? '0' : '1';
}

/** Runs one test of the suite (`text` the file's content) under the Vulkan model. */
export function conformanceRow(
  test: string,
  text: string,
  expected: { condition: Map<string, Bit>; raceFree: Map<string, Bit> },
  options: Partial<VkRunOptions> = {},
): { row: ConformanceRow; report: Report } | { diagnostics: SourceDiagnostic[] } {
  // The suite is written in Dartagnan's syntax.
  const parsed = parseDat3m(text, test);
  if (!parsed.test) return { diagnostics: parsed.diagnostics };
  const t0 = performance.now();
  const report = runVulkan(parsed.test, { ...DEFAULT_VK_RUN, ...options });
  const ms = performance.now() - t0;
  return {
    report,
    row: {
      test,
      condition: { expected: expected.condition.get(test) ?? null, gpumm: conditionBit(report) },
      raceFree: { expected: expected.raceFree.get(test) ?? null, gpumm: raceFreeBit(report) },
      states: report.states.length,
      executions: report.stats.consistent,
      ms,
    },
  };
}

/** Whether gpumm disagrees with an expected verdict of the row. */
export function disagrees(r: ConformanceRow): boolean {
  const bad = (v: ConformanceRow['condition']) => v.expected !== null && v.expected !== v.gpumm;
  return bad(r.condition) || bad(r.raceFree);
}

/** Markers around the generated table in docs/conformance.md. */
export const TABLE_BEGIN =
  '<!-- vulkan-conformance:begin (scripts/vulkan-conformance.ts writes this table) -->';
export const TABLE_END = '<!-- vulkan-conformance:end -->';

/** The anchor of a disagreement's explanation in docs/conformance.md (`#why-manual-oota`). */
export function explanationAnchor(test: string): string {
  return `why-${test
    .replace(/\.litmus$/, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')}`;
}

/**
 * The Markdown table of the rows: expected and gpumm verdicts, the final states and consistent
 * executions gpumm finds, and for a disagreement a link to its explanation.
 */
export function conformanceTable(rows: readonly ConformanceRow[]): string {
  const cell = (v: ConformanceRow['condition']) =>
    v.expected === null
      ? `— / ${v.gpumm}`
      : `${v.expected} / ${v.gpumm}${v.expected === v.gpumm ? '' : ' ✗'}`;
  const lines = [
    '| Test | condition (expected / gpumm) | race-free (expected / gpumm) | final states | executions | agrees |',
    '|---|---|---|---:|---:|---|',
  ];
  for (const r of rows)
    lines.push(
      `| ${r.test} | ${cell(r.condition)} | ${cell(r.raceFree)} | ${r.states} | ${r.executions} | ${
        disagrees(r) ? `no: [why](#${explanationAnchor(r.test)})` : 'yes'
      } |`,
    );
  const total = rows.length;
  const bad = rows.filter(disagrees).length;
  const cond = rows.filter((r) => r.condition.expected !== null).length;
  const race = rows.filter((r) => r.raceFree.expected !== null).length;
  lines.push(
    '',
    `${total} tests; ${cond} with an expected condition verdict, ${race} with an expected race verdict; ` +
      `${total - bad} agree, ${bad} disagree.`,
  );
  return lines.join('\n');
}

/** `doc` with the text between the table markers replaced by `table`. */
export function withTable(doc: string, table: string): string {
  const a = doc.indexOf(TABLE_BEGIN);
  const b = doc.indexOf(TABLE_END);
  if (a < 0 || b < a) throw new Error('the document has no table markers');
  return `${doc.slice(0, a + TABLE_BEGIN.length)}\n${table}\n${doc.slice(b)}`;
}
