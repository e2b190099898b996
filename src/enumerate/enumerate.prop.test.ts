import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Ordering, Placement, Scope, Test } from '../core/types.ts';
import { cond, dev, eq, fence, ld, makeTest, reg, rmw, st, threads } from '../events/build.ts';
import { DEFAULT_OPTIONS } from '../models/amdgpu.ts';
import { stateStrings, withCounts } from '../models/testutil.ts';
import { Enumeration, enumerate, prepareVariant } from './enumerate.ts';
import { arbDataTest, arbMpSpaces, arbRmwChains, arbTest } from './gen.ts';
import type { ObserveMode } from './outcomes.ts';
import { referenceEnumerate } from './reference.ts';

/** The optimised and the reference enumerator find the same states, counts and flags. */
function agree(t: Test, model = DEFAULT_OPTIONS, observe: ObserveMode = 'all'): void {
  const fast = enumerate(t, { model, observe });
  const ref = referenceEnumerate(t, model, null, observe);
  expect(withCounts(fast.collector)).toEqual(withCounts(ref.collector));
  expect(fast.stats.consistent).toBe(ref.collector.executions);
}

/**
 * Threads of constant stores and loads in any order (W;R;W;R, R;W, …), one or two locations, atomics
 * of one ordering side: a read po-before a write of its own location keeps the product path, a read
 * po-before a write of another location must leave it.
 */
// `sync`: with relaxed atomics, this store is a release and this load an acquire (hb then depends
// on rf: loads that end their thread take the sink-tail product, src/enumerate/enumerate.ts).
const op = fc.record({ store: fc.boolean(), loc: fc.integer({ min: 0, max: 1 }), sync: fc.boolean() });
const arbCoShape = fc
  .record({
    bodies: fc.array(fc.array(op, { minLength: 2, maxLength: 3 }), { minLength: 2, maxLength: 3 }),
    locs: fc.integer({ min: 1, max: 2 }),
    // Mostly relaxed: synchronisation or plain accesses leave the product path.
    ordering: fc.oneof(
      { arbitrary: fc.constant<Ordering>('monotonic'), weight: 4 },
      fc.constantFrom<Ordering>('acquire', 'release', 'seq_cst', 'notatomic'),
    ),
    scope: fc.constantFrom<Scope>('system', 'agent', 'workgroup', 'wavefront'),
    same: fc.constantFrom('agent', 'workgroup', 'wave'),
    // An uninitialised location: reading its initial value returns undef (the undef flags).
    init: fc.constantFrom<number | 'undef'>(0, 0, 'undef'),
  })
  .filter(({ bodies }) => bodies.flat().length <= 8)
  .map(({ bodies, locs, ordering, scope, same, init }): Test => {
    const o = (kind: 'load' | 'store'): Ordering =>
      ordering === 'acquire' && kind === 'store'
        ? 'monotonic'
        : ordering === 'release' && kind === 'load'
          ? 'monotonic'
          : ordering;
    const place = (i: number): Placement =>
      same === 'agent' ? dev(i, 0, 0, 0) : same === 'workgroup' ? dev(0, 0, i, 0) : dev(0, 0, 0, i);
    let value = 0;
    return makeTest({
      locs: Object.fromEntries(Array.from({ length: locs }, (_, k) => [`x${k}`, k === 0 ? init : 0])),
      threads: threads(
        bodies.map((ops) =>
          ops.map((p, j) =>
            p.store
              ? st(`x${p.loc % locs}`, ++value, p.sync && ordering === 'monotonic' ? 'release' : o('store'), {
                  scope,
                })
              : ld(`r${j}`, `x${p.loc % locs}`, p.sync && ordering === 'monotonic' ? 'acquire' : o('load'), {
                  scope,
                }),
          ),
        ),
        bodies.map((_, i) => place(i)),
      ),
    });
  });

