/**
 * Shards of a campaign (`gpumm campaign --shard i/n`): test `hash` (the MD5 of its source text) is in
 * shard `parseInt(hash[0..8], 16) mod n`. The slice depends on the test alone — not on the order of
 * the files, nor on which other tests are given — so n machines given the same files each take a
 * disjoint part and together every test, and a resumed or rerun shard takes the same tests again.
 * MD5's first 32 bits are close to uniform, so the shards are balanced for any set of many tests.
 */

import type { Shard } from './schema.ts';

/** The whole campaign as one shard: what a run without `--shard`, and a merged file, says. */
export const WHOLE: Shard = { index: 0, count: 1 };

/** The shard (0 ≤ result < count) that a test of content hash `hash` (32 hex digits) belongs to. */
export function shardOf(hash: string, count: number): number {
  return Number.parseInt(hash.slice(0, 8), 16) % count;
}

/** Whether shard `s` takes the test of content hash `hash`. */
export function inShard(hash: string, s: Shard): boolean {
  return shardOf(hash, s.count) === s.index;
}

/** `i/n` as written on the command line. */
export function shardText(s: Shard): string {
  return `${s.index}/${s.count}`;
}

/**
 * `i/n` read: the shard, or why it is not one (for the usage error). `n` is at most 2³²: beyond it
 * some shards could hold no test whatever the tests.
 */
export function parseShard(text: string): Shard | { why: string } {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (!m) return { why: `--shard '${text}' is not of the form i/n` };
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count === 0) return { why: '--shard i/0: a campaign has at least one shard' };
  if (count > 2 ** 32)
    return { why: `--shard i/${m[2]}: at most 4294967296 shards (the hash's first 32 bits)` };
  if (index >= count) return { why: `--shard ${m[1]}/${m[2]}: shards are numbered 0 to ${count - 1}` };
  return { index, count };
}

/** The shards of `count` missing from `have` (all indices of one count), in order. */
export function missingShards(have: readonly number[], count: number): number[] {
  const got = new Set(have);
  const out: number[] = [];
  for (let i = 0; i < count; i++) if (!got.has(i)) out.push(i);
  return out;
}
