/**
 * Running a campaign (`gpumm campaign`): per test, the AMDGPU model's verdict on its condition and, per
 * target, mode and lowering, whether the machine running the test's code stays within what the model
 * allows (src/check/check.ts) — one `test` line of the results file (src/campaign/schema.ts) per test,
 * handed to the caller as each test finishes, in any order.
 *
 * A test is one unit of work, model and checks together, in-process or on a worker thread (piscina,
 * `workers` > 1): the model's report, which every check of the test needs, never crosses threads.
 * llc-22 compiles many tests in one run (src/check/llc-code.ts `llcCodes`), so its code is made here,
 * on the calling thread, a batch of tests at a time per target and mode, and sent with each test.
 *
 * Budgets are per test: `timeoutMs` is one deadline for its model run and all its checks (a check
 * started past it stops at once, undecided); `maxStates` caps each machine exploration. A worker that
 * runs far past the deadline anyway (a search that does not poll its clock) is stopped by a watchdog
 * and its test recorded undecided, so one test never stalls a campaign.
 *
 * Tests come as `{ name, file, source, test }`: read from files or generated (`file` `gen:NAME`, whose
 * source the line keeps). No command-line concerns here.
 */

import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import {
  checkDistinct,
  checkTest,
  docCode,
  machineKey,
  machineMode,
  unsupportedCheck,
} from '../check/check.ts';
import { llcCodes } from '../check/llc-code.ts';
import { mutationMatrix, type Subject, subjectOf } from '../check/mutate.ts';
import { diagnosticLine } from '../core/diagnostics.ts';
import { md5Hex } from '../core/md5.ts';
import type { Test } from '../core/types.ts';
import type { Report } from '../enumerate/report.ts';
import { modelDiagnostics, tick } from '../enumerate/verdict.ts';
import { pool } from '../lower/llc.ts';
import { findTarget } from '../lower/targets.ts';
import type { LowerCtx, WaveMode } from '../lower/types.ts';
import { DEFAULT_SETTINGS, type Interruptible } from '../run/engine.ts';
import { modelSpec } from '../run/registry.ts';
import { Runner } from '../run/runner.ts';
import { familyMachine } from '../sim/config.ts';
import type { CodeOrWhy } from '../sim/program.ts';
import type { CampaignCheck, ModelVerdict, MutationLine, TestLine } from './schema.ts';

/** A test of a campaign: read from a file, or generated (`file` is then `gen:NAME`). */
export interface CampaignTest {
  name: string;
  file: string;
  /** Its source text: its hash is the test's key (resume, shards, merge). */
  source: string;
  test: Test;
}

/** Which code the machines run: the documents' code sequences, or llc-22's. */
export type CampaignLowering = 'doc' | 'llc';

/** What a campaign checks of each test, and within which budgets. */
export interface CampaignPlan {
  /** Every (target, mode) run: src/cli/check.ts `targetRuns` of each target. */
  runs: readonly LowerCtx[];
  lowerings: readonly CampaignLowering[];
  /** One deadline per test, model and checks together (Infinity: none). */
  timeoutMs: number;
  /** Cap on the states of each machine exploration. */
  maxStates: number;
  /** The llc to run (default: llc-22 on PATH). */
  llcPath?: string;
}

/** The key of a test: the MD5 of its source text. */
export function sourceHash(source: string): string {
  return md5Hex(source);
}

/** A run as a worker receives it: names, not the processor table's objects. */
interface RunRef {
  target: string;
  mode: WaveMode;
  tgsplit: boolean;
}

/** One test's work, as sent to a worker: plain data. */
export interface TestJob {
  test: CampaignTest;
  hash: string;
  runs: RunRef[];
  lowerings: CampaignLowering[];
  /** llc-22's code per run (in the order of `runs`), when `lowerings` has llc; null otherwise. */
  llc: CodeOrWhy[] | null;
  timeoutMs: number;
  maxStates: number;
}

/** How a test run in-process is stopped and shares the thread. */
export interface TestControl {
  /** True stops the test: it is then not recorded (null). */
  interrupted?: () => boolean;
  /** Awaited between slices of the machines' searches (lets a signal handler run). */
  pause?: () => Promise<void>;
  /** Each model search started, to interrupt it. */
  register?: (s: Interruptible) => void;
}

function ctxOf(r: RunRef): LowerCtx {
  const target = findTarget(r.target);
  if (!target) throw new Error(`unknown target ${r.target}`);
  return { target, mode: r.mode, lang: 'hsa', tgsplit: r.tgsplit };
}

