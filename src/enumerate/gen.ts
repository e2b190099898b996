/**
 * fast-check generators of small random litmus tests, for property tests of the enumerator and
 * the model. Kept tiny so the brute-force reference enumerator stays fast.
 */

import fc from 'fast-check';
import type { BinOp, IcmpPred, Instr, Ordering, Placement, Scope, SyncAs, Test } from '../core/types.ts';
import {
  avld,
  avst,
  bin,
  cas,
  cond,
  dev,
  eq,
  extract,
  fence,
  icmp,
  isfirst,
  ld,
  leave,
  makeTest,
  mem,
  named,
  reg,
  rmw,
  sbarrier,
  select,
  splitBarrier,
  st,
  threads,
} from '../events/build.ts';
import { uniformLanes } from '../syntax/arbitrary.ts';
import type { ObserveMode } from './outcomes.ts';

export const LOAD_ORDERS: Ordering[] = ['notatomic', 'unordered', 'monotonic', 'acquire', 'seq_cst'];
export const STORE_ORDERS: Ordering[] = ['notatomic', 'unordered', 'monotonic', 'release', 'seq_cst'];
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
  /**
   * Several address spaces: the second location lives in LDS, and syncscopes may be `-one-as`
   * (docs/model.md, choice 6). The av intrinsics (global only) then use the first location.
   */
  spaces: boolean;
  /** Most instructions per thread (3 by default: small tests for the reference enumerator). */
  threadLen: number;
}

