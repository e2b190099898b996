/**
 * The brute-force reference enumerator: every cmpxchg outcome and barrier execution, every permutation of every
 * location's writes (initial write included), every rf choice (every same-location write, or
 * undef) for every read, each complete candidate checked against every axiom. No pruning, no
 * static filters: it exists to test the optimised enumerator, and is only usable on tiny tests.
 */

import { permutations } from '../core/permutations.ts';
import type { Test } from '../core/types.ts';
import { DEFAULT_OPTIONS, type ModelOptions, type Workspace } from '../models/amdgpu.ts';
import { Collector, leaf, prepareVariant, variantCount } from './enumerate.ts';
import type { ObserveMode } from './outcomes.ts';

/**
 * All consistent executions of `test`, by exhaustive search. `onConsistent` sees each consistent
 * execution with the workspace still loaded and derived (for properties over every execution).
 */
export function referenceEnumerate(
  test: Test,
  model: ModelOptions = DEFAULT_OPTIONS,
  onConsistent: ((ws: Workspace) => void) | null = null,
  observe: ObserveMode = 'all',
): { collector: Collector; explored: number } {
  const first = prepareVariant(test, 0, undefined, observe);
  const collector = new Collector(first.obs.map((o) => o.label));
  let explored = 0;
  const variants = variantCount(test);
  for (let v = 0; v < variants; v++) {
    const { sk, ws, obs, pairs } = prepareVariant(test, v, undefined, observe);
    const values = new Float64Array(obs.length);
    const coChoices = sk.writesByLoc.map((ws2) => permutations(ws2));
    const rfChoices = sk.reads.map((r) => [...sk.writesByLoc[sk.events[r]!.loc]!, -1]);
    const recCo = (l: number): void => {
      if (l === coChoices.length) {
        recRf(0);
        return;
      }
      for (const perm of coChoices[l]!) {
        perm.forEach((w, rank) => {
          ws.coRank[w] = rank;
        });
        recCo(l + 1);
      }
    };
    const recRf = (k: number): void => {
      if (k === rfChoices.length) {
        explored++;
        const verdict = leaf(ws, obs, pairs, values, v, model, collector);
        if (verdict.consistent && onConsistent) onConsistent(ws);
        return;
      }
      for (const src of rfChoices[k]!) {
        ws.rfSrc[sk.reads[k]!] = src;
        recRf(k + 1);
      }
    };
    recCo(0);
  }
  return { collector, explored };
}