function refOf(ctx: LowerCtx): RunRef {
  return { target: ctx.target.name, mode: ctx.mode, tgsplit: ctx.tgsplit === true };
}

/**
 * The model's verdict on the test's condition C, from its final states: `allowed` when some state makes
 * C true, else `unknown` when some makes it depend on undef values, else `forbidden`. For `exists C`
 * that is holds → allowed, fails → forbidden; for `~exists C` holds → forbidden, fails → allowed. For
 * `forall C` the field says the same of C (is C reachable?), not whether every state satisfies it
 * (herd's "Required"): one question for every quantifier, the one a campaign tallies. A witness is final
 * even on a stopped run; anything else needs the whole search.
 */
export function modelVerdictOf(report: Report, ms: number): ModelVerdict {
  const base = { states: report.states.length, racy: report.flags.race, ms };
  const stopped = `the model stopped (${report.stop})`;
  if (report.condition === null)
    return report.complete
      ? { verdict: 'no-condition', reason: null, ...base }
      : { verdict: 'undecided', reason: stopped, ...base };
  const truths = report.states.map((s) => s.condition);
  if (truths.includes('true')) return { verdict: 'allowed', reason: null, ...base };
  if (!report.complete) return { verdict: 'undecided', reason: stopped, ...base };
  return { verdict: truths.includes('unknown') ? 'unknown' : 'forbidden', reason: null, ...base };
}

/** One thread's AMDGPU model, opened once. */
let model: Promise<Runner> | null = null;
function amdgpuModel(): Promise<Runner> {
  model ??= Runner.open(modelSpec('amdgpu')!, DEFAULT_SETTINGS);
  return model;
}

/** The model's report on `test` within `timeoutMs` (the budgets `gpumm check` gives its model side). */
async function modelReport(test: Test, timeoutMs: number, register?: (s: Interruptible) => void) {
  const runner = await amdgpuModel();
  const { report } = await runner.run(
    { test, original: test, translation: null },
    { maxExecutions: Number.POSITIVE_INFINITY, maxStates: Number.POSITIVE_INFINITY, timeoutMs },
    register ? { register } : {},
  );
  return report;
}

/**
 * One test: the model, then every run and lowering checked (each distinct machine run once, as
 * `gpumm check` does). Null when interrupted: a test is recorded whole or not at all.
 */
export async function campaignTest(job: TestJob, control: TestControl = {}): Promise<TestLine | null> {
  const t0 = performance.now();
  const interrupted = control.interrupted ?? (() => false);
  const { test } = job.test;
  const report = await modelReport(test, job.timeoutMs, control.register);
  if (interrupted()) return null;
  const modelMs = performance.now() - t0;
  const ctxs = job.runs.map(ctxOf);
  const items = job.runs.flatMap((_, ri) => job.lowerings.map((lowering) => ({ ri, lowering })));
  const codes: CodeOrWhy[] = items.map(({ ri, lowering }) =>
    lowering === 'doc' ? docCode(test, ctxs[ri]!) : job.llc![ri]!,
  );
  const deadline = t0 + job.timeoutMs;
  const got = await checkDistinct(
    items.map((_, k) => k),
    (k) => {
      const code = codes[k]!;
      return 'error' in code ? null : `${items[k]!.lowering}|${machineKey(ctxs[items[k]!.ri]!, code)}`;
    },
    (k) => {
      const { ri, lowering } = items[k]!;
      const code = codes[k]!;
      if ('error' in code)
        return Promise.resolve(
          unsupportedCheck(test, report, ctxs[ri]!, lowering, diagnosticLine(code.error)),
        );
      return checkTest(
        test,
        report,
        code,
        ctxs[ri]!,
        lowering,
        { reduce: true, maxStates: job.maxStates, deadline, interrupted, trace: true },
        control.pause,
      );
    },
    (r, k) => ({ ...r, target: ctxs[items[k]!.ri]!.target.name }),
    false,
    interrupted,
  );
  if (interrupted() || got.some((r) => r === undefined)) return null;
  const checks: CampaignCheck[] = got.map((r) => ({
    target: r!.target,
    mode: r!.mode,
    lowering: r!.lowering,
    verdict: r!.verdict,
    reason: r!.reason,
    forbidden: r!.forbidden,
    assumptions: r!.assumptions,
    hwText: r!.hwText,
    ms: r!.stats.ms,
  }));
  return lineOf(job, modelVerdictOf(report, modelMs), checks, performance.now() - t0);
}

