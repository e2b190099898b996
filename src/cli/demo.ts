/**
 * `gpumm demo`: the main job on the built-in catalogue in litmus/. Until the model lands it parses
 * and pretty-prints every test and summarises what it read.
 */
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { hasErrors } from '../syntax/diagnostics.ts';
import { parse } from '../syntax/parser.ts';
import { print } from '../syntax/printer.ts';
import { formatDiagnostics } from './format.ts';
import { litmusFilesIn, readSource } from './io.ts';
import { CliExit } from './shared.ts';

/** The catalogue folder shipped with gpumm. */
export const CATALOGUE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'litmus');

export function registerDemo(program: Command): void {
  program
    .command('demo')
    .description('parse and pretty-print every test of the built-in catalogue (litmus/)')
    .option('-q, --quiet', 'print only the summary table')
    .action((opts: { quiet?: boolean }) => {
      const files = litmusFilesIn(CATALOGUE_DIR);
      const rows: string[][] = [];
      let bad = 0;
      for (const file of files) {
        const rel = relative(process.cwd(), file) || file;
        const src = readSource(file);
        if ('diagnostic' in src) {
          process.stderr.write(`${formatDiagnostics([src.diagnostic])}\n`);
          bad++;
          continue;
        }
        const t0 = performance.now();
        const { test, diagnostics } = parse(src.text, rel);
        const ms = performance.now() - t0;
        if (!test || hasErrors(diagnostics)) {
          process.stderr.write(`${formatDiagnostics(diagnostics, src.text)}\n`);
          bad++;
          continue;
        }
        if (!opts.quiet) process.stdout.write(`${'─'.repeat(72)}\n${print(test)}`);
        const events = test.threads.reduce((n, t) => n + t.body.length, 0);
        const expects = test.expects
          .map((e) => (e.key === 'condition' ? `cond ${e.value}` : e.value))
          .join(', ');
        rows.push([
          test.name,
          String(test.threads.length),
          String(events),
          expects || '-',
          `${ms.toFixed(1)} ms`,
        ]);
      }
      process.stdout.write(`\n${table(['test', 'threads', 'instrs', 'expected', 'parse'], rows)}\n`);
      process.stdout.write(`${files.length - bad} of ${files.length} catalogue tests parsed\n`);
      if (bad > 0) throw new CliExit(2);
    });
}

/** A plain-text table with columns padded to their widest cell. */
export function table(head: string[], rows: string[][]): string {
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]): string =>
    r
      .map((c, i) => c.padEnd(w[i]!))
      .join('  ')
      .trimEnd();
  return [line(head), line(w.map((n) => '-'.repeat(n))), ...rows.map(line)].join('\n');
}
