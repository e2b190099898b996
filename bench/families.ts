/**
 * Parametric litmus families for the scaling benchmarks (built as ASTs, one thread per agent).
 */

import type { Ordering, Test } from '../src/core/types.ts';
import { and, cond, dev, eq, ld, makeTest, reg, rmw, st, threads } from '../src/events/build.ts';

const loc = (i: number) => `x${i}`;

/** SB with n threads: thread i writes x_i then reads x_{i+1 mod n}. */
export function sb(n: number, o: Ordering): Test {
  const locs = Object.fromEntries(Array.from({ length: n }, (_, i) => [loc(i), 0]));
  return makeTest({
    name: `SB${n}-${o}`,
    locs,
    threads: threads(Array.from({ length: n }, (_, i) => [st(loc(i), 1, o), ld('r', loc((i + 1) % n), o)])),
    cond: cond('exists', and(...Array.from({ length: n }, (_, i) => eq(reg(`P${i}`, 'r'), 0)))),
  });
}

/** Coherence family: every thread writes its own value to x (ordering `o`), then reads x (`load`). */
export function co(n: number, o: Ordering = 'monotonic', load: Ordering = o): Test {
  return makeTest({
    name: load === o ? `CO${n}-${o}` : `CO${n}-${o}-${load}`,
    locs: { x: 0 },
    threads: threads(Array.from({ length: n }, (_, i) => [st('x', i + 1, o), ld('r', 'x', load)])),
    cond: cond('exists', eq(reg('P0', 'r'), 1)),
  });
}

/** Every thread writes its own value to x (ordering `o`), then reads x twice (`load`). */
export function wrr(n: number, o: Ordering = 'monotonic', load: Ordering = o): Test {
  return makeTest({
    name: load === o ? `WRR${n}-${o}` : `WRR${n}-${o}-${load}`,
    locs: { x: 0 },
    threads: threads(
      Array.from({ length: n }, (_, i) => [st('x', i + 1, o), ld('a', 'x', load), ld('b', 'x', load)]),
    ),
    cond: cond('exists', eq(reg('P0', 'a'), 1)),
  });
}

/** Every thread writes x, reads it, writes it again and reads it (CO with reads po-before writes). */
export function wrwr(n: number, store: Ordering = 'monotonic', load: Ordering = 'monotonic'): Test {
  return makeTest({
    name: `WRWR${n}-${store}-${load}`,
    locs: { x: 0 },
    cond: cond('exists', eq(reg('P0', 'a'), 1)),
    threads: threads(
      Array.from({ length: n }, (_, i) => [
        st('x', 2 * i + 1, store),
        ld('a', 'x', load),
        st('x', 2 * i + 2, store),
        ld('b', 'x', load),
      ]),
    ),
  });
}

/** Counter: every thread increments x once with an RMW of ordering `o` (n! executions). */
export function counter(n: number, o: Ordering = 'monotonic'): Test {
  return makeTest({
    name: `CNT${n}-${o}`,
    locs: { x: 0 },
    threads: threads(Array.from({ length: n }, () => [rmw('r', 'add', 'x', 1, o)])),
    cond: cond('exists', eq(reg('P0', 'r'), 0)),
  });
}

/** MP with k data locations: plain data writes, release flag / acquire flag, plain data reads. */
export function mp(k: number): Test {
  const data = Array.from({ length: k }, (_, i) => `d${i}`);
  return makeTest({
    name: `MP${k}`,
    locs: Object.fromEntries([...data.map((d) => [d, 0]), ['f', 0]]),
    threads: threads([
      [...data.map((d) => st(d, 1)), st('f', 1, 'release')],
      [ld('a', 'f', 'acquire'), ...data.map((d, i) => ld(`r${i}`, d))],
    ]),
  });
}

/** IRIW with the given orderings for writes and reads. */
export function iriw(o: Ordering): Test {
  const w: Ordering = o === 'acquire' ? 'release' : o;
  return makeTest({
    name: `IRIW-${o}`,
    locs: { x: 0, y: 0 },
    threads: threads(
      [
        [st('x', 1, w)],
        [st('y', 1, w)],
        [ld('a', 'x', o), ld('b', 'y', o)],
        [ld('c', 'y', o), ld('d', 'x', o)],
      ],
      [dev(0, 0, 0, 0), dev(1, 0, 0, 0), dev(2, 0, 0, 0), dev(3, 0, 0, 0)],
    ),
  });
}