function lineOf(job: TestJob, model: ModelVerdict, checks: CampaignCheck[], ms: number): TestLine {
  const t = job.test;
  return {
    kind: 'test',
    hash: job.hash,
    test: t.name,
    file: t.file,
    // A generated test's text is kept so a report can show it; a file's is the file.
    source: t.file.startsWith('gen:') ? t.source : null,
    model,
    checks,
    ms,
  };
}

/** The line of a test that could not be run to its end (`reason`): everything undecided. */
export function undecidedLine(job: TestJob, reason: string, ms: number): TestLine {
  const checks: CampaignCheck[] = job.runs.flatMap((r) =>
    job.lowerings.map((lowering) => ({
      target: r.target,
      mode: machineMode(ctxOf(r)),
      lowering,
      verdict: 'undecided' as const,
      reason,
      forbidden: null,
      assumptions: [],
      hwText: null,
      ms: 0,
    })),
  );
  return lineOf(job, { verdict: 'undecided', reason, states: 0, racy: false, ms }, checks, ms);
}

/** How `runCampaign` runs and reports. */
export interface CampaignControl {
  /** 1: in-process; more: that many worker threads. */
  workers: number;
  /** Aborting stops the campaign: tests not finished are not reported. */
  signal: AbortSignal;
  /** Each finished test, as it finishes. */
  onLine: (line: TestLine) => void;
}

/** Tests per llc-22 run: one process per batch, target and mode, not per test. */
export const LLC_BATCH = 64;

/**
 * A worker still running this long after its test's deadline is stopped (its thread terminated). The
 * searches poll their clock every few thousand states; only a bug or a single step of minutes gets here.
 */
const WATCHDOG_GRACE_MS = 30_000;

/** Runs every test of `tests` under `plan`, reporting each line through `control.onLine`. */
export async function runCampaign(
  tests: readonly CampaignTest[],
  plan: CampaignPlan,
  control: CampaignControl,
): Promise<void> {
  const runs = plan.runs.map(refOf);
  const llc = plan.lowerings.includes('llc');
  const jobsOf = async (batch: readonly CampaignTest[]): Promise<TestJob[]> => {
    // Per run, the code of every test of the batch (one llc-22 per core at a time: `--targets all`
    // is dozens of runs); transposed to per test, per run.
    const batchTests = batch.map((t) => t.test);
    const byRun = llc
      ? await pool(
          // llc-22 gets the per-test budget for a whole batch (it compiles one in well under a second):
          // a hung llc makes the batch's llc checks unsupported, never stalls the campaign.
          plan.runs.map(
            (ctx) => () =>
              llcCodes(batchTests, ctx, plan.llcPath, Number.isFinite(plan.timeoutMs) ? plan.timeoutMs : 0),
          ),
          availableParallelism(),
        )
      : [];
    return batch.map((t, k) => ({
      test: t,
      hash: sourceHash(t.source),
      runs,
      lowerings: [...plan.lowerings],
      llc: llc ? byRun.map((codes) => codes[k]!) : null,
      timeoutMs: plan.timeoutMs,
      maxStates: plan.maxStates,
    }));
  };
  const batches: CampaignTest[][] = [];
  for (let k = 0; k < tests.length; k += LLC_BATCH) batches.push(tests.slice(k, k + LLC_BATCH));
  // The next batch's llc-22 runs go on while this batch's tests are checked.
  let next = batches.length > 0 ? jobsOf(batches[0]!) : null;
  const nextJobs = async (b: number): Promise<TestJob[]> => {
    const jobs = await next!;
    next = b + 1 < batches.length ? jobsOf(batches[b + 1]!) : null;
    return jobs;
  };
  try {
    if (control.workers <= 1) await inProcess(batches.length, nextJobs, control);
    else await onPool(batches.length, nextJobs, plan.timeoutMs, control);
  } finally {
    // The next batch's llc-22 runs, started ahead and not needed once stopped: let them end.
    await next?.catch(() => {});
  }
}

function internalReason(e: unknown): string {
  return `internal error: ${e instanceof Error ? e.message : String(e)} (a bug in gpumm)`;
}

