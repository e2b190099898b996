import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '../models/amdgpu.ts';
import { stateStrings } from '../models/testutil.ts';
import { enumerate, splitSearch } from './enumerate.ts';
import { arbTest } from './gen.ts';
import { mergeSlices, runSlice } from './parallel.ts';

describe('splitting the search into slices', () => {
  it('the merged slices find exactly the states, counts and flags of one search', () => {
    fc.assert(
      fc.property(arbTest({ exotic: true }), fc.integer({ min: 1, max: 40 }), (t, target) => {
        const whole = enumerate(t);
        const slices = splitSearch(t, target);
        const results = slices.map((slice) =>
          runSlice({
            test: t,
            model: DEFAULT_OPTIONS,
            timeoutMs: Number.POSITIVE_INFINITY,
            maxExecutions: Number.POSITIVE_INFINITY,
            maxStates: Number.POSITIVE_INFINITY,
            keepExamples: true,
            slice,
          }),
        );
        const merged = mergeSlices(whole.collector.labels, results);
        expect(stateStrings(merged.collector, true)).toEqual(stateStrings(whole.collector, true));
        expect(merged.stats.consistent).toBe(whole.stats.consistent);
        expect(
          merged.collector
            .records()
            .map((s) => s.count)
            .sort(),
        ).toEqual(
          whole.collector
            .records()
            .map((s) => s.count)
            .sort(),
        );
      }),
      { numRuns: 400 },
    );
  });
});
