/**
 * fast-check generators of small random litmus tests, for property tests of the enumerator and
 * the model. Kept tiny so the brute-force reference enumerator stays fast.
 */

import fc from 'fast-check';
import type { Instr, Ordering, Placement, Scope, Test } from '../core/types.ts';
import {
  avld,
  avst,
  cas,
  dev,
  fence,
  isfirst,
  ld,
  leave,
  makeTest,
  named,
  rmw,
  sbarrier,
  splitBarrier,
  st,
  threads,
} from '../events/build.ts';

export const LOAD_ORDERS: Ordering[] = ['notatomic', 'monotonic', 'acquire', 'seq_cst'];
export const STORE_ORDERS: Ordering[] = ['notatomic', 'monotonic', 'release', 'seq_cst'];
export const RMW_ORDERS: Ordering[] = ['monotonic', 'acquire', 'release', 'acq_rel', 'seq_cst'];
export const FENCE_ORDERS: Ordering[] = ['acquire', 'release', 'acq_rel', 'seq_cst'];
export const GEN_SCOPES: Scope[] = ['system', 'agent', 'workgroup', 'wavefront'];
const PLACEMENTS: Placement[] = [dev(0, 0, 0, 0), dev(0, 0, 0, 1), dev(0, 0, 1, 0), dev(1, 0, 0, 0)];

export interface GenOptions {
  maxThreads: number;
  maxInstrs: number;
  locs: string[];
  /** Allow cmpxchg, av intrinsics, `amdgcn-av none`. */
  exotic: boolean;
  /** Allow every barrier operation (split, isfirst, named barrier object `bar`). */
  barriers: boolean;
}

function arbInstr(o: GenOptions, reg: fc.Arbitrary<string>): fc.Arbitrary<Instr> {
  const loc = fc.constantFrom(...o.locs);
  const scope = fc.constantFrom(...GEN_SCOPES);
  const avNone = o.exotic ? fc.boolean() : fc.constant(false);
  const val = fc.integer({ min: 1, max: 2 });
  const arbs: fc.Arbitrary<Instr>[] = [
    fc
      .tuple(reg, loc, fc.constantFrom(...LOAD_ORDERS), scope, avNone)
      .map(([r, l, ord, s, n]) => ld(r, l, ord, { scope: s, avNone: n })),
    fc
      .tuple(loc, val, fc.constantFrom(...STORE_ORDERS), scope, avNone)
      .map(([l, v, ord, s, n]) => st(l, v, ord, { scope: s, avNone: n })),
    fc
      .tuple(reg, loc, fc.constantFrom(...RMW_ORDERS), scope)
      .map(([r, l, ord, s]) => rmw(r, 'add', l, 1, ord, { scope: s })),
    fc
      .tuple(fc.constantFrom(...FENCE_ORDERS), scope, avNone)
      .map(([ord, s, n]) => fence(ord, { scope: s, avNone: n })),
  ];
  if (o.exotic) {
    arbs.push(
      fc.tuple(reg, loc, scope).map(([r, l, s]) => cas(r, l, 0, 2, 'acq_rel', 'monotonic', { scope: s })),
      fc.tuple(loc, val, scope).map(([l, v, s]) => avst(l, v, s)),
      fc.tuple(reg, loc, scope).map(([r, l, s]) => avld(r, l, s)),
      fc.constant(sbarrier()),
    );
  }
  if (o.barriers) {
    const n = fc.integer({ min: 1, max: 2 });
    arbs.push(
      fc.constant(sbarrier()),
      fc.constant(splitBarrier('signal')),
      fc.constant(splitBarrier('wait')),
      reg.map((r) => isfirst(r)),
      n.map((k) => named('init', 'bar', k)),
      fc.constant(named('join', 'bar')),
      n.map((k) => named('signal_var', 'bar', k)),
      fc.constant(splitBarrier('wait', 1)),
      fc.constant(leave()),
    );
  }
  return fc.oneof(...arbs);
}

/** Renames registers so each is defined once (SSA) and unique per thread. */
function ssa(body: Instr[]): Instr[] {
  let k = 0;
  return body.map((i) => {
    if ('dst' in i && i.dst !== null) return { ...i, dst: `r${k++}` } as Instr;
    return i;
  });
}

/** A small random test. */
export function arbTest(o: Partial<GenOptions> = {}): fc.Arbitrary<Test> {
  const opts: GenOptions = {
    maxThreads: 3,
    maxInstrs: 5,
    locs: ['x', 'y'],
    exotic: false,
    barriers: false,
    ...o,
  };
  const instr = arbInstr(opts, fc.constant('r'));
  return fc
    .tuple(
      fc.array(fc.array(instr, { minLength: 1, maxLength: 3 }), { minLength: 2, maxLength: opts.maxThreads }),
      fc.array(fc.constantFrom(...PLACEMENTS), { minLength: 3, maxLength: 3 }),
      fc.constantFrom<(number | 'undef')[]>([0, 0], [0, 'undef']),
    )
    .filter(([bodies]) => bodies.reduce((n, b) => n + b.length, 0) <= opts.maxInstrs)
    .map(([bodies, pl, inits]) =>
      makeTest({
        locs: {
          ...Object.fromEntries(opts.locs.map((l, i) => [l, inits[i] ?? 0])),
          ...(opts.barriers ? { bar: { barrier: true as const } } : {}),
        },
        threads: threads(bodies.map(ssa), pl),
      }),
    );
}
