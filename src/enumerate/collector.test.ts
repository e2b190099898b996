import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Collector } from './collector.ts';

/** The same aggregation done naively: a Map from the printed values. */
function naive(rows: { values: number[]; count: number; race: boolean; undef: boolean }[]) {
  const m = new Map<string, { count: number; race: boolean; undef: boolean; first: number }>();
  rows.forEach((r, i) => {
    const key = r.values.map((v) => (Number.isNaN(v) ? 'undef' : String(v))).join(',');
    const s = m.get(key);
    if (s) {
      s.count += r.count;
      s.race ||= r.race;
      s.undef ||= r.undef;
    } else m.set(key, { count: r.count, race: r.race, undef: r.undef, first: i });
  });
  return [...m.entries()].map(([key, s]) => ({ key, count: s.count, race: s.race, undef: s.undef }));
}

describe('Collector (columnar final states)', () => {
  it('aggregates like a Map keyed by the values, in the order first found, across table growth', () => {
    const value = fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constant(Number.NaN), fc.constant(2 ** 40));
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4 }).chain((k) =>
          fc.array(
            fc.record({
              values: fc.array(value, { minLength: k, maxLength: k }),
              count: fc.integer({ min: 1, max: 5 }),
              race: fc.boolean(),
              undef: fc.boolean(),
            }),
            { maxLength: 400 },
          ),
        ),
        (rows) => {
          const k = rows[0]?.values.length ?? 0;
          const c = new Collector(
            Array.from({ length: k }, (_, i) => `r${i}`),
            false,
          );
          for (const r of rows) c.record(Float64Array.from(r.values), r.count, r.race, r.undef);
          const got = c.records().map((s) => ({
            key: [...s.values].map((v) => (Number.isNaN(v) ? 'undef' : String(v))).join(','),
            count: s.count,
            race: s.race,
            undef: s.undef,
          }));
          expect(got).toEqual(naive(rows));
          expect(c.size).toBe(got.length);
          expect(c.executions).toBe(rows.reduce((a, r) => a + r.count, 0));
          for (const r of rows) expect(c.lookup(Float64Array.from(r.values))).toBeGreaterThanOrEqual(0);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('orders states numerically, observable by observable, undef after every number', () => {
    const c = new Collector(['a', 'b'], false);
    const rows = [
      [10, 0],
      [2, Number.NaN],
      [Number.NaN, 0],
      [2, 1],
      [-1, 5],
      [2, 10],
    ];
    for (const r of rows) c.record(Float64Array.from(r), 1, false, false);
    expect([...c.idsByValues()].map((id) => [...c.valuesOf(id)])).toEqual([
      [-1, 5],
      [2, 1],
      [2, 10],
      [2, Number.NaN],
      [10, 0],
      [Number.NaN, 0],
    ]);
  });

  it('orders like a comparison sort of the values, whatever their range (radix by column)', () => {
    // Narrow integers (counting by value), wide and fractional numbers (by rank), undef, -0.
    const value = fc.oneof(
      fc.integer({ min: -3, max: 3 }),
      fc.constant(Number.NaN),
      fc.constant(-0),
      fc.constant(2 ** 40),
      fc.constant(-(2 ** 33)),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
    );
    const before = (u: number, v: number) => {
      const nu = Number.isNaN(u);
      const nv = Number.isNaN(v);
      if (nu || nv) return nu === nv ? 0 : nu ? 1 : -1;
      return u < v ? -1 : u > v ? 1 : 0;
    };
    fc.assert(
      fc.property(
        fc
          .integer({ min: 0, max: 4 })
          .chain((k) => fc.array(fc.array(value, { minLength: k, maxLength: k }), { maxLength: 300 })),
        (rows) => {
          const k = rows[0]?.length ?? 0;
          const c = new Collector(
            Array.from({ length: k }, (_, i) => `r${i}`),
            false,
          );
          for (const r of rows) c.record(Float64Array.from(r), 1, false, false);
          const want = Array.from({ length: c.size }, (_, i) => i).sort((a, b) => {
            for (let j = 0; j < k; j++) {
              const o = before(c.valueAt(a, j), c.valueAt(b, j));
              if (o !== 0) return o;
            }
            return a - b;
          });
          expect([...c.idsByValues()]).toEqual(want);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps its own copy of the values and one example per new state', () => {
    const c = new Collector(['a', 'b']);
    const v = Float64Array.of(1, 2);
    let made = 0;
    const ex = () => {
      made++;
      return { variant: 0, rf: Int32Array.of(made), co: new Int32Array(0) };
    };
    const id = c.record(v, 1, false, false, ex);
    v[0] = 9;
    expect([...c.valuesOf(id)]).toEqual([1, 2]);
    expect(c.record(Float64Array.of(1, 2), 2, true, false, ex)).toBe(id);
    expect(made).toBe(1);
    expect(c.countOf(id)).toBe(3);
    expect(c.raceOf(id)).toBe(true);
    expect(c.undefOf(id)).toBe(false);
    expect(c.lookup(Float64Array.of(9, 2))).toBe(-1);
    // 100 000 distinct states: the store and the table grow many times.
    for (let i = 0; i < 100_000; i++) c.record(Float64Array.of(i, -i), 1, false, i % 7 === 0, ex);
    expect(c.size).toBe(100_001);
    expect(c.lookup(Float64Array.of(77_777, -77_777))).toBe(77_778);
    expect(c.undefOf(c.lookup(Float64Array.of(7, -7)))).toBe(true);
    expect(c.exampleOf(77_778).rf[0]).toBe(77_779);
  });
});
