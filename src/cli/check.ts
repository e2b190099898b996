/**
 * `gpumm check FILE… --target T [--cu|--wgp] [--lowering doc|llc | --table TABLE]` (or
 * `--all-targets`): per test, the model's final states, the final states of the target family's
 * machine running the test's machine code in every placement, and `sound` when the model allows every
 * machine outcome; otherwise `UNSOUND` with the forbidden outcome and a shortest machine trace. With
 * `--table`, the code is a table file's (src/check/table-file.ts, docs/tables.md).
 *
 * Exit status: 0 when everything checked is sound, 1 when something is unsound, 2 on bad input,
 * 3 when some check cannot be decided (budget, interrupt, an instruction or family the machines do
 * not implement yet).
 */

import { type Command, Option } from 'commander';
import * as z from 'zod';
import {
  type CheckResult,
  CheckSchema,
  checkDistinct,
  checkTest,
  docCode,
  editsOf,
  formatCheck,
  type Lowering,
  machineKey,
  unsupportedCheck,
} from '../check/check.ts';
import { llcCodes } from '../check/llc-code.ts';
import type { CheckPool } from '../check/pool.ts';
import { readTableFile, type TableFile, tableCode } from '../check/table-file.ts';
import { checkJob } from '../check/worker.ts';
import { diagnosticLine } from '../core/diagnostics.ts';
import { nearestNames } from '../core/nearest.ts';
import type { Test } from '../core/types.ts';
import type { Report } from '../enumerate/report.ts';
import { tick } from '../enumerate/verdict.ts';
import { PROCESSORS, type Target } from '../lower/targets.ts';
import { type LowerCtx, lowerDiag, type WaveMode } from '../lower/types.ts';
import { DEFAULT_SETTINGS, UNBOUNDED } from '../run/engine.ts';
import { modelSpec } from '../run/registry.ts';
import { Runner } from '../run/runner.ts';
import { ASSUMPTION_IDS, isAssumptionId } from '../sim/assumptions.ts';
import { HW_TEXTS, type HwText, type MachineSettings } from '../sim/config.ts';
import type { CodeOrWhy, LoweredCode } from '../sim/program.ts';
import { positiveInt, positiveNumber, workerCount } from './budgets.ts';
import { type DiagnosticPrinter, escapeText, jsonText } from './format.ts';
import { loadTests, readSource, stderrPrinter } from './io.ts';
import { contextFromOptions, fail } from './lower.ts';
import { CliExit, commandLineSpan, errorLimitOption, usageError } from './shared.ts';

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
  table?: string;
  /** `--no-assume ID`, repeated: the assumptions left out (true: none). */
  assume?: true | string[];
  hwText?: HwText;
}

/** Collects the values of a repeated `--no-assume` (commander's default for a `--no-` option is true). */
function collectDropped(v: string, prev: true | string[]): string[] {
  return [...(prev === true ? [] : prev), ...v.split(',').map((x) => x.trim())];
}

/**
 * The machine settings of `--no-assume` and `--hw-text`: every assumption but those dropped (`all`
 * drops every one: the machines as weak as the text); an unknown id is a usage error naming the
 * nearest ones.
 */
export function settingsOf(opts: Pick<CheckCliOptions, 'assume' | 'hwText'>): Partial<MachineSettings> {
  const dropped = opts.assume === undefined || opts.assume === true ? [] : opts.assume;
  for (const id of dropped)
    if (id !== 'all' && !isAssumptionId(id))
      usageError(
        `--no-assume names an unknown assumption '${escapeText(id)}'`,
        `the assumptions are ${ASSUMPTION_IDS.join(', ')} (or all); ${
          nearestNames(id, ASSUMPTION_IDS, 1).length > 0
            ? `did you mean ${nearestNames(id, ASSUMPTION_IDS, 1)[0]}?`
            : 'see docs/hardware.md, "Assumptions"'
        }`,
        '--no-assume',
      );
  const out: Partial<MachineSettings> = {};
  if (dropped.length > 0)
    out.assume = dropped.includes('all') ? [] : ASSUMPTION_IDS.filter((a) => !dropped.includes(a));
  if (opts.hwText !== undefined) out.hwText = opts.hwText;
  return out;
}

