import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  closureInto,
  composeInto,
  findCycle,
  fromPairs,
  has,
  intersectInto,
  inverseInto,
  isAcyclic,
  isIrreflexive,
  isSubset,
  minusInto,
  type Relation,
  relation,
  size,
  toPairs,
  unionInto,
} from './relation.ts';

/** The naive reference: a relation as a set of "i,j" strings. */
type Naive = Set<string>;
const key = (i: number, j: number) => `${i},${j}`;
const naive = (pairs: [number, number][]): Naive => new Set(pairs.map(([i, j]) => key(i, j)));
const naiveCompose = (n: number, a: Naive, b: Naive): Naive => {
  const out: Naive = new Set();
  for (let i = 0; i < n; i++)
    for (let k = 0; k < n; k++)
      if (a.has(key(i, k))) for (let j = 0; j < n; j++) if (b.has(key(k, j))) out.add(key(i, j));
  return out;
};
const naiveClosure = (n: number, a: Naive): Naive => {
  let cur = new Set(a);
  for (;;) {
    const next = new Set([...cur, ...naiveCompose(n, cur, a)]);
    if (next.size === cur.size) return cur;
    cur = next;
  }
};
const asNaive = (r: Relation): Naive => naive(toPairs(r));

/** Sizes that exercise the one-word, two-word and general kernels. */
const arbRel = fc.constantFrom(1, 5, 31, 32, 33, 50, 64, 65, 90).chain((n) =>
  fc.record({
    n: fc.constant(n),
    a: fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1)), { maxLength: 3 * n }),
    b: fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1)), { maxLength: 3 * n }),
  }),
);

describe('relation kernel against a naive reference', () => {
  it('union, intersection, difference, subset', () => {
    fc.assert(
      fc.property(arbRel, ({ n, a, b }) => {
        const ra = fromPairs(n, a);
        const rb = fromPairs(n, b);
        const na = naive(a);
        const nb = naive(b);
        const d = relation(n);
        unionInto(d, ra, rb);
        expect(asNaive(d)).toEqual(new Set([...na, ...nb]));
        intersectInto(d, ra, rb);
        expect(asNaive(d)).toEqual(new Set([...na].filter((p) => nb.has(p))));
        minusInto(d, ra, rb);
        expect(asNaive(d)).toEqual(new Set([...na].filter((p) => !nb.has(p))));
        expect(isSubset(ra, rb)).toBe([...na].every((p) => nb.has(p)));
        expect(size(ra)).toBe(na.size);
      }),
    );
  });

  it('composition and inverse', () => {
    fc.assert(
      fc.property(arbRel, ({ n, a, b }) => {
        const ra = fromPairs(n, a);
        const rb = fromPairs(n, b);
        const d = relation(n);
        composeInto(d, ra, rb);
        expect(asNaive(d)).toEqual(naiveCompose(n, naive(a), naive(b)));
        inverseInto(d, ra);
        expect(asNaive(d)).toEqual(naive(a.map(([i, j]) => [j, i])));
      }),
    );
  });

  it('transitive closure, in place and into a fresh destination', () => {
    fc.assert(
      fc.property(arbRel, ({ n, a }) => {
        const ra = fromPairs(n, a);
        const d = relation(n);
        closureInto(d, ra);
        const want = naiveClosure(n, naive(a));
        expect(asNaive(d)).toEqual(want);
        closureInto(ra, ra);
        expect(asNaive(ra)).toEqual(want);
      }),
    );
  });

  it('acyclicity agrees with irreflexive closure, and a found cycle is a real cycle', () => {
    fc.assert(
      fc.property(arbRel, ({ n, a }) => {
        const ra = fromPairs(n, a);
        const c = relation(n);
        closureInto(c, ra);
        const acyclic = isIrreflexive(c);
        expect(isAcyclic(ra)).toBe(acyclic);
        const cycle = findCycle(ra);
        expect(cycle === null).toBe(acyclic);
        if (cycle) {
          expect(cycle.length).toBeGreaterThan(0);
          for (let k = 0; k < cycle.length; k++) {
            expect(has(ra, cycle[k]!, cycle[(k + 1) % cycle.length]!)).toBe(true);
          }
        }
      }),
    );
  });
});
