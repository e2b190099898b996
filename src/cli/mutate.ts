/**
 * `gpumm mutate [FILE…] --target T [--cu|--wgp|--tgsplit] [--json]`: the mutation matrix of the target's
 * table over the catalogue (or the files given), one report per mode (docs/mutation.md): each instruction
 * of each table row the tests use removed, weakened, stripped of a cache or hint bit, or — a wait — moved
 * one place later; per row and instruction the test that kills the mutant (becomes unsound on the
 * machine) or the survivor's class with its reason; the score killed / (mutants − redundant − progress
 * only − no counted instruction − undecided) at the top; and the table rows no catalogue test can kill.
 *
 * Exit status: 0 when the matrix is complete, 2 on bad input, 3 when it cannot be run (no machine
 * for the family), 130 when stopped (Ctrl-C: the modes done so far are printed).
 */

import type { Command } from 'commander';
import * as z from 'zod';
import {
  formatMutationReport,
  MutationReportSchema,
  mutationMatrix,
  type Subject,
  subjectOf,
} from '../check/mutate.ts';
import { DEFAULT_RUN, modelDiagnostics, runTestSync, tick } from '../enumerate/verdict.ts';
import type { LowerCtx, WaveMode } from '../lower/types.ts';
import { familyMachine } from '../sim/config.ts';
import { CATALOGUE_DIR } from './demo.ts';
import { jsonText } from './format.ts';
import { litmusFilesIn, loadTests, stderrPrinter } from './io.ts';
import { contextFromOptions } from './lower.ts';
import { CliExit, errorLimitOption } from './shared.ts';

/** JSON schema of `gpumm mutate --json`: one report per mode, each with its score, mutants and row gaps. */
export const MutateJsonSchema = z.array(MutationReportSchema);

export function registerMutate(program: Command): void {
  program
    .command('mutate')
    .description(
      "mutate each instruction of the target's table rows, check the catalogue, score the table (docs/mutation.md)",
    )
    .argument('[files...]', 'litmus files (default: the catalogue)')
    .option('-t, --target <name>', 'processor (AMDGPU or Intel Xe: dg2, pvc, lnl …); default gfx1200')
    .option('--cu', 'CU wavefront execution mode only (default: every mode of the target)')
    .option('--wgp', 'WGP wavefront execution mode only')
    .option('--tgsplit', 'TgSplit execution mode only (gfx90a, gfx942, gfx950; default: with and without)')
    .option('--json', 'print JSON (schema: MutateJsonSchema in src/cli/mutate.ts)')
    .addOption(errorLimitOption())
    .action(
      async (
        files: string[],
        opts: {
          target?: string;
          cu?: boolean;
          wgp?: boolean;
          tgsplit?: boolean;
          json?: boolean;
          errorLimit: number;
        },
      ) => {
        const ctx0 = contextFromOptions({
          target: opts.target,
          cu: opts.cu,
          wgp: opts.wgp,
          tgsplit: opts.tgsplit,
        });
        const family = ctx0.target.processor.table;
        if (family === null || familyMachine(family, ctx0.target.processor.generation) === null) {
          process.stderr.write(
            `gpumm mutate: no machine for ${ctx0.target.name} (${family ?? 'no table'}) yet\n`,
          );
          throw new CliExit(3);
        }
        const given = files.length > 0 ? files : litmusFilesIn(CATALOGUE_DIR);
        const { loaded, ok } = loadTests(given, stderrPrinter(opts.errorLimit));
        if (!ok) throw new CliExit(2);
        const f = ctx0.target.processor.features;
        // Every mode of the target (or the one asked for): CU/WGP, or without and with TgSplit.
        const ctxs: LowerCtx[] = f.tgsplit
          ? (opts.tgsplit ? [true] : [false, true]).map((tgsplit) => ({ ...ctx0, mode: 'cu', tgsplit }))
          : (!f.wgpMode ? ['cu'] : opts.cu ? ['cu'] : opts.wgp ? ['wgp'] : ['cu', 'wgp']).map((mode) => ({
              ...ctx0,
              mode: mode as WaveMode,
            }));
        let interrupted = false;
        const onSigint = () => {
          interrupted = true;
        };
        process.on('SIGINT', onSigint);
        const reports = [];
        try {
          const modelled = loaded
            .map(({ test }) => test)
            .filter(
              (t) =>
                modelDiagnostics(t).length === 0 && t.threads.every((th) => th.placement.kind === 'device'),
            )
            .map((test) => ({ test, report: runTestSync(test, DEFAULT_RUN) }));
          for (const ctx of ctxs) {
            const subjects = modelled
              .map(({ test, report }) => subjectOf(test, report, ctx))
              .filter((s): s is Subject => s !== null);
            const budget = {
              reduce: true,
              maxStates: 1_000_000,
              deadline: Number.POSITIVE_INFINITY,
              interrupted: () => interrupted,
            };
            reports.push(await mutationMatrix(subjects, ctx, budget, tick));
            if (interrupted) break;
          }
        } finally {
          process.off('SIGINT', onSigint);
        }
        if (opts.json) process.stdout.write(`${jsonText(MutateJsonSchema.parse(reports))}\n`);
        else process.stdout.write(`${reports.map(formatMutationReport).join('\n\n')}\n`);
        if (interrupted) throw new CliExit(130);
      },
    );
}
