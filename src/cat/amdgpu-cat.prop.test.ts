/**
 * models/amdgpu.cat against the fast search on random tests: the same final states, execution
 * counts and race / undef flags. Each generator exercises a corner of the model: plain and atomic
 * accesses of every ordering and scope (value rules, races, undef), RMWs, cmpxchg, av intrinsics and
 * `amdgcn-av none` (availability and visibility), barriers, LDS with `-one-as` (per-class hb), RMW
 * chains whose release sequences decide hb beside racy data, both value-rule modes, data
 * dependencies whose value cycles are solved without no-thin-air. A disagreement is a bug in one
 * of the two models.
 *
 * What it cannot catch: both sides read one skeleton (src/events/skeleton.ts — the events, program order,
 * scope inclusion, barrier synchronisation, the base of happens-before) and one value evaluator
 * (src/events/program.ts), the cat side through its primitives (src/cat/primitives.ts). A mistake there is
 * the same on both sides and passes here; the skeleton's and evaluator's own tests, the brute-force
 * reference of src/enumerate/enumerate.prop.test.ts (which shares them too) and the catalogue's pinned
 * baselines are what check them. What this test checks is the model stated twice: the axioms and value
 * rules of models/amdgpu.cat against those of src/models/amdgpu.ts and the pruned search's shortcuts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Ordering, Scope, Test } from '../core/types.ts';
import { enumerate } from '../enumerate/enumerate.ts';
import {
  arbDataTest,
  arbMpSpaces,
  arbRmwChains,
  arbShape,
  arbTest,
  CLASSIC_SHAPES,
  classicShape,
  type GenOptions,
  SHAPE_PLACEMENTS,
} from '../enumerate/gen.ts';
import { DEFAULT_OPTIONS, type ModelOptions } from '../models/amdgpu.ts';
import { withCounts } from '../models/testutil.ts';
import { CatEnumeration, DEFAULT_CAT } from './enumerate.ts';
import { loadModel } from './load.ts';
import { variantsOf } from './report.ts';

const CAT = join(import.meta.dirname, '..', '..', 'models', 'amdgpu.cat');
const { model } = loadModel(readFileSync(CAT, 'utf8'), CAT, () => null);

function agree(t: Test, opts: ModelOptions = DEFAULT_OPTIONS): void {
  const fast = enumerate(t, { model: opts });
  const cat = new CatEnumeration(t, model, { ...DEFAULT_CAT, variants: variantsOf(opts) }).run();
  expect(withCounts(cat.collector)).toEqual(withCounts(fast.collector));
}

const RUNS = 80;
const cases: [string, Partial<GenOptions>][] = [
  ['plain and atomic accesses, RMWs', {}],
  ['cmpxchg, av intrinsics, amdgcn-av none', { exotic: true }],
  ['barriers', { barriers: true }],
  ['LDS and -one-as', { spaces: true }],
];

describe('models/amdgpu.cat against the fast search on random tests', () => {
  it.each(cases)('%s', (_name, o) => {
    fc.assert(
      fc.property(arbTest(o), (t) => agree(t)),
      { numRuns: RUNS },
    );
  });

  it.each(cases)('%s, repaired value rules', (_name, o) => {
    fc.assert(
      fc.property(arbTest(o), (t) => agree(t, { ...DEFAULT_OPTIONS, valueRules: 'repaired' })),
      { numRuns: RUNS / 2 },
    );
  });

  it('data dependencies, arithmetic, selects, RMWs and cmpxchg: value cycles solved alike without no-thin-air', () => {
    // Without no-thin-air, load buffering through the data dependencies builds value cycles: both
    // engines take each solution of their equations (docs/model.md, "Values out of thin air").
    fc.assert(
      fc.property(arbDataTest(), (t) => agree(t, { ...DEFAULT_OPTIONS, noThinAir: false })),
      { numRuns: RUNS },
    );
    fc.assert(
      fc.property(arbDataTest(), (t) => agree(t)),
      { numRuns: RUNS / 2 },
    );
  });

  it('classic shapes (SB, LB, MP, R, S, 2+2W, IRIW, WRC), seq_cst often, random scopes and fences', () => {
    fc.assert(
      fc.property(arbShape(), (t) => agree(t)),
      { numRuns: RUNS },
    );
    fc.assert(
      fc.property(arbShape(), (t) => agree(t, { ...DEFAULT_OPTIONS, noThinAir: false })),
      { numRuns: RUNS / 2 },
    );
  });

  // Every classic shape with one ordering and one scope for all its accesses, in each placement,
  // with and without a seq_cst fence between each thread's accesses: the shapes whose verdicts
  // only scoped seq_cst, coherence or no-thin-air decide (LB relaxed, SB seq_cst, …) all appear.
  const uniform: [string, Ordering, Scope, string, boolean][] = [];
  for (const name of Object.keys(CLASSIC_SHAPES))
    for (const ord of ['monotonic', 'acquire', 'seq_cst', 'notatomic'] as Ordering[])
      for (const scope of ['agent', 'workgroup'] as Scope[])
        for (const pl of Object.keys(SHAPE_PLACEMENTS))
          for (const fenced of [false, true]) uniform.push([name, ord, scope, pl, fenced]);
  it.each(uniform)(
    '%s, every access %s at %s scope, threads in %s, fenced: %s',
    (name, ord, scope, pl, fenced) => {
      const t = classicShape(
        name,
        () => ({ ordering: ord, scope }),
        () => (fenced ? { ordering: 'seq_cst', scope } : null),
        SHAPE_PLACEMENTS[pl]!,
      );
      agree(t);
    },
  );

  it('message passing across address spaces', () => {
    fc.assert(
      fc.property(arbMpSpaces(), (t) => agree(t)),
      { numRuns: RUNS },
    );
  });

  it('RMW chains with release and acquire on one location beside plain and atomic accesses to another', () => {
    // hb depends on which write of the chain the acquire reads (`arbRmwChains`); two locations and
    // at most 10 000 reference candidates keep each test quick, so twice the runs.
    fc.assert(
      fc.property(arbRmwChains(), (t) => agree(t)),
      { numRuns: 2 * RUNS },
    );
  });
});
