import { describe, expect, it } from 'vitest';
import type { Instr, Ordering, Placement, Scope } from '../core/types.ts';
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
  host,
  isfirst,
  ld,
  leave,
  makeTest,
  named,
  reg,
  rmw,
  sbarrier,
  splitBarrier,
  st,
  threads,
} from '../events/build.ts';
import { buildSkeleton } from '../events/skeleton.ts';
import { states } from './testutil.ts';

const SAME_WAVE: Placement[] = [dev(0, 0, 0, 0), dev(0, 0, 0, 0), dev(0, 0, 0, 0)];
const SAME_WG: Placement[] = [dev(0, 0, 0, 0), dev(0, 0, 0, 1), dev(0, 0, 0, 2)];
const TWO_WG: Placement[] = [dev(0, 0, 0, 0), dev(0, 0, 1, 0), dev(0, 0, 2, 0)];
const TWO_AGENTS: Placement[] = [dev(0, 0, 0, 0), dev(1, 0, 0, 0), dev(2, 0, 0, 0)];

function sb(o: Ordering, scope: Scope = 'system', pl = TWO_AGENTS) {
  return makeTest({
    locs: { x: 0, y: 0 },
    threads: threads(
      [
        [st('x', 1, o, { scope }), ld('a', 'y', o, { scope })],
        [st('y', 1, o, { scope }), ld('b', 'x', o, { scope })],
      ],
      pl,
    ),
  });
}

/** Message passing: plain data, flag with the given orderings/scopes. */
function mp(rel: Instr[], acq: Instr[], pl = TWO_AGENTS) {
  return makeTest({
    locs: { x: 0, f: 0 },
    threads: threads(
      [
        [st('x', 1), ...rel],
        [...acq, ld('d', 'x')],
      ],
      pl,
    ),
  });
}

