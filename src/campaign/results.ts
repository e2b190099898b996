/**
 * Results files (src/campaign/schema.ts) read, appended to, merged and summed up. Reading is
 * forgiving only where a kill can leave damage — the last line, torn while it was written — and strict
 * everywhere else: a bad line before the last is a damaged file, never skipped.
 */

import { writeSync } from 'node:fs';
import * as z from 'zod';
import { type Mutant, mutationScore, SURVIVOR_CLASSES } from '../check/mutate.ts';
import { escapeText } from '../core/escape.ts';
import {
  type Header,
  HeaderSchema,
  LineSchema,
  type MutationLine,
  MutationLineSchema,
  type TestLine,
  TestLineSchema,
} from './schema.ts';
import { missingShards } from './shard.ts';

/** Why a file is not a readable results file, at which line (1-based; 0: the whole file). */
export interface ResultsProblem {
  line: number;
  why: string;
}

/** A results file read. */
export interface Results {
  /** Null for an empty file (or one whose only line, the header, is torn). */
  header: Header | null;
  tests: TestLine[];
  mutations: MutationLine[];
  /** Bytes of whole, valid lines: a torn last line starts here (equal to the file's size when none). */
  validBytes: number;
  /** Where the first mutation line starts (`validBytes` when none). */
  mutationsAt: number;
  /** A torn last line was found (and is left out). */
  torn: boolean;
}

const NL = 0x0a;
/** Bytes that are not UTF-8 make a line unreadable rather than replacement characters. */
const DECODER = new TextDecoder('utf-8', { fatal: true });

/** The reason a zod error gives, in one line: the first issue and where. */
function issueText(e: z.ZodError): string {
  const i = e.issues[0]!;
  return `${i.path.length > 0 ? `${i.path.join('.')}: ` : ''}${i.message}`;
}

/**
 * Reads a results file's bytes. A last line that lacks its line break, or does not parse, is torn (a
 * campaign killed while writing it): left out, with `validBytes` where it starts. Any other line that
 * does not parse, a first line that is not a header, a header after the first line, or a test line after
 * a mutation line is a problem.
 */
export function readResults(bytes: Uint8Array): Results | ResultsProblem {
  const out: Results = {
    header: null,
    tests: [],
    mutations: [],
    validBytes: 0,
    mutationsAt: -1,
    torn: false,
  };
  let start = 0;
  let lineNo = 0;
  while (start < bytes.length) {
    lineNo++;
    const end = bytes.indexOf(NL, start);
    const last = end < 0 || end === bytes.length - 1;
    const parsed = parseLine(bytes.subarray(start, end < 0 ? bytes.length : end));
    if (end < 0 || 'why' in parsed) {
      if (last) {
        out.torn = true;
        break;
      }
      return { line: lineNo, why: 'why' in parsed ? parsed.why : 'not a whole line' };
    }
    const line = parsed.line;
    if (lineNo === 1 && line.kind !== 'header') return { line: 1, why: 'the first line is not the header' };
    if (line.kind === 'header') {
      if (lineNo !== 1) return { line: lineNo, why: 'a second header' };
      out.header = line;
    } else if (line.kind === 'test') {
      if (out.mutations.length > 0) return { line: lineNo, why: 'a test line after the mutation lines' };
      out.tests.push(line);
    } else {
      if (out.mutations.length === 0) out.mutationsAt = start;
      out.mutations.push(line);
    }
    start = end + 1;
    out.validBytes = start;
  }
  if (out.mutationsAt < 0) out.mutationsAt = out.validBytes;
  return out;
}

function parseLine(bytes: Uint8Array): { line: z.infer<typeof LineSchema> } | { why: string } {
  let value: unknown;
  try {
    value = JSON.parse(DECODER.decode(bytes));
  } catch {
    return { why: 'not a line of JSON' };
  }
  const kind = (value as { kind?: unknown } | null)?.kind;
  // The schema of the line's own kind, so the reason names its field rather than the union's tag.
  const schema =
    kind === 'header'
      ? HeaderSchema
      : kind === 'test'
        ? TestLineSchema
        : kind === 'mutation'
          ? MutationLineSchema
          : LineSchema;
  const r = schema.safeParse(value);
  return r.success ? { line: r.data as z.infer<typeof LineSchema> } : { why: issueText(r.error) };
}

/** The header fields (but `shard` when `exceptShard`) in which `a` and `b` differ, in the header's order. */
export function headerDifferences(a: Header, b: Header, exceptShard: boolean): string[] {
  return (Object.keys(HeaderSchema.shape) as (keyof Header)[]).filter(
    (k) => !(exceptShard && k === 'shard') && JSON.stringify(a[k]) !== JSON.stringify(b[k]),
  );
}

