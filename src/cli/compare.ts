/**
 * `gpumm compare --models A,B FILE…`: one test under two models. Per test, both verdicts, and for
 * each model a final state only it reaches, with one execution reaching it (src/cli/compare-run.ts).
 * A model is `amdgpu` (the fast search), a cat model of `models/` (`amdgpu-cat`, `rc11`), or the
 * path of a `.cat` file.
 */
import { type Command, InvalidArgumentError, Option } from 'commander';
import { modelDiagnostics } from '../enumerate/verdict.ts';
import { CAT_MODELS } from './cat-models.ts';
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
      const { loaded, ok } = loadTests(files, stderrPrinter(opts.errorLimit));
      if (!ok) throw new CliExit(2);
      const tests = loaded.filter((l) => modelDiagnostics(l.test).length === 0).map((l) => l.test);
      // The engines load only when the command runs.
      const { runCompare } = await import('./compare-run.ts');
      runCompare(tests, opts.models, opts.json === true, opts.errorLimit);
    });
}
