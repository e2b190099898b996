/**
 * What a campaign's results files (src/campaign/schema.ts) say, for a person: the one summary that
 * `gpumm campaign run` closes with and `gpumm campaign report` prints.
 *
 * Two stages after src/campaign/read.ts, neither of which touches the file system: `summarise` counts
 * what the files of one or many shards say (their mutation lines merged as `campaign merge` merges
 * them), and `formatSummary` / `htmlReport` render the counts as text for a terminal or as one
 * standalone HTML page.
 */

import * as z from 'zod';
import { ScoreSchema } from '../check/mutate.ts';
import { escapeText, outputText } from '../core/escape.ts';
import type { ResultsLines } from './read.ts';
import { mergeMutations } from './results.ts';
import {
  type CampaignCheck,
  CampaignCheckSchema,
  ModelVerdictSchema,
  type Shard,
  ShardSchema,
  type TestLine,
} from './schema.ts';
import { shardText } from './shard.ts';

// ---------------------------------------------------------------------------------------------------
// Summarising

const CheckVerdict = CampaignCheckSchema.shape.verdict;
type CheckVerdict = z.infer<typeof CheckVerdict>;
const CHECK_VERDICTS = CheckVerdict.options;
const MODEL_VERDICTS = ModelVerdictSchema.shape.verdict.options;

const Count = z.number().int().min(0);

/** One machine outcome the model forbids, as the summary lists it. */
const UnsoundSchema = z.object({
  test: z.string(),
  /** The test line's `hash`: with target, mode and lowering, the key of its check in the lines. */
  hash: z.string(),
  file: z.string(),
  target: z.string(),
  mode: z.string(),
  lowering: CampaignCheckSchema.shape.lowering,
  values: CampaignCheckSchema.shape.forbidden.unwrap().shape.values,
  placement: z.string(),
  /** Steps of the machine's trace to the outcome; null when the check found none within its budget. */
  steps: z.number().int().nullable(),
});
export type UnsoundResult = z.infer<typeof UnsoundSchema>;

/**
 * The summary of a campaign's results: what `gpumm campaign report --json` and `gpumm campaign run
 * --json` print, over every shard given (a run's: its one file). `ran`, `interrupted` and `wallMs` are
 * a run's own, absent from a report.
 */
export const CampaignSummarySchema = z.object({
  /** Test lines, each hash counted once. */
  tests: Count,
  /** Test lines whose hash an earlier line (of this file or another) has: left out of every count. */
  duplicates: Count,
  /** The shards whose headers were read, sorted. */
  shards: z.array(ShardSchema),
  /** The model's verdicts on the tests' conditions. */
  model: z.record(ModelVerdictSchema.shape.verdict, Count),
  /**
   * Per target, mode and lowering, how many checks reached each verdict; in the campaign's order (the
   * targets as given, each in its modes, the lowerings as given), as each test line has its checks.
   */
  checks: z.array(
    z.object({
      target: z.string(),
      mode: z.string(),
      lowering: CampaignCheckSchema.shape.lowering,
      counts: z.record(CheckVerdict, Count),
    }),
  ),
  /** Every UNSOUND check, sorted by test, target, mode and lowering. */
  unsound: z.array(UnsoundSchema),
  /**
   * The mutation score per target and mode. Shards' lines for one target and mode are merged as
   * `gpumm campaign merge` merges them (src/campaign/results.ts `mergeMutations`): a mutant is killed
   * when one shard kills it, else undecided when one is undecided, else it survives; `tests` is the
   * distinct tests of the files that hold the line.
   */
  mutation: z.array(z.object({ target: z.string(), mode: z.string(), tests: Count, score: ScoreSchema })),
  /** The ten slowest tests, slowest first. */
  slowest: z.array(z.object({ test: z.string(), file: z.string(), ms: z.number() })),
  /** The tests' wall times added up (the workers' time, not the campaign's wall time). */
  ms: z.number(),
  /** `campaign run`: the tests this run ran; the others were in the file already (`--resume`). */
  ran: Count.optional(),
  /** `campaign run`: stopped by Ctrl-C before its end. */
  interrupted: z.boolean().optional(),
  /** `campaign run`: the run's wall time. */
  wallMs: z.number().optional(),
});
export type CampaignSummary = z.infer<typeof CampaignSummarySchema>;

