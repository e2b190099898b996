/** `gpumm parse FILE…`: prints each test in normalised form, or every diagnostic of every file. */
import type { Command } from 'commander';
import { hasErrors } from '../syntax/diagnostics.ts';
import { parse } from '../syntax/parser.ts';
import { print } from '../syntax/printer.ts';
import { formatDiagnostics } from './format.ts';
import { readSource } from './io.ts';
import { CliExit } from './shared.ts';

export function registerParse(program: Command): void {
  program
    .command('parse')
    .description('parse litmus files and print them in normalised form (or their diagnostics)')
    .argument('<files...>', 'litmus files')
    .option('--json', 'print the AST as JSON instead of litmus text')
    .action((files: string[], opts: { json?: boolean }) => {
      const outputs: string[] = [];
      const asts: unknown[] = [];
      let failed = false;
      for (const file of files) {
        const src = readSource(file);
        if ('diagnostic' in src) {
          process.stderr.write(`${formatDiagnostics([src.diagnostic])}\n`);
          failed = true;
          continue;
        }
        const { test, diagnostics } = parse(src.text, file);
        if (diagnostics.length > 0) process.stderr.write(`${formatDiagnostics(diagnostics, src.text)}\n`);
        if (!test || hasErrors(diagnostics)) {
          failed = true;
          continue;
        }
        outputs.push(print(test));
        asts.push(test);
      }
      // Nothing half-written: output appears only when every file parsed.
      if (failed) throw new CliExit(2);
      if (opts.json) process.stdout.write(`${JSON.stringify(asts.length === 1 ? asts[0] : asts, null, 2)}\n`);
      else process.stdout.write(outputs.join('\n'));
    });
}
