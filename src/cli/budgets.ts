/**
 * The budgets of a search and Ctrl-C, shared by the commands that enumerate executions (`gpumm run`,
 * `gpumm compare`): the options, their values as search limits, what to try when a search stops
 * on one, and the SIGINT handler that stops the running search so its partial answer is printed.
 */
import { availableParallelism } from 'node:os';
import { type Command, InvalidArgumentError } from 'commander';
import { DEFAULT_MAX_STATES } from '../enumerate/limits.ts';

export function positiveInt(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError('expected a positive integer');
  return n;
}

/**
 * `--workers n`: a positive integer no larger than the machine's cores. More threads than cores only
 * cost memory (`--workers 256` started 267 threads and took 1.67 GB to do two cores' work).
 */
export function workerCount(v: string): number {
  const n = positiveInt(v);
  const cores = availableParallelism();
  if (n > cores)
    throw new InvalidArgumentError(
      `expected at most ${cores}, this machine's cores (more threads than cores are slower, not faster)`,
    );
  return n;
}

export function positiveNumber(v: string): number {
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected a positive number of seconds');
  return n;
}

/** The budget options as commander parses them. */
export interface BudgetCliOptions {
  maxExecutions?: number;
  maxStates: number;
  timeout?: number;
}

/** The limits of one search. */
export interface SearchBudgets {
  maxExecutions: number;
  maxStates: number;
  timeoutMs: number;
}

/** Adds `--max-executions`, `--max-states` and `--timeout` (per search of `per`: "test", "model run"). */
export function addBudgetOptions(cmd: Command, per = 'test'): Command {
  return cmd
    .option(
      '--max-executions <n>',
      'stop after n consistent executions (the verdict is then undecided)',
      positiveInt,
    )
    .option(
      '--max-states <n>',
      'keep at most n distinct final states: stop on finding one more (the verdict is then undecided)',
      positiveInt,
      DEFAULT_MAX_STATES,
    )
    .option(
      '--timeout <seconds>',
      `stop after this many seconds per ${per} (the verdict is then undecided)`,
      positiveNumber,
    );
}

export function budgetsOf(o: BudgetCliOptions): SearchBudgets {
  return {
    maxExecutions: o.maxExecutions ?? Number.POSITIVE_INFINITY,
    maxStates: o.maxStates,
    timeoutMs: o.timeout !== undefined ? o.timeout * 1000 : Number.POSITIVE_INFINITY,
  };
}

/** What to try when a search stops on a budget. */
export const STOP_HINTS: Record<string, string> = {
  'max-states':
    "the test has more final states than --max-states allows: list states over the condition's terms only (--observe condition), raise --max-states (about 1 KB of memory per state), or shrink the test",
  'max-executions': 'raise --max-executions, or leave it out to enumerate every execution',
  timeout: 'raise --timeout, or try --workers n for a test of many seconds',
  interrupted: 'the states printed are those found so far',
  bound: 'a loop of the test needs more iterations than --unroll allows: raise --unroll',
};

/** Something that can be stopped at its next slice: a search, a check. */
export interface Interruptible {
  interrupt(): void;
}

/**
 * Ctrl-C while searches run: stops the one registered, and any registered after (so the command
 * prints what was found and ends with 130). `dispose` removes the handler.
 */
export function onCtrlC(): {
  register(s: Interruptible): void;
  readonly interrupted: boolean;
  dispose(): void;
} {
  let current: Interruptible | null = null;
  let interrupted = false;
  const handler = () => {
    interrupted = true;
    current?.interrupt();
  };
  process.on('SIGINT', handler);
  return {
    register(s) {
      current = s;
      if (interrupted) s.interrupt();
    },
    get interrupted() {
      return interrupted;
    },
    dispose() {
      process.off('SIGINT', handler);
    },
  };
}
