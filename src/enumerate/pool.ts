/**
 * Running one big test on a piscina worker pool. Node-only (the web page runs in-process).
 */

import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { Test } from '../core/types.ts';
import { DEFAULT_OPTIONS, type ModelOptions } from '../models/amdgpu.ts';
import { DEFAULT_ENUMERATE, Enumeration, splitSearch } from './enumerate.ts';
import type { ObserveMode } from './outcomes.ts';
import { SliceMerger, type SliceResult, type SliceTask } from './parallel.ts';

const ENTRY = fileURLToPath(new URL('./worker-entry.mjs', import.meta.url));

/** Default pool size: one worker per core. */
export function defaultWorkers(): number {
  return Math.max(1, availableParallelism());
}

/**
 * Enumerates `test` on `workers` threads: the search is split into about 8 slices per worker
 * (each carrying well over 10 ms of work for the tests worth parallelising), results are merged in
 * slice order.
 */
/**
 * Slices asked for per worker. Few: every slice tends to find most of the test's final states, and
 * merging them on the main thread costs about as much as the search when there are many (CO 7: 42
 * slices ran 3 × slower than in-process, 7 slices about as fast; docs/benchmarks.md).
 */
export const SLICES_PER_WORKER = 2;

export async function enumerateParallel(
  test: Test,
  opts: {
    model?: ModelOptions;
    workers?: number;
    timeoutMs?: number;
    maxExecutions?: number;
    maxStates?: number;
    observe?: ObserveMode;
    keepExamples?: boolean;
    /** Called as each slice's result arrives: slices done, of how many, and the merge so far. */
    onSlice?: (done: number, total: number, merged: SliceMerger) => void;
  } = {},
): Promise<{ collector: SliceMerger['collector']; stats: SliceMerger['stats']; stop: SliceMerger['stop'] }> {
  const workers = opts.workers ?? defaultWorkers();
  const slices = splitSearch(test, workers * SLICES_PER_WORKER);
  const pool = new Piscina({ filename: ENTRY, minThreads: workers, maxThreads: workers });
  try {
    const base = {
      test,
      model: opts.model ?? DEFAULT_OPTIONS,
      timeoutMs: opts.timeoutMs ?? Number.POSITIVE_INFINITY,
      maxExecutions: opts.maxExecutions ?? Number.POSITIVE_INFINITY,
      maxStates: opts.maxStates ?? Number.POSITIVE_INFINITY,
      observe: opts.observe ?? 'all',
      keepExamples: opts.keepExamples ?? true,
    };
    // Merged on the main thread as they arrive (in slice order), while the workers go on.
    const merger = new SliceMerger(
      new Enumeration(test, { ...DEFAULT_ENUMERATE, observe: base.observe }).collector.labels,
      base.maxStates,
    );
    let done = 0;
    await Promise.all(
      slices.map(async (slice, i) => {
        merger.add(i, (await pool.run({ ...base, slice } satisfies SliceTask)) as SliceResult);
        opts.onSlice?.(++done, slices.length, merger);
      }),
    );
    return { collector: merger.collector, stats: merger.stats, stop: merger.stop };
  } finally {
    await pool.destroy();
  }
}
