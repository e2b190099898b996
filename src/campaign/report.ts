/**
 * `gpumm campaign report`: what a campaign's results files (src/campaign/schema.ts) say, for a person.
 *
 * Three stages, none of which touches the file system: `readResults` turns a file's text into its
 * lines and diagnostics (a bad line is located, a line cut short by a killed campaign only warned
 * about), `summarise` counts what the lines of one or many shards say, and `formatSummary` /
 * `htmlReport` render the counts as text for a terminal or as one standalone HTML page.
 */

import * as z from 'zod';
import { mutationScore, ScoreSchema } from '../check/mutate.ts';
import { clipQuote, diag, type SourceDiagnostic } from '../core/diagnostics.ts';
import { escapeText, outputText } from '../core/escape.ts';
import type { Span } from '../core/types.ts';
import {
  type CampaignCheck,
  CampaignCheckSchema,
  type Line,
  LineSchema,
  ModelVerdictSchema,
  type MutationLine,
  ShardSchema,
  type TestLine,
} from './schema.ts';

// ---------------------------------------------------------------------------------------------------
// Reading

/** The lines of a results file that parse, and a diagnostic for each that does not. */
export interface ReadResults {
  lines: Line[];
  diagnostics: SourceDiagnostic[];
}

/** Where a piece of a file starts, when `readResults` is given one piece of a larger file. */
export interface ReadStart {
  /** 1-based line number of the piece's first line. */
  line: number;
  /** Offset of the piece's first character in the file. */
  offset: number;
}

/**
 * Parses a results file's text, line by line, with `LineSchema`. A line that is not JSON, or not a
 * line of the format, is an error at its place (CL1020: the column of the value at fault, when the
 * JSON parses); so is a file whose first line is not the header, or a second header. The file's last
 * line, when it is not JSON and has no line break after it, was being written when a campaign was
 * killed: a warning (CL1021), and the line is left out. Blank lines are skipped.
 *
 * `start`: where `text` starts in the file, when it is a piece of it (the first piece starts at line 1,
 * where the header must be).
 */
export function readResults(
  text: string,
  file: string,
  start: ReadStart = { line: 1, offset: 0 },
): ReadResults {
  const lines: Line[] = [];
  const diagnostics: SourceDiagnostic[] = [];
  let headerSeen = start.line > 1;
  let first = start.line === 1;
  let at = 0;
  for (let n = start.line; at < text.length; n++) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl;
    // A file written on Windows keeps its line breaks' \r; JSON allows it as whitespace anyway.
    const body = text.slice(at, end);
    const from = at;
    at = end + 1;
    if (body.trim() === '') continue;
    const span = (col: number, len: number): Span => ({
      file,
      offset: start.offset + from + col - 1,
      line: n,
      col,
      len,
    });
    const bad = (col: number, len: number, what: string, fix?: string) =>
      diagnostics.push(diag('CL1020', span(col, len), { what, fix }));
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch (e) {
      if (nl < 0) {
        diagnostics.push(diag('CL1021', span(1, body.length)));
        continue;
      }
      const why = jsonWhy(e);
      bad(why.col ?? 1, why.col === undefined ? body.length : 1, `it is not JSON (${why.text})`);
      first = false;
      continue;
    }
    const parsed = LineSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const { col, len } = locate(body, issue.path);
      bad(col, len, `${pathText(issue.path)}: ${formatWhy(issue.path, issue.message, json)}`);
      first = false;
      continue;
    }
    const line = parsed.data;
    if (first && line.kind !== 'header')
      bad(1, body.length, `the first line is a ${line.kind} line, not the campaign's header`);
    else if (!first && line.kind === 'header' && headerSeen)
      bad(
        1,
        body.length,
        'a second header',
        'a results file has one header, its first line; to read several shards together, give each file',
      );
    else lines.push(line);
    if (line.kind === 'header') headerSeen = true;
    first = false;
  }
  if (start.line === 1 && text.trim() === '')
    diagnostics.push(
      diag(
        'CL1020',
        { file, offset: 0, line: 1, col: 1, len: 0 },
        { what: "the file is empty: a results file starts with the campaign's header" },
      ),
    );
  return { lines, diagnostics };
}

/** A JSON syntax error's reason without the line it quotes (V8 quotes the whole input), and its column. */
function jsonWhy(e: unknown): { text: string; col?: number } {
  const msg = e instanceof Error ? e.message : String(e);
  const pos = /at position (\d+)/.exec(msg);
  const text = msg
    .replace(/, ".*" is not valid JSON$/s, '')
    .replace(/ in JSON at position \d+.*$/s, '')
    .replace(/ after JSON$/, ' after the value');
  return { text: clipQuote(text), col: pos ? Number(pos[1]) + 1 : undefined };
}

