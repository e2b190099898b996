/**
 * What a model engine is to the runner (src/run/runner.ts): one per language and kind of model
 * (the fast search, or a cat model through the cat engine), each in a module the registry loads
 * when a model of it runs. No Node APIs here.
 */
import type { Model } from '../cat/ast.ts';
import type { SourceDiagnostic } from '../core/diagnostics.ts';
import type { Test } from '../core/types.ts';
import type { Collector } from '../enumerate/collector.ts';
import type { ObserveMode } from '../enumerate/outcomes.ts';
import type { Report } from '../enumerate/report.ts';
import type { RunOptions, SearchProgress } from '../enumerate/verdict.ts';
import type { ModelDiagnostic } from '../events/skeleton.ts';
import { DEFAULT_OPTIONS, type ModelOptions } from '../models/amdgpu.ts';
import type { AnyTest } from '../vulkan/ast.ts';
import { DEFAULT_UNROLL } from '../vulkan/paths.ts';

/** How every model reads a test: the options of `gpumm run`, the page's settings. */
export interface RunSettings {
  /** The AMDGPU model's options (no thin air, the value rules). */
  amdgpu: ModelOptions;
  vulkan: {
    /** Loops that are not await loops jump back at most this many times. */
    unroll: number;
    /** Availability/visibility chains of more than one element (`--no-av-vis-chains`: false). */
    chains: boolean;
    /** From-reads as the spec says them literally (`--vulkan-fr literal`). */
    literalFr: boolean;
  };
  /** What a final state shows. */
  observe: ObserveMode;
  /** `--explain`: why the candidates the condition selects are forbidden. */
  explain: boolean;
  /** Keep one execution per final state (graphs, `compare`'s executions). */
  keepExamples: boolean;
  /**
   * Reduce the AMDGPU fast search by thread symmetry. Off where each state's own execution is
   * described (`compare`): a relabelled state's execution is its class representative's.
   */
  symmetry: boolean;
}

export const DEFAULT_SETTINGS: RunSettings = {
  amdgpu: DEFAULT_OPTIONS,
  vulkan: { unroll: DEFAULT_UNROLL, chains: true, literalFr: false },
  observe: 'all',
  explain: false,
  keepExamples: false,
  symmetry: true,
};

/** A run's limits: it stops, undecided, at the first one reached. */
export interface Budgets {
  maxExecutions: number;
  maxStates: number;
  timeoutMs: number;
}

export const UNBOUNDED: Budgets = {
  maxExecutions: Number.POSITIVE_INFINITY,
  maxStates: Number.POSITIVE_INFINITY,
  timeoutMs: Number.POSITIVE_INFINITY,
};

/** A running search, for Ctrl-C (or the page's cancel). */
export interface Interruptible {
  interrupt(): void;
}

/** What a caller may hook into while a model runs. */
export interface RunHooks {
  /** Each search the run starts, to interrupt it. */
  register?(s: Interruptible): void;
  /** Between slices of the search. */
  onProgress?(p: SearchProgress): void;
  /** The up-front estimate of the candidates (the AMDGPU searches), before any work. */
  onStart?(estimate: number): void;
  /** Once, if the run is still going after `PROGRESS_MS`, with the projected total time (the fast AMDGPU search). */
  onSlow?(projectedMs: number, fractionDone: number): void;
}

/**
 * The fast AMDGPU search over worker threads (`gpumm run --workers`), given by the command line:
 * the pool is Node's, and what the page imports reaches no Node API.
 */
export type Spread = (
  test: Test,
  opts: RunOptions,
  hooks: Pick<RunHooks, 'onProgress'>,
) => Promise<{ report: Report; collector: Collector }>;

/** A finished (or stopped) model run. */
export interface ModelRun {
  report: Report;
  /** Its final states (and, with `keepExamples`, one execution of each). */
  collector: Collector;
  /** The rf choices of recorded execution `id`, as sentences (empty without `keepExamples`). */
  describe(id: number): string[];
}

/** One engine: the fast search of a language, or its cat engine. */
export interface Engine {
  /** What it can do beyond a run: `gpumm run --workers` (`spread`), `--graph` of an execution. */
  features: { spread: boolean; graph: boolean };
  /** What keeps the engine from deciding `test` (MD004/MD007: undecided; any other: bad input). */
  diagnose(test: AnyTest): ModelDiagnostic[];
  /** The diagnostics of compiling `cat` against the primitives of `test`. */
  compile(cat: Model, test: AnyTest, s: RunSettings): SourceDiagnostic[];
  /**
   * Runs `test` in slices within `budgets`. `cat`: the cat model a cat engine runs, or the one a
   * fast search's explanations come from (null: none asked for). `spread`: the fast AMDGPU search
   * over worker threads.
   */
  run(
    test: AnyTest,
    cat: Model | null,
    s: RunSettings,
    budgets: Budgets,
    hooks: RunHooks,
    spread?: Spread,
  ): Promise<ModelRun>;
  /** `--explain` lines for the candidates reaching the state `values` (over the labels it names). */
  why(test: AnyTest, cat: Model | null, values: Record<string, number>, s: RunSettings): string[];
}