describe('base LLVM layer', () => {
  it('SB: relaxed allows every outcome; seq_cst forbids 0/0', () => {
    expect(states(sb('monotonic'))).toEqual([
      'P0:a=0 P1:b=0',
      'P0:a=0 P1:b=1',
      'P0:a=1 P1:b=0',
      'P0:a=1 P1:b=1',
    ]);
    expect(states(sb('seq_cst'))).not.toContain('P0:a=0 P1:b=0');
    expect(states(sb('seq_cst'))).toHaveLength(3);
  });

  it('SB seq_cst at workgroup scope: SC within a workgroup; across agents the scopes are not inclusive and the reads race (undef)', () => {
    expect(states(sb('seq_cst', 'workgroup', SAME_WG))).toHaveLength(3);
    expect(states(sb('seq_cst', 'workgroup', TWO_AGENTS), {}, true)).toEqual([
      'P0:a=undef P1:b=undef !race !undef',
    ]);
  });

  it('SB with seq_cst fences between relaxed accesses forbids 0/0', () => {
    const t = makeTest({
      locs: { x: 0, y: 0 },
      threads: threads([
        [st('x', 1, 'monotonic'), fence('seq_cst'), ld('a', 'y', 'monotonic')],
        [st('y', 1, 'monotonic'), fence('seq_cst'), ld('b', 'x', 'monotonic')],
      ]),
    });
    expect(states(t)).not.toContain('P0:a=0 P1:b=0');
  });

  it('MP: release/acquire publishes plain data; without synchronisation the data read races and is undef', () => {
    const sys = mp([st('f', 1, 'release')], [ld('a', 'f', 'acquire')]);
    expect(states(sys, {}, true)).toEqual(['P1:a=0 P1:d=undef !race !undef', 'P1:a=1 P1:d=1']);
    const rlx = mp([st('f', 1, 'monotonic')], [ld('a', 'f', 'monotonic')]);
    expect(states(rlx)).toEqual(['P1:a=0 P1:d=undef', 'P1:a=1 P1:d=undef']);
  });

  it('MP with fences: release fence + relaxed store synchronises with relaxed load + acquire fence', () => {
    const t = mp([fence('release'), st('f', 1, 'monotonic')], [ld('a', 'f', 'monotonic'), fence('acquire')]);
    expect(states(t)).toContain('P1:a=1 P1:d=1');
    expect(states(t)).not.toContain('P1:a=1 P1:d=undef');
  });

  it('sw needs inclusive scopes between the synchronising operations themselves (the fences)', () => {
    // Workgroup-scoped release fence, system-scoped store: the fence's instance excludes P1's agent.
    const t = mp(
      [fence('release', { scope: 'workgroup' }), st('f', 1, 'monotonic')],
      [ld('a', 'f', 'monotonic'), fence('acquire')],
    );
    expect(states(t)).toContain('P1:a=1 P1:d=undef');
    const same = mp(
      [fence('release', { scope: 'workgroup' }), st('f', 1, 'monotonic')],
      [ld('a', 'f', 'monotonic'), fence('acquire', { scope: 'workgroup' })],
      SAME_WG,
    );
    expect(states(same)).toEqual(['P1:a=0 P1:d=undef', 'P1:a=1 P1:d=1']);
  });

  it('release sequences: an RMW extends them, a later same-thread store does not (C++20)', () => {
    const rmwExt = makeTest({
      locs: { x: 0, f: 0 },
      threads: threads([
        [st('x', 1), st('f', 1, 'release')],
        [ld('a', 'f', 'acquire'), ld('d', 'x')],
        [rmw(null, 'add', 'f', 1)],
      ]),
    });
    expect(states(rmwExt)).toContain('P1:a=2 P1:d=1');
    expect(states(rmwExt)).not.toContain('P1:a=2 P1:d=undef');
    const storeNoExt = makeTest({
      locs: { x: 0, f: 0 },
      threads: threads([
        [st('x', 1), st('f', 1, 'release'), st('f', 2, 'monotonic')],
        [ld('a', 'f', 'acquire'), ld('d', 'x')],
      ]),
    });
    expect(states(storeNoExt)).toContain('P1:a=2 P1:d=undef');
  });

  it('coherence: CoRR forbids reading 2 then 1', () => {
    const t = makeTest({
      locs: { x: 0 },
      threads: threads([
        [st('x', 1, 'monotonic'), st('x', 2, 'monotonic')],
        [ld('a', 'x', 'monotonic'), ld('b', 'x', 'monotonic')],
      ]),
    });
    expect(states(t)).toEqual([
      'P1:a=0 P1:b=0',
      'P1:a=0 P1:b=1',
      'P1:a=0 P1:b=2',
      'P1:a=1 P1:b=1',
      'P1:a=1 P1:b=2',
      'P1:a=2 P1:b=2',
    ]);
  });

  it('RMW atomicity: two increments never lose an update', () => {
    const t = makeTest({
      locs: { x: 0 },
      threads: threads([[rmw('a', 'add', 'x', 1)], [rmw('b', 'add', 'x', 1)]]),
      cond: null,
    });
    expect(states(t)).toEqual(['P0:a=0 P1:b=1', 'P0:a=1 P1:b=0']);
  });

  it('IRIW: seq_cst forbids disagreeing readers, acquire allows them', () => {
    const iriw = (o: Ordering) =>
      makeTest({
        locs: { x: 0, y: 0 },
        threads: threads(
          [
            [st('x', 1, o === 'acquire' ? 'release' : o)],
            [st('y', 1, o === 'acquire' ? 'release' : o)],
            [ld('a', 'x', o), ld('b', 'y', o)],
            [ld('c', 'y', o), ld('d', 'x', o)],
          ],
          [dev(0, 0, 0, 0), dev(1, 0, 0, 0), dev(2, 0, 0, 0), dev(3, 0, 0, 0)],
        ),
      });
    const bad = 'P2:a=1 P2:b=0 P3:c=1 P3:d=0';
    expect(states(iriw('seq_cst'))).not.toContain(bad);
    expect(states(iriw('acquire'))).toContain(bad);
  });

  it('no-thin-air is an option: LB 1/1 is forbidden by default, allowed without it', () => {
    const t = makeTest({
      locs: { x: 0, y: 0 },
      threads: threads([
        [ld('a', 'x', 'monotonic'), st('y', 1, 'monotonic')],
        [ld('b', 'y', 'monotonic'), st('x', 1, 'monotonic')],
      ]),
    });
    expect(states(t)).not.toContain('P0:a=1 P1:b=1');
    expect(states(t, { noThinAir: false })).toContain('P0:a=1 P1:b=1');
  });

  it('values out of thin air: without no-thin-air, a value cycle takes each solution of its equations', () => {
    // LB through data dependencies: the cycle states a = b, b = a.
    const oota = (want: number | null, inc = 0) =>
      makeTest({
        locs: { x: 0, y: 0 },
        threads: threads([
          inc === 0
            ? [ld('a', 'x', 'monotonic'), st('y', 'a', 'monotonic')]
            : [ld('a', 'x', 'monotonic'), bin('c', 'add', 'a', inc), st('y', 'c', 'monotonic')],
          [ld('b', 'y', 'monotonic'), st('x', 'b', 'monotonic')],
        ]),
        cond: want === null ? null : cond('exists', eq(reg('P0', 'a'), want)),
      });
    // With the axiom the cycle is forbidden: only the initial values.
    expect(states(oota(42))).toEqual(['P0:a=0 P1:b=0']);
    // Without it, each value of the domain — the test's constants (0, and the condition's 42) and
    // their neighbours, 32-bit — solves the cycle: one execution each.
    expect(states(oota(null), { noThinAir: false })).toEqual([
      'P0:a=0 P1:b=0',
      'P0:a=1 P1:b=1',
      'P0:a=4294967295 P1:b=4294967295',
    ]);
    expect(states(oota(42), { noThinAir: false })).toEqual([
      'P0:a=0 P1:b=0',
      'P0:a=1 P1:b=1',
      'P0:a=41 P1:b=41',
      'P0:a=42 P1:b=42',
      'P0:a=4294967295 P1:b=4294967295',
      'P0:a=43 P1:b=43',
    ]);
    // a = a + 1 has no solution: the cycle's candidate is no execution (the states are those of
    // the initial values and of P1 reading P0's store).
    expect(states(oota(42, 1), { noThinAir: false })).toEqual(['P0:a=0 P1:b=0', 'P0:a=0 P1:b=1']);
  });

  it('cmpxchg: success and failure are both explored, with the value deciding which', () => {
    const t = makeTest({
      locs: { x: 0 },
      threads: threads([
        [cas('p', 'x', 0, 1), extract('old', 'p', 0), extract('ok', 'p', 1)],
        [cas('q', 'x', 0, 2), extract('old2', 'q', 0), extract('ok2', 'q', 1)],
      ]),
    });
    // Exactly one wins; the loser reads the winner's value.
    expect(states(t)).toEqual(['P0:p=0 P1:q=1', 'P0:p=2 P1:q=0']);
  });
});

