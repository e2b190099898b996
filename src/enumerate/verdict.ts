/**
 * Running a test end to end: model diagnostics, the estimate, the enumeration in slices (so a
 * caller can interrupt it), explanations of forbidden candidates, and the report.
 */

import type { Test } from '../core/types.ts';
import {
  buildSkeleton,
  type ModelDiagnostic,
  type ModelDiagnosticCode,
  modelDiag,
} from '../events/skeleton.ts';
import { DEFAULT_OPTIONS, type ModelOptions } from '../models/amdgpu.ts';
import { DEFAULT_ENUMERATE, Enumeration, estimateCandidates, prepareVariant } from './enumerate.ts';
import { explainWitness } from './explain.ts';
import { MAX_MODEL_EVENTS, PROGRESS_MS } from './limits.ts';
import { type ObserveMode, observables, observe } from './outcomes.ts';
import { buildReport, explanationGroups, type Report, selectedState } from './report.ts';

export { DEFAULT_MAX_STATES, PROGRESS_MS } from './limits.ts';

export interface RunOptions {
  model: ModelOptions;
  maxExecutions: number;
  timeoutMs: number;
  /** Keep at most this many distinct final states: stop on finding one more. */
  maxStates?: number;
  explain: boolean;
  /** Keep one example execution per final state (for graphs). */
  keepExamples?: boolean;
  /** What a final state shows (default `all`). */
  observe?: ObserveMode;
  /**
   * Reduce by thread symmetry (default on). Off where each state's own example execution is needed
   * (`gpumm compare` describes one): a relabelled state's example is its class representative's.
   */
  symmetry?: boolean;
}

export const DEFAULT_RUN: RunOptions = {
  model: DEFAULT_OPTIONS,
  maxExecutions: Number.POSITIVE_INFINITY,
  timeoutMs: Number.POSITIVE_INFINITY,
  explain: false,
};

/** Model diagnostics that mean "cannot decide yet" (exit 3) rather than bad input (exit 2). */
export const UNDECIDED_CODES: readonly ModelDiagnosticCode[] = ['MD004', 'MD007'];

/**
 * An upper bound of the events of `test` without building them: every instruction, and an initial
 * write per location, per thread for LDS and private memory (one copy per workgroup or thread).
 */
export function eventBound(test: Test): number {
  let n = 0;
  for (const t of test.threads) n += t.body.length;
  for (const l of test.locations)
    n += l.space === 'local' || l.space === 'private' ? Math.max(1, test.threads.length) : 1;
  return n;
}

/** Diagnostics that stop the model from deciding a test (unsupported features, bad references). */
export function modelDiagnostics(test: Test): ModelDiagnostic[] {
  // Refused before any relation is built: building them is what would take the memory and time.
  const size = eventBound(test);
  if (size > MAX_MODEL_EVENTS)
    return [modelDiag('MD007', null, { size: String(size), max: String(MAX_MODEL_EVENTS) })];
  const sk = buildSkeleton(test);
  const errors: { message: string }[] = [];
  const { ws } = prepareVariant(test, 0);
  observables(sk, ws.evaluator.programs, errors);
  return [
    ...sk.diagnostics,
    ...errors.map((e) => modelDiag('MD006', test.condition?.span ?? null, { what: e.message })),
  ];
}

/** Rough cost of one candidate of the unpruned space, for the up-front estimate (see docs/benchmarks.md). */
export const MICROS_PER_CANDIDATE = 2;

/** How far a running search has got, for live progress displays. */
export interface SearchProgress {
  /** Share of the search space done, 0 to 1 (see `Enumeration.progress`). */
  fraction: number;
  /** Distinct final states found so far. */
  states: number;
  /** Consistent executions found so far. */
  executions: number;
  /** Since the search started. */
  elapsedMs: number;
}

/** The progress of an in-process enumeration started at `t0`. */
export function progressOf(en: Enumeration, t0: number): SearchProgress {
  return {
    fraction: en.progress(),
    states: en.collector.size,
    executions: en.stats.consistent,
    elapsedMs: performance.now() - t0,
  };
}

/**
 * Yields to the event loop so signal handlers (Node) or messages (a browser's Web Worker) are
 * handled between slices. `setImmediate` is Node's; a browser has none, and its `setTimeout(0)` is
 * clamped to 4 ms once nested, so there a message to itself does the same at once.
 */
export function tick(): Promise<void> {
  const immediate = (globalThis as { setImmediate?: (f: () => void) => void }).setImmediate;
  if (immediate) return new Promise((resolve) => immediate(resolve));
  return new Promise((resolve) => {
    // The DOM's MessagePort (Node's typings describe Node's own).
    const ch = new MessageChannel() as unknown as {
      port1: { onmessage: (() => void) | null; close(): void };
      port2: { postMessage(v: null): void };
    };
    ch.port1.onmessage = () => {
      ch.port1.close();
      resolve();
    };
    ch.port2.postMessage(null);
  });
}