/** What a run adds to the summary of its file (`gpumm campaign run`). */
export type RunFacts = Required<Pick<CampaignSummary, 'ran' | 'interrupted' | 'wallMs'>>;

/** How many slow tests a summary names. */
export const SLOWEST = 10;

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The test lines of `files`, each hash once (the first line with it), and how many were left out. */
function distinctTests(files: readonly ResultsLines[]): { tests: TestLine[]; duplicates: number } {
  const seen = new Set<string>();
  const tests: TestLine[] = [];
  let duplicates = 0;
  for (const f of files)
    for (const t of f.tests) {
      if (seen.has(t.hash)) duplicates++;
      else {
        seen.add(t.hash);
        tests.push(t);
      }
    }
  return { tests, duplicates };
}

/**
 * The counts of a campaign's results: of one file, or of many shards' files together (`files`, as
 * src/campaign/read.ts reads them). `run`: a run's own facts, when it is a run's closing summary.
 */
export function summarise(files: readonly ResultsLines[], run?: RunFacts): CampaignSummary {
  const { tests, duplicates } = distinctTests(files);
  const model = Object.fromEntries(MODEL_VERDICTS.map((v) => [v, 0])) as CampaignSummary['model'];
  const groups = new Map<string, CampaignSummary['checks'][number]>();
  const unsound: UnsoundResult[] = [];
  let ms = 0;
  for (const t of tests) {
    model[t.model.verdict]++;
    ms += t.ms;
    for (const c of t.checks) {
      const key = `${c.target}\u0000${c.mode}\u0000${c.lowering}`;
      let g = groups.get(key);
      if (!g) {
        g = {
          target: c.target,
          mode: c.mode,
          lowering: c.lowering,
          counts: Object.fromEntries(CHECK_VERDICTS.map((v) => [v, 0])) as Record<CheckVerdict, number>,
        };
        groups.set(key, g);
      }
      g.counts[c.verdict]++;
      if (c.verdict === 'UNSOUND' && c.forbidden)
        unsound.push({
          test: t.test,
          hash: t.hash,
          file: t.file,
          target: c.target,
          mode: c.mode,
          lowering: c.lowering,
          values: c.forbidden.values,
          placement: c.forbidden.placement,
          steps: c.forbidden.trace?.length ?? null,
        });
    }
  }
  const byCheck = (a: UnsoundResult, b: UnsoundResult) =>
    compare(a.target, b.target) || compare(a.mode, b.mode) || compare(a.lowering, b.lowering);
  const shards = new Map<string, Shard>();
  for (const f of files) if (f.header) shards.set(shardText(f.header.shard), f.header.shard);
  return {
    tests: tests.length,
    duplicates,
    shards: [...shards.values()].sort((a, b) => a.count - b.count || a.index - b.index),
    model,
    checks: [...groups.values()],
    unsound: unsound.sort((a, b) => compare(a.test, b.test) || byCheck(a, b) || compare(a.hash, b.hash)),
    mutation: mergeMutations(files).map((m) => ({
      target: m.target,
      mode: m.mode,
      tests: m.tests,
      score: m.score,
    })),
    slowest: [...tests]
      .sort((a, b) => b.ms - a.ms || compare(a.test, b.test))
      .slice(0, SLOWEST)
      .map((t) => ({ test: t.test, file: t.file, ms: t.ms })),
    ms,
    ...run,
  };
}

/**
 * The exit status a summary calls for (`gpumm campaign run`): 1 when some check is UNSOUND, else 3
 * when some check or model verdict is undecided (a budget), else 0. An `unsupported` check (a machine
 * or llc-22 that cannot run the code) is counted but changes nothing: a campaign over many targets
 * always has some.
 */
export function summaryStatus(s: CampaignSummary): 0 | 1 | 3 {
  if (s.checks.some((c) => c.counts.UNSOUND > 0)) return 1;
  if (s.checks.some((c) => c.counts.undecided > 0) || s.model.undecided > 0) return 3;
  return 0;
}

// ---------------------------------------------------------------------------------------------------
// Text