describe('AMDGPU layer: availability, visibility, location order', () => {
  it('HRF-indirect: hb is transitive across scopes and availability/visibility chains bridge them (Property 5)', () => {
    const t = makeTest({
      locs: { x: 0, f: 0, g: 0 },
      threads: threads(
        [
          [st('x', 1), st('f', 1, 'release', { scope: 'workgroup' })],
          [ld('a', 'f', 'acquire', { scope: 'workgroup' }), st('g', 1, 'release', { scope: 'agent' })],
          [ld('b', 'g', 'acquire', { scope: 'agent' }), ld('d', 'x')],
        ],
        [dev(0, 0, 0, 0), dev(0, 0, 0, 1), dev(0, 0, 1, 0)],
      ),
    });
    const s = states(t, {}, true);
    expect(s).toContain('P1:a=1 P2:b=1 P2:d=1');
    expect(s.filter((x) => x.startsWith('P1:a=1 P2:b=1'))).toEqual(['P1:a=1 P2:b=1 P2:d=1']);
  });

  it('av intrinsics: store-available / load-visible at a scope give the value when scopes are inclusive', () => {
    const t = (scope: Scope, pl: Placement[]) =>
      makeTest({
        locs: { x: 0, f: 0 },
        threads: threads(
          [
            [avst('x', 1, scope), fence('release', { avNone: true }), st('f', 1, 'monotonic')],
            [ld('a', 'f', 'monotonic'), fence('acquire', { avNone: true }), avld('d', 'x', scope)],
          ],
          pl,
        ),
      });
    expect(states(t('agent', [dev(0, 0, 0, 0), dev(0, 0, 1, 0)]))).toEqual([
      'P1:a=0 P1:d=undef',
      'P1:a=1 P1:d=1',
    ]);
    // Different agents: the agent-scoped av operations are not inclusive: no visibility, undef.
    expect(states(t('agent', TWO_AGENTS))).toEqual(['P1:a=0 P1:d=undef', 'P1:a=1 P1:d=undef']);
  });

  it('amdgcn-av none: ordering without MakeAvailable/MakeVisible leaves plain data invisible', () => {
    const withAv = mp(
      [fence('release'), st('f', 1, 'monotonic')],
      [ld('a', 'f', 'monotonic'), fence('acquire')],
    );
    const noAv = mp(
      [fence('release', { avNone: true }), st('f', 1, 'monotonic')],
      [ld('a', 'f', 'monotonic'), fence('acquire', { avNone: true })],
    );
    expect(states(withAv)).toContain('P1:a=1 P1:d=1');
    expect(states(noAv, {}, true)).toEqual(['P1:a=0 P1:d=undef !race !undef', 'P1:a=1 P1:d=undef !undef']);
  });

  it('the none mark keeps the access itself store-available (a flag written with it is still seen)', () => {
    const t = makeTest({
      locs: { f: 0 },
      threads: threads([
        [st('f', 1, 'release', { avNone: true })],
        [ld('a', 'f', 'acquire', { avNone: true })],
      ]),
    });
    expect(states(t)).toEqual(['P1:a=0', 'P1:a=1']);
  });

  it('the initial write is in every scope instance: a plain read with no other writes returns it, race-free', () => {
    const t = makeTest({ locs: { x: 7 }, threads: threads([[ld('a', 'x')], [ld('b', 'x')]]) });
    expect(states(t, {}, true)).toEqual(['P0:a=7 P1:b=7']);
  });

  it('an undef-initialised location read before any write returns undef (rule 1)', () => {
    const t = makeTest({ locs: { x: 'undef' }, threads: threads([[ld('a', 'x', 'monotonic')]]) });
    expect(states(t, {}, true)).toEqual(['P0:a=undef !undef']);
  });

  it('rule 1 is literal: on an undef-initialised location, an atomic read no write happens-before returns undef', () => {
    const t = makeTest({
      locs: { y: 'undef' },
      threads: threads(
        [[rmw('a', 'add', 'y', 1, 'seq_cst')], [st('y', 1, 'seq_cst'), ld('b', 'y', 'seq_cst')]],
        SAME_WAVE,
      ),
    });
    // Not sequentially consistent: the RMW is coherence-after the store yet reads undef.
    expect(states(t)).toContain('P0:a=undef P1:b=undef');
  });

  it('LDS exists once per workgroup: the same name in two workgroups is two locations', () => {
    const t = makeTest({
      locs: { s: { init: 0, space: 'local' } },
      threads: threads([[st('s', 1, 'monotonic')], [ld('a', 's', 'monotonic')]], TWO_WG),
    });
    expect(states(t, {}, true)).toEqual(['P1:a=0']);
  });

  it('host threads share only the system scope with the device', () => {
    const t = makeTest({
      locs: { x: 0, f: 0 },
      threads: threads(
        [
          [st('x', 1), st('f', 1, 'release', { scope: 'agent' })],
          [ld('a', 'f', 'acquire', { scope: 'agent' }), ld('d', 'x')],
        ],
        [host, dev(0, 0, 0, 0)],
      ),
    });
    expect(states(t)).toEqual(['P1:a=undef P1:d=undef']);
  });

  it('data dependencies carry values, and undef propagates through arithmetic', () => {
    const t = makeTest({
      locs: { x: 0, y: 0 },
      threads: threads([
        [ld('a', 'x', 'monotonic'), bin('b', 'add', 'a', 10), st('y', 'b', 'monotonic')],
        [st('x', 1, 'monotonic'), ld('c', 'y', 'monotonic')],
      ]),
    });
    expect(states(t)).toEqual(['P0:a=0 P1:c=0', 'P0:a=0 P1:c=10', 'P0:a=1 P1:c=0', 'P0:a=1 P1:c=11']);
  });

  it('value rules, literal by default: a plain write published to two atomic updaters makes their reads undef', () => {
    const t = makeTest({
      locs: { x: 0, f: 0 },
      threads: threads([
        [st('x', 5), st('f', 1, 'release')],
        [ld('a', 'f', 'acquire'), rmw('b', 'add', 'x', 1)],
        [ld('c', 'f', 'acquire'), rmw('d', 'add', 'x', 1)],
      ]),
    });
    const both = (s: string[]) => s.filter((x) => x.includes('P1:a=1') && x.includes('P2:c=1'));
    expect(both(states(t))).toEqual(['P1:a=1 P1:b=undef P2:c=1 P2:d=undef']);
    const repaired = both(states(t, { valueRules: 'repaired' }));
    expect(repaired).toContain('P1:a=1 P1:b=5 P2:c=1 P2:d=6');
    expect(repaired).toContain('P1:a=1 P1:b=6 P2:c=1 P2:d=5');
    // The repair does not make the plain write subject to RMW atomicity: both updates may read it.
    expect(repaired).toContain('P1:a=1 P1:b=5 P2:c=1 P2:d=5');
  });

  it('racing plain writes leave the final value undef', () => {
    const t = makeTest({
      locs: { x: 0 },
      threads: threads([[st('x', 1)], [st('x', 2)]]),
      cond: null,
    });
    const e = states(t, {}, true);
    expect(e.length).toBe(1);
    expect(e[0]).toContain('!race');
  });

  it('workgroup barriers: fences around s.barrier synchronise; the barrier alone orders no memory', () => {
    const mpBar = (rel: Instr[], acq: Instr[], pl = SAME_WG) =>
      makeTest({
        locs: { x: 0 },
        threads: threads(
          [
            [st('x', 1), ...rel, sbarrier()],
            [sbarrier(), ...acq, ld('d', 'x')],
          ],
          pl,
        ),
      });
    const wg = { scope: 'workgroup' as const };
    expect(states(mpBar([fence('release', wg)], [fence('acquire', wg)]), {}, true)).toEqual(['P1:d=1']);
    expect(states(mpBar([], []), {}, true)).toEqual(['P1:d=undef !race !undef']);
    // Ordering without availability/visibility: race-free, yet the plain read is undef.
    const none = mpBar(
      [fence('release', { ...wg, avNone: true })],
      [fence('acquire', { ...wg, avNone: true })],
    );
    expect(states(none, {}, true)).toEqual(['P1:d=undef !undef']);
    // Different workgroups use different barrier objects: no synchronisation.
    const apart = mpBar([fence('release', wg)], [fence('acquire', wg)], TWO_WG);
    expect(states(apart, {}, true)).toEqual(['P1:d=undef !race !undef']);
  });

  it('split barriers: signal then wait on the workgroup barrier synchronise fences like s.barrier', () => {
    const wg = { scope: 'workgroup' as const };
    const t = makeTest({
      locs: { x: 0 },
      threads: threads(
        [
          [st('x', 1), fence('release', wg), splitBarrier('signal'), splitBarrier('wait')],
          [splitBarrier('signal'), splitBarrier('wait'), fence('acquire', wg), ld('d', 'x')],
        ],
        SAME_WG,
      ),
    });
    expect(states(t, {}, true)).toEqual(['P1:d=1']);
    expect(buildSkeleton(t).barrierUb).toBe(false);
    // Waiting before arriving never completes.
    const early = makeTest({
      locs: { x: 0 },
      threads: threads(
        [
          [splitBarrier('wait'), splitBarrier('signal')],
          [splitBarrier('signal'), splitBarrier('wait')],
        ],
        SAME_WG,
      ),
    });
    expect(buildSkeleton(early).barrierUb).toBe(true);
    // Trap barriers (-2, -4) are privileged: the parser rejects them (LT3022); built directly, the
    // model does not decide them.
    const trap = makeTest({ locs: { x: 0 }, threads: threads([[splitBarrier('signal', -2)]]) });
    expect(buildSkeleton(trap).diagnostics.map((d) => d.code)).toEqual(['MD004']);
  });

  it('the cluster barrier (-3): one arrive per workgroup completes it; fences at cluster scope synchronise', () => {
    const cl = { scope: 'cluster' as const };
    const wg = { scope: 'workgroup' as const };
    // Two workgroups of one cluster; P2 is a second wave of P1's workgroup that only waits.
    const pl: Placement[] = [dev(0, 0, 0, 0), dev(0, 0, 1, 0), dev(0, 0, 1, 1)];
    const mp = (scope: typeof cl | typeof wg, thirdArrives: boolean) =>
      makeTest({
        locs: { x: 0 },
        threads: threads(
          [
            [st('x', 1), fence('release', scope), splitBarrier('signal', -3), splitBarrier('wait', -3)],
            [splitBarrier('signal', -3), splitBarrier('wait', -3)],
            [
              ...(thirdArrives ? [splitBarrier('signal', -3)] : []),
              splitBarrier('wait', -3),
              fence('acquire', scope),
              ld('d', 'x'),
            ],
          ],
          pl,
        ),
      });
    // seeds/001: "any wave within the workgroup cluster can then wait on this barrier object".
    expect(buildSkeleton(mp(cl, false)).diagnostics).toEqual([]);
    expect(buildSkeleton(mp(cl, false)).barrierUb).toBe(false);
    expect(states(mp(cl, false), {}, true)).toEqual(['P2:d=1']);
    // Workgroup-scope fences in different workgroups are not inclusive: no synchronisation.
    expect(states(mp(wg, false), {}, true)).toEqual(['P2:d=undef !race !undef']);
    // "only one wave per workgroup may arrive … on behalf of its entire workgroup".
    expect(buildSkeleton(mp(cl, true)).barrierUb).toBe(true);
    // Across clusters there is no common cluster barrier: each cluster's completes alone.
    const far = makeTest({
      locs: { x: 0 },
      threads: threads(
        [
          [st('x', 1), fence('release'), splitBarrier('signal', -3), splitBarrier('wait', -3)],
          [splitBarrier('signal', -3), splitBarrier('wait', -3), fence('acquire'), ld('d', 'x')],
        ],
        [dev(0, 0, 0, 0), dev(0, 1, 0, 0)],
      ),
    });
    expect(buildSkeleton(far).barrierUb).toBe(false);
    expect(states(far, {}, true)).toEqual(['P1:d=undef !race !undef']);
  });

  it('a barrier wait that never completes is undefined behaviour', () => {
    const t = makeTest({
      locs: { x: 0 },
      threads: threads([[sbarrier(), sbarrier()], [sbarrier()]], SAME_WG),
    });
    expect(buildSkeleton(t).barrierUb).toBe(true);
    const ok = makeTest({ locs: { x: 0 }, threads: threads([[sbarrier()], [sbarrier()]], SAME_WG) });
    expect(buildSkeleton(ok).barrierUb).toBe(false);
  });

  it('named barriers: init, join, signal.var, wait synchronise fences; a missing init or a stranded wait is UB', () => {
    const wg = { scope: 'workgroup' as const };
    const mp = (init: boolean, count: number) =>
      makeTest({
        locs: { x: 0, bar: { barrier: true } },
        threads: threads(
          [
            [
              ...(init ? [named('init', 'bar', count)] : []),
              sbarrier(),
              named('join', 'bar'),
              st('x', 1),
              fence('release', wg),
              named('signal_var', 'bar', count),
              splitBarrier('wait', 1),
            ],
            [
              sbarrier(),
              named('join', 'bar'),
              named('signal_var', 'bar', count),
              splitBarrier('wait', 1),
              fence('acquire', wg),
              ld('d', 'x'),
            ],
          ],
          SAME_WG,
        ),
      });
    expect(states(mp(true, 2), {}, true)).toEqual(['P1:d=1']);
    expect(buildSkeleton(mp(true, 2)).barrierUb).toBe(false);
    // Uninitialised: "The first element in barrier-modification-order<BO> is always a barrier init".
    expect(buildSkeleton(mp(false, 2)).barrierUb).toBe(true);
    // Expected count 3 with two members: the waits never complete.
    expect(buildSkeleton(mp(true, 3)).barrierUb).toBe(true);
    // Expected count 1: each member completes a phase alone, so nothing orders P0's store.
    expect(buildSkeleton(mp(true, 1)).barrierUb).toBe(false);
    expect(states(mp(true, 1), {}, true)).toEqual(['P1:d=undef !race !undef']);
  });

  it('signal.isfirst: exactly one wave of a phase is first; leave without join is UB', () => {
    const t = makeTest({
      locs: { x: 0 },
      threads: threads(
        [
          [isfirst('f'), splitBarrier('wait')],
          [isfirst('f'), splitBarrier('wait')],
        ],
        SAME_WG,
      ),
    });
    expect(states(t)).toEqual(['P0:f=0 P1:f=1', 'P0:f=1 P1:f=0']);
    const bad = makeTest({ locs: { x: 0, bar: { barrier: true } }, threads: threads([[leave()]], SAME_WG) });
    expect(buildSkeleton(bad).barrierUb).toBe(true);
  });

  describe('unordered atomics: atomic for races and values, outside coherence and synchronisation', () => {
    const corr = (o: Ordering) =>
      makeTest({
        locs: { x: 0 },
        threads: threads(
          [
            [st('x', 1, o, { scope: 'agent' })],
            [ld('a', 'x', o, { scope: 'agent' }), ld('b', 'x', o, { scope: 'agent' })],
          ],
          TWO_WG,
        ),
      });
    it('CoRR: allowed with unordered, forbidden with monotonic', () => {
      expect(states(corr('unordered'), {}, true)).toEqual([
        'P1:a=0 P1:b=0',
        'P1:a=0 P1:b=1',
        'P1:a=1 P1:b=0',
        'P1:a=1 P1:b=1',
      ]);
      expect(states(corr('monotonic'))).not.toContain('P1:a=1 P1:b=0');
    });
    it('racing unordered accesses are no data race and read a written value, never undef', () => {
      const t = makeTest({
        locs: { x: 0 },
        threads: threads(
          [[st('x', 1, 'unordered'), st('x', 2, 'unordered')], [ld('a', 'x', 'unordered')]],
          TWO_WG,
        ),
      });
      expect(states(t, {}, true)).toEqual(['P1:a=0', 'P1:a=1', 'P1:a=2']);
    });
    it('fences around an unordered flag do not synchronise', () => {
      const t = (o: Ordering) =>
        makeTest({
          locs: { d: 0, f: 0 },
          threads: threads(
            [
              [st('d', 1), fence('release', { scope: 'agent' }), st('f', 1, o, { scope: 'agent' })],
              [ld('a', 'f', o, { scope: 'agent' }), fence('acquire', { scope: 'agent' }), ld('b', 'd')],
            ],
            TWO_WG,
          ),
        });
      expect(states(t('unordered'))).toContain('P1:a=1 P1:b=undef');
      expect(states(t('monotonic'))).not.toContain('P1:a=1 P1:b=undef');
    });
  });

  it('-one-as acts as its plain scope when the test touches one address space', () => {
    const single = makeTest({
      locs: { x: 0, f: 0 },
      threads: threads(
        [
          [st('x', 1), st('f', 1, 'release', { scope: 'agent' })],
          [ld('a', 'f', 'acquire', { scope: 'agent', oneAs: true }), ld('d', 'x')],
        ],
        [dev(0, 0, 0, 0), dev(0, 0, 1, 0)],
      ),
    });
    expect(buildSkeleton(single).diagnostics).toEqual([]);
    expect(buildSkeleton(single).oneAsMixed).toBe(false);
    expect(states(single)).toEqual(['P1:a=0 P1:d=undef', 'P1:a=1 P1:d=1']);
  });

  describe('-one-as with several address spaces: an edge orders only the space it synchronises through', () => {
    const LDS = { init: 0, space: 'local' as const };
    // MP inside one workgroup: data in `data`, flag in `f`, release/acquire at workgroup scope.
    const mp = (dataLds: boolean, flagLds: boolean, oneAs: boolean) =>
      makeTest({
        locs: { data: dataLds ? LDS : 0, f: flagLds ? LDS : 0, other: dataLds && flagLds ? 0 : LDS },
        threads: threads(
          [
            [st('data', 1), st('f', 1, 'release', { scope: 'workgroup', oneAs })],
            [ld('a', 'f', 'acquire', { scope: 'workgroup', oneAs }), ld('d', 'data')],
          ],
          SAME_WG,
        ),
      });
    it('LDS data, global flag: workgroup-one-as does not order the data, workgroup does', () => {
      expect(buildSkeleton(mp(true, false, true)).oneAsMixed).toBe(true);
      expect(states(mp(true, false, true), {}, true)).toEqual([
        'P1:a=0 P1:d=undef !race !undef',
        'P1:a=1 P1:d=undef !race !undef',
      ]);
      expect(states(mp(true, false, false), {}, true)).toEqual([
        'P1:a=0 P1:d=undef !race !undef',
        'P1:a=1 P1:d=1',
      ]);
    });
    it('global data, LDS flag: likewise', () => {
      expect(states(mp(false, true, true))).toEqual(['P1:a=0 P1:d=undef', 'P1:a=1 P1:d=undef']);
      expect(states(mp(false, true, false))).toEqual(['P1:a=0 P1:d=undef', 'P1:a=1 P1:d=1']);
    });
    it('data and flag in the same space: ordered, even though the test also touches the other space', () => {
      const t = mp(false, false, true);
      expect(buildSkeleton(t).oneAsMixed).toBe(false); // `other` is declared but never accessed
      const touching: typeof t = {
        ...t,
        threads: t.threads.map((th, k) => (k === 0 ? { ...th, body: [st('other', 1), ...th.body] } : th)),
      };
      expect(buildSkeleton(touching).oneAsMixed).toBe(true);
      expect(states(touching)).toEqual(['P1:a=0 P1:d=undef', 'P1:a=1 P1:d=1']);
      expect(states(mp(true, true, true))).toEqual(['P1:a=0 P1:d=undef', 'P1:a=1 P1:d=1']);
    });
    // Fences: release fence; monotonic flag store / monotonic flag load; acquire fence.
    const mpFence = (oneAs: boolean) =>
      makeTest({
        locs: { g: 0, l: LDS, f: 0 },
        threads: threads(
          [
            [
              st('g', 1),
              st('l', 1),
              fence('release', { scope: 'workgroup', oneAs }),
              st('f', 1, 'monotonic', { scope: 'workgroup' }),
            ],
            [
              ld('a', 'f', 'monotonic', { scope: 'workgroup' }),
              fence('acquire', { scope: 'workgroup', oneAs }),
              ld('dg', 'g'),
              ld('dl', 'l'),
            ],
          ],
          SAME_WG,
        ),
      });
    it('fences synchronising through a global flag: -one-as orders the global data only', () => {
      expect(states(mpFence(true))).toEqual(['P1:a=0 P1:dg=undef P1:dl=undef', 'P1:a=1 P1:dg=1 P1:dl=undef']);
      expect(states(mpFence(false))).toEqual(['P1:a=0 P1:dg=undef P1:dl=undef', 'P1:a=1 P1:dg=1 P1:dl=1']);
    });
    it('fences synchronising through a barrier: -one-as orders every space against itself', () => {
      const t = makeTest({
        locs: { g: 0, l: LDS },
        threads: threads(
          [
            [st('g', 1), st('l', 1), fence('release', { scope: 'workgroup', oneAs: true }), sbarrier()],
            [sbarrier(), fence('acquire', { scope: 'workgroup', oneAs: true }), ld('dg', 'g'), ld('dl', 'l')],
          ],
          SAME_WG,
        ),
      });
      expect(buildSkeleton(t).oneAsMixed).toBe(true);
      expect(states(t, {}, true)).toEqual(['P1:dg=1 P1:dl=1']);
    });
    it('left conservative: SB over a global and an LDS location with -one-as seq_cst fences stays forbidden', () => {
      const t = makeTest({
        locs: { x: 0, y: LDS },
        threads: threads(
          [
            [
              st('x', 1, 'monotonic', { scope: 'workgroup' }),
              fence('seq_cst', { scope: 'workgroup', oneAs: true }),
              ld('a', 'y', 'monotonic', { scope: 'workgroup' }),
            ],
            [
              st('y', 1, 'monotonic', { scope: 'workgroup' }),
              fence('seq_cst', { scope: 'workgroup', oneAs: true }),
              ld('b', 'x', 'monotonic', { scope: 'workgroup' }),
            ],
          ],
          SAME_WG,
        ),
      });
      expect(buildSkeleton(t).oneAsMixed).toBe(true);
      expect(states(t)).not.toContain('P0:a=0 P1:b=0');
    });
    it('cross-space pairs are ordered only without -one-as edges: a store after the acquire may race', () => {
      // P1 writes global g after a -one-as acquire of an LDS flag; P0 read g before its release.
      const t = (oneAs: boolean) =>
        makeTest({
          locs: { g: 0, f: LDS },
          threads: threads(
            [
              [ld('r', 'g'), st('f', 1, 'release', { scope: 'workgroup', oneAs })],
              [ld('a', 'f', 'acquire', { scope: 'workgroup', oneAs }), st('g', 1)],
            ],
            SAME_WG,
          ),
        });
      expect(states(t(true), {}, true)).toContain('P0:r=undef P1:a=1 !race !undef');
      expect(states(t(false), {}, true)).not.toContain('P0:r=undef P1:a=1 !race !undef');
    });
  });
});

