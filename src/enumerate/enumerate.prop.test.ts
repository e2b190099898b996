import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Test } from '../core/types.ts';
import { DEFAULT_OPTIONS } from '../models/amdgpu.ts';
import { stateStrings } from '../models/testutil.ts';
import { type Collector, enumerate } from './enumerate.ts';
import { arbMpSpaces, arbTest } from './gen.ts';
import { referenceEnumerate } from './reference.ts';

function withCounts(c: Collector): string[] {
  const labels = stateStrings(c, true);
  const counts = new Map<string, number>();
  for (const s of c.states.values()) {
    const k = stateStrings({ ...c, states: new Map([['k', s]]) } as Collector, true)[0]!;
    counts.set(k, s.count);
  }
  return labels.map((l) => `${l} ×${counts.get(l)}`);
}

/** The optimised and the reference enumerator find the same states, counts and flags. */
function agree(t: Test, model = DEFAULT_OPTIONS): void {
  const fast = enumerate(t, { model });
  const ref = referenceEnumerate(t, model);
  expect(withCounts(fast.collector)).toEqual(withCounts(ref.collector));
  expect(fast.stats.consistent).toBe(ref.collector.executions);
}

describe('optimised enumerator against the brute-force reference', () => {
  it('same final states, counts and flags on random small tests', () => {
    fc.assert(
      fc.property(arbTest(), (t) => agree(t)),
      { numRuns: 1500 },
    );
  });

  it('also with cmpxchg, av intrinsics and amdgcn-av none', () => {
    fc.assert(
      fc.property(arbTest({ exotic: true, maxInstrs: 4 }), (t) => agree(t)),
      { numRuns: 1000 },
    );
  });

  it('also with barriers: split, isfirst, named barriers (states, counts, UB flag)', () => {
    fc.assert(
      fc.property(arbTest({ barriers: true, maxInstrs: 6 }), (t) => agree(t)),
      { numRuns: 600 },
    );
  });

  it('also with LDS and global locations and -one-as syncscopes (per-space hb)', () => {
    fc.assert(
      fc.property(arbTest({ spaces: true, maxInstrs: 5 }), (t) => agree(t)),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(arbTest({ spaces: true, exotic: true, maxInstrs: 4 }), (t) => agree(t)),
      { numRuns: 400 },
    );
    fc.assert(
      fc.property(arbMpSpaces(), (t) => agree(t)),
      { numRuns: 400 },
    );
  });

  it('also with no-thin-air off and the repaired value rules', () => {
    fc.assert(
      fc.property(arbTest({ maxInstrs: 4 }), fc.boolean(), (t, repaired) => {
        const model = {
          noThinAir: false,
          valueRules: repaired ? ('repaired' as const) : ('literal' as const),
        };
        agree(t, model);
      }),
      { numRuns: 500 },
    );
  });
});