/** A format version other than this reader's gets a message of its own: the schema would only say "expected 1". */
function formatWhy(path: readonly PropertyKey[], message: string, json: unknown): string {
  if (path.length === 1 && path[0] === 'format' && typeof json === 'object' && json !== null) {
    const v = (json as { format?: unknown }).format;
    return `format ${clipQuote(JSON.stringify(v) ?? 'none', 20)}, but this gpumm reads format 1 only (rerun the campaign, or report with the gpumm that wrote it)`;
  }
  return message;
}

/** `checks[2].forbidden.trace`: a zod issue's path as a person reads it; the line itself when empty. */
function pathText(path: readonly PropertyKey[]): string {
  if (path.length === 0) return 'the line';
  let out = '';
  for (const k of path)
    out += typeof k === 'number' ? `[${k}]` : `${out === '' ? '' : '.'}${clipQuote(String(k), 40)}`;
  return out;
}

/**
 * The 1-based column and length of the value at `path` in `json` (valid JSON): as deep as the path
 * can be followed (a missing key points at its object's opening brace). Written apart from JSON.parse
 * because JSON.parse forgets where each value was.
 */
function locate(json: string, path: readonly PropertyKey[]): { col: number; len: number } {
  let i = skipWs(json, 0);
  for (const key of path) {
    const open = json[i];
    let found = -1;
    if (open === '{' && typeof key === 'string') {
      let j = skipWs(json, i + 1);
      while (j < json.length && json[j] === '"') {
        const keyEnd = skipValue(json, j);
        const name = JSON.parse(json.slice(j, keyEnd)) as string;
        const v = skipWs(json, skipWs(json, keyEnd) + 1);
        if (name === key) {
          found = v;
          break;
        }
        j = skipWs(json, skipWs(json, skipValue(json, v)) + 1);
      }
    } else if (open === '[' && typeof key === 'number') {
      let j = skipWs(json, i + 1);
      for (let k = 0; j < json.length && json[j] !== ']'; k++) {
        if (k === key) {
          found = j;
          break;
        }
        j = skipWs(json, skipWs(json, skipValue(json, j)) + 1);
      }
    }
    if (found < 0) return { col: i + 1, len: 1 };
    i = found;
  }
  return { col: i + 1, len: Math.max(1, skipValue(json, i) - i) };
}

function skipWs(s: string, i: number): number {
  while (i < s.length && (s[i] === ' ' || s[i] === '\t' || s[i] === '\r' || s[i] === '\n')) i++;
  return i;
}

/** The index just past the JSON value starting at `i` (the text is known to be valid JSON). */
function skipValue(s: string, i: number): number {
  const c = s[i];
  if (c === '"') {
    let j = i + 1;
    while (j < s.length && s[j] !== '"') j += s[j] === '\\' ? 2 : 1;
    return j + 1;
  }
  if (c === '{' || c === '[') {
    const close = c === '{' ? '}' : ']';
    let j = skipWs(s, i + 1);
    while (j < s.length && s[j] !== close) {
      j = skipWs(s, skipValue(s, j));
      // An object member: the key was skipped above, then comes `: value`.
      if (s[j] === ':') j = skipWs(s, skipValue(s, skipWs(s, j + 1)));
      if (s[j] === ',') j = skipWs(s, j + 1);
    }
    return j + 1;
  }
  let j = i;
  while (j < s.length && !',}] \t\r\n'.includes(s[j]!)) j++;
  return j;
}

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

/** What `gpumm campaign report --json` prints: the counts of one campaign, over every shard given. */
export const CampaignSummarySchema = z.object({
  /** Test lines, each hash counted once. */
  tests: Count,
  /** Test lines whose hash an earlier line (of this file or another) has: left out of every count. */
  duplicates: Count,
  /** The shards whose headers were read, in order. */
  shards: z.array(ShardSchema),
  /** The model's verdicts on the tests' conditions. */
  model: z.record(ModelVerdictSchema.shape.verdict, Count),
  /** Per target, mode and lowering, how many checks reached each verdict; sorted. */
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
   * The mutation score per target and mode. Shards' lines for one target and mode are merged: a mutant
   * is killed when one shard kills it, else undecided when one is undecided, else it survives.
   */
  mutation: z.array(z.object({ target: z.string(), mode: z.string(), tests: Count, score: ScoreSchema })),
  /** The ten slowest tests, slowest first. */
  slowest: z.array(z.object({ test: z.string(), file: z.string(), ms: z.number() })),
  /** The tests' wall times added up (the workers' time, not the campaign's wall time). */
  ms: z.number(),
});
export type CampaignSummary = z.infer<typeof CampaignSummarySchema>;

