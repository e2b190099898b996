/**
 * `gpumm compare --models A,B FILE…`: one test under two models. Per test, both verdicts, and for
 * each model a final state only it reaches, with one execution reaching it (src/cli/compare-run.ts).
 * A model is `amdgpu` (the fast search), `vulkan` (the fast Vulkan search), a cat model of
 * `models/` (`amdgpu-cat`, `rc11`, `vulkan-cat`), or the path of an AMDGPU `.cat` file. Tests may
 * be in either language: each model gets the test translated into its own (docs/model-vulkan.md).
 *
 * Each model's run has `gpumm run`'s budgets (`--timeout`, `--max-executions`, `--max-states`) and
 * progress; Ctrl-C prints the comparisons so far.
 *
 * Exit status: 0 when every test was compared, 2 on bad input, 3 when the model cannot decide a test
 * (its diagnostic is printed; the other tests are still compared) or a model's run stopped on a
 * budget (stderr names the model), 130 on Ctrl-C.
 */
import { type Command, InvalidArgumentError, Option } from 'commander';
import { findModel, modelNames } from '../run/registry.ts';
import { addBudgetOptions, type BudgetCliOptions, budgetsOf } from './budgets.ts';
import { loadAnyTests, stderrPrinter } from './io.ts';
import { CliExit, errorLimitOption } from './shared.ts';
import { addVulkanOptions, type VulkanCliOptions } from './vulkan-options.ts';

function parseModels(v: string): string[] {
  const names = v.split(',').map((s) => s.trim());
  if (names.length !== 2 || names.some((n) => n === ''))
    throw new InvalidArgumentError('expected two models separated by a comma, e.g. amdgpu,rc11');
  for (const n of names)
    if (!findModel(n) && !n.endsWith('.cat'))
      throw new InvalidArgumentError(
        `unknown model '${n}': use ${modelNames().join(', ')} or the path of a .cat file`,
      );
  return names;
}

export function registerCompare(program: Command): void {
  const cmd = program
    .command('compare')
    .description('run litmus tests under two models and show where they differ')
    .argument('<files...>', 'litmus files')
    .addOption(
      new Option(
        '--models <a,b>',
        `two models: ${modelNames().join(', ')} or a .cat file (an AMDGPU .cat file for AMDGPU tests)`,
      )
        .argParser(parseModels)
        .makeOptionMandatory(),
    )
    .option('--json', 'print the comparisons as JSON')
    .option(
      '-q, --quiet',
      'no progress on stderr (live bars, shown only when stderr is a terminal, one per model run)',
    )
    .addOption(errorLimitOption());
  addBudgetOptions(cmd, 'model run');
  addVulkanOptions(cmd).action(
    async (
      files: string[],
      opts: { models: string[]; json?: boolean; quiet?: boolean; errorLimit: number } & VulkanCliOptions &
        BudgetCliOptions,
    ) => {
      const printer = stderrPrinter(opts.errorLimit);
      const { loaded, ok } = loadAnyTests(files, printer);
      if (!ok) {
        printer.finish();
        throw new CliExit(2);
      }
      // The engines load only when the command runs.
      const { runCompare } = await import('./compare-run.ts');
      const done = await runCompare(loaded, opts.models, opts.json === true, opts, printer, opts.errorLimit, {
        budgets: budgetsOf(opts),
        quiet: opts.quiet === true,
      });
      if (!done.ok) throw new CliExit(2);
      if (done.interrupted) throw new CliExit(130);
      if (done.undecided) throw new CliExit(3);
    },
  );
}
