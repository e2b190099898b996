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

/** The counts of a search that tells racy executions from race-free ones (the Vulkan searches). */
export type RaceStats = EnumerationStats & { racy: number; raceFree: number };

/** Race counters before a search's first step. */
export function noRaceStats(): RaceStats {
  return { nodes: 0, explored: 0, consistent: 0, racy: 0, raceFree: 0 };
}

/** Search-tree nodes a search's `advance` is given at most at a time, so budgets are looked at between. */
const NODES_PER_ADVANCE = 4096;
/** Nodes of a search's first `advance`, before its nodes' cost is known. */
const FIRST_ADVANCE = 16;
/** What one `advance` should take: budgets and Ctrl-C act within a few times this. */
const ADVANCE_MS = 10;

/**
 * Steps through variants `firstVariant … variantCount - 1`, each searched by the `S` that `start`
 * makes: the AMDGPU fast search (src/enumerate/enumerate.ts), the cat enumerator and the Vulkan fast
 * search. Between calls of `advance` it looks at the budgets, in this order: a state found and not
 * kept (`max-states`), nothing left (`done`: a search that has visited everything is complete,
 * whatever budget it reached on the way), Ctrl-C, `timeoutMs`, `maxExecutions`.
 */
export abstract class VariantDriver<S extends VariantStep, St extends EnumerationStats = RaceStats> {
  readonly collector: Collector;
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
  /** The variant being searched (the last one started). */
  protected v: number;
  /** Its search, until finished. */
  protected cur: S | null = null;
  private readonly t0 = performance.now();
  /** Nodes the next `advance` is given (`pace`). */
  private chunk = FIRST_ADVANCE;

  constructor(
    labels: string[],
    private readonly limits: DriverLimits,
    readonly variantCount: number,
    readonly stats: St,
    private readonly firstVariant = 0,
  ) {
    this.collector = new Collector(labels, limits.keepExamples, limits.maxStates);
    this.v = firstVariant - 1;
  }

  /** The search of variant `v`. */
  protected abstract start(v: number): S;

  /** Advances `s` by up to `budget` nodes; returns the nodes used. */
  protected abstract advance(s: S, budget: number): number;

  /** How much of `s`'s search is done, 0 to 1 (for progress; by default nothing until it ends). */
  protected within(_s: S): number {
    return 0;
  }

  /** Runs to the end (or a budget). */
  run(): this {
    while (!this.step(1 << 16));
    return this;
  }

  /** Visits up to `budget` search nodes; true when the search is over. */
  step(budget: number): boolean {
    if (this.stop) return true;
    let left = budget;
    this.sliceEnd = this.stats.consistent + SLICE_EXECUTIONS;
    while (left > 0 && this.stats.consistent < this.sliceEnd) {
      if (this.collector.overflow) this.stop = 'max-states';
      else if (!this.cur && this.v + 1 >= this.variantCount) this.stop = 'done';
      else if (performance.now() - this.t0 > this.limits.timeoutMs) this.stop = 'timeout';
      else if (this.stats.consistent >= this.limits.maxExecutions) this.stop = 'max-executions';
      if (this.stop) return true;
      if (!this.cur) this.cur = this.start(++this.v);
      const t = performance.now();
      left -= this.advance(this.cur, Math.min(left, this.chunk));
      this.pace(performance.now() - t);
      if (this.cur.finished) this.cur = null;
      if (this.stop) return true;
    }
    return false;
  }

  /**
   * Sizes the next `advance` so that one takes about ADVANCE_MS: nodes of a test with thousands of
   * events cost milliseconds each, and 4,096 of them between two looks at the budgets ran a
   * `--timeout 3` search for 40 s. Fast searches keep NODES_PER_ADVANCE.
   */
  private pace(ms: number): void {
    if (ms > 2 * ADVANCE_MS) this.chunk = Math.max(1, Math.floor((this.chunk * ADVANCE_MS) / ms));
    else if (ms < ADVANCE_MS / 4) this.chunk = Math.min(NODES_PER_ADVANCE, this.chunk * 2);
  }

  /** Stops the search (Ctrl-C, a listing that has enough): the report shows what was found so far. */
  interrupt(): void {
    if (!this.stop) this.stop = 'interrupted';
  }

  /**
   * Rough fraction of the search done: the variants done, and of the current one what `within` says
   * (for progress reports and time estimates).
   */
  progress(): number {
    if (this.stop === 'done') return 1;
    const done = Math.max(0, this.v - this.firstVariant) + (this.cur ? this.within(this.cur) : 0);
    return Math.min(1, done / Math.max(1, this.variantCount - this.firstVariant));
  }

  /** Records a consistent execution of variant `variant` (with undefined behaviour when `ub`). */
  protected recordExecution(
    this: VariantDriver<S, RaceStats>,
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
