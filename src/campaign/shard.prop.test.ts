/**
 * Shards by content hash: the n shards of any set of tests partition it exactly (every test in one
 * shard, whatever n), and for many tests each shard holds close to its share.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { md5Hex } from '../core/md5.ts';
import { inShard, missingShards, parseShard, shardOf } from './shard.ts';

const hashes = fc.array(fc.string({ unit: 'binary' }).map(md5Hex), { maxLength: 200 });

describe('shards by content hash', () => {
  it('partition any set of hashes: each in exactly one of the n shards', () => {
    fc.assert(
      fc.property(hashes, fc.integer({ min: 1, max: 64 }), (hs, count) => {
        const shards = Array.from({ length: count }, (_, index) =>
          hs.filter((h) => inShard(h, { index, count })),
        );
        expect(shards.flat().sort()).toEqual([...hs].sort());
        for (const h of hs) {
          const owners = shards.filter((s) => s.includes(h)).length;
          expect(owners).toBe(1);
          expect(shardOf(h, count)).toBeGreaterThanOrEqual(0);
          expect(shardOf(h, count)).toBeLessThan(count);
        }
      }),
    );
  });

  it('balance a large set: every shard within 25% of its share', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ unit: 'grapheme', minLength: 1 }), { minLength: 4000, maxLength: 4000 }),
        fc.integer({ min: 2, max: 8 }),
        (texts, count) => {
          const sizes = Array.from({ length: count }, () => 0);
          for (const t of texts) sizes[shardOf(md5Hex(t), count)]!++;
          const share = texts.length / count;
          for (const s of sizes) expect(Math.abs(s - share)).toBeLessThan(share * 0.25);
        },
      ),
      { numRuns: 10 },
    );
  });

  it('read i/n, refusing what is not a shard', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    expect(parseShard('0/1')).toEqual({ index: 0, count: 1 });
    for (const bad of ['4/4', '1/0', '0/0', '1', 'a/b', '-1/4', '1/4/2', '', '1.5/4'])
      expect(parseShard(bad), bad).toHaveProperty('why');
  });

  it('name the shards missing from a merge', () => {
    expect(missingShards([0, 2], 4)).toEqual([1, 3]);
    expect(missingShards([1, 0, 2, 3], 4)).toEqual([]);
  });
});