/**
 * Enumerates `test` in slices, calling `shouldStop` between them, and builds the report.
 * `onStart` receives the estimate before any work.
 */
export async function runTest(
  test: Test,
  opts: RunOptions,
  hooks: {
    onStart?: (estimate: number) => void;
    register?: (en: Enumeration) => void;
    /** Called once if the run is still going after `PROGRESS_MS`, with the projected total time. */
    onSlow?: (projectedMs: number, fractionDone: number) => void;
    /** Called between slices of the search. */
    onProgress?: (p: SearchProgress) => void;
  } = {},
): Promise<Report> {
  const estimate = estimateCandidates(test);
  hooks.onStart?.(estimate);
  const t0 = performance.now();
  const en = enumerationFor(test, opts);
  hooks.register?.(en);
  let warned = false;
  while (!en.step(1 << 14)) {
    const elapsed = performance.now() - t0;
    if (!warned && elapsed > PROGRESS_MS) {
      warned = true;
      const f = en.progress();
      hooks.onSlow?.(f > 0 ? elapsed / f : Number.POSITIVE_INFINITY, f);
    }
    hooks.onProgress?.(progressOf(en, t0));
    await tick();
  }
  return finish(test, opts, en, estimate, t0);
}

/** The enumeration `runTest` runs (also the in-process first part of `runTestParallel`). */
export function enumerationFor(test: Test, opts: RunOptions): Enumeration {
  return new Enumeration(test, {
    ...DEFAULT_ENUMERATE,
    model: opts.model,
    maxExecutions: opts.maxExecutions,
    timeoutMs: opts.timeoutMs,
    maxStates: opts.maxStates ?? Number.POSITIVE_INFINITY,
    keepExamples: opts.keepExamples ?? true,
    observe: opts.observe ?? 'all',
    symmetry: opts.symmetry ?? DEFAULT_ENUMERATE.symmetry,
  });
}

/** The report of a finished search, with explanations when asked and the search completed. */
export function finish(
  test: Test,
  opts: RunOptions,
  result: Parameters<typeof buildReport>[1],
  estimate: number,
  t0: number,
): Report {
  const ms = performance.now() - t0;
  const explanations = opts.explain && result.stop === 'done' ? explain(test, opts) : [];
  return buildReport(test, result, opts.model, { estimate, ms, explanations });
}

/** Runs synchronously (tests, benchmarks, workers). */
export function runTestSync(test: Test, opts: RunOptions = DEFAULT_RUN): Report {
  const estimate = estimateCandidates(test);
  const t0 = performance.now();
  return finish(test, opts, enumerationFor(test, opts).run(), estimate, t0);
}

/**
 * For every candidate (every rf source, undef included, no pruning) that the condition selects but
 * the model forbids: the first violated axiom and its witness, grouped by state and explanation.
 */
export function explain(test: Test, opts: RunOptions): Report['explanations'] {
  if (!test.condition) return [];
  const cond = test.condition.cond;
  const groups = explanationGroups();
  let labels: string[] = [];
  const en = new Enumeration(test, {
    ...DEFAULT_ENUMERATE,
    model: opts.model,
    prune: false,
    domains: 'all',
    // Explanations examine every candidate without pruning: keep them to a bounded time.
    timeoutMs: Math.min(opts.timeoutMs, EXPLAIN_MS),
    onReject: (ws, verdict) => {
      if (!verdict.axiom || !verdict.witness) return;
      // Each valuation of the candidate (the solutions of a value cycle: docs/model.md, "Values out
      // of thin air") is a state it would reach.
      const ev = ws.evaluator;
      const n = ev.valuations(ws.rfSrc);
      if (n === 0) return;
      ws.deriveAmd();
      const obs = observables(ws.sk, ev.programs, [], opts.observe ?? 'all');
      labels = obs.map((o) => o.label);
      const vals = new Float64Array(obs.length);
      let text: string | null = null;
      for (let k = 0; k < n; k++) {
        if (k > 0) ev.loadSolution(k);
        observe(ws, obs, vals);
        const state = selectedState(test, cond, labels, vals);
        if (state === null) continue;
        text ??= explainWitness(ws.sk, verdict.axiom, verdict.witness, ws);
        groups.add(state, verdict.axiom, text);
      }
    },
  });
  en.run();
  return groups.finish(en.stop === 'done', EXPLAIN_MS / 1000, en.stats.explored);
}

/** Time allowed for `--explain`'s unpruned search. */
export const EXPLAIN_MS = 10_000;
