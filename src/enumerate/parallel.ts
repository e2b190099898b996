/**
 * Splitting one big test's search across worker threads (piscina). The search is cut into slices
 * by fixing its first choice points (`splitSearch`); each task enumerates one slice and returns its
 * final states; the results are merged in slice order, so the report does not depend on timing.
 */

import type { Test } from '../core/types.ts';
import { isUndef } from '../events/program.ts';
import {
  Collector,
  DEFAULT_ENUMERATE,
  type EnumerateOptions,
  Enumeration,
  type EnumerationStats,
  type StopReason,
} from './enumerate.ts';

/** One slice of the search, as sent to a worker. Plain JSON. */
export interface SliceTask {
  test: Test;
  model: EnumerateOptions['model'];
  timeoutMs: number;
  maxExecutions: number;
  slice: { variant: number; prefix: number[] };
}

/** A slice's result, as returned by a worker. Plain JSON (undef as null). */
export interface SliceResult {
  states: {
    values: (number | null)[];
    count: number;
    race: boolean;
    undef: boolean;
    variant: number;
    rf: number[];
    co: number[];
  }[];
  stats: EnumerationStats;
  stop: StopReason;
}

/** Enumerates one slice (the worker's task; also callable in-process). */
export function runSlice(task: SliceTask): SliceResult {
  const en = new Enumeration(task.test, {
    ...DEFAULT_ENUMERATE,
    model: task.model,
    timeoutMs: task.timeoutMs,
    maxExecutions: task.maxExecutions,
    only: task.slice,
  }).run();
  return {
    states: [...en.collector.states.values()].map((s) => ({
      values: Array.from(s.values, (v) => (isUndef(v) ? null : v)),
      count: s.count,
      race: s.race,
      undef: s.undef,
      variant: s.example.variant,
      rf: Array.from(s.example.rf),
      co: Array.from(s.example.co),
    })),
    stats: en.stats,
    stop: en.stop ?? 'done',
  };
}

/** Merges slice results (in order) into a collector and summed statistics. */
export function mergeSlices(
  labels: string[],
  results: SliceResult[],
): { collector: Collector; stats: EnumerationStats; stop: StopReason } {
  const collector = new Collector(labels);
  const stats: EnumerationStats = { nodes: 0, explored: 0, consistent: 0 };
  let stop: StopReason = 'done';
  for (const r of results) {
    stats.nodes += r.stats.nodes;
    stats.explored += r.stats.explored;
    stats.consistent += r.stats.consistent;
    if (r.stop !== 'done') stop = r.stop;
    for (const s of r.states) {
      const values = Float64Array.from(s.values, (v) => (v === null ? Number.NaN : v));
      collector.addState(values, s.count, s.race, s.undef, {
        variant: s.variant,
        rf: Int32Array.from(s.rf),
        co: Int32Array.from(s.co),
      });
    }
  }
  return { collector, stats, stop };
}
