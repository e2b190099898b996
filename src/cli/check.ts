/**
 * `gpumm check FILE… --target T [--cu|--wgp] [--lowering doc|llc]` (or `--all-targets`): per test,
 * the model's final states, the final states of the target family's machine running the test's
 * machine code in every placement, and `sound` when the model allows every machine outcome;
 * otherwise `UNSOUND` with the forbidden outcome and a shortest machine trace.
 *
 * Exit status: 0 when everything checked is sound, 1 when something is unsound, 2 on bad input,
 * 3 when some check cannot be decided (budget, interrupt, an instruction or family the machines do
 * not implement yet).
 */

import { type Command, InvalidArgumentError, Option } from 'commander';
import * as z from 'zod';
import {
  type CheckResult,
  CheckSchema,
  checkDistinct,
  checkTest,
  docCode,
  formatCheck,
  type Lowering,
  machineKey,
  unsupportedCheck,
} from '../check/check.ts';
import { llcCodes } from '../check/llc-code.ts';
import type { CheckPool } from '../check/pool.ts';
import { checkJob } from '../check/worker.ts';
import type { Test } from '../core/types.ts';
import type { Report } from '../enumerate/report.ts';
import { DEFAULT_RUN, modelDiagnostics, runTest, tick } from '../enumerate/verdict.ts';
import { PROCESSORS, type Target } from '../lower/targets.ts';
import { type LowerCtx, lowerDiag, type WaveMode } from '../lower/types.ts';
import type { LoweredCode } from '../sim/program.ts';
import { loadTests, stderrPrinter } from './io.ts';
import { contextFromOptions, fail } from './lower.ts';
import { CliExit, commandLineSpan, errorLimitOption } from './shared.ts';

interface CheckCliOptions {
  errorLimit: number;
  target?: string;
  allTargets?: boolean;
  cu?: boolean;
  wgp?: boolean;
  tgsplit?: boolean;
  lowering: Lowering;
  json?: boolean;
  timeout?: number;
  maxStates: number;
  llc?: string;
  workers: number;
}

function positiveNumber(v: string): number {
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected a positive number of seconds');
  return n;
}

function positiveInt(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError('expected a positive integer');
  return n;
}

/** JSON schema of `gpumm check --json` output: one result per test, target, mode and lowering. */
export const CheckJsonSchema = z.array(CheckSchema);

/** Default cap on machine states per check (about 300 bytes each). */
export const DEFAULT_MAX_MACHINE_STATES = 5_000_000;

/**
 * The (target, mode) runs one invocation checks: both wavefront modes where a target has them (or the
 * one asked for), and TgSplit execution mode besides the normal one where the target has it (or only
 * TgSplit with `--tgsplit`).
 */
export function runsOf(opts: CheckCliOptions): LowerCtx[] {
  // llc-22 has no Intel Xe backend: with --lowering llc, --all-targets means every AMD target.
  const targets: Target[] = opts.allTargets
    ? PROCESSORS.filter((p) => p.table !== null && (opts.lowering === 'doc' || p.vendor === 'AMD')).map(
        (p) => ({ name: p.name, processor: p, gpu: p.gpu }),
      )
    : [contextFromOptions({ target: opts.target, cu: opts.cu, wgp: opts.wgp, tgsplit: opts.tgsplit }).target];
  const intel = targets.find((t) => t.processor.vendor === 'Intel');
  if (intel && opts.lowering === 'llc')
    fail(
      lowerDiag(
        'LW2009',
        [
          '--lowering llc',
          `${intel.name} (Intel ${intel.processor.generation})`,
          "llc-22 has no Intel Xe backend: the Intel code is Intel's graphics compiler's (docs/targets/intel.md); check it with --lowering doc",
        ],
        commandLineSpan('--lowering'),
        '',
      ),
    );
  const out: LowerCtx[] = [];
  for (const target of targets) {
    const f = target.processor.features;
    if (f.tgsplit) {
      for (const tgsplit of opts.tgsplit ? [true] : [false, true])
        out.push({ target, mode: 'cu', lang: 'hsa', tgsplit });
      continue;
    }
    const modes: WaveMode[] = !f.wgpMode ? ['cu'] : opts.cu ? ['cu'] : opts.wgp ? ['wgp'] : ['cu', 'wgp'];
    for (const mode of modes) out.push({ target, mode, lang: 'hsa', tgsplit: false });
  }
  return out;
}

