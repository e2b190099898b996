/**
 * Splitting one big test's search across worker threads (piscina). The search is cut into slices
 * by fixing its first choice points (`splitSearch`); each task enumerates one slice and returns its
 * final states; the results are merged in slice order, so the report does not depend on timing.
 */

import type { Test } from '../core/types.ts';
import {
  Collector,
  DEFAULT_ENUMERATE,
  type EnumerateOptions,
  Enumeration,
  type EnumerationStats,
  type StopReason,
} from './enumerate.ts';
import type { ObserveMode } from './outcomes.ts';

/** One slice of the search, as sent to a worker. Plain JSON. */
export interface SliceTask {
  test: Test;
  model: EnumerateOptions['model'];
  timeoutMs: number;
  maxExecutions: number;
  maxStates: number;
  /** What a final state shows (default `all`). */
  observe?: ObserveMode;
  keepExamples: boolean;
  slice: { variant: number; prefix: number[] };
}

/**
 * A slice's result, as returned by a worker: flat typed arrays (cheap to copy between threads),
 * one row per final state in the order found.
 */
export interface SliceResult {
  /** `states × observables` values (NaN for undef). */
  values: Float64Array;
  counts: Float64Array;
  /** Bit 0: some execution races; bit 1: some execution reads undef. */
  flags: Uint8Array;
  variants: Int32Array;
  /** `states × 2n`: the example execution's rf sources, then its coherence ranks. */
  examples: Int32Array;
  /** Events per skeleton row of `examples` (n; the widest variant). */
  n: number;
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
    maxStates: task.maxStates,
    observe: task.observe ?? 'all',
    keepExamples: task.keepExamples,
    only: task.slice,
  }).run();
  const recs = en.collector.records();
  const k = en.collector.labels.length;
  const n = recs.reduce((m, r) => Math.max(m, r.example.rf.length), 0);
  const out: SliceResult = {
    values: new Float64Array(recs.length * k),
    counts: new Float64Array(recs.length),
    flags: new Uint8Array(recs.length),
    variants: new Int32Array(recs.length),
    examples: new Int32Array(recs.length * 2 * n),
    n,
    stats: en.stats,
    stop: en.stop ?? 'done',
  };
  recs.forEach((r, i) => {
    out.values.set(r.values, i * k);
    out.counts[i] = r.count;
    out.flags[i] = (r.race ? 1 : 0) | (r.undef ? 2 : 0);
    out.variants[i] = r.example.variant;
    out.examples.set(r.example.rf, i * 2 * n);
    out.examples.set(r.example.co, i * 2 * n + n);
  });
  return out;
}

/**
 * Merges slice results into one collector and summed statistics, in slice order whatever order
 * they arrive in (so the example execution kept per state does not depend on timing): a result is
 * merged as soon as every earlier slice's is, which lets the main thread merge while the workers
 * still search.
 */
export class SliceMerger {
  readonly collector: Collector;
  readonly stats: EnumerationStats = { nodes: 0, explored: 0, consistent: 0 };
  stop: StopReason = 'done';
  private readonly pending = new Map<number, SliceResult>();
  private next = 0;

  /** `maxStates`: the merge keeps at most so many states, and stops (`max-states`) on one more. */
  constructor(
    readonly labels: string[],
    maxStates = Number.POSITIVE_INFINITY,
  ) {
    this.collector = new Collector(labels, true, maxStates);
  }

  /** Result of slice `index` (0, 1, … in slice order). */
  add(index: number, r: SliceResult): void {
    this.pending.set(index, r);
    for (let p = this.pending.get(this.next); p !== undefined; p = this.pending.get(this.next)) {
      this.pending.delete(this.next);
      this.next++;
      this.merge(p);
    }
  }

  private merge(r: SliceResult): void {
    const { collector, stats } = this;
    if (collector.overflow) return;
    stats.nodes += r.stats.nodes;
    stats.explored += r.stats.explored;
    stats.consistent += r.stats.consistent;
    if (r.stop !== 'done') this.stop = r.stop;
    const k = this.labels.length;
    const n = r.n;
    for (let i = 0; i < r.counts.length; i++) {
      collector.record(
        r.values.subarray(i * k, (i + 1) * k),
        r.counts[i]!,
        (r.flags[i]! & 1) !== 0,
        (r.flags[i]! & 2) !== 0,
        () => ({
          variant: r.variants[i]!,
          rf: r.examples.slice(i * 2 * n, i * 2 * n + n),
          co: r.examples.slice(i * 2 * n + n, (i + 1) * 2 * n),
        }),
      );
      if (collector.overflow) {
        this.stop = 'max-states';
        return;
      }
    }
  }
}

/** Merges slice results (in order) into a collector and summed statistics. */
export function mergeSlices(
  labels: string[],
  results: SliceResult[],
  maxStates = Number.POSITIVE_INFINITY,
): { collector: Collector; stats: EnumerationStats; stop: StopReason } {
  const m = new SliceMerger(labels, maxStates);
  results.forEach((r, i) => {
    m.add(i, r);
  });
  return { collector: m.collector, stats: m.stats, stop: m.stop };
}