describe('amdgpu-synchronize-as: a fence orders only the address spaces its tags name (choice 33)', () => {
  const LDS = { init: 0, space: 'local' as const };
  // Release fence; monotonic flag store / load; acquire fence; global data g, LDS data l.
  const mpFence = (syncAs: ('global' | 'local')[], oneAs = false, flagLds = false) =>
    makeTest({
      locs: { g: 0, l: LDS, f: flagLds ? LDS : 0 },
      threads: threads(
        [
          [
            st('g', 1),
            st('l', 1),
            fence('release', { scope: 'workgroup', oneAs, syncAs }),
            st('f', 1, 'monotonic', { scope: 'workgroup' }),
          ],
          [
            ld('a', 'f', 'monotonic', { scope: 'workgroup' }),
            fence('acquire', { scope: 'workgroup', oneAs, syncAs }),
            ld('dg', 'g'),
            ld('dl', 'l'),
          ],
        ],
        SAME_WG,
      ),
    });
  it('through a global flag: local orders nothing (the acquire does not wait for the flag), global the global data only, both all', () => {
    expect(states(mpFence(['local']))).toContain('P1:a=1 P1:dg=undef P1:dl=undef');
    expect(states(mpFence(['local']))).not.toContain('P1:a=1 P1:dg=undef P1:dl=1');
    expect(states(mpFence(['global']))).toContain('P1:a=1 P1:dg=1 P1:dl=undef');
    expect(states(mpFence(['global', 'local']))).toEqual([
      'P1:a=0 P1:dg=undef P1:dl=undef',
      'P1:a=1 P1:dg=1 P1:dl=1',
    ]);
  });
  it("through an LDS flag: likewise (fences must order the flag's class; then a plain fence orders across address spaces)", () => {
    expect(states(mpFence(['global'], false, true))).toContain('P1:a=1 P1:dg=undef P1:dl=undef');
    expect(states(mpFence(['global'], false, true))).not.toContain('P1:a=1 P1:dg=1 P1:dl=undef');
    expect(states(mpFence(['local'], false, true))).toContain('P1:a=1 P1:dg=undef P1:dl=1');
  });
  it("with -one-as the edge orders only the flag's space, and only if the tags name it", () => {
    expect(states(mpFence(['local'], true))).toContain('P1:a=1 P1:dg=undef P1:dl=undef');
    expect(states(mpFence(['global'], true))).toContain('P1:a=1 P1:dg=1 P1:dl=undef');
    expect(states(mpFence(['local'], true, true))).toContain('P1:a=1 P1:dg=undef P1:dl=1');
  });
  it('one address space used, the fence naming the other: per-space hb, nothing ordered', () => {
    const t = makeTest({
      locs: { x: 0, f: 0 },
      threads: threads(
        [
          [
            st('x', 1),
            fence('release', { scope: 'agent', syncAs: ['local'] }),
            st('f', 1, 'monotonic', { scope: 'agent' }),
          ],
          [
            ld('a', 'f', 'monotonic', { scope: 'agent' }),
            fence('acquire', { scope: 'agent', syncAs: ['local'] }),
            ld('d', 'x'),
          ],
        ],
        TWO_WG,
      ),
    });
    expect(buildSkeleton(t).oneAsMixed).toBe(true);
    expect(states(t)).toEqual(['P1:a=0 P1:d=undef', 'P1:a=1 P1:d=undef']);
  });
  it('through a workgroup barrier: LDS-only fences order the LDS data, the global data races', () => {
    const t = (syncAs: ('global' | 'local')[]) =>
      makeTest({
        locs: { g: 0, l: LDS },
        threads: threads(
          [
            [st('g', 1), st('l', 1), fence('release', { scope: 'workgroup', syncAs }), sbarrier()],
            [sbarrier(), fence('acquire', { scope: 'workgroup', syncAs }), ld('dg', 'g'), ld('dl', 'l')],
          ],
          SAME_WG,
        ),
      });
    expect(states(t(['local']), {}, true)).toEqual(['P1:dg=undef P1:dl=1 !race !undef']);
    expect(states(t(['global']), {}, true)).toEqual(['P1:dg=1 P1:dl=undef !race !undef']);
    expect(states(t([]), {}, true)).toEqual(['P1:dg=1 P1:dl=1']);
  });
});