/** Dims a line on a terminal that takes colours (not with NO_COLOR, never into a pipe). */
function dimmer(): (s: string) => string {
  return process.stdout.isTTY && !process.env.NO_COLOR ? (s) => `\x1b[2m${s}\x1b[22m` : (s) => s;
}

/**
 * Reads `--table FILE` for `want` (the `--target` given, or null: the file's), printing its
 * diagnostics; null when it cannot be used. The options that choose other code, or several targets,
 * are usage errors beside it.
 */
function loadTable(opts: CheckCliOptions, command: Command, printer: DiagnosticPrinter): TableFile | null {
  const file = opts.table!;
  if (opts.allTargets)
    usageError(
      "--all-targets checks every target, and a table file is one target's",
      'drop --all-targets, or run one check per table',
      '--all-targets',
    );
  // --lowering doc too: the documents' table is not the file's.
  if (command.getOptionValueSource('lowering') === 'cli')
    usageError(
      '--lowering and --table both choose the code',
      "--table runs the file's code: drop --lowering",
      '--lowering',
    );
  if (opts.llc !== undefined)
    usageError('--llc names the llc-22 that --lowering llc runs', 'drop --llc: --table runs no llc', '--llc');
  const want = opts.target === undefined ? null : contextFromOptions({ target: opts.target }).target;
  const src = readSource(file, 'table');
  if ('diagnostic' in src) {
    printer.print([src.diagnostic], src.text);
    return null;
  }
  const r = readTableFile(src.text, file, want);
  printer.print(r.diagnostics, src.text);
  return r.table;
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
  return targets.flatMap((target) => targetRuns(target, opts));
}

/**
 * The (target, mode) runs of one target (`gpumm check`, `gpumm campaign`): both wavefront modes where
 * the target has them (or the one `only` asks for), and TgSplit execution mode besides the normal one
 * where the target has it (or only TgSplit with `only.tgsplit`).
 */