export function registerCheck(program: Command): void {
  program
    .command('check')
    .description(
      'check that each target machine (AMDGPU, Intel Xe) only produces outcomes the AMDGPU model allows',
    )
    .argument('<files...>', 'litmus files')
    .option(
      '-t, --target <name>',
      'processor (gfx600 … gfx1251, aliases such as fiji; Intel Xe dg2, mtl, arl, pvc, lnl, bmg, ptl); default gfx1200',
    )
    .option(
      '--all-targets',
      'every processor with a code-sequence table, in every mode (with --lowering llc: every AMD processor)',
    )
    .option('--cu', 'CU wavefront execution mode only (GFX10–GFX12; default: both modes)')
    .option('--wgp', 'WGP wavefront execution mode only (GFX10–GFX12; default: both modes)')
    .option('--tgsplit', 'TgSplit execution mode only (gfx90a, gfx942, gfx950; default: with and without)')
    .addOption(
      new Option('--lowering <profile>', "the documents' code sequences (doc) or what llc-22 emits (llc)")
        .choices(['doc', 'llc'])
        .default('doc'),
    )
    .option('--llc <path>', 'with --lowering llc: the llc to run (default: llc-22 on PATH)')
    .option('--json', 'print the results as JSON (an array; schema: CheckJsonSchema in src/cli/check.ts)')
    .option(
      '--timeout <seconds>',
      'stop each check after this many seconds (undecided, exit 3)',
      positiveNumber,
    )
    .option(
      '--max-states <n>',
      'stop a check once the machine has visited n states (undecided, exit 3)',
      positiveInt,
      DEFAULT_MAX_MACHINE_STATES,
    )
    .option('--workers <n>', 'run the checks on n worker threads (default 1: in-process)', positiveInt, 1)
    .addOption(errorLimitOption())
    .action(async (files: string[], opts: CheckCliOptions) => {
      const runs = runsOf(opts);
      const { loaded, ok } = loadTests(files, stderrPrinter(opts.errorLimit));
      let bad = !ok;
      const tests: Test[] = [];
      for (const { test } of loaded) {
        const md = modelDiagnostics(test);
        if (md.some((d) => d.code !== 'MD004')) {
          for (const d of md) process.stderr.write(`${test.file}: error[${d.code}]: ${d.message}\n`);
          bad = true;
        } else tests.push(test);
      }
      if (bad) throw new CliExit(2);

      let interrupted = false;
      let stopPool: (() => void) | null = null;
      const onSigint = () => {
        interrupted = true;
        stopPool?.();
      };
      process.on('SIGINT', onSigint);
      // Every (test, target and mode) to check, in output order; targets of one family often lower a
      // test the same way, so each distinct machine run (machineKey) is checked once.
      const planned: { test: Test; report: Report; ctx: LowerCtx; code: LoweredCode | { error: string } }[] =
        [];
      const slots: (CheckResult | undefined)[] = [];
      let pool: CheckPool | null = null;
      try {
        // llc-22 once per target and mode for all the tests.
        const llcByRun =
          opts.lowering === 'llc' ? await Promise.all(runs.map((ctx) => llcCodes(tests, ctx, opts.llc))) : [];
        for (const [ti, test] of tests.entries()) {
          if (interrupted) break;
          const report: Report = await runTest(test, {
            ...DEFAULT_RUN,
            timeoutMs: opts.timeout !== undefined ? opts.timeout * 1000 : Number.POSITIVE_INFINITY,
          });
          for (const [ri, ctx] of runs.entries())
            planned.push({
              test,
              report,
              ctx,
              code: opts.lowering === 'doc' ? docCode(test, ctx) : llcByRun[ri]![ti]!,
            });
        }
        const timeoutMs = opts.timeout !== undefined ? opts.timeout * 1000 : Number.POSITIVE_INFINITY;
        if (opts.workers > 1) {
          // Loaded only here: piscina and the pool cost start-up time a single-threaded check need not pay.
          const { checkPool } = await import('../check/pool.ts');
          const p = checkPool(opts.workers);
          pool = p;
          stopPool = () => void p.close();
        }
        const runOne = (k: number): Promise<CheckResult> => {
          const { test, report, ctx, code } = planned[k]!;
          if ('error' in code)
            return Promise.resolve(unsupportedCheck(test, report, ctx, opts.lowering, code.error));
          if (pool)
            return pool
              .run(checkJob(test, report, code, ctx, opts.lowering, opts.maxStates, timeoutMs))
              .catch((e: unknown) => {
                // Ctrl-C destroys the pool: what it had not finished is undecided.
                if (!interrupted) throw e;
                return {
                  ...unsupportedCheck(test, report, ctx, opts.lowering, 'interrupted'),
                  verdict: 'undecided' as const,
                };
              });
          return checkTest(
            test,
            report,
            code,
            ctx,
            opts.lowering,
            {
              reduce: true,
              maxStates: opts.maxStates,
              deadline: performance.now() + timeoutMs,
              interrupted: () => interrupted,
              trace: true,
            },
            tick,
          );
        };
        const got = await checkDistinct(
          planned.map((_, k) => k),
          (k) => {
            const p = planned[k]!;
            return 'error' in p.code ? null : `${p.test.file}|${machineKey(p.ctx, p.code)}`;
          },
          runOne,
          (r, k) => ({ ...r, target: planned[k]!.ctx.target.name }),
          pool !== null,
          () => interrupted,
        );
        got.forEach((r, k) => {
          slots[k] = r;
        });
      } catch (e) {
        // A pool destroyed by Ctrl-C rejects what it had not finished: report what was found.
        if (!interrupted) throw e;
      } finally {
        process.off('SIGINT', onSigint);
        await pool?.close();
      }
      const results = slots.filter((r): r is CheckResult => r !== undefined);
      const texts = opts.json ? [] : results.map(formatCheck);
      if (opts.json) process.stdout.write(`${JSON.stringify(CheckJsonSchema.parse(results), null, 2)}\n`);
      else process.stdout.write(`${texts.join('\n\n')}\n`);
      if (interrupted) throw new CliExit(130);
      if (results.some((r) => r.verdict === 'UNSOUND')) throw new CliExit(1);
      if (results.some((r) => r.verdict !== 'sound')) throw new CliExit(3);
    });
}