/** The in-process side of `runCampaign`: one test after the other; Ctrl-C interrupts the one running. */
async function inProcess(
  batches: number,
  nextJobs: (b: number) => Promise<TestJob[]>,
  control: CampaignControl,
): Promise<void> {
  const { signal } = control;
  let current: Interruptible | null = null;
  const onAbort = () => current?.interrupt();
  signal.addEventListener('abort', onAbort);
  try {
    for (let b = 0; b < batches && !signal.aborted; b++)
      for (const job of await nextJobs(b)) {
        if (signal.aborted) break;
        const t0 = performance.now();
        let line: TestLine | null;
        try {
          line = await campaignTest(job, {
            interrupted: () => signal.aborted,
            pause: tick,
            register: (s) => {
              current = s;
            },
          });
        } catch (e) {
          // Interrupted, the test is not run: no line, so a resume runs it (as the pool does).
          if (signal.aborted) break;
          line = undecidedLine(job, internalReason(e), performance.now() - t0);
        }
        current = null;
        if (line) control.onLine(line);
      }
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/** The worker threads' side of `runCampaign`: at most one test queued per thread, so each starts at once. */
async function onPool(
  batches: number,
  nextJobs: (b: number) => Promise<TestJob[]>,
  timeoutMs: number,
  control: CampaignControl,
): Promise<void> {
  const { signal, workers } = control;
  // Loaded only here: piscina costs start-up time an in-process campaign need not pay.
  const { Piscina } = await import('piscina');
  const pool = new Piscina({
    filename: fileURLToPath(new URL('./campaign-worker-entry.mjs', import.meta.url)),
    minThreads: workers,
    maxThreads: workers,
  });
  const onAbort = () => void pool.destroy();
  signal.addEventListener('abort', onAbort);
  const inflight = new Set<Promise<void>>();
  const start = (job: TestJob) => {
    const t0 = performance.now();
    const watchdog = new AbortController();
    const timer = Number.isFinite(timeoutMs)
      ? setTimeout(() => watchdog.abort(), 2 * timeoutMs + WATCHDOG_GRACE_MS)
      : null;
    const p = (pool.run(job, { signal: watchdog.signal }) as Promise<TestLine>)
      .then(
        (line) => control.onLine(line),
        (e: unknown) => {
          // Ctrl-C destroys the pool: its unfinished tests are not recorded.
          if (signal.aborted) return;
          control.onLine(
            undecidedLine(
              job,
              watchdog.signal.aborted
                ? `the test ran past twice its --timeout and its worker was stopped`
                : internalReason(e),
              performance.now() - t0,
            ),
          );
        },
      )
      .finally(() => {
        if (timer) clearTimeout(timer);
        inflight.delete(p);
      });
    inflight.add(p);
  };
  try {
    for (let b = 0; b < batches && !signal.aborted; b++)
      for (const job of await nextJobs(b)) {
        while (inflight.size >= workers && !signal.aborted) await Promise.race(inflight);
        if (signal.aborted) break;
        start(job);
      }
    await Promise.all(inflight);
  } finally {
    signal.removeEventListener('abort', onAbort);
    await pool.destroy();
  }
}

/**
 * The mutation matrix (src/check/mutate.ts) per run of `runs` over the tests whose model run completes
 * within `timeoutMs` (device threads only, as `gpumm mutate`), one `mutation` line each through
 * `onLine`. Runs whose family has no machine are left out; an interrupted matrix is not reported.
 */
export async function campaignMutations(
  tests: readonly CampaignTest[],
  runs: readonly LowerCtx[],
  budgets: { timeoutMs: number; maxStates: number },
  control: Pick<CampaignControl, 'signal'> & { onLine: (line: MutationLine) => void },
): Promise<void> {
  const { signal } = control;
  const modelled: { test: Test; report: Report }[] = [];
  let current: Interruptible | null = null;
  const onAbort = () => current?.interrupt();
  signal.addEventListener('abort', onAbort);
  try {
    for (const { test } of tests) {
      if (signal.aborted) return;
      if (modelDiagnostics(test).length > 0 || test.threads.some((th) => th.placement.kind !== 'device'))
        continue;
      const report = await modelReport(test, budgets.timeoutMs, (s) => {
        current = s;
      });
      if (report.complete) modelled.push({ test, report });
    }
    for (const ctx of runs) {
      const p = ctx.target.processor;
      if (p.table === null || familyMachine(p.table, p.generation) === null) continue;
      const subjects = modelled
        .map(({ test, report }) => subjectOf(test, report, ctx))
        .filter((s): s is Subject => s !== null);
      const r = await mutationMatrix(
        subjects,
        ctx,
        {
          reduce: true,
          // `gpumm mutate`'s cap: a mutant's check is one of thousands.
          maxStates: Math.min(budgets.maxStates, 1_000_000),
          deadline: Number.POSITIVE_INFINITY,
          interrupted: () => signal.aborted,
        },
        tick,
      );
      if (signal.aborted) return;
      control.onLine({
        kind: 'mutation',
        target: r.target,
        mode: r.mode,
        tests: r.tests,
        score: r.score,
        mutants: r.mutants,
      });
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
