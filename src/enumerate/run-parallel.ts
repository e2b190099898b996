/**
 * `runTestParallel`: a test split over a pool of worker threads (src/enumerate/pool.ts), apart from
 * src/enumerate/verdict.ts so that what the browser explorer imports reaches no Node API.
 */

import type { Test } from '../core/types.ts';
import type { Enumeration } from './enumerate.ts';
import { estimateCandidates } from './enumerate.ts';
import type { Report } from './report.ts';
import { enumerationFor, finish, progressOf, type RunOptions, type SearchProgress, tick } from './verdict.ts';

/**
 * How long `runTestParallel` first searches in-process: a test done by then never starts the pool,
 * whose threads take about half a second to start and whose slices would each carry only a few
 * milliseconds of work (docs/benchmarks.md, "Workers").
 */
export const IN_PROCESS_FIRST_MS = 250;

/**
 * Runs `test` on a pool of `workers` threads (the search split into slices, merged in order) —
 * unless the in-process search finishes within `IN_PROCESS_FIRST_MS`. Budgets apply per slice; a
 * run stopped in any slice is incomplete.
 */
export async function runTestParallel(
  test: Test,
  opts: RunOptions,
  workers: number,
  inProcessFirstMs = IN_PROCESS_FIRST_MS,
  hooks: {
    /**
     * Called between slices of the in-process search, then as each worker slice is merged (the
     * pool starts the search afresh, so the share done starts again from 0).
     */
    onProgress?: (p: SearchProgress) => void;
  } = {},
): Promise<{ report: Report; merged: Pick<Enumeration, 'collector' | 'stats' | 'stop'>; pooled: boolean }> {
  const estimate = estimateCandidates(test);
  const t0 = performance.now();
  if (inProcessFirstMs > 0) {
    const first = enumerationFor(test, opts);
    while (!first.step(1 << 14) && performance.now() - t0 < inProcessFirstMs)
      hooks.onProgress?.(progressOf(first, t0));
    // Worker slices fix the first choices, which thread symmetry cannot reduce across: a search
    // reduced by symmetry stays in-process (a counter of 10 RMWs: 3.6 M executions, 164 nodes).
    if (first.symmetric !== 'no')
      while (!first.step(1 << 14)) {
        hooks.onProgress?.(progressOf(first, t0));
        await tick();
      }
    if (first.stop) return { report: finish(test, opts, first, estimate, t0), merged: first, pooled: false };
  }
  const { enumerateParallel } = await import('./pool.ts');
  const merged = await enumerateParallel(test, {
    model: opts.model,
    workers,
    timeoutMs: opts.timeoutMs,
    maxExecutions: opts.maxExecutions,
    maxStates: opts.maxStates ?? Number.POSITIVE_INFINITY,
    keepExamples: opts.keepExamples ?? true,
    observe: opts.observe ?? 'all',
    onSlice: (done, total, m) =>
      hooks.onProgress?.({
        fraction: done / total,
        states: m.collector.size,
        executions: m.stats.consistent,
        elapsedMs: performance.now() - t0,
      }),
  });
  return { report: finish(test, opts, merged, estimate, t0), merged, pooled: true };
}
