/** `gpumm parse FILE…`: prints each test in normalised form, or every diagnostic of every file. */
import type { Command } from 'commander';
import { print } from '../syntax/printer.ts';
import { loadTests, stderrPrinter } from './io.ts';
import { CliExit, errorLimitOption } from './shared.ts';

export function registerParse(program: Command): void {
  program
    .command('parse')
    .description('parse litmus files and print them in normalised form (or their diagnostics)')
    .argument('<files...>', 'litmus files')
    .option('--json', 'print the AST as JSON instead of litmus text')
    .addOption(errorLimitOption())
    .action((files: string[], opts: { json?: boolean; errorLimit: number }) => {
      const printer = stderrPrinter(opts.errorLimit);
      const { loaded, ok } = loadTests(files, printer);
      printer.finish();
      const outputs = loaded.map((l) => print(l.test));
      const asts = loaded.map((l) => l.test);
      // Nothing half-written: output appears only when every file parsed.
      if (!ok) throw new CliExit(2);
      if (opts.json) process.stdout.write(`${JSON.stringify(asts.length === 1 ? asts[0] : asts, null, 2)}\n`);
      else process.stdout.write(outputs.join('\n'));
    });
}
