/**
 * `gpumm compare --models A,B FILE…`: one test under two models. Per test, both verdicts, and for
 * each model a final state only it reaches, with one execution reaching it (src/cli/compare-run.ts).
 * A model is `amdgpu` (the fast search), a cat model of `models/` (`amdgpu-cat`, `rc11`), or the
 * path of a `.cat` file.
 *
 * Exit status: 0 when every test was compared, 2 on bad input, 3 when the model cannot decide a test
 * (its diagnostic is printed; the other tests are still compared).
 */
import { type Command, InvalidArgumentError, Option } from 'commander';
import { CAT_MODELS } from './cat-models.ts';
import { decidableTests } from './decidable.ts';
import { loadTests, stderrPrinter } from './io.ts';
import { CliExit, errorLimitOption } from './shared.ts';

function parseModels(v: string): string[] {
  const names = v.split(',').map((s) => s.trim());
  if (names.length !== 2 || names.some((n) => n === ''))
    throw new InvalidArgumentError('expected two models separated by a comma, e.g. amdgpu,rc11');
  for (const n of names)
    if (n !== 'amdgpu' && !CAT_MODELS[n] && !n.endsWith('.cat'))
      throw new InvalidArgumentError(
        `unknown model '${n}': use amdgpu, ${Object.keys(CAT_MODELS).join(', ')} or the path of a .cat file`,
      );
  return names;
}

export function registerCompare(program: Command): void {
  program
    .command('compare')
    .description('run litmus tests under two models and show where they differ')
    .argument('<files...>', 'litmus files')
    .addOption(
      new Option('--models <a,b>', `two models: amdgpu, ${Object.keys(CAT_MODELS).join(', ')} or a .cat file`)
        .argParser(parseModels)
        .makeOptionMandatory(),
    )
    .option('--json', 'print the comparisons as JSON')
    .addOption(errorLimitOption())
    .action(async (files: string[], opts: { models: string[]; json?: boolean; errorLimit: number }) => {
      const printer = stderrPrinter(opts.errorLimit);
      const { loaded, ok } = loadTests(files, printer);
      // A test the model cannot decide is said so, never silently left out.
      const { tests, bad, undecidable } = decidableTests(loaded, printer);
      printer.finish();
      if (!ok || bad) throw new CliExit(2);
      // The engines load only when the command runs.
      const { runCompare } = await import('./compare-run.ts');
      runCompare(tests, opts.models, opts.json === true, opts.errorLimit);
      if (undecidable) throw new CliExit(3);
    });
}