function arbInstr(o: GenOptions, reg: fc.Arbitrary<string>): fc.Arbitrary<Instr> {
  const loc = fc.constantFrom(...o.locs);
  const scope = fc.constantFrom(...GEN_SCOPES);
  const avNone = o.exotic ? fc.boolean() : fc.constant(false);
  const oneAs = o.spaces ? fc.boolean() : fc.constant(false);
  const globalLoc = o.spaces ? fc.constant(o.locs[0]!) : loc;
  const val = fc.integer({ min: 1, max: 2 });
  const arbs: fc.Arbitrary<Instr>[] = [
    fc
      .tuple(reg, loc, fc.constantFrom(...LOAD_ORDERS), scope, avNone, oneAs)
      .map(([r, l, ord, s, n, a]) => ld(r, l, ord, { scope: s, avNone: n, oneAs: a })),
    fc
      .tuple(loc, val, fc.constantFrom(...STORE_ORDERS), scope, avNone, oneAs)
      .map(([l, v, ord, s, n, a]) => st(l, v, ord, { scope: s, avNone: n, oneAs: a })),
    fc
      .tuple(reg, loc, fc.constantFrom(...RMW_ORDERS), scope, oneAs)
      .map(([r, l, ord, s, a]) => rmw(r, 'add', l, 1, ord, { scope: s, oneAs: a })),
    fc
      .tuple(fc.constantFrom(...FENCE_ORDERS), scope, avNone, oneAs)
      .map(([ord, s, n, a]) => fence(ord, { scope: s, avNone: n, oneAs: a })),
  ];
  if (o.exotic) {
    arbs.push(
      fc
        .tuple(reg, loc, scope, oneAs)
        .map(([r, l, s, a]) => cas(r, l, 0, 2, 'acq_rel', 'monotonic', { scope: s, oneAs: a })),
      fc.tuple(globalLoc, val, scope).map(([l, v, s]) => avst(l, v, s)),
      fc.tuple(reg, globalLoc, scope).map(([r, l, s]) => avld(r, l, s)),
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
    spaces: false,
    threadLen: 3,
    ...o,
  };
  const instr = arbInstr(opts, fc.constant('r'));
  return fc
    .tuple(
      fc.array(fc.array(instr, { minLength: 1, maxLength: opts.threadLen }), {
        minLength: 2,
        maxLength: opts.maxThreads,
      }),
      fc.array(fc.constantFrom(...PLACEMENTS), { minLength: 3, maxLength: 3 }),
      fc.constantFrom<(number | 'undef')[]>([0, 0], [0, 'undef']),
    )
    .filter(([bodies]) => bodies.reduce((n, b) => n + b.length, 0) <= opts.maxInstrs)
    .map(([bodies, pl, inits]) =>
      makeTest({
        locs: {
          ...Object.fromEntries(
            opts.locs.map((l, i) => [
              l,
              opts.spaces && i === 1 ? { init: inits[i] ?? 0, space: 'local' as const } : (inits[i] ?? 0),
            ]),
          ),
          ...(opts.barriers ? { bar: { barrier: true as const } } : {}),
        },
        threads: threads(bodies.map(ssa), pl),
      }),
    )
    .map((t) => ({ ...t, threads: uniformLanes(t.threads) }));
}

/**
 * Message passing between two waves of one workgroup over a global location `x` and an LDS
 * location `y` (each can be the data or the flag), synchronised by a release store / acquire load,
 * release and acquire fences around monotonic accesses, or fences around a workgroup barrier, each
 * synchronising operation at a random scope and possibly `-one-as`; plus one random instruction
 * per thread. Random tests of `arbTest` rarely have this shape, where `-one-as` matters most.
 */
export function arbMpSpaces(): fc.Arbitrary<Test> {
  const o: GenOptions = {
    maxThreads: 2,
    maxInstrs: 8,
    locs: ['x', 'y'],
    exotic: false,
    barriers: false,
    spaces: true,
    threadLen: 3,
  };
  // syncAs: a fence's amdgpu-synchronize-as tags (accesses ignore them).
  const sync = fc.record({
    scope: fc.constantFrom(...GEN_SCOPES),
    oneAs: fc.boolean(),
    syncAs: fc.subarray<SyncAs>(['global', 'local']),
  });
  const extra = fc.option(arbInstr(o, fc.constant('e')), { nil: null });
  return fc
    .record({
      data: fc.constantFrom('x', 'y'),
      flag: fc.constantFrom('x', 'y'),
      how: fc.constantFrom('access', 'fence', 'barrier'),
      rel: sync,
      acq: sync,
      atomicData: fc.boolean(),
      extra0: extra,
      extra1: extra,
      sameWave: fc.boolean(),
    })
    .map(({ data, flag, how, rel, acq, atomicData, extra0, extra1, sameWave }) => {
      const dataOrd: Ordering = atomicData ? 'monotonic' : 'notatomic';
      const wg = { scope: 'workgroup' as const };
      const p0: Instr[] = [st(data, 1, dataOrd, wg)];
      const p1: Instr[] = [];
      if (how === 'access') {
        p0.push(st(flag, 1, 'release', rel));
        p1.push(ld('a', flag, 'acquire', acq));
      } else if (how === 'fence') {
        p0.push(fence('release', rel), st(flag, 1, 'monotonic', wg));
        p1.push(ld('a', flag, 'monotonic', wg), fence('acquire', acq));
      } else {
        p0.push(fence('release', rel), sbarrier());
        p1.push(sbarrier(), fence('acquire', acq));
      }
      p1.push(ld('d', data, dataOrd, wg));
      if (extra0) p0.push(extra0);
      if (extra1) p1.push(extra1);
      return makeTest({
        locs: { x: 0, y: { init: 0, space: 'local' } },
        threads: threads([ssa(p0), ssa(p1)], [dev(0, 0, 0, 0), sameWave ? dev(0, 0, 0, 0) : dev(0, 0, 0, 1)]),
      });
    });
}

/** One operation of `arbRmwChains`: its kind (on the flag `x` or the data `y`) and ordering. */
interface ChainOp {
  k: 'rmw-x' | 'st-x' | 'fence-st-x' | 'ld-x' | 'st-y' | 'rmw-y' | 'ld-y';
  ord: Ordering;
}

/**
 * Candidates the brute-force reference examines: per location every order of its writes (initial
 * write included), per read every write or undef.
 */
function referenceCandidates(bodies: ChainOp[][]): number {
  const ops = bodies.flat();
  let n = 1;
  for (const l of ['x', 'y']) {
    const writes = ops.filter((o) => [`rmw-${l}`, `st-${l}`, `fence-st-${l}`].includes(o.k)).length + 1;
    const reads = ops.filter((o) => o.k === `rmw-${l}` || o.k === `ld-${l}`).length;
    for (let k = 2; k <= writes; k++) n *= k;
    n *= (writes + 1) ** reads;
  }
  return n;
}

/**
 * RMW chains and release/acquire on a flag `x` beside plain and atomic accesses to a data `y`
 * (global or LDS): P0 writes the data, updates the flag by one or two RMWs of any ordering and
 * releases it (a release store or RMW, or a release fence and a relaxed store); P1 acquires the flag
 * (mostly by an RMW) and then accesses the data (mostly an RMW); sometimes a third thread does one or
 * two of any of these. Whether P1 synchronises depends on which write of the chain it reads, so hb,
 * the data's races and its undef reads change from one coherence order of the flag to the next, and
 * the flag's RMW reads, forced by coherence (`coForcedRmw`), come in runs whose checks wait for the
 * last: the search's reuse of relations derived on another path is exercised on most tests. About a
 * quarter take a run of forced RMW reads in a test that checks value rules while hb still depends on
 * the choices. `arbTest` draws each instruction independently: 7 % of its tests have that shape, but
 * with `Workspace.hbFinalNow` comparing with a stale hb again (no `baseCurrent` test) none of 38 000
 * of them disagreed with the reference, against 4–6 % of these.
 */
export function arbRmwChains(): fc.Arbitrary<Test> {
  const op = (k: ChainOp['k'], ...ords: Ordering[]) =>
    fc.record({ k: fc.constant(k), ord: fc.constantFrom(...ords) }) as fc.Arbitrary<ChainOp>;
  const rmwX = op('rmw-x', 'monotonic', 'monotonic', 'acquire', 'release', 'acq_rel', 'seq_cst');
  const release = fc.oneof(
    { arbitrary: op('st-x', 'release', 'release', 'seq_cst', 'monotonic'), weight: 2 },
    { arbitrary: op('rmw-x', 'release', 'acq_rel'), weight: 2 },
    op('fence-st-x', 'release'),
  );
  const acquire = fc.oneof(
    { arbitrary: op('rmw-x', 'acquire', 'acq_rel', 'seq_cst', 'monotonic'), weight: 3 },
    op('ld-x', 'acquire', 'monotonic'),
  );
  const dataWrite = op('st-y', 'notatomic', 'notatomic', 'monotonic');
  const dataAccess = fc.oneof(
    { arbitrary: op('rmw-y', 'monotonic', 'acquire', 'release'), weight: 3 },
    op('ld-y', 'notatomic', 'monotonic'),
  );
  const some = <T>(a: fc.Arbitrary<T>, freq: number) => fc.option(a, { nil: null, freq });
  // Each weight keeps what makes hb depend on the chain: a data write, a chain, a release, a data
  // access after the acquire, scopes inclusive (threads of one workgroup), sync ordering the data
  // (`-one-as` through a global flag orders no LDS data: sometimes only).
  return (
    fc
      .record({
        p0: fc.tuple(some(dataWrite, 6), fc.array(rmwX, { minLength: 1, maxLength: 2 }), some(release, 6)),
        p1: fc.tuple(fc.array(acquire, { minLength: 1, maxLength: 2 }), some(dataAccess, 10)),
        p2: some(
          fc.array(fc.oneof(rmwX, release, acquire, dataWrite, dataAccess), { minLength: 1, maxLength: 2 }),
          2,
        ),
        lds: fc.boolean(),
        scope: fc.constantFrom<Scope>('agent', 'system', 'workgroup'),
        dataScope: fc.constantFrom<Scope>('agent', 'workgroup', 'wavefront'),
        oneAs: fc.constantFrom(false, false, false, true),
        placements: fc.constantFrom(
          [dev(0, 0, 0, 0), dev(0, 0, 1, 0), dev(0, 0, 2, 0)],
          [dev(0, 0, 0, 0), dev(0, 0, 0, 1), dev(0, 0, 0, 2)],
          [dev(0, 0, 0, 0), dev(0, 0, 0, 1), dev(0, 0, 0, 2)],
          [dev(0, 0, 0, 0), dev(0, 0, 0, 1), dev(0, 0, 1, 0)],
        ),
      })
      .map(({ p0, p1, p2, ...rest }) => {
        const bodies = [[p0[0], ...p0[1], p0[2]], [...p1[0], p1[1]], p2 ?? []].map((b) =>
          b.filter((o): o is ChainOp => o !== null),
        );
        return { bodies: bodies.filter((b) => b.length > 0), ...rest };
      })
      // Small enough for the brute-force reference (about a second at most, most far less).
      .filter(({ bodies }) => bodies.length >= 2 && referenceCandidates(bodies) <= 10_000)
      .map(({ bodies, lds, scope, dataScope, oneAs, placements }) => {
        let value = 0;
        const body = (ops: ChainOp[]): Instr[] =>
          ops.flatMap((o, j): Instr[] => {
            const opts = { scope: o.k.endsWith('y') ? dataScope : scope, oneAs: lds && oneAs };
            const r = `r${j}`;
            switch (o.k) {
              case 'rmw-x':
                return [rmw(r, 'add', 'x', 1, o.ord, opts)];
              case 'st-x':
                return [st('x', 10 * ++value, o.ord, opts)];
              case 'fence-st-x':
                return [fence(o.ord, opts), st('x', 10 * ++value, 'monotonic', opts)];
              case 'ld-x':
                return [ld(r, 'x', o.ord, opts)];
              case 'st-y':
                return [st('y', 10 * ++value, o.ord, opts)];
              case 'rmw-y':
                return [rmw(r, 'add', 'y', 1, o.ord, opts)];
              default:
                return [ld(r, 'y', o.ord, opts)];
            }
          });
        return makeTest({
          locs: { x: 0, y: lds ? { init: 0, space: 'local' } : 0 },
          threads: threads(
            bodies.map(body),
            bodies.map((_, i) => placements[i]!),
          ),
        });
      })
  );
}

/** One access of a classic shape: a write of `v` or a read, of `x` or `y`. */
interface ShapeOp {
  k: 'W' | 'R';
  loc: 'x' | 'y';
  v?: number;
}
const W = (loc: 'x' | 'y', v = 1): ShapeOp => ({ k: 'W', loc, v });
const R = (loc: 'x' | 'y'): ShapeOp => ({ k: 'R', loc });

/** The classic shapes over two locations, each thread's accesses in program order. */
export const CLASSIC_SHAPES: Record<string, ShapeOp[][]> = {
  SB: [
    [W('x'), R('y')],
    [W('y'), R('x')],
  ],
  LB: [
    [R('x'), W('y')],
    [R('y'), W('x')],
  ],
  MP: [
    [W('x'), W('y')],
    [R('y'), R('x')],
  ],
  R: [
    [W('x'), W('y')],
    [W('y', 2), R('x')],
  ],
  S: [
    [W('x', 2), W('y')],
    [R('y'), W('x')],
  ],
  '2+2W': [
    [W('x'), W('y', 2)],
    [W('y'), W('x', 2)],
  ],
  IRIW: [[W('x')], [W('y')], [R('x'), R('y')], [R('y'), R('x')]],
  WRC: [[W('x')], [R('x'), W('y')], [R('y'), R('x')]],
};

/** How one access of a shape is made: its ordering (a write's acquire is release) and scope. */
export interface ShapeAccess {
  ordering: Ordering;
  scope: Scope;
}

/**
 * A classic shape as a test: `access(thread, k)` makes each access, `fenceOf(thread)` puts a fence
 * between a thread's two accesses (or none), threads go to `placements` in order.
 */
export function classicShape(
  name: string,
  access: (thread: number, k: number) => ShapeAccess,
  fenceOf: (thread: number) => ShapeAccess | null,
  placements: readonly Placement[],
): Test {
  const bodies = CLASSIC_SHAPES[name]!;
  return makeTest({
    locs: { x: 0, y: 0 },
    threads: threads(
      bodies.map((ops, t) => {
        const out: Instr[] = [];
        const f = fenceOf(t);
        ops.forEach((o, k) => {
          if (k === 1 && f) out.push(fence(f.ordering, { scope: f.scope }));
          const { ordering, scope } = access(t, k);
          const ord =
            o.k === 'W' && ordering === 'acquire'
              ? 'release'
              : o.k === 'R' && ordering === 'release'
                ? 'acquire'
                : ordering;
          out.push(o.k === 'W' ? st(o.loc, o.v ?? 1, ord, { scope }) : ld('r', o.loc, ord, { scope }));
        });
        return ssa(out);
      }),
      placements.slice(0, bodies.length),
    ),
  });
}

/**
 * The classic shapes with each access at a random ordering (seq_cst often) and scope, a fence between
 * a thread's two accesses now and then, and random placements. `arbTest` rarely builds them, and
 * they are where scoped seq_cst, coherence and no-thin-air decide verdicts.
 */
export function arbShape(): fc.Arbitrary<Test> {
  const access = fc.record({
    ordering: fc.constantFrom<Ordering>('seq_cst', 'seq_cst', 'monotonic', 'acquire', 'notatomic'),
    scope: fc.constantFrom(...GEN_SCOPES),
  });
  const fenceOf = fc.option(
    fc.record({
      ordering: fc.constantFrom<Ordering>('seq_cst', 'seq_cst', 'acq_rel'),
      scope: fc.constantFrom(...GEN_SCOPES),
    }),
    { nil: null, freq: 3 },
  );
  return fc
    .record({
      name: fc.constantFrom(...Object.keys(CLASSIC_SHAPES)),
      accesses: fc.array(fc.array(access, { minLength: 2, maxLength: 2 }), { minLength: 4, maxLength: 4 }),
      fences: fc.array(fenceOf, { minLength: 4, maxLength: 4 }),
      placements: fc.array(fc.constantFrom(...PLACEMENTS), { minLength: 4, maxLength: 4 }),
    })
    .map(({ name, accesses, fences, placements }) =>
      classicShape(
        name,
        (t, k) => accesses[t]![k]!,
        (t) => fences[t]!,
        placements,
      ),
    );
}

/** Placements of the classic shapes' deterministic tests: every thread in its own workgroup, or agent. */
export const SHAPE_PLACEMENTS: Record<string, Placement[]> = {
  'one workgroup': [dev(0, 0, 0, 0), dev(0, 0, 0, 1), dev(0, 0, 0, 2), dev(0, 0, 0, 3)],
  'one agent': [dev(0, 0, 0, 0), dev(0, 0, 1, 0), dev(0, 0, 2, 0), dev(0, 0, 3, 0)],
  'four agents': [dev(0, 0, 0, 0), dev(1, 0, 0, 0), dev(2, 0, 0, 0), dev(3, 0, 0, 0)],
};

/**
 * k copies of one thread body (the same constants, or each copy its own: `relabel`), placed so that
 * all, some or none of them are interchangeable, beside an optional observer thread.
 */
const symOp = fc.record({
  kind: fc.constantFrom('store', 'store', 'load', 'load', 'fence', 'rmw'),
  loc: fc.integer({ min: 0, max: 1 }),
  ordering: fc.constantFrom<Ordering>('monotonic', 'monotonic', 'acquire', 'release', 'seq_cst', 'notatomic'),
  scope: fc.constantFrom<Scope>('system', 'agent', 'workgroup', 'wavefront'),
});
export const arbSymmetric = fc
  .record({
    body: fc.array(symOp, { minLength: 1, maxLength: 3 }),
    copies: fc.integer({ min: 2, max: 3 }),
    relabel: fc.boolean(),
    observer: fc.array(symOp, { maxLength: 2 }),
    // mixed: the last copy sits apart; observer-near: the observer shares a workgroup with copy 0
    // only. Neither may be permuted with the other copies.
    placement: fc.constantFrom(
      'agents',
      'workgroups',
      'waves',
      'mixed',
      'mixed',
      'observer-near',
      'observer-near',
    ),
    // The observer stores constants the copies store too: no relabelling then.
    clash: fc.boolean(),
    // x1 in LDS: one instance per workgroup.
    lds: fc.constantFrom(false, false, true),
    init: fc.constantFrom<number | 'undef'>(0, 0, 'undef'),
    observe: fc.constantFrom<ObserveMode>('all', 'condition', 'condition'),
    watch: fc.constantFrom('observer', 'first', 'memory', 'none'),
  })
  .filter(({ body, copies, observer }) => body.length * copies + observer.length <= 7)
  // The reference enumerator is slow on many writes and RMWs.
  .filter(({ body, copies, observer }) => {
    const count = (ops: typeof body, k: string[]) => ops.filter((o) => k.includes(o.kind)).length;
    const writes = count(body, ['store', 'rmw']) * copies + count(observer, ['store', 'rmw']);
    const rmws = count(body, ['rmw']) * copies + count(observer, ['rmw']);
    return writes <= 4 && rmws <= 2;
  })
  .map(({ body, copies, relabel, observer, placement, clash, lds, init, observe, watch }) => {
    let next = 1;
    const make = (ops: typeof body, fresh: boolean, base: number): Instr[] =>
      ops.map((o, j) => {
        const x = `x${o.loc}`;
        const opts = { scope: o.scope };
        const ordering = o.ordering;
        switch (o.kind) {
          case 'store':
            return st(x, fresh ? next++ : base + j, ordering === 'acquire' ? 'monotonic' : ordering, opts);
          case 'load':
            return ld(`r${j}`, x, ordering === 'release' ? 'monotonic' : ordering, opts);
          case 'fence':
            return fence(ordering === 'monotonic' || ordering === 'notatomic' ? 'acq_rel' : ordering, opts);
          default:
            // Relabelling needs values that only travel: no arithmetic.
            if (fresh) return st(x, next++, ordering === 'acquire' ? 'monotonic' : ordering, opts);
            return rmw(`r${j}`, 'add', x, 1, ordering === 'notatomic' ? 'monotonic' : ordering, opts);
        }
      });
    const bodies = Array.from({ length: copies }, () => make(body, relabel, 1));
    if (clash) next = 1;
    if (observer.length > 0) bodies.push(make(observer, true, 0));
    const place = (i: number): Placement => {
      if (i === copies) return placement === 'observer-near' ? dev(0, 0, 0, 1) : dev(9, 0, 0, 0);
      switch (placement) {
        case 'agents':
        case 'observer-near':
          return dev(i, 0, 0, 0);
        case 'workgroups':
          return dev(0, 0, i, 0);
        case 'waves':
          return dev(0, 0, 0, i);
        default:
          return i < copies - 1 ? dev(0, 0, 0, i) : dev(5, 0, 0, 0);
      }
    };
    let t = makeTest({
      locs: { x0: init, x1: lds ? { init: 0, space: 'local' } : 0 },
      threads: threads(
        bodies,
        bodies.map((_, i) => place(i)),
      ),
    });
    const loadOf = (th: number) => t.threads[th]?.body.find((i) => i.kind === 'load' || i.kind === 'rmw');
    const watched = watch === 'observer' ? loadOf(copies) : watch === 'first' ? loadOf(0) : undefined;
    if (watched && 'dst' in watched && watched.dst)
      t = { ...t, condition: cond('exists', eq(reg(`P${watch === 'first' ? 0 : copies}`, watched.dst), 1)) };
    else if (watch === 'memory') t = { ...t, condition: cond('exists', eq(mem('x0'), 1)) };
    return { t, observe };
  });

/** One step of a thread of `arbDataTest`, before its operands are resolved to registers. */
interface DataOp {
  kind: 'load' | 'store' | 'bin' | 'choose' | 'rmw' | 'cas';
  loc: number;
  op: number;
  /** Operand choices: a register defined earlier (resolved modulo their number) or a constant. */
  a: number;
  b: number;
  c: number;
  atomic: boolean;
}

const DATA_BIN: BinOp[] = ['add', 'sub', 'xor', 'and', 'or', 'mul'];
const DATA_PREDS: IcmpPred[] = ['eq', 'ne', 'ult', 'sgt'];

/**
 * Small tests whose stores, RMWs and cmpxchg take values computed from loads (data dependencies,
 * arithmetic, comparisons and selects): load buffering through them builds value cycles, whose
 * values are solved (`Evaluator.solve`, docs/model.md "Values out of thin air") when no-thin-air
 * is off. Each thread starts with a load into `r0` (even threads of `x`, odd ones of `y`) and, half
 * the time, ends storing its newest register to the other location (the LB shape); the condition,
 * when there is one, compares `P0:r0` with a constant (a constant of the solving domain).
 */
export function arbDataTest(): fc.Arbitrary<Test> {
  // Operand choices: below 0 a constant (-1 → 0 … -4 → 3), else a register.
  const operand = fc.integer({ min: -4, max: 5 });
  const op: fc.Arbitrary<DataOp> = fc.record({
    kind: fc.constantFrom<DataOp['kind']>('load', 'store', 'store', 'bin', 'bin', 'choose', 'rmw', 'cas'),
    loc: fc.integer({ min: 0, max: 1 }),
    op: fc.nat(5),
    a: operand,
    b: operand,
    c: operand,
    atomic: fc.constantFrom(true, true, true, false),
  });
  return fc
    .record({
      bodies: fc.array(fc.array(op, { minLength: 1, maxLength: 3 }), { minLength: 2, maxLength: 3 }),
      firstAtomic: fc.array(fc.constantFrom(true, true, true, false), { minLength: 3, maxLength: 3 }),
      inits: fc.constantFrom<[number, number]>([0, 0], [0, 1], [2, 0]),
      watch: fc.option(fc.constantFrom(0, 1, 2, 42), { nil: null }),
      lb: fc.boolean(),
    })
    .filter(({ bodies }) => {
      const writes = bodies.flat().filter((o) => ['store', 'rmw', 'cas'].includes(o.kind)).length;
      const rmws = bodies.flat().filter((o) => o.kind === 'rmw' || o.kind === 'cas').length;
      return bodies.reduce((n, b) => n + b.length, bodies.length) <= 8 && writes <= 4 && rmws <= 1;
    })
    .map(({ bodies, firstAtomic, inits, watch, lb }) => {
      const built = bodies.map((ops, t) => {
        const regs: string[] = [];
        let next = 0;
        const fresh = () => {
          const r = `r${next++}`;
          return r;
        };
        const val = (k: number): number | string =>
          k < 0 || regs.length === 0 ? Math.abs(k) - 1 : regs[k % regs.length]!;
        const out: Instr[] = [];
        const loc0 = t % 2 === 0 ? 'x' : 'y';
        const first = fresh();
        out.push(ld(first, loc0, firstAtomic[t] ? 'monotonic' : 'notatomic'));
        regs.push(first);
        for (const o of ops) {
          const loc = o.loc === 0 ? 'x' : 'y';
          const ord: Ordering = o.atomic ? 'monotonic' : 'notatomic';
          switch (o.kind) {
            case 'load': {
              const r = fresh();
              out.push(ld(r, loc, ord));
              regs.push(r);
              break;
            }
            case 'store':
              // Mostly a register: the data dependency that closes a cycle.
              out.push(st(loc, val(o.a < 0 && o.a > -3 ? 0 : o.a), ord));
              break;
            case 'bin': {
              const r = fresh();
              out.push(bin(r, DATA_BIN[o.op % DATA_BIN.length]!, val(o.a), val(o.b)));
              regs.push(r);
              break;
            }
            case 'choose': {
              const c = fresh();
              const r = fresh();
              out.push(icmp(c, DATA_PREDS[o.op % DATA_PREDS.length]!, val(o.a), val(o.b)));
              out.push(select(r, c, val(o.b), val(o.c)));
              regs.push(r);
              break;
            }
            case 'rmw': {
              const r = fresh();
              out.push(rmw(r, o.op % 2 === 0 ? 'xchg' : 'add', loc, val(o.a), 'monotonic'));
              regs.push(r);
              break;
            }
            default: {
              const p = fresh();
              const r = fresh();
              out.push(cas(p, loc, val(o.a), val(o.b)), extract(r, p, 0));
              regs.push(r);
            }
          }
        }
        // `lb`: the thread ends storing its newest register to the location the other threads
        // load first (load buffering through data dependencies: a value cycle when the loads
        // read each other's stores).
        if (lb) out.push(st(loc0 === 'x' ? 'y' : 'x', regs[regs.length - 1]!, 'monotonic'));
        return out;
      });
      return makeTest({
        locs: { x: inits[0], y: inits[1] },
        threads: threads(built),
        cond: watch === null ? null : cond('exists', eq(reg('P0', 'r0'), watch)),
      });
    });
}