/** `targets gfx900,gfx1200 here, gfx900 in the file`: what differs, for a diagnostic's hint. */
export function differencesText(fields: readonly string[], mine: Header, theirs: Header): string {
  const show = (v: unknown) => (Array.isArray(v) ? v.join(',') : v === null ? 'none' : String(v));
  return fields
    .map((f) => `${f} ${show(mine[f as keyof Header])} here, ${show(theirs[f as keyof Header])} there`)
    .join('; ');
}

/** Writes one line (and its line break) to `fd` in one call: a kill leaves it whole or torn, never split. */
export function appendLine(fd: number, line: object): void {
  writeSync(fd, `${JSON.stringify(line)}\n`);
}

/** The key of a mutant: its row, the instruction's place in the row and the mutation. */
function mutantKey(m: Mutant): string {
  return `${m.row}\u0000${m.position}\u0000${m.mutation}`;
}

/**
 * One mutant's statuses in several shards as one: killed in any shard is killed (by the first shard's
 * killer); else undecided in any is undecided (some test there might kill it); else it survived, and
 * the class is the first of the shards' classes in `SURVIVOR_CLASSES` order — the code's own reasons
 * (redundant, no counted instruction, progress only) before what the tests could not show.
 */
function mergeMutant(ms: readonly Mutant[]): Mutant {
  const killed = ms.find((m) => m.status === 'killed');
  if (killed) return killed;
  const undecided = ms.find((m) => m.status === 'undecided');
  if (undecided) return undecided;
  const rank = (m: Mutant) =>
    m.class === null ? SURVIVOR_CLASSES.length : SURVIVOR_CLASSES.indexOf(m.class);
  return [...ms].sort((a, b) => rank(a) - rank(b))[0]!;
}

/** The mutation lines of several shards as one per target and mode, scores recomputed. */
export function mergeMutations(lines: readonly MutationLine[]): MutationLine[] {
  const groups = new Map<string, MutationLine[]>();
  for (const l of lines) {
    const k = `${l.target}\u0000${l.mode}`;
    groups.set(k, [...(groups.get(k) ?? []), l]);
  }
  return [...groups.values()].map((ls) => {
    const byKey = new Map<string, Mutant[]>();
    for (const l of ls)
      for (const m of l.mutants) byKey.set(mutantKey(m), [...(byKey.get(mutantKey(m)) ?? []), m]);
    const mutants = [...byKey.values()].map(mergeMutant);
    return {
      kind: 'mutation',
      target: ls[0]!.target,
      mode: ls[0]!.mode,
      tests: ls.reduce((n, l) => n + l.tests, 0),
      score: mutationScore(mutants),
      mutants,
    };
  });
}

/** Shards given to a merge that leave tests out: the shard count and the missing indices. */
export interface ShardGap {
  count: number;
  missing: number[];
}

/**
 * Whether shards `given` make a whole campaign: some count n whose every index is there, or a whole
 * campaign (0/1) itself. Otherwise the gap of the count given most often.
 */
export function shardGap(given: readonly Header['shard'][]): ShardGap | null {
  const byCount = new Map<number, number[]>();
  for (const s of given) byCount.set(s.count, [...(byCount.get(s.count) ?? []), s.index]);
  const gaps = [...byCount.entries()].map(([count, have]) => ({
    count,
    missing: missingShards(have, count),
  }));
  if (gaps.some((g) => g.missing.length === 0)) return null;
  return (
    gaps.sort((a, b) => (byCount.get(b.count)?.length ?? 0) - (byCount.get(a.count)?.length ?? 0))[0] ?? null
  );
}

/**
 * Files of one campaign's shards as one file's lines: the header of the whole campaign (shard 0/1),
 * the test lines by hash (a test in several files once, the first file's), then the mutation lines
 * merged. The headers must agree but for the shard (`headerDifferences`): the caller checks.
 */
export function mergeResults(files: readonly Results[]): (Header | TestLine | MutationLine)[] {
  const header: Header = { ...files[0]!.header!, shard: { index: 0, count: 1 } };
  const tests = new Map<string, TestLine>();
  for (const f of files) for (const t of f.tests) if (!tests.has(t.hash)) tests.set(t.hash, t);
  const sorted = [...tests.values()].sort((a, b) => (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0));
  return [header, ...sorted, ...mergeMutations(files.flatMap((f) => f.mutations))];
}

const Counts = z.object({
  sound: z.number().int(),
  UNSOUND: z.number().int(),
  unsupported: z.number().int(),
  undecided: z.number().int(),
});

