/**
 * models/rc11.cat on the classic shapes, with the verdicts of the RC11 paper (Lahav et al.,
 * PLDI 2017) and of C11 folklore: store buffering, message passing, load buffering, IRIW,
 * CoRR, 2+2W, each with relaxed and with stronger orderings; SB with fences, a counter of relaxed
 * RMWs (atomicity) and message passing through a release sequence continued by an RMW.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Ordering, Test } from '../core/types.ts';
import { and, cond, dev, eq, fence, ld, makeTest, mem, reg, rmw, st, threads } from '../events/build.ts';
import { DEFAULT_OPTIONS } from '../models/amdgpu.ts';
import { loadModel } from './load.ts';
import { runCat } from './report.ts';

const FILE = join(import.meta.dirname, '..', '..', 'models', 'rc11.cat');
const { model, diagnostics } = loadModel(readFileSync(FILE, 'utf8'), FILE, () => null);

const P = [dev(0, 0, 0, 0), dev(1, 0, 0, 0), dev(2, 0, 0, 0), dev(3, 0, 0, 0)];

function verdict(t: Test): string {
  const r = runCat(t, model, DEFAULT_OPTIONS);
  expect(r.complete).toBe(true);
  return r.condition!.verdict === 'holds' ? 'allowed' : 'forbidden';
}

const sb = (o: Ordering) =>
  makeTest({
    locs: { x: 0, y: 0 },
    threads: threads(
      [
        [st('x', 1, o === 'acquire' ? 'release' : o), ld('r0', 'y', o)],
        [st('y', 1, o === 'acquire' ? 'release' : o), ld('r0', 'x', o)],
      ],
      P.slice(0, 2),
    ),
    cond: cond('exists', and(eq(reg('P0', 'r0'), 0), eq(reg('P1', 'r0'), 0))),
  });

const mp = (w: Ordering, r: Ordering) =>
  makeTest({
    locs: { x: 0, y: 0 },
    threads: threads(
      [
        [st('x', 1, 'monotonic'), st('y', 1, w)],
        [ld('r0', 'y', r), ld('r1', 'x', 'monotonic')],
      ],
      P.slice(0, 2),
    ),
    cond: cond('exists', and(eq(reg('P1', 'r0'), 1), eq(reg('P1', 'r1'), 0))),
  });

const mpFences = makeTest({
  locs: { x: 0, y: 0 },
  threads: threads(
    [
      [st('x', 1, 'monotonic'), fence('release'), st('y', 1, 'monotonic')],
      [ld('r0', 'y', 'monotonic'), fence('acquire'), ld('r1', 'x', 'monotonic')],
    ],
    P.slice(0, 2),
  ),
  cond: cond('exists', and(eq(reg('P1', 'r0'), 1), eq(reg('P1', 'r1'), 0))),
});

const lb = (o: Ordering) =>
  makeTest({
    locs: { x: 0, y: 0 },
    threads: threads(
      [
        [ld('r0', 'x', o), st('y', 1, o === 'acquire' ? 'release' : o)],
        [ld('r0', 'y', o), st('x', 1, o === 'acquire' ? 'release' : o)],
      ],
      P.slice(0, 2),
    ),
    cond: cond('exists', and(eq(reg('P0', 'r0'), 1), eq(reg('P1', 'r0'), 1))),
  });

// IRIW; with `f`, a fence of that ordering between each reader's two loads.
const iriw = (o: Ordering, f?: Ordering) =>
  makeTest({
    locs: { x: 0, y: 0 },
    threads: threads(
      [
        [st('x', 1, o === 'acquire' ? 'release' : o)],
        [st('y', 1, o === 'acquire' ? 'release' : o)],
        [ld('r0', 'x', o), ...(f ? [fence(f)] : []), ld('r1', 'y', o)],
        [ld('r0', 'y', o), ...(f ? [fence(f)] : []), ld('r1', 'x', o)],
      ],
      P,
    ),
    cond: cond(
      'exists',
      and(eq(reg('P2', 'r0'), 1), eq(reg('P2', 'r1'), 0), eq(reg('P3', 'r0'), 1), eq(reg('P3', 'r1'), 0)),
    ),
  });

const corr = makeTest({
  locs: { x: 0 },
  threads: threads(
    [[st('x', 1, 'monotonic')], [ld('r0', 'x', 'monotonic'), ld('r1', 'x', 'monotonic')]],
    P.slice(0, 2),
  ),
  cond: cond('exists', and(eq(reg('P1', 'r0'), 1), eq(reg('P1', 'r1'), 0))),
});

const twoPlusTwoW = (o: Ordering) =>
  makeTest({
    locs: { x: 0, y: 0 },
    threads: threads(
      [
        [st('x', 1, o), st('y', 2, o)],
        [st('y', 1, o), st('x', 2, o)],
      ],
      P.slice(0, 2),
    ),
    cond: cond('exists', and(eq(mem('x'), 1), eq(mem('y'), 1))),
  });

// SB with a fence between each thread's store and load (relaxed accesses).
const sbFences = (o: Ordering) =>
  makeTest({
    locs: { x: 0, y: 0 },
    threads: threads(
      [
        [st('x', 1, 'monotonic'), fence(o), ld('r0', 'y', 'monotonic')],
        [st('y', 1, 'monotonic'), fence(o), ld('r0', 'x', 'monotonic')],
      ],
      P.slice(0, 2),
    ),
    cond: cond('exists', and(eq(reg('P0', 'r0'), 0), eq(reg('P1', 'r0'), 0))),
  });

// Two relaxed increments of one counter: a lost update leaves it at 1.
const counter = makeTest({
  locs: { x: 0 },
  threads: threads(
    [[rmw('r0', 'add', 'x', 1, 'monotonic')], [rmw('r0', 'add', 'x', 1, 'monotonic')]],
    P.slice(0, 2),
  ),
  cond: cond('exists', eq(mem('x'), 1)),
});

// MP whose flag is bumped by a relaxed RMW of a third thread: the RMW continues the release
// sequence, so the reader that sees 2 has synchronised with the release store (RC11's rs).
const mpRmw = makeTest({
  locs: { x: 0, y: 0 },
  threads: threads(
    [
      [st('x', 1, 'monotonic'), st('y', 1, 'release')],
      [rmw('r0', 'add', 'y', 1, 'monotonic')],
      [ld('r0', 'y', 'acquire'), ld('r1', 'x', 'monotonic')],
    ],
    P.slice(0, 3),
  ),
  cond: cond('exists', and(eq(reg('P2', 'r0'), 2), eq(reg('P2', 'r1'), 0))),
});

describe('models/rc11.cat', () => {
  it('parses without diagnostics', () => {
    expect(diagnostics).toEqual([]);
  });

  it.each([
    ['SB relaxed', sb('monotonic'), 'allowed'],
    ['SB release/acquire', sb('acquire'), 'allowed'],
    ['SB seq_cst', sb('seq_cst'), 'forbidden'],
    ['MP relaxed', mp('monotonic', 'monotonic'), 'allowed'],
    ['MP release/acquire', mp('release', 'acquire'), 'forbidden'],
    ['MP release/relaxed', mp('release', 'monotonic'), 'allowed'],
    ['MP with fences', mpFences, 'forbidden'],
    ['LB relaxed (no-thin-air)', lb('monotonic'), 'forbidden'],
    ['LB release/acquire', lb('acquire'), 'forbidden'],
    ['IRIW relaxed', iriw('monotonic'), 'allowed'],
    ['IRIW release/acquire', iriw('acquire'), 'allowed'],
    ['IRIW seq_cst', iriw('seq_cst'), 'forbidden'],
    ['CoRR relaxed', corr, 'forbidden'],
    ['2+2W relaxed', twoPlusTwoW('monotonic'), 'allowed'],
    ['2+2W release', twoPlusTwoW('release'), 'allowed'],
    ['2+2W seq_cst', twoPlusTwoW('seq_cst'), 'forbidden'],
    ['SB with seq_cst fences', sbFences('seq_cst'), 'forbidden'],
    // The fences are ordered through a from-read then a reads-from (hb ; eco ; hb): only psc_F.
    ['IRIW relaxed with seq_cst fences (psc_F)', iriw('monotonic', 'seq_cst'), 'forbidden'],
    ['SB with acq_rel fences', sbFences('acq_rel'), 'allowed'],
    ['two relaxed increments lose no update (atomicity)', counter, 'forbidden'],
    ['MP through a relaxed RMW of the release sequence', mpRmw, 'forbidden'],
  ])('%s', (_name, t, want) => {
    expect(verdict(t)).toBe(want);
  });

  it('reads return writes, but an uninitialised location read before any write is indeterminate (undef)', () => {
    // Every location initialised: no read returns undef, also a racy one.
    expect(runCat(mp('notatomic', 'notatomic'), model, DEFAULT_OPTIONS).flags.undef).toBe(false);
    // An exchange on an uninitialised location reads undef (no write happens before it) and stores
    // its operand; the load after it reads that write.
    const xchg = makeTest({
      locs: { x: 'undef' },
      threads: threads([[rmw('r0', 'xchg', 'x', 1, 'monotonic'), ld('r1', 'x', 'monotonic')]], P.slice(0, 1)),
    });
    const r = runCat(xchg, model, DEFAULT_OPTIONS);
    expect(r.states.map((s) => s.values)).toEqual([{ 'P0:r0': 'undef', 'P0:r1': 1 }]);
  });

  it('flags a race on plain accesses and none on atomics', () => {
    const racy = runCat(mp('notatomic', 'notatomic'), model, DEFAULT_OPTIONS);
    expect(racy.flags.race).toBe(true);
    expect(runCat(mp('release', 'acquire'), model, DEFAULT_OPTIONS).flags.race).toBe(false);
  });
});
