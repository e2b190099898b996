import { describe, expect, it } from 'vitest';
import { isAcquire, isRelease, narrowerScope, SCOPES, scopeRank } from './types.ts';

describe('scopes', () => {
  it('orders scopes from system (widest) to singlethread (narrowest)', () => {
    expect(SCOPES.map(scopeRank)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(narrowerScope('agent', 'workgroup')).toBe('workgroup');
    expect(narrowerScope('wavefront', 'system')).toBe('wavefront');
  });
  it('classifies orderings', () => {
    expect(['acquire', 'acq_rel', 'seq_cst'].every((o) => isAcquire(o as never))).toBe(true);
    expect(isAcquire('release')).toBe(false);
    expect(isRelease('release') && isRelease('acq_rel') && !isRelease('monotonic')).toBe(true);
  });
});