export function targetRuns(
  target: Target,
  only: { cu?: boolean; wgp?: boolean; tgsplit?: boolean } = {},
): LowerCtx[] {
  const f = target.processor.features;
  if (f.tgsplit)
    return (only.tgsplit ? [true] : [false, true]).map((tgsplit) => ({
      target,
      mode: 'cu',
      lang: 'hsa',
      tgsplit,
    }));
  const modes: WaveMode[] = !f.wgpMode ? ['cu'] : only.cu ? ['cu'] : only.wgp ? ['wgp'] : ['cu', 'wgp'];
  return modes.map((mode) => ({ target, mode, lang: 'hsa', tgsplit: false }));
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
    .option(
      '--table <file>',
      "run a table file's code: gpumm lower --table --target T --json, edited by hand (docs/tables.md); the target is the file's",
    )
    .option(
      '--no-assume <id>',
      `run the machines without a named assumption (repeatable, or comma-separated; all: every one): ${ASSUMPTION_IDS.join(', ')} (docs/hardware.md, "Assumptions")`,
      collectDropped,
    )
    .addOption(
      new Option(
        '--hw-text <reading>',
        "which text GFX12's L0 and GL1 follow: the seed's (write-back) or AMDGPUUsage's (write-through below SCOPE_SYS); default: the text the code was taken from (seed for the documents' table, amdgpuusage for llc-22's)",
      ).choices([...HW_TEXTS]),
    )
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
    .option(
      '--workers <n>',
      "run the checks on n worker threads, at most the machine's cores (default 1: in-process)",
      workerCount,
      1,
    )
    .addOption(errorLimitOption())
    .action(async (files: string[], opts: CheckCliOptions, command: Command) => {
      const printer = stderrPrinter(opts.errorLimit);
      const settings = settingsOf(opts);
      let table: TableFile | null = null;
      let runs: LowerCtx[] = [];
      if (opts.table === undefined) runs = runsOf(opts);
      else {
        table = loadTable(opts, command, printer);
        // Without --target, the file's: a table is one target's.
        if (table !== null) runs = runsOf({ ...opts, target: opts.target ?? table.target.name });
      }
      const lowering: Lowering = table === null ? opts.lowering : `table:${table.file}`;
      const { loaded, ok } = loadTests(files, printer);
      let bad = !ok || (opts.table !== undefined && table === null);
      // The model side: the AMDGPU model through the runner, its verdicts the machines are held to.
      const model = await Runner.open(modelSpec('amdgpu')!, DEFAULT_SETTINGS);
      const tests: Test[] = [];
      for (const { file, text, test } of loaded) {
        const prepared = { test, original: test, translation: null };
        // A barrier operation the model cannot decide (MD004) is checked all the same: the check
        // then says the model is undecided.
        const md = model.diagnose(prepared);
        printer.print(md, text, file);
        if (md.some((d) => d.code !== 'MD004')) bad = true;
        else tests.push(test);
      }
      printer.finish();
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
      const planned: { test: Test; report: Report; ctx: LowerCtx; code: CodeOrWhy }[] = [];
      const slots: (CheckResult | undefined)[] = [];
      let pool: CheckPool | null = null;
      try {
        // llc-22 once per target and mode for all the tests.
        const llcByRun =
          opts.lowering === 'llc' ? await Promise.all(runs.map((ctx) => llcCodes(tests, ctx, opts.llc))) : [];
        for (const [ti, test] of tests.entries()) {
          if (interrupted) break;
          const { report } = await model.run(
            { test, original: test, translation: null },
            {
              ...UNBOUNDED,
              timeoutMs: opts.timeout !== undefined ? opts.timeout * 1000 : Number.POSITIVE_INFINITY,
            },
          );
          for (const [ri, ctx] of runs.entries())
            planned.push({
              test,
              report,
              ctx,
              code:
                table !== null
                  ? tableCode(test, ctx, table)
                  : opts.lowering === 'doc'
                    ? docCode(test, ctx)
                    : llcByRun[ri]![ti]!,
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
        /** A table file's cells that differ from the built-in table, marked in its traces. */
        const editedCells = (test: Test, ctx: LowerCtx, code: LoweredCode) => {
          if (table === null) return [];
          const ref = docCode(test, ctx);
          return 'error' in ref ? [] : editsOf(test, ref, code);
        };
        const runOne = (k: number): Promise<CheckResult> => {
          const { test, report, ctx, code } = planned[k]!;
          if ('error' in code)
            return Promise.resolve(unsupportedCheck(test, report, ctx, lowering, diagnosticLine(code.error)));
          if (pool)
            return pool
              .run(
                checkJob(
                  test,
                  report,
                  code,
                  ctx,
                  lowering,
                  opts.maxStates,
                  timeoutMs,
                  settings,
                  editedCells(test, ctx, code),
                ),
              )
              .catch((e: unknown) => {
                // Ctrl-C destroys the pool: what it had not finished is undecided.
                if (!interrupted) throw e;
                return {
                  ...unsupportedCheck(test, report, ctx, lowering, 'interrupted'),
                  verdict: 'undecided' as const,
                };
              });
          return checkTest(
            test,
            report,
            code,
            ctx,
            lowering,
            {
              reduce: true,
              maxStates: opts.maxStates,
              deadline: performance.now() + timeoutMs,
              interrupted: () => interrupted,
              trace: true,
              settings,
              edited: editedCells(test, ctx, code),
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
      const texts = opts.json ? [] : results.map((r) => formatCheck(r, dimmer()));
      if (opts.json) process.stdout.write(`${jsonText(CheckJsonSchema.parse(results))}\n`);
      else process.stdout.write(`${texts.join('\n\n')}\n`);
      if (interrupted) throw new CliExit(130);
      if (results.some((r) => r.verdict === 'UNSOUND')) throw new CliExit(1);
      if (results.some((r) => r.verdict !== 'sound')) throw new CliExit(3);
    });
}
