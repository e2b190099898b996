import { describe, expect, it } from 'vitest';
import { has, toPairs } from '../core/relation.ts';
import { isUndef } from '../core/values.ts';
import { bin, cas, dev, fence, host, ld, makeTest, rmw, st, threads } from './build.ts';
import { compile, Evaluator } from './program.ts';
import { buildSkeleton, instanceName, shareRank } from './skeleton.ts';

describe('event skeleton', () => {
  it('has initial writes first, then events in program order, with po within threads', () => {
    const t = makeTest({
      locs: { x: 0, y: 0 },
      threads: threads([
        [st('x', 1, 'monotonic'), ld('r0', 'y', 'monotonic')],
        [st('y', 1, 'monotonic'), ld('r0', 'x', 'monotonic')],
      ]),
    });
    const sk = buildSkeleton(t);
    expect(sk.events.map((e) => e.kind)).toEqual(['init', 'init', 'write', 'read', 'write', 'read']);
    expect(toPairs(sk.po)).toEqual([
      [2, 3],
      [4, 5],
    ]);
    // the initial write happens before everything else
    for (let e = 2; e < 6; e++) expect(has(sk.hbBase, 0, e) && has(sk.hbBase, 1, e)).toBe(true);
    expect(has(sk.loc, 0, 5) && has(sk.loc, 2, 5) && !has(sk.loc, 2, 3)).toBe(true);
  });

  it('splits an RMW into a read and a write, and a failed cmpxchg into a read with its failure ordering', () => {
    const t = makeTest({
      locs: { x: 0 },
      threads: threads([[rmw('a', 'add', 'x', 1, 'acq_rel'), cas('b', 'x', 0, 1, 'seq_cst', 'acquire')]]),
    });
    const ok = buildSkeleton(t, [true]);
    expect(ok.events.map((e) => `${e.kind}:${e.ordering}`)).toEqual([
      'init:monotonic',
      'read:acq_rel',
      'write:acq_rel',
      'read:seq_cst',
      'write:seq_cst',
    ]);
    expect(toPairs(ok.rmw)).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(ok.events[1]!.acquire && !ok.events[1]!.release && ok.events[2]!.release).toBe(true);
    const fail = buildSkeleton(t, [false]);
    expect(fail.events.map((e) => `${e.kind}:${e.ordering}`)).toEqual([
      'init:monotonic',
      'read:acq_rel',
      'write:acq_rel',
      'read:acquire',
    ]);
  });

  it('marks availability and visibility roles, honouring amdgcn-av none only for Make* roles', () => {
    const t = makeTest({
      locs: { x: 0 },
      threads: threads([
        [
          st('x', 1, 'release', { scope: 'agent' }),
          st('x', 2, 'release', { scope: 'agent', avNone: true }),
          ld('r', 'x', 'acquire', { avNone: true }),
          fence('acq_rel', { scope: 'workgroup' }),
          st('x', 3),
        ],
      ]),
    });
    const ev = buildSkeleton(t).events;
    expect([ev[1]!.storeAvailable, ev[1]!.makeAvailable]).toEqual([true, true]);
    expect([ev[2]!.storeAvailable, ev[2]!.makeAvailable]).toEqual([true, false]);
    expect([ev[3]!.loadVisible, ev[3]!.makeVisible, ev[3]!.acquire]).toEqual([true, false, true]);
    expect([ev[4]!.makeAvailable, ev[4]!.makeVisible, ev[4]!.scope]).toEqual([true, true, 'workgroup']);
    expect([ev[5]!.storeAvailable, ev[5]!.scope, ev[5]!.atomic]).toEqual([false, null, false]);
  });

  it('computes scope inclusion from placements; plain accesses include nothing; init includes all', () => {
    const t = makeTest({
      locs: { x: 0 },
      threads: threads(
        [
          [st('x', 1, 'monotonic', { scope: 'workgroup' })],
          [ld('r', 'x', 'monotonic', { scope: 'agent' })],
          [ld('r', 'x', 'monotonic', { scope: 'agent' })],
          [ld('r', 'x')],
        ],
        [dev(0, 0, 0, 0), dev(0, 0, 0, 1), dev(0, 0, 1, 0), dev(0, 0, 0, 0)],
      ),
    });
    const sk = buildSkeleton(t);
    // events: 0 init, 1 W(P0,wg), 2 R(P1,agent), 3 R(P2,agent), 4 R(P3,plain)
    expect(has(sk.incl, 1, 2)).toBe(true); // same workgroup
    expect(has(sk.sincl, 3, 1) && !has(sk.sincl, 1, 3) && !has(sk.incl, 1, 3)).toBe(true);
    expect(has(sk.sincl, 1, 4) && !has(sk.sincl, 4, 1)).toBe(true);
    for (let e = 1; e < 5; e++) expect(has(sk.incl, 0, e) && has(sk.incl, e, 0)).toBe(true);
    expect(has(sk.ai, 1, 2) && !has(sk.ai, 1, 3) && !has(sk.ai, 1, 4)).toBe(true);
  });

  it('ranks shared scopes, with host threads sharing only the system scope', () => {
    expect(shareRank(dev(0, 0, 0, 0), 0, dev(0, 0, 0, 0), 1)).toBe(4);
    expect(shareRank(dev(0, 0, 0, 0), 0, dev(0, 0, 0, 1), 1)).toBe(3);
    expect(shareRank(dev(0, 0, 0, 0), 0, dev(0, 0, 1, 0), 1)).toBe(2);
    expect(shareRank(dev(0, 0, 0, 0), 0, dev(0, 1, 0, 0), 1)).toBe(1);
    expect(shareRank(dev(0, 0, 0, 0), 0, dev(1, 0, 0, 0), 1)).toBe(0);
    expect(shareRank(host, 0, host, 1)).toBe(0);
    expect(shareRank(host, 0, host, 0)).toBe(5);
  });

  it('gives LDS one instance per workgroup and clamps wider syncscopes to workgroup', () => {
    const t = makeTest({
      locs: { s: { init: 0, space: 'local' } },
      threads: threads(
        [
          [st('s', 1, 'monotonic', { scope: 'agent' })],
          [ld('r', 's', 'monotonic')],
          [ld('r', 's', 'monotonic')],
        ],
        [dev(0, 0, 0, 0), dev(0, 0, 0, 1), dev(0, 0, 1, 0)],
      ),
    });
    const sk = buildSkeleton(t);
    expect(sk.locs.map((l) => l.owner)).toEqual(['a0.c0.w0', 'a0.c0.w1']);
    const w = sk.events.find((e) => e.kind === 'write')!;
    expect(w.scope).toBe('workgroup');
    const [r1, r2] = sk.reads;
    expect(has(sk.loc, w.id, r1!)).toBe(true);
    expect(has(sk.loc, w.id, r2!)).toBe(false);
    expect(instanceName(t, 2, 'workgroup')).toBe('workgroup a0.c0.w1');
  });

  it('records data dependencies and evaluates registers from rf, propagating undef', () => {
    const t = makeTest({
      locs: { x: 0, y: 0 },
      threads: threads([
        [ld('a', 'x', 'monotonic'), bin('b', 'add', 'a', 1), st('y', 'b', 'monotonic')],
        [st('x', 5, 'monotonic')],
      ]),
    });
    const sk = buildSkeleton(t);
    // 0 init x, 1 init y, 2 R x, 3 W y, 4 W x
    expect(toPairs(sk.data)).toEqual([[2, 3]]);
    const ev = new Evaluator(sk, compile(sk));
    const rf = new Int32Array(sk.n).fill(-1);
    rf[2] = 4;
    expect(ev.run(rf)).toBe('ok');
    expect(ev.writeVal[3]).toBe(6);
    rf[2] = -1;
    expect(ev.run(rf)).toBe('ok');
    expect(isUndef(ev.writeVal[3]!)).toBe(true);
  });

  it('runs constant-store programs again only in the threads whose reads changed source, with the same values', () => {
    const t = makeTest({
      locs: { x: 0, y: 0 },
      threads: threads([
        [ld('a', 'x', 'monotonic'), bin('b', 'add', 'a', 1)],
        [st('x', 5, 'monotonic'), ld('c', 'y', 'monotonic')],
        [st('y', 7, 'monotonic')],
      ]),
    });
    const sk = buildSkeleton(t);
    // 0 init x, 1 init y, 2 R x, 3 W x, 4 R y, 5 W y
    const ev = new Evaluator(sk, compile(sk));
    expect(ev.simple).toBe(true);
    const rf = new Int32Array(sk.n).fill(-1);
    const seen = () => [ev.regs[0]![1], ev.regs[1]![0], ev.writeVal[2], ev.writeVal[4]];
    const runs: [number, number, number[]][] = [
      [3, 1, [6, 0, 5, 0]],
      [3, 5, [6, 7, 5, 7]],
      [0, 5, [1, 7, 0, 7]],
      [0, 1, [1, 0, 0, 0]],
      [3, 1, [6, 0, 5, 0]],
    ];
    for (const [x, y, want] of runs) {
      rf[2] = x;
      rf[4] = y;
      expect(ev.run(rf)).toBe('ok');
      expect(seen()).toEqual(want);
    }
  });

  it('reports a cmpxchg whose value contradicts the assumed outcome', () => {
    const t = makeTest({ locs: { x: 0 }, threads: threads([[cas('p', 'x', 0, 1)]]) });
    const fail = buildSkeleton(t, [false]);
    const rf = new Int32Array(fail.n).fill(-1);
    rf[1] = 0; // reads the initial 0: the cmpxchg must succeed
    const ev = new Evaluator(fail, compile(fail));
    expect(ev.run(rf)).toBe('cas-mismatch');
  });

  it('flags unsupported features as diagnostics, never throws', () => {
    const t = makeTest({ locs: { x: 0 }, threads: threads([[ld('r', 'nope')]]) });
    expect(buildSkeleton(t).diagnostics.map((d) => d.code)).toEqual(['MD001']);
  });
});