/** `x=1; y=undef;`, as `gpumm check` writes an outcome. */
function valuesText(v: Readonly<Record<string, number | 'undef'>>): string {
  return Object.entries(v)
    .map(([k, x]) => `${k}=${x};`)
    .join(' ');
}

/** `87.5%`, or `n/a` when no mutant is scored. */
function scoreText(value: number | null): string {
  return value === null ? 'n/a' : `${(value * 100).toFixed(1)}%`;
}

function secondsText(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/** Columns a string takes on a terminal (one per code point: the escaped text has no controls). */
function width(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/**
 * Rows as an aligned table, two spaces between columns and two before each row: numbers (`right`)
 * aligned right, text left; a last text column is not padded (no trailing blanks).
 */
function table(
  head: readonly string[],
  rows: readonly (readonly string[])[],
  right: readonly boolean[],
): string[] {
  const all = [head, ...rows];
  const widths = head.map((_, k) => Math.max(...all.map((r) => width(r[k]!))));
  return all.map(
    (r) =>
      `  ${r
        .map((cell, k) => {
          const pad = ' '.repeat(widths[k]! - width(cell));
          if (right[k]) return pad + cell;
          return k === r.length - 1 ? cell : cell + pad;
        })
        .join('  ')}`,
  );
}

/**
 * The summary as text for a terminal: aligned tables, everything from the file escaped. `limit`: the
 * most UNSOUND results listed (a run's closing summary lists a few; the report, and `--json`, all).
 */
export function formatSummary(s: CampaignSummary, limit = Number.POSITIVE_INFINITY): string {
  const e = escapeText;
  const out: string[] = [];
  const shards =
    s.shards.length === 0
      ? ''
      : `, ${s.shards.length === 1 ? 'shard' : 'shards'} ${s.shards.map(shardText).join(', ')}`;
  const dups = s.duplicates > 0 ? ` (${plural(s.duplicates, 'duplicate line')} left out)` : '';
  out.push(`Campaign: ${plural(s.tests, 'test')}${dups}${shards}, ${secondsText(s.ms)} of test time`);
  if (s.ran !== undefined)
    out.push(
      `Run: ${plural(s.ran, 'test')} run now in ${secondsText(s.wallMs ?? 0)}${s.interrupted ? ' (interrupted)' : ''}`,
    );
  out.push(`Model: ${MODEL_VERDICTS.map((v) => `${s.model[v]} ${v}`).join(', ')}`);
  out.push('');
  if (s.checks.length === 0) out.push('Checks: none');
  else {
    out.push('Checks:');
    out.push(
      ...table(
        ['target', 'mode', 'lowering', ...CHECK_VERDICTS],
        s.checks.map((c) => [
          e(c.target),
          e(c.mode),
          e(c.lowering),
          ...CHECK_VERDICTS.map((v) => String(c.counts[v])),
        ]),
        [false, false, false, true, true, true, true],
      ),
    );
  }
  out.push('');
  if (s.unsound.length === 0) out.push('UNSOUND: none');
  else {
    out.push(`UNSOUND (${s.unsound.length}):`);
    out.push(
      ...table(
        ['test', 'target', 'mode', 'lowering', 'forbidden', 'trace', 'placement'],
        s.unsound
          .slice(0, limit)
          .map((u) => [
            e(u.test),
            e(u.target),
            e(u.mode),
            e(u.lowering),
            e(valuesText(u.values)),
            u.steps === null ? 'none' : plural(u.steps, 'step'),
            e(u.placement),
          ]),
        [false, false, false, false, false, true, false],
      ),
    );
    if (s.unsound.length > limit)
      out.push(`  … and ${s.unsound.length - limit} more (gpumm campaign report, or --json, lists all)`);
  }
  if (s.mutation.length > 0) {
    out.push('');
    out.push('Mutation scores:');
    out.push(
      ...table(
        ['target', 'mode', 'tests', 'score', 'killed', 'mutants', 'undecided'],
        s.mutation.map((m) => [
          e(m.target),
          e(m.mode),
          String(m.tests),
          scoreText(m.score.value),
          String(m.score.killed),
          String(m.score.mutants),
          String(m.score.undecided),
        ]),
        [false, false, true, true, true, true, true],
      ),
    );
  }
  if (s.slowest.length > 0) {
    out.push('');
    out.push('Slowest tests:');
    out.push(
      ...table(
        ['ms', 'test', 'file'],
        s.slowest.map((t) => [Math.round(t.ms).toLocaleString('en-US'), e(t.test), e(t.file)]),
        [true, false, false],
      ),
    );
  }
  return `${out.join('\n')}\n`;
}

// ---------------------------------------------------------------------------------------------------
// HTML

/** `s` as HTML text or a quoted attribute value: the five characters HTML gives meaning escaped. */
export function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/**
 * Text from the file as HTML: what would act on a terminal shown as an escape as `formatSummary` does
 * (so a right-to-left override cannot reorder what a reader sees), then HTML-escaped.
 */
function htmlText(s: string): string {
  return escapeHtml(escapeText(s));
}

/**
 * Colours of the verdicts: each with white text at a contrast of 4.5:1 or more (WCAG AA), and told
 * apart by label and table too, never by colour alone.
 */
const COLOURS: Record<CheckVerdict, string> = {
  sound: '#1a7f37',
  UNSOUND: '#cf222e',
  unsupported: '#6e7781',
  undecided: '#9a6700',
};

const CSS = `
body { font: 15px/1.5 system-ui, sans-serif; color: #1f2328; background: #fff; margin: 2rem auto; max-width: 72rem; padding: 0 1rem; }
h1, h2, h3 { line-height: 1.25; }
table { border-collapse: collapse; margin: 0.5rem 0 1.5rem; }
th, td { border: 1px solid #d0d7de; padding: 0.25rem 0.6rem; text-align: left; vertical-align: top; }
th { background: #f6f8fa; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
code, pre { font: 13px/1.45 ui-monospace, monospace; }
pre { background: #f6f8fa; border: 1px solid #d0d7de; padding: 0.75rem; overflow-x: auto; }
a { color: #0550ae; }
.UNSOUND { color: #a40e26; font-weight: 600; }
section.unsound { border-top: 1px solid #d0d7de; margin-top: 2rem; }
`;

function td(text: string, numeric = false): string {
  return numeric ? `<td class="n">${text}</td>` : `<td>${text}</td>`;
}

function thead(cols: readonly string[]): string {
  return `<thead><tr>${cols.map((c) => `<th scope="col">${escapeHtml(c)}</th>`).join('')}</tr></thead>`;
}

/** The id of the k-th UNSOUND result's section: gpumm's own text, never the file's. */
function unsoundId(k: number): string {
  return `unsound-${k + 1}`;
}

/** Checks per target, mode and lowering as stacked horizontal bars, with a legend and a count on each part. */
function verdictChart(checks: CampaignSummary['checks']): string {
  const rowH = 28;
  const labelW = 260;
  const barW = 520;
  const top = 40;
  const w = labelW + barW + 80;
  const h = top + checks.length * rowH + 10;
  const max = Math.max(1, ...checks.map((c) => CHECK_VERDICTS.reduce((n, v) => n + c.counts[v], 0)));
  const parts: string[] = [];
  CHECK_VERDICTS.forEach((v, k) => {
    const x = labelW + k * 130;
    parts.push(
      `<rect x="${x}" y="8" width="14" height="14" fill="${COLOURS[v]}"/><text x="${x + 20}" y="20">${v}</text>`,
    );
  });
  checks.forEach((c, r) => {
    const y = top + r * rowH;
    const name = htmlText(`${c.target} ${c.mode} ${c.lowering}`);
    parts.push(`<text x="${labelW - 8}" y="${y + 17}" text-anchor="end">${name}</text>`);
    let x = labelW;
    let total = 0;
    for (const v of CHECK_VERDICTS) {
      const n = c.counts[v];
      total += n;
      if (n === 0) continue;
      const bw = (n / max) * barW;
      parts.push(
        `<rect x="${x.toFixed(1)}" y="${y + 2}" width="${bw.toFixed(1)}" height="${rowH - 6}" fill="${COLOURS[v]}"><title>${name}: ${n} ${v}</title></rect>`,
      );
      // A count inside its part when it fits; the part's <title> and the table have it either way.
      if (bw >= 8 * String(n).length + 6)
        parts.push(
          `<text x="${(x + bw / 2).toFixed(1)}" y="${y + 17}" text-anchor="middle" fill="#fff">${n}</text>`,
        );
      x += bw;
    }
    parts.push(`<text x="${(x + 6).toFixed(1)}" y="${y + 17}">${total}</text>`);
  });
  return [
    `<svg role="img" aria-labelledby="chart-title" xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" font-family="system-ui, sans-serif" font-size="13" fill="#1f2328">`,
    '<title id="chart-title">Verdicts of the checks per target, mode and lowering (stacked: sound, UNSOUND, unsupported, undecided)</title>',
    ...parts,
    '</svg>',
  ].join('\n');
}

/** The test line and the check an UNSOUND result comes from. */
function findCheck(
  tests: ReadonlyMap<string, TestLine>,
  u: UnsoundResult,
): { test: TestLine; check: CampaignCheck } | null {
  const test = tests.get(u.hash);
  const check = test?.checks.find(
    (c) => c.verdict === 'UNSOUND' && c.target === u.target && c.mode === u.mode && c.lowering === u.lowering,
  );
  return test && check ? { test, check } : null;
}

function unsoundSection(
  u: UnsoundResult,
  k: number,
  found: { test: TestLine; check: CampaignCheck } | null,
): string {
  const h = htmlText;
  const out: string[] = [];
  out.push(`<section class="unsound" id="${unsoundId(k)}" aria-labelledby="${unsoundId(k)}-h">`);
  out.push(
    `<h3 id="${unsoundId(k)}-h">${h(u.test)} on ${h(u.target)} (${h(u.mode)}, ${h(u.lowering)}): <span class="UNSOUND">UNSOUND</span></h3>`,
  );
  out.push(
    `<p>The machine reaches <code>${h(valuesText(u.values))}</code>, which the model forbids, with ${h(u.placement)}.</p>`,
  );
  const src = found?.test.source ?? null;
  out.push('<h4>Test</h4>');
  if (src !== null) out.push(`<pre>${escapeHtml(outputText(src))}</pre>`);
  else out.push(`<p>From <code>${h(u.file)}</code>.</p>`);
  const fb = found?.check.forbidden ?? null;
  out.push('<h4>Trace</h4>');
  if (fb && fb.idleWaits.length > 0)
    out.push(
      `<p>Not shown: <code>${h(fb.idleWaits.join(', '))}</code> (no instruction of the test is counted on them, so they never block).</p>`,
    );
  if (!fb?.trace) out.push('<p>No trace within the budget.</p>');
  else {
    out.push('<table>');
    out.push(thead(['step', 'thread', 'kind', 'instruction', 'detail', 'line']));
    out.push('<tbody>');
    fb.trace.forEach((st, n) => {
      const detail = st.edited ? `${st.detail}${st.detail ? ' ' : ''}[edited: ${st.edited}]` : st.detail;
      out.push(
        `<tr>${td(String(n + 1), true)}${td(h(st.thread))}${td(h(st.kind))}${td(`<code>${h(st.text)}</code>`)}${td(h(detail))}${td(st.line > 0 ? String(st.line) : '', true)}</tr>`,
      );
    });
    out.push('</tbody></table>');
  }
  out.push('<p><a href="#unsound">Back to the UNSOUND results</a></p>');
  out.push('</section>');
  return out.join('\n');
}

/**
 * The report as one standalone HTML page: no scripts, no external resources, inline CSS. It holds the
 * summary's tables, a chart of the verdicts per target, mode and lowering (inline SVG), and each
 * UNSOUND result with its test's source (or file) and trace, linked from the results' table. All text
 * from the file is HTML-escaped; ids are gpumm's own.
 */
export function htmlReport(files: readonly ResultsLines[], s: CampaignSummary): string {
  const h = htmlText;
  const tests = new Map<string, TestLine>();
  for (const f of files) for (const t of f.tests) if (!tests.has(t.hash)) tests.set(t.hash, t);
  const out: string[] = [];
  out.push('<!DOCTYPE html>');
  out.push('<html lang="en">');
  out.push('<head>');
  out.push('<meta charset="utf-8">');
  out.push('<meta name="viewport" content="width=device-width, initial-scale=1">');
  out.push('<title>gpumm campaign report</title>');
  out.push(`<style>${CSS}</style>`);
  out.push('</head>');
  out.push('<body>');
  out.push('<main>');
  out.push('<h1>gpumm campaign report</h1>');
  const shards = s.shards.length === 0 ? '' : ` Shards read: ${s.shards.map(shardText).join(', ')}.`;
  const dups = s.duplicates > 0 ? ` ${h(plural(s.duplicates, 'duplicate test line'))} left out.` : '';
  out.push(
    `<p>${h(plural(s.tests, 'test'))}, ${h(secondsText(s.ms))} of test time, ${h(plural(s.unsound.length, 'UNSOUND check'))}.${dups}${shards}</p>`,
  );

  out.push('<h2>Model verdicts</h2>');
  out.push('<table>');
  out.push(thead(['verdict', 'tests']));
  out.push('<tbody>');
  for (const v of MODEL_VERDICTS)
    out.push(`<tr><th scope="row">${h(v)}</th>${td(String(s.model[v]), true)}</tr>`);
  out.push('</tbody></table>');

  out.push('<h2>Checks</h2>');
  if (s.checks.length === 0) out.push('<p>No checks.</p>');
  else {
    out.push(verdictChart(s.checks));
    out.push('<table>');
    out.push(thead(['target', 'mode', 'lowering', ...CHECK_VERDICTS]));
    out.push('<tbody>');
    for (const c of s.checks)
      out.push(
        `<tr><th scope="row">${h(c.target)}</th>${td(h(c.mode))}${td(h(c.lowering))}${CHECK_VERDICTS.map((v) => td(String(c.counts[v]), true)).join('')}</tr>`,
      );
    out.push('</tbody></table>');
  }

  out.push('<h2 id="unsound">UNSOUND results</h2>');
  if (s.unsound.length === 0) out.push('<p>None.</p>');
  else {
    out.push('<table>');
    out.push(thead(['test', 'target', 'mode', 'lowering', 'forbidden outcome', 'trace steps', 'placement']));
    out.push('<tbody>');
    s.unsound.forEach((u, k) => {
      out.push(
        `<tr><th scope="row"><a href="#${unsoundId(k)}">${h(u.test)}</a></th>${td(h(u.target))}${td(h(u.mode))}${td(h(u.lowering))}${td(`<code>${h(valuesText(u.values))}</code>`)}${td(u.steps === null ? 'none' : String(u.steps), true)}${td(h(u.placement))}</tr>`,
      );
    });
    out.push('</tbody></table>');
  }

  if (s.mutation.length > 0) {
    out.push('<h2>Mutation scores</h2>');
    out.push('<table>');
    out.push(thead(['target', 'mode', 'tests', 'score', 'killed', 'mutants', 'undecided']));
    out.push('<tbody>');
    for (const m of s.mutation)
      out.push(
        `<tr><th scope="row">${h(m.target)}</th>${td(h(m.mode))}${td(String(m.tests), true)}${td(scoreText(m.score.value), true)}${td(String(m.score.killed), true)}${td(String(m.score.mutants), true)}${td(String(m.score.undecided), true)}</tr>`,
      );
    out.push('</tbody></table>');
  }

  if (s.slowest.length > 0) {
    out.push('<h2>Slowest tests</h2>');
    out.push('<table>');
    out.push(thead(['test', 'file', 'ms']));
    out.push('<tbody>');
    for (const t of s.slowest)
      out.push(
        `<tr><th scope="row">${h(t.test)}</th>${td(`<code>${h(t.file)}</code>`)}${td(Math.round(t.ms).toLocaleString('en-US'), true)}</tr>`,
      );
    out.push('</tbody></table>');
  }

  if (s.unsound.length > 0) {
    out.push('<h2>UNSOUND results in detail</h2>');
    s.unsound.forEach((u, k) => {
      out.push(unsoundSection(u, k, findCheck(tests, u)));
    });
  }
  out.push('</main>');
  out.push('</body>');
  out.push('</html>');
  return `${out.join('\n')}\n`;
}
