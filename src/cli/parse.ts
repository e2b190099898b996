/**
 * `gpumm parse FILE…`: prints each test in normalised form, in the syntax it is written in (gpumm's
 * own, Dartagnan's Vulkan syntax or the Khronos `.test` format), or every diagnostic of every file.
 */
import type { Command } from 'commander';
import { printTest } from '../run/syntaxes.ts';
import { jsonText, outputText } from './format.ts';
import { loadAnyTests, stderrPrinter } from './io.ts';
import { CliExit, errorLimitOption } from './shared.ts';

export function registerParse(program: Command): void {
  program
    .command('parse')
    .description('parse test files and print them in normalised form (or their diagnostics)')
    .argument('<files...>', 'test files: gpumm litmus, Dartagnan Vulkan litmus, Khronos .test')
    .option('--json', 'print the AST as JSON instead of the test text')
    .addOption(errorLimitOption())
    .action((files: string[], opts: { json?: boolean; errorLimit: number }) => {
      const printer = stderrPrinter(opts.errorLimit);
      const { loaded, ok } = loadAnyTests(files, printer);
      printer.finish();
      // A test always prints in its own syntax (the printers' round-trip tests hold it).
      const outputs = loaded.map(({ test }) => printTest(test).text ?? '');
      const asts = loaded.map((l) => l.test);
      // Nothing half-written: output appears only when every file parsed.
      if (!ok) throw new CliExit(2);
      if (opts.json) process.stdout.write(`${jsonText(asts.length === 1 ? asts[0] : asts)}\n`);
      else process.stdout.write(outputText(outputs.join('\n')));
    });
}
