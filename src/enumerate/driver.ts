/**
 * What every variant-by-variant search shares (the cat enumerator, src/cat/enumerate.ts, and the
 * Vulkan fast search, src/vulkan/search.ts): stepping through the variants in slices of search
 * nodes, the budgets, interruption, progress, and recording a consistent execution. No Node APIs
 * here.
 */
import { Collector, type ExecutionRecord } from './collector.ts';
import type { EnumerationStats, StopReason } from './enumerate.ts';
import { SLICE_EXECUTIONS } from './limits.ts';

/** The search of one variant: advanced by the driver until finished. */
export interface VariantStep {
  readonly finished: boolean;
}

/** Budgets of a search. */
export interface DriverLimits {
  maxExecutions: number;
  timeoutMs: number;
  maxStates: number;
  keepExamples: boolean;
}

/** Steps through `variantCount` variants, each searched by the `S` that `start` makes. */
export abstract class VariantDriver<S extends VariantStep> {
  readonly collector: Collector;
  readonly stats: EnumerationStats & { racy: number; raceFree: number } = {
    nodes: 0,
    explored: 0,
    consistent: 0,
    racy: 0,
    raceFree: 0,
  };
  stop: StopReason | null = null;
  /** Some recorded execution has undefined behaviour (its variant's `ub`). */
  ub = false;
  /** The variants with undefined behaviour that recorded an execution. */
  readonly ubVariants = new Set<number>();
  /**
   * Where the slice `step` runs ends in executions: SLICE_EXECUTIONS after its start, as one candidate
   * may stand for many (the solutions of value cycles). Each search's `advance` stops there too.
   */
  sliceEnd = 0;
  private v = -1;
  private cur: S | null = null;
  private readonly t0 = performance.now();

  constructor(
    labels: string[],
    private readonly limits: DriverLimits,
    private readonly variantCount: number,
  ) {
    this.collector = new Collector(labels, limits.keepExamples, limits.maxStates);
  }

  /** The search of variant `v`. */
  protected abstract start(v: number): S;

  /** Advances `s` by up to `budget` nodes; returns the nodes used. */
  protected abstract advance(s: S, budget: number): number;

  /** Runs to the end (or a budget). */
  run(): this {
    while (!this.step(1 << 14));
    return this;
  }

  /** Visits up to `budget` search nodes; true when the search is over. */
  step(budget: number): boolean {
    if (this.stop) return true;
    let left = budget;
    this.sliceEnd = this.stats.consistent + SLICE_EXECUTIONS;
    while (left > 0 && this.stats.consistent < this.sliceEnd) {
      if (!this.cur) {
        this.v++;
        if (this.v >= this.variantCount) {
          this.stop = 'done';
          return true;
        }
        this.cur = this.start(this.v);
      }
      left -= this.advance(this.cur, left);
      if (this.cur.finished) this.cur = null;
      if (this.stop) return true;
    }
    if (performance.now() - this.t0 > this.limits.timeoutMs) this.stop = 'timeout';
    return this.stop !== null;
  }

  /** Stops the search at the next slice (Ctrl-C): the report shows what was found so far. */
  interrupt(): void {
    if (!this.stop) this.stop = 'interrupted';
  }

  /** Fraction of the variants done (for progress lines). */
  progress(): number {
    return Math.max(0, this.v) / Math.max(1, this.variantCount);
  }

  /** Records a consistent execution of variant `variant` (with undefined behaviour when `ub`). */
  protected recordExecution(
    variant: number,
    ub: boolean,
    values: Float64Array,
    race: boolean,
    undef: boolean,
    example: () => ExecutionRecord,
  ): void {
    this.stats.consistent++;
    if (race) this.stats.racy++;
    else this.stats.raceFree++;
    if (ub) {
      this.ub = true;
      this.ubVariants.add(variant);
    }
    this.collector.record(values, 1, race, undef, example);
    // Per execution: the searches stop as soon as `stop` is set, not at the slice's end.
    if (this.collector.overflow) this.stop = 'max-states';
    else if (this.stats.consistent >= this.limits.maxExecutions) this.stop = 'max-executions';
  }
}
