/**
 * The piscina task of `gpumm check --workers` (src/check/pool.ts): one check of one test's code on
 * one target and mode. Everything in a job is plain JSON.
 */

import type { Test } from '../core/types.ts';
import type { Report } from '../enumerate/report.ts';
import { findTarget } from '../lower/targets.ts';
import type { LowerCtx, WaveMode } from '../lower/types.ts';
import type { MachineSettings } from '../sim/config.ts';
import type { LoweredCode } from '../sim/program.ts';
import { type CheckResult, checkTest, type Lowering } from './check.ts';

/** One check, as sent to a worker. */
export interface CheckJob {
  test: Test;
  report: Report;
  code: LoweredCode;
  target: string;
  mode: WaveMode;
  tgsplit: boolean;
  lowering: Lowering;
  maxStates: number;
  /** Milliseconds from the job's start (each thread has its own clock origin). */
  timeoutMs: number;
  trace: boolean;
  /** The machine settings (`--no-assume`, `--hw-text`). */
  settings: Partial<MachineSettings>;
  /** Edited IR instructions, marked in traces (`CheckOptions.edited`). */
  edited: { thread: string; line: number; note: string }[];
}

/** The job of one check (`timeoutMs` per check). */
export function checkJob(
  test: Test,
  report: Report,
  code: LoweredCode,
  ctx: LowerCtx,
  lowering: Lowering,
  maxStates: number,
  timeoutMs: number,
  settings: Partial<MachineSettings> = {},
  edited: { thread: string; line: number; note: string }[] = [],
): CheckJob {
  return {
    test,
    report,
    code,
    target: ctx.target.name,
    mode: ctx.mode,
    tgsplit: ctx.tgsplit === true,
    lowering,
    maxStates,
    timeoutMs,
    trace: true,
    settings,
    edited,
  };
}

export default async function task(job: CheckJob): Promise<CheckResult> {
  const target = findTarget(job.target);
  if (!target) throw new Error(`unknown target ${job.target}`);
  return checkTest(
    job.test,
    job.report,
    job.code,
    { target, mode: job.mode, lang: 'hsa', tgsplit: job.tgsplit },
    job.lowering,
    {
      reduce: true,
      maxStates: job.maxStates,
      deadline: performance.now() + job.timeoutMs,
      trace: job.trace,
      settings: job.settings,
      edited: job.edited,
    },
  );
}