describe('optimised enumerator against the brute-force reference', () => {
  it('same final states, counts and flags on random small tests', () => {
    fc.assert(
      fc.property(arbTest(), (t) => agree(t)),
      { numRuns: 1500 },
    );
  });

  it('also on longer threads (value rules checked during the search, hb bounds)', () => {
    // Threads of up to 4 instructions: reads that synchronise before racy ones, undef choices
    // decided before the last read (`Workspace.hbUpper`, `canSynchronise`).
    fc.assert(
      fc.property(arbTest({ maxThreads: 3, threadLen: 4, maxInstrs: 7 }), (t) => agree(t)),
      { numRuns: 150 },
    );
  }, 120_000);

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

  it('also on RMW chains with release and acquire on one location beside plain and atomic accesses to another', () => {
    // hb depends on which write of the flag's RMW chain the acquire reads, and the data's races and
    // undef reads with it; the flag's forced RMW reads come in runs whose checks wait for the last
    // (`arbRmwChains`). The runs that reach such a run in a test whose value rules are checked while
    // hb still depends on the choices are counted: with a stale hb there, 4–6 % of tests disagree.
    let deferred = 0;
    fc.assert(
      fc.property(arbRmwChains(), (t) => {
        agree(t);
        const ws = prepareVariant(t, 0, undefined, 'all', true).ws;
        const cps = new Enumeration(t).choicePoints(0);
        if (!ws.syncFree && ws.valueCheckReads.length > 0 && cps.some((cp) => cp.kind === 'rf' && cp.defer))
          deferred++;
      }),
      { numRuns: 250 },
    );
    // 29–51 of 250 over seeds (about 16 %): the bound catches a generator that stops making them,
    // not the spread of a random sample.
    expect(deferred).toBeGreaterThan(12);
  }, 120_000);

  it('also on shapes whose last reads form an independent tail (the product path)', () => {
    // Coherence / store-buffering shapes: constant stores, then loads whose registers nothing uses,
    // one or two locations, atomics of one ordering side (no synchronisation), various placements.
    const arbShape = fc
      .record({
        n: fc.integer({ min: 2, max: 3 }),
        locs: fc.integer({ min: 1, max: 2 }),
        ordering: fc.constantFrom<Ordering>('monotonic', 'acquire', 'release', 'seq_cst', 'notatomic'),
        scope: fc.constantFrom<Scope>('system', 'agent', 'workgroup', 'wavefront'),
        same: fc.constantFrom('agent', 'workgroup', 'wave'),
        extraLoads: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
      })
      .map(({ n, locs, ordering, scope, same, extraLoads }): Test => {
        const o = (kind: 'load' | 'store'): Ordering =>
          ordering === 'acquire' && kind === 'store'
            ? 'monotonic'
            : ordering === 'release' && kind === 'load'
              ? 'monotonic'
              : ordering;
        const loc = (i: number) => `x${i % locs}`;
        const place = (i: number): Placement =>
          same === 'agent' ? dev(i, 0, 0, 0) : same === 'workgroup' ? dev(0, 0, i, 0) : dev(0, 0, 0, i);
        const bodies = Array.from({ length: n }, (_, i) => [
          st(loc(i), i + 1, o('store'), { scope }),
          ld('r', loc(i + 1), o('load'), { scope }),
          ...(extraLoads[i] ? [ld('s', loc(i), o('load'), { scope })] : []),
        ]);
        return makeTest({
          locs: Object.fromEntries(Array.from({ length: locs }, (_, k) => [`x${k}`, 0])),
          threads: threads(
            bodies,
            Array.from({ length: n }, (_, i) => place(i)),
          ),
        });
      });
    let products = 0;
    fc.assert(
      fc.property(arbShape, (t) => {
        agree(t);
        products += enumerate(t).products;
      }),
      { numRuns: 300 },
    );
    // 243–368 over 40 seeds (mean 318, sd 33): the bound is 5 sd below the mean.
    expect(products).toBeGreaterThan(150);
  });

  it('also on tails whose reads are po-before writes (no-thin-air implied by coherence)', () => {
    // Threads of constant stores and loads in any order (W;R;W;R, R;W, …), one or two locations,
    // atomics of one ordering side: a read po-before a write of its own location keeps the product
    // path, a read po-before a write of another location must leave it.
    // Coverage: tests (not product starts, which vary by hundreds) that took each path.
    let viaProduct = 0;
    let viaSinks = 0;
    fc.assert(
      fc.property(arbCoShape, (t) => {
        agree(t);
        const e = enumerate(t);
        if (e.products > 0) viaProduct++;
        if (e.sinkProducts > 0) viaSinks++;
      }),
      { numRuns: 400 },
    );
    // Over 40 seeds: viaProduct 72–118 (mean 92, sd 9), viaSinks 13–36 (mean 21, sd 5; about
    // Poisson, P(≤ 2) ≈ 2·10⁻⁷): each bound is about 5 sd below the mean.
    expect(viaProduct).toBeGreaterThan(45);
    expect(viaSinks).toBeGreaterThan(2);
  }, 120_000);

  it('--observe condition: states over the condition only, unobserved tail reads counted not enumerated', () => {
    // A condition on one load's register (or none); every other read is unobserved.
    const withCondition = (t: Test, pick: number, value: number): Test => {
      const loads = t.threads.flatMap((th) =>
        th.body.flatMap((i) => (i.kind === 'load' ? [{ thread: th.name, dst: i.dst }] : [])),
      );
      if (loads.length === 0) return t;
      const l = loads[pick % loads.length]!;
      return { ...t, condition: cond('exists', eq(reg(l.thread, l.dst), value)) };
    };
    let collapsedRuns = 0;
    fc.assert(
      fc.property(arbCoShape, fc.nat(), fc.integer({ min: 0, max: 3 }), (t0, pick, value) => {
        const t = withCondition(t0, pick, value);
        agree(t, DEFAULT_OPTIONS, 'condition');
        const e = enumerate(t, { observe: 'condition' });
        if (e.stats.explored < e.stats.consistent) collapsedRuns++;
      }),
      { numRuns: 300 },
    );
    // 33–67 over 40 seeds (mean 52, sd 7): 6 sd below the mean.
    expect(collapsedRuns).toBeGreaterThan(10);
    fc.assert(
      fc.property(
        arbTest({ exotic: true, maxInstrs: 4 }),
        fc.nat(),
        fc.integer({ min: 0, max: 2 }),
        (t0, pick, v) => agree(withCondition(t0, pick, v), DEFAULT_OPTIONS, 'condition'),
      ),
      { numRuns: 300 },
    );
  }, 120_000);

  it('also on sink tails: loads that end their thread in tests that synchronise', () => {
    // Stores (release, relaxed or seq_cst), then one or two loads (acquire, relaxed or seq_cst)
    // per thread: hb depends on rf, and the loads are followed by loads only.
    const strong = (kind: 'load' | 'store') =>
      fc.constantFrom<Ordering>(kind === 'store' ? 'release' : 'acquire', 'monotonic', 'seq_cst');
    const arbThread = fc.record({
      stores: fc.array(fc.tuple(fc.integer({ min: 0, max: 1 }), strong('store')), {
        minLength: 1,
        maxLength: 2,
      }),
      // One or two loads end the thread: both are tail reads, and an acquire among them orders
      // what its source's release puts before it before the later one (`suffixSwOk`).
      loads: fc.array(fc.tuple(fc.integer({ min: 0, max: 1 }), strong('load')), {
        minLength: 1,
        maxLength: 2,
      }),
    });
    const arbSinks = fc
      .record({
        bodies: fc.array(arbThread, { minLength: 2, maxLength: 3 }),
        // Mostly two locations: with one, synchronisation is moot and the search drops it
        // (`Workspace.syncMoot`), so the test takes the independent-tail product instead.
        locs: fc.constantFrom(1, 2, 2, 2),
        scope: fc.constantFrom<Scope>('system', 'system', 'agent'),
        same: fc.constantFrom('agent', 'workgroup'),
        init: fc.constantFrom<number | 'undef'>(0, 0, 0, 'undef'),
      })
      // Small enough for the brute-force reference.
      .filter(({ bodies }) => bodies.reduce((n, b) => n + b.stores.length + b.loads.length, 0) <= 7)
      .map(({ bodies, locs, scope, same, init }): Test => {
        let value = 0;
        const x = (l: number) => `x${l % locs}`;
        return makeTest({
          locs: Object.fromEntries(Array.from({ length: locs }, (_, k) => [`x${k}`, k === 0 ? init : 0])),
          threads: threads(
            bodies.map((b) => [
              ...b.stores.map(([l, o]) => st(x(l), ++value, o, { scope })),
              ...b.loads.map(([l, o], k) => ld(`r${k}`, x(l), o, { scope })),
            ]),
            bodies.map((_, i) => (same === 'agent' ? dev(i, 0, 0, 0) : dev(0, 0, i, 0))),
          ),
        });
      });
    let viaSinks = 0;
    fc.assert(
      fc.property(arbSinks, (t) => {
        agree(t);
        if (enumerate(t).sinkProducts > 0) viaSinks++;
      }),
      { numRuns: 500 },
    );
    // 56–104 over 40 seeds (mean 75, sd 9.4): 50 was 2.6 sd below the mean (a failure in about
    // 200 runs); this bound is 5 sd below.
    expect(viaSinks).toBeGreaterThan(28);
  }, 120_000);

  it('sink tail: an acquire load carries its source release’s past before the next load of its thread', () => {
    // P1's acquire load of x reads P0's release store of x, so P0's y = 1 happens before P1's load
    // of y: with y = 2 coherence-before y = 1 that load cannot return 2 (CoWR through the sw edge
    // into the earlier tail read; `Workspace.suffixSwOk`).
    const t = makeTest({
      locs: { x: 0, y: 0 },
      threads: threads(
        [
          [st('y', 1, 'monotonic'), st('x', 1, 'release')],
          [st('y', 2, 'monotonic'), ld('a', 'x', 'acquire'), ld('b', 'y', 'monotonic')],
        ],
        [dev(0, 0, 0, 0), dev(1, 0, 0, 0)],
      ),
    });
    agree(t);
    const e = enumerate(t);
    expect(e.sinkProducts).toBeGreaterThan(0);
    expect(e.stats.consistent).toBe(5);
  });

  it('a relaxed RMW continues a release sequence: its read is chosen before hb counts as final', () => {
    // P0's release store of y heads a release sequence that P1's relaxed RMW continues; P2's
    // acquire load reads the RMW's write, so it synchronises with P0 and P0's plain store of x
    // happens before P2's plain load (no race, x = 1). The RMW's read can change sw although it
    // is no acquire (`Workspace.canSynchronise`): hb is final only once it is chosen. (The
    // wavefront-scope accesses of z, in two workgroups, make a read that may be undef, so value
    // rules are checked during the search.)
    const t = makeTest({
      locs: { x: 0, y: 0, z: 0 },
      threads: threads(
        [
          [
            st('x', 1),
            st('z', 1, 'monotonic', { scope: 'wavefront' }),
            st('y', 1, 'release', { scope: 'agent' }),
          ],
          [rmw('u', 'add', 'y', 1, 'monotonic', { scope: 'agent' })],
          [
            ld('a', 'y', 'acquire', { scope: 'agent' }),
            ld('b', 'x'),
            ld('c', 'z', 'monotonic', { scope: 'wavefront' }),
          ],
        ],
        [dev(0, 0, 0, 0), dev(0, 0, 1, 0), dev(0, 0, 2, 0)],
      ),
    });
    agree(t);
    const states = stateStrings(enumerate(t).collector);
    expect(states.some((s) => s.includes('P2:a=2') && s.includes('P2:b=1'))).toBe(true);
  });

  it('an acquire RMW reading a relaxed RMW coherence-before the release does not synchronise: the data RMW races', () => {
    // P1's seq_cst RMW of x may read P0's relaxed RMW, which comes before P0's release store in
    // coherence order and is in no release sequence of it: no sw, P0's plain store of the LDS
    // location y races P1's RMW of y, which reads undef (two coherence orders of y). P0's RMW read
    // is the first of a run of forced RMW reads (`coForcedRmw`), whose checks wait for the next one;
    // the search once asked there whether hb was final by comparing with the hb derived for the
    // previous coherence order of y, where P1 read the release store, and lost the state where P1
    // reads P0's RMW (`Workspace.baseCurrent`; the counterexample of seed -1810933667 of the LDS
    // test above; `litmus/MP+rmw-before-rel+acq-rmw.agent` is the catalogue's global twin).
    const t = makeTest({
      locs: { x: 0, y: { init: 0, space: 'local' } },
      threads: threads(
        [
          [st('y', 1), rmw('r0', 'add', 'x', 1, 'monotonic'), st('x', 1, 'release')],
          [rmw('r0', 'add', 'x', 1, 'seq_cst'), rmw('r1', 'add', 'y', 1, 'monotonic')],
        ],
        [dev(0, 0, 1, 0), dev(0, 0, 1, 0)],
      ),
    });
    agree(t);
    expect(withCounts(enumerate(t).collector)).toEqual([
      'P0:r0=0 P1:r0=1 P1:r1=1 ×1',
      'P0:r0=0 P1:r0=1 P1:r1=undef !race !undef ×2',
      'P0:r0=1 P1:r0=0 P1:r1=undef !race !undef ×2',
    ]);
  });

  it('release and acquire on one location: the search drops sw and finds what the reference finds', () => {
    // Threads of stores, loads, RMWs and fences on one location (sometimes two, or an uninitialised
    // one), any ordering and scope: where every access is atomic with inclusive scopes sw cannot change a
    // verdict (`Workspace.syncMoot`) and the pruned search runs without it.
    const order = (kind: 'load' | 'store' | 'fence') =>
      kind === 'store'
        ? fc.constantFrom<Ordering>('monotonic', 'release', 'release', 'release', 'seq_cst')
        : kind === 'load'
          ? fc.constantFrom<Ordering>('monotonic', 'acquire', 'acquire', 'acquire', 'seq_cst', 'notatomic')
          : fc.constantFrom<Ordering>('acquire', 'release', 'acq_rel', 'acq_rel', 'seq_cst');
    const scope = fc.oneof(
      { arbitrary: fc.constant<Scope>('system'), weight: 6 },
      fc.constantFrom<Scope>('agent', 'workgroup', 'wavefront'),
    );
    const arbOp = fc.oneof(
      { arbitrary: fc.tuple(fc.constant('store' as const), order('store'), scope, fc.nat(1)), weight: 3 },
      { arbitrary: fc.tuple(fc.constant('load' as const), order('load'), scope, fc.nat(1)), weight: 3 },
      {
        arbitrary: fc.tuple(fc.constant('fence' as const), order('fence'), scope, fc.constant(0)),
        weight: 1,
      },
      {
        arbitrary: fc.tuple(
          fc.constant('rmw' as const),
          fc.constantFrom<Ordering>('monotonic', 'acq_rel'),
          scope,
          fc.nat(1),
        ),
        weight: 1,
      },
    );
    const arbOneLoc = fc
      .record({
        bodies: fc.array(fc.array(arbOp, { minLength: 1, maxLength: 3 }), { minLength: 2, maxLength: 3 }),
        locs: fc.oneof({ arbitrary: fc.constant(1), weight: 3 }, fc.constant(2)),
        init: fc.constantFrom<number | 'undef'>(0, 0, 0, 'undef'),
        placements: fc.array(fc.constantFrom(dev(0, 0, 0, 0), dev(0, 0, 1, 0), dev(1, 0, 0, 0)), {
          minLength: 3,
          maxLength: 3,
        }),
      })
      // Small enough for the brute-force reference (at most 4 writes, one of them an RMW).
      .filter(({ bodies }) => {
        const ops = bodies.flat();
        const writes = ops.filter(([k]) => k === 'store' || k === 'rmw').length;
        return ops.length <= 6 && writes <= 4 && ops.filter(([k]) => k === 'rmw').length <= 1;
      })
      .map(({ bodies, locs, init, placements }): Test => {
        let value = 0;
        return makeTest({
          locs: Object.fromEntries(Array.from({ length: locs }, (_, k) => [`x${k}`, k === 0 ? init : 0])),
          threads: threads(
            bodies.map((ops) =>
              ops.map(([kind, o, sc, l], j) =>
                kind === 'store'
                  ? st(`x${l % locs}`, ++value, o, { scope: sc })
                  : kind === 'load'
                    ? ld(`r${j}`, `x${l % locs}`, o, { scope: sc })
                    : kind === 'rmw'
                      ? rmw(`r${j}`, 'add', `x${l % locs}`, 1, o, { scope: sc })
                      : fence(o, { scope: sc }),
              ),
            ),
            bodies.map((_, i) => placements[i]!),
          ),
        });
      });
    let moot = 0;
    fc.assert(
      fc.property(arbOneLoc, (t) => {
        agree(t);
        if (prepareVariant(t, 0).ws.syncMoot) moot++;
      }),
      { numRuns: 600 },
    );
    // 81–140 over 40 seeds (mean 113, sd 12): 7 sd below the mean.
    expect(moot).toBeGreaterThan(30);
    // W;R;W;R on one location with release stores and acquire loads: the product path, as relaxed.
    const wrwr = (n: number, o: [Ordering, Ordering]) =>
      makeTest({
        locs: { x: 0 },
        threads: threads(
          Array.from({ length: n }, (_, i) => [
            st('x', 2 * i + 1, o[0]),
            ld('a', 'x', o[1]),
            st('x', 2 * i + 2, o[0]),
            ld('b', 'x', o[1]),
          ]),
        ),
      });
    agree(wrwr(2, ['release', 'acquire']));
    const syncing = wrwr(3, ['release', 'acquire']);
    expect(prepareVariant(syncing, 0).ws.syncMoot).toBe(true);
    expect(enumerate(syncing).products).toBeGreaterThan(0);
    expect(withCounts(enumerate(syncing).collector)).toEqual(
      withCounts(enumerate(wrwr(3, ['monotonic', 'monotonic'])).collector),
    );
    // Message passing (two locations): sw orders the data, nothing is dropped.
    const mp = makeTest({
      locs: { d: 0, f: 0 },
      threads: threads([
        [st('d', 1, 'monotonic'), st('f', 1, 'release')],
        [ld('a', 'f', 'acquire'), ld('b', 'd', 'monotonic')],
      ]),
    });
    agree(mp);
    expect(prepareVariant(mp, 0).ws.syncMoot).toBe(false);
  }, 120_000);

  it('sw dropped where every read that could synchronise must return undef, same verdicts', () => {
    // Racy random tests: when each acquire (or RMW) read races a write it can never be ordered
    // with, no sw edge can exist and the search runs as in a test without synchronisation.
    let dropped = 0;
    fc.assert(
      fc.property(arbTest({ maxThreads: 3, threadLen: 4, maxInstrs: 6 }), (t) => {
        const ws = prepareVariant(t, 0, undefined, 'all', true).ws;
        if (!ws.syncDropped || ws.syncMoot) return;
        dropped++;
        agree(t);
      }),
      { numRuns: 500 },
    );
    // 41–76 over 40 seeds (mean 56, sd 8.8): 20 was 4 sd below the mean; this bound is 5 sd below.
    expect(dropped).toBeGreaterThan(12);
  }, 120_000);

  it('an RMW read whose location is atomic and inclusive reads the write just before its own', () => {
    // Counters: with the coherence order placed, only the source just before each RMW's write is
    // tried (`coForcedRmw`), and the checks wait for the last RMW read of a run. Narrow scopes
    // across workgroups make the RMWs non-inclusive: every source is tried, as before.
    const counter = (n: number, o: Ordering, scope: Scope, place: (i: number) => Placement) =>
      makeTest({
        locs: { x: 0, y: 0 },
        threads: threads(
          Array.from({ length: n }, (_, i) => [
            rmw('r', 'add', 'x', 1, o, { scope }),
            ...(i === 0 ? [st('y', 1, 'monotonic'), rmw('s', 'add', 'x', 2, o, { scope })] : []),
          ]),
          Array.from({ length: n }, (_, i) => place(i)),
        ),
      });
    for (const o of ['monotonic', 'acq_rel'] as Ordering[]) {
      const wide = counter(3, o, 'system', (i) => dev(i, 0, 0, 0));
      agree(wide);
      const e = enumerate(wide);
      // 4 RMWs: 4!/2 coherence orders (P0's two in po order), one execution each.
      expect(e.stats.consistent).toBe(12);
      expect(e.stats.nodes).toBeLessThan(e.stats.consistent * 10);
      agree(counter(3, o, 'wavefront', (i) => dev(0, 0, i, 0)));
    }
  });

  it('seq_cst events on one location take the product path and agree with the reference (SC per location)', () => {
    const shapes: [Ordering, Ordering][][] = [
      [
        ['seq_cst', 'seq_cst'],
        ['seq_cst', 'seq_cst'],
        ['seq_cst', 'seq_cst'],
        ['seq_cst', 'seq_cst'],
      ],
      [
        ['seq_cst', 'monotonic'],
        ['seq_cst', 'acquire'],
        ['release', 'seq_cst'],
      ],
      [
        ['seq_cst', 'seq_cst'],
        ['monotonic', 'monotonic'],
        ['seq_cst', 'acquire'],
      ],
    ];
    for (const shape of shapes) {
      const t = makeTest({
        locs: { x: 0 },
        threads: threads(shape.map(([so, lo], i) => [st('x', i + 1, so), ld('r', 'x', lo)])),
      });
      agree(t);
      expect(enumerate(t).products).toBeGreaterThan(0);
    }
    // Two locations: scoped seq_cst is more than coherence (SB), no product.
    const sbSc = makeTest({
      locs: { x: 0, y: 0 },
      threads: threads([
        [st('x', 1, 'seq_cst'), ld('r', 'y', 'seq_cst')],
        [st('y', 1, 'seq_cst'), ld('r', 'x', 'seq_cst')],
      ]),
    });
    agree(sbSc);
    expect(enumerate(sbSc).products).toBe(0);
  });

  it('also on data dependencies with no-thin-air off: one execution per solution of a value cycle', () => {
    fc.assert(
      fc.property(arbDataTest(), (t) => agree(t, { ...DEFAULT_OPTIONS, noThinAir: false })),
      { numRuns: 100 },
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
