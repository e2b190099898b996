import { describe, expect, it } from 'vitest';
import { compileModel, type Primitives, type PrimitiveValue } from './eval.ts';
import { loadModel } from './load.ts';
import { parseCat } from './parser.ts';
import { LACKING } from './primitives.ts';
import { boundValue, relValue, setValue } from './testutil.ts';

// Five events: 0 an initial write; threads {1, 2} and {3, 4}; one location.
const N = 5;
const rel = (pairs: [number, number][]) => relValue(N, pairs);
const set = setValue;
const all: [number, number][] = [];
for (let a = 0; a < N; a++) for (let b = 0; b < N; b++) all.push([a, b]);
const sameThread = (a: number, b: number) => a > 0 && b > 0 && a <= 2 === b <= 2;
const PRIMS: Primitives = {
  n: N,
  lacking: LACKING,
  values: new Map<string, PrimitiveValue>([
    [
      'po',
      rel([
        [1, 2],
        [3, 4],
      ]),
    ],
    ['loc', rel(all.filter(([a, b]) => a !== b || a === b))],
    ['int', rel(all.filter(([a, b]) => sameThread(a, b)))],
    ['ext', rel(all.filter(([a, b]) => a !== b && !sameThread(a, b)))],
    // 1 and 3 write, 2 and 4 read; 2 reads 1 (internal), 4 reads 1 (external).
    [
      'rf',
      rel([
        [1, 2],
        [1, 4],
      ]),
    ],
    [
      'co',
      rel([
        [0, 1],
        [0, 3],
        [1, 3],
      ]),
    ],
    [
      'fr',
      rel([
        [2, 3],
        [4, 3],
      ]),
    ],
    ['W', set([0, 1, 3])],
    ['Monotonic', set([1, 2])],
    ['AcqRel', set([3])],
  ]),
};

const value = (e: string) => boundValue(`let out = ${e}`, PRIMS);

describe("herd7's standard names (prelude)", () => {
  it.each([
    ['po-loc', 'po & loc'],
    ['rfe', 'rf & ext'],
    ['rfi', 'rf & int'],
    ['coe', 'co & ext'],
    ['coi', 'co & int'],
    ['fre', 'fr & ext'],
    ['fri', 'fr & int'],
    ['ca', 'fr | co'],
    ['FW', 'W \\ domain(co)'],
    ['RLX', 'Monotonic'],
    ['ACQ_REL', 'AcqRel'],
    ['emptyset', 'domain(0)'],
    ['toid(W)', '[W]'],
    ['fencerel(W)', '(po & (_ * W)) ; po'],
    ['imply(rf, po)', '~rf | po'],
    ['nodetour(co, co, co)', 'co \\ (co ; co)'],
    ['singlestep(co)', 'co \\ (co ; co)'],
  ])('%s is %s', (name, meaning) => {
    expect(value(name)).toEqual(value(meaning));
  });

  it('the values are what herd7 gives them here', () => {
    expect(value('rfi')).toEqual([[1, 2]]);
    expect(value('rfe')).toEqual([[1, 4]]);
    expect(value('coi')).toEqual([]);
    // The initial write is in no thread: external to every event (herd7's ext likewise).
    expect(value('coe')).toEqual([
      [0, 1],
      [0, 3],
      [1, 3],
    ]);
    expect(value('FW')).toEqual([3]);
  });

  it('costs nothing unless used, and a model may bind the names itself', () => {
    const unused = compileModel(parseCat('let out = rf', 't.cat').model, PRIMS, new Set());
    expect(unused.steps).toEqual([]);
    const used = compileModel(parseCat('let out = rfe | rfe', 't.cat').model, PRIMS, new Set());
    // rf & ext once, then the union.
    expect(used.steps.length).toBe(2);
    expect(value('let rfe = po in rfe')).toEqual(value('po'));
  });
});

describe('includes of herd7 library files', () => {
  it('stdlib.cat and cos.cat are built in; another library file is CAT3004', () => {
    const none = () => null;
    expect(
      loadModel('include "stdlib.cat"\ninclude "cos.cat"\nacyclic po | ca as x', 'm.cat', none).diagnostics,
    ).toEqual([]);
    const d = loadModel('include "filters.cat"', 'm.cat', none).diagnostics;
    expect(d.map((x) => x.code)).toEqual(['CAT3004']);
    expect(d[0]!.hint).toContain('cos.cat');
    // A file of that name beside the model is read, as herd7 would.
    const mine = loadModel('include "cos.cat"', 'm.cat', () => ({ file: 'cos.cat', text: 'let mine = po' }));
    expect(mine.model.instrs.map((i) => i.kind)).toEqual(['let']);
  });
});
