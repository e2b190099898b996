import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Orderings, permutations } from './permutations.ts';

describe('Orderings', () => {
  it("gives permutations()'s orderings, in its order, after the head", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 99 }), { maxLength: 6 }),
        fc.array(fc.nat(9), { maxLength: 2 }),
        (xs, head) => {
          const o = new Orderings(head, xs);
          const all = permutations(xs);
          expect(o.size).toBe(all.length);
          for (const [k, p] of all.entries()) expect([...o.at(k)]).toEqual([...head, ...p]);
        },
      ),
    );
  });

  it('takes no memory and no recursion for a location of 3,000 writes', () => {
    const xs = Array.from({ length: 3000 }, (_, i) => i);
    const o = new Orderings([], xs);
    expect(o.size).toBe(Number.POSITIVE_INFINITY);
    expect([...o.at(0)]).toEqual(xs);
    const second = [...o.at(1)];
    expect(second.slice(0, 2998)).toEqual(xs.slice(0, 2998));
    expect(second.slice(2998)).toEqual([2999, 2998]);
  });
});
