/** Helpers of the cat tests: hand-made primitives, and the value a model binds to `out`. */
import { expect } from 'vitest';
import { fromPairs, toPairs } from '../core/relation.ts';
import { compileModel, type Primitives, type PrimitiveValue } from './eval.ts';
import { parseCat } from './parser.ts';

/** A fixed relation over `n` events. */
export function relValue(n: number, pairs: [number, number][]): PrimitiveValue {
  const r = fromPairs(n, pairs);
  return { type: 'rel', tier: 0, rel: r, bits: r.bits };
}

/** A fixed set of events (fewer than 32). */
export function setValue(xs: number[]): PrimitiveValue {
  const b = new Uint32Array(1);
  for (const x of xs) b[0]! |= 1 << x;
  return { type: 'set', tier: 0, rel: null, bits: b };
}

/** The value `src` binds to `out` under `prims`, as pairs or members (no diagnostics allowed). */
export function boundValue(
  src: string,
  prims: Primitives,
  variants: string[] = [],
): [number, number][] | number[] {
  const { model, diagnostics } = parseCat(src, 't.cat');
  expect(diagnostics).toEqual([]);
  const c = compileModel(model, prims, new Set(variants));
  expect(c.diagnostics).toEqual([]);
  for (const s of c.steps) s.run?.();
  const out = c.bound.get('out')!;
  if (out.rel) return toPairs(out.rel);
  return [...Array(prims.n).keys()].filter((i) => ((out.bits[0]! >>> i) & 1) === 1);
}
