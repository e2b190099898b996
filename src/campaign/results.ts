/**
 * A campaign's results files (src/campaign/schema.ts, read by src/campaign/read.ts) compared and
 * merged: the shards of one campaign as one file (`gpumm campaign merge`), and their mutation lines as
 * one per target and mode — the one merge that `campaign report` uses too, so a report of the merged
 * file and a report of the shards read together say the same.
 */

import { type Mutant, mutationScore, SURVIVOR_CLASSES } from '../check/mutate.ts';
import type { ResultsLines } from './read.ts';
import { type Header, HeaderSchema, type MutationLine, type TestLine } from './schema.ts';
import { missingShards } from './shard.ts';

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

/** The key of a mutant: its row, the instruction's place in the row and the mutation. */
function mutantKey(m: Mutant): string {
  return `${m.row}\u0000${m.position}\u0000${m.mutation}`;
}

/** The key of a mutation line: its target and mode (a campaign writes one line for each). */
export function mutationKey(target: string, mode: string): string {
  return `${target}\u0000${mode}`;
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

/**
 * The mutation lines of several files (the shards of one campaign, or one file alone) as one line per
 * target and mode, in the order first met, each mutant merged by `mergeMutant` and the score
 * recomputed. A line's `tests` is the number of distinct test hashes in the files that hold a line for
 * its target and mode — the tests its mutants were run against — so a file given twice counts once.
 */
export function mergeMutations(files: readonly Pick<ResultsLines, 'tests' | 'mutations'>[]): MutationLine[] {
  const groups = new Map<string, { lines: MutationLine[]; hashes: Set<string> }>();
  for (const f of files)
    for (const l of f.mutations) {
      const k = mutationKey(l.target, l.mode);
      let g = groups.get(k);
      if (!g) {
        g = { lines: [], hashes: new Set() };
        groups.set(k, g);
      }
      g.lines.push(l);
      for (const t of f.tests) g.hashes.add(t.hash);
    }
  return [...groups.values()].map(({ lines, hashes }) => {
    const byKey = new Map<string, Mutant[]>();
    for (const l of lines)
      for (const m of l.mutants) {
        const k = mutantKey(m);
        const had = byKey.get(k);
        if (had) had.push(m);
        else byKey.set(k, [m]);
      }
    const mutants = [...byKey.values()].map(mergeMutant);
    return {
      kind: 'mutation',
      target: lines[0]!.target,
      mode: lines[0]!.mode,
      tests: hashes.size,
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
export function mergeResults(files: readonly ResultsLines[]): (Header | TestLine | MutationLine)[] {
  const header: Header = { ...files[0]!.header!, shard: { index: 0, count: 1 } };
  const tests = new Map<string, TestLine>();
  for (const f of files) for (const t of f.tests) if (!tests.has(t.hash)) tests.set(t.hash, t);
  const sorted = [...tests.values()].sort((a, b) => (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0));
  return [header, ...sorted, ...mergeMutations(files)];
}