describe('lanes: threads in one wavefront are lanes of one wave (choice 35)', () => {
  // P0 and P1 are lanes of wavefront 0, P2 is wavefront 1, all in workgroup 0.
  const LANES: Placement[] = [dev(0, 0, 0, 0), dev(0, 0, 0, 0), dev(0, 0, 0, 1)];
  it('a workgroup barrier counts waves: the lanes arrive once, and share signal.isfirst', () => {
    const t = makeTest({
      locs: { x: 0 },
      threads: threads(
        [
          [isfirst('f'), splitBarrier('wait')],
          [isfirst('f'), splitBarrier('wait')],
          [isfirst('f'), splitBarrier('wait')],
        ],
        LANES,
      ),
    });
    expect(buildSkeleton(t).barrierUb).toBe(false);
    expect(states(t)).toEqual(['P0:f=0 P1:f=0 P2:f=1', 'P0:f=1 P1:f=1 P2:f=0']);
  });
  it("a release fence in one lane and an acquire fence in another synchronise through the wave's barrier", () => {
    const t = makeTest({
      locs: { x: 0 },
      threads: threads(
        [
          [st('x', 1), fence('release', { scope: 'workgroup' }), sbarrier()],
          [sbarrier()],
          [sbarrier(), fence('acquire', { scope: 'workgroup' }), ld('a', 'x')],
        ],
        LANES,
      ),
    });
    expect(states(t, {}, true)).toEqual(['P2:a=1']);
  });
  it('the cluster barrier: two lanes of one wave arrive once for their workgroup (no UB)', () => {
    const t = makeTest({
      locs: { x: 0 },
      threads: threads(
        [
          [splitBarrier('signal', -3), splitBarrier('wait', -3)],
          [splitBarrier('signal', -3), splitBarrier('wait', -3)],
          [splitBarrier('signal', -3), splitBarrier('wait', -3)],
        ],
        [dev(0, 0, 0, 0), dev(0, 0, 0, 0), dev(0, 0, 1, 0)],
      ),
    });
    expect(buildSkeleton(t).barrierUb).toBe(false);
  });
  it('lanes of one wave with different barrier operations are refused (MD004; the parser says LT3023)', () => {
    const t = makeTest({ locs: { x: 0 }, threads: threads([[sbarrier()], [], [sbarrier()]], LANES) });
    expect(buildSkeleton(t).diagnostics.map((d) => d.code)).toEqual(['MD004']);
  });
});

describe('llvm.amdgcn.wave.barrier (choice 34)', () => {
  it('wave.barrier orders no memory: between fences it synchronises nothing, unlike s.barrier', () => {
    const wb: Instr = { kind: 'wavebarrier', span: { file: '', offset: 0, line: 0, col: 0, len: 0 } };
    const mp = (b: Instr) =>
      makeTest({
        locs: { x: 0 },
        threads: threads(
          [
            [st('x', 1), fence('release', { scope: 'workgroup' }), b],
            [b, fence('acquire', { scope: 'workgroup' }), ld('a', 'x')],
          ],
          [dev(0, 0, 0, 0), dev(0, 0, 0, 0)],
        ),
      });
    expect(buildSkeleton(mp(wb)).events.some((e) => e.kind === 'barrier')).toBe(false);
    expect(states(mp(wb), {}, true)).toEqual(['P1:a=undef !race !undef']);
    expect(states(mp(sbarrier()), {}, true)).toEqual(['P1:a=1']);
  });
});