/** JSON schema of `gpumm campaign --json`: the closing summary of the results file. */
export const SummarySchema = z.object({
  file: z.string(),
  shard: z.string(),
  tests: z.number().int(),
  /** Tests run by this invocation; the others were in the file already (`--resume`). */
  ran: z.number().int(),
  interrupted: z.boolean(),
  model: z.record(z.string(), z.number().int()),
  checks: z.array(
    z.object({ target: z.string(), mode: z.string(), lowering: z.string() }).extend(Counts.shape),
  ),
  /** Each UNSOUND check: the test, its file, where. */
  unsound: z.array(
    z.object({
      test: z.string(),
      file: z.string(),
      target: z.string(),
      mode: z.string(),
      lowering: z.string(),
    }),
  ),
  mutation: z.array(
    z.object({
      target: z.string(),
      mode: z.string(),
      killed: z.number().int(),
      mutants: z.number().int(),
      score: z.number().nullable(),
    }),
  ),
  ms: z.number(),
});
export type Summary = z.infer<typeof SummarySchema>;

const MODEL_VERDICTS = ['allowed', 'forbidden', 'unknown', 'no-condition', 'undecided'] as const;

/** The summary of a results file's lines (`ran`, `interrupted` and `ms` are the invocation's). */
export function summarize(
  file: string,
  header: Header,
  tests: readonly TestLine[],
  mutations: readonly MutationLine[],
  run: { ran: number; interrupted: boolean; ms: number },
): Summary {
  const model: Record<string, number> = Object.fromEntries(MODEL_VERDICTS.map((v) => [v, 0]));
  const checks = new Map<string, Summary['checks'][number]>();
  const unsound: Summary['unsound'] = [];
  for (const t of tests) {
    model[t.model.verdict] = (model[t.model.verdict] ?? 0) + 1;
    for (const c of t.checks) {
      const k = `${c.target}\u0000${c.mode}\u0000${c.lowering}`;
      let row = checks.get(k);
      if (!row) {
        row = {
          target: c.target,
          mode: c.mode,
          lowering: c.lowering,
          sound: 0,
          UNSOUND: 0,
          unsupported: 0,
          undecided: 0,
        };
        checks.set(k, row);
      }
      row[c.verdict]++;
      if (c.verdict === 'UNSOUND')
        unsound.push({ test: t.test, file: t.file, target: c.target, mode: c.mode, lowering: c.lowering });
    }
  }
  return {
    file,
    shard: `${header.shard.index}/${header.shard.count}`,
    tests: tests.length,
    ...run,
    model,
    checks: [...checks.values()],
    unsound,
    mutation: mutations.map((m) => ({
      target: m.target,
      mode: m.mode,
      killed: m.score.killed,
      mutants: m.score.mutants,
      score: m.score.value,
    })),
  };
}

/**
 * The exit status a summary calls for: 1 when some check is UNSOUND, else 3 when some check or model
 * verdict is undecided (a budget), else 0. An `unsupported` check (a machine or llc-22 that cannot run
 * the code) is counted but changes nothing: a campaign over many targets always has some.
 */
export function summaryStatus(s: Summary): 0 | 1 | 3 {
  if (s.checks.some((c) => c.UNSOUND > 0)) return 1;
  if (s.checks.some((c) => c.undecided > 0) || (s.model.undecided ?? 0) > 0) return 3;
  return 0;
}

/** The summary as text: counts per model verdict and per target, mode and lowering; the UNSOUND checks. */
export function summaryText(s: Summary, limit = 20): string {
  const lines = [
    `${escapeText(s.file)} (shard ${s.shard}): ${s.tests} tests, ${s.ran} run now${s.interrupted ? ' (interrupted)' : ''} in ${(s.ms / 1000).toFixed(1)} s`,
    `model: ${MODEL_VERDICTS.map((v) => `${s.model[v] ?? 0} ${v}`).join(', ')}`,
  ];
  const width = Math.max(0, ...s.checks.map((c) => `${c.target} ${c.mode} ${c.lowering}`.length));
  for (const c of s.checks)
    lines.push(
      `${escapeText(`${c.target} ${c.mode} ${c.lowering}`.padEnd(width))}  ${c.sound} sound, ${c.UNSOUND} UNSOUND, ${c.unsupported} unsupported, ${c.undecided} undecided`,
    );
  for (const m of s.mutation)
    lines.push(
      `mutation ${m.target} ${m.mode}: ${m.killed} of ${m.mutants} mutants killed, score ${m.score === null ? '-' : `${(m.score * 100).toFixed(1)}%`}`,
    );
  if (s.unsound.length > 0) {
    lines.push('UNSOUND:');
    for (const u of s.unsound.slice(0, limit))
      lines.push(
        `  ${escapeText(u.test)} (${escapeText(u.file)}) on ${escapeText(u.target)}, ${escapeText(u.mode)} mode, --lowering ${u.lowering}`,
      );
    if (s.unsound.length > limit) lines.push(`  … and ${s.unsound.length - limit} more (--json lists all)`);
  }
  return lines.join('\n');
}