/** How many slow tests a summary names. */
export const SLOWEST = 10;

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The test lines of `lines`, each hash once (the first line with it), and how many were left out. */
function distinctTests(lines: readonly Line[]): { tests: TestLine[]; duplicates: number } {
  const seen = new Set<string>();
  const tests: TestLine[] = [];
  let duplicates = 0;
  for (const l of lines) {
    if (l.kind !== 'test') continue;
    if (seen.has(l.hash)) duplicates++;
    else {
      seen.add(l.hash);
      tests.push(l);
    }
  }
  return { tests, duplicates };
}

/** One mutation line per target and mode: shards' lines merged as CampaignSummary.mutation says. */
function mergedMutations(lines: readonly Line[]): MutationLine[] {
  const byKey = new Map<string, MutationLine>();
  const rank = { killed: 2, undecided: 1, survived: 0 } as const;
  for (const l of lines) {
    if (l.kind !== 'mutation') continue;
    const key = `${l.target}\u0000${l.mode}`;
    const had = byKey.get(key);
    if (!had) {
      byKey.set(key, { ...l, mutants: [...l.mutants] });
      continue;
    }
    had.tests += l.tests;
    const mutantKey = (m: MutationLine['mutants'][number]) =>
      `${m.row}\u0000${m.position}\u0000${m.mutation}`;
    const index = new Map(had.mutants.map((m, k) => [mutantKey(m), k]));
    for (const m of l.mutants) {
      const k = index.get(mutantKey(m));
      if (k === undefined) had.mutants.push(m);
      else if (rank[m.status] > rank[had.mutants[k]!.status]) had.mutants[k] = m;
    }
    had.score = mutationScore(had.mutants);
  }
  return [...byKey.values()].sort((a, b) => compare(a.target, b.target) || compare(a.mode, b.mode));
}

/** The counts of a campaign's lines (of one file or of many shards' files together). */
export function summarise(lines: readonly Line[]): CampaignSummary {
  const { tests, duplicates } = distinctTests(lines);
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
  const byCheck = (
    a: Pick<UnsoundResult, 'target' | 'mode' | 'lowering'>,
    b: Pick<UnsoundResult, 'target' | 'mode' | 'lowering'>,
  ) => compare(a.target, b.target) || compare(a.mode, b.mode) || compare(a.lowering, b.lowering);
  const shards = new Map<string, z.infer<typeof ShardSchema>>();
  for (const l of lines) if (l.kind === 'header') shards.set(`${l.shard.index}/${l.shard.count}`, l.shard);
  return {
    tests: tests.length,
    duplicates,
    shards: [...shards.values()].sort((a, b) => a.count - b.count || a.index - b.index),
    model,
    checks: [...groups.values()].sort(byCheck),
    unsound: unsound.sort((a, b) => compare(a.test, b.test) || byCheck(a, b) || compare(a.hash, b.hash)),
    mutation: mergedMutations(lines).map((m) => ({
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
  };
}

// ---------------------------------------------------------------------------------------------------
// Text

/** `x=1; y=undef;`, as `gpumm check` writes an outcome. */
function valuesText(v: Readonly<Record<string, number | 'undef'>>): string {
  return Object.entries(v)
    .map(([k, x]) => `${k}=${x};`)
    .join(' ');
}

function shardText(s: z.infer<typeof ShardSchema>): string {
  return `${s.index}/${s.count}`;
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

/** The summary as text for a terminal: aligned tables, everything from the file escaped. */
export function formatSummary(s: CampaignSummary): string {
  const e = escapeText;
  const out: string[] = [];
  const shards =
    s.shards.length === 0
      ? ''
      : `, ${s.shards.length === 1 ? 'shard' : 'shards'} ${s.shards.map(shardText).join(', ')}`;
  const dups = s.duplicates > 0 ? ` (${plural(s.duplicates, 'duplicate line')} left out)` : '';
  out.push(`Campaign: ${plural(s.tests, 'test')}${dups}${shards}, ${secondsText(s.ms)} of test time`);
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
        s.unsound.map((u) => [
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
export function htmlReport(lines: readonly Line[], s: CampaignSummary): string {
  const h = htmlText;
  const tests = new Map<string, TestLine>();
  for (const l of lines) if (l.kind === 'test' && !tests.has(l.hash)) tests.set(l.hash, l);
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
