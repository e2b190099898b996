/**
 * `gpumm demo`: the main job on the built-in catalogue in litmus/. Every test runs under the
 * AMDGPU model and one table says, per test, what its `expect:` lines say, what the model found,
 * how many executions it allows and how long it took.
 *
 * Exit status: 0 when every expectation holds, 1 when one does not, 2 when a catalogue file does
 * not parse, 3 when a test cannot be decided.
 */
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { clipQuote } from '../core/diagnostics.ts';
import { nearestNames } from '../core/nearest.ts';
import type { Test } from '../core/types.ts';
import type { Report } from '../enumerate/report.ts';
import { DEFAULT_RUN, modelDiagnostics, runTestSync } from '../enumerate/verdict.ts';
import { litmusFilesIn, loadTests, stderrPrinter } from './io.ts';
import { CliExit, usageError } from './shared.ts';

/** The catalogue folder shipped with gpumm. */
export const CATALOGUE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'litmus');

/** Seconds one catalogue test may take before the demo calls it undecided. */
const DEMO_TIMEOUT_S = 20;

export function registerDemo(program: Command): void {
  program
    .command('demo')
    .description('run every test of the built-in catalogue (litmus/) under the AMDGPU model and tabulate')
    .option('--only <text>', 'only the tests whose name contains this text')
    .action((opts: { only?: string }) => {
      const t0 = performance.now();
      const files = litmusFilesIn(CATALOGUE_DIR).map((f) => relative(process.cwd(), f) || f);
      const printer = stderrPrinter();
      const { loaded, ok } = loadTests(files, printer);
      printer.finish();
      if (!ok) throw new CliExit(2);
      const tests = loaded
        .map((l) => l.test)
        .filter((t) => opts.only === undefined || t.name.includes(opts.only));
      // A typo in --only is not an empty success.
      if (tests.length === 0 && opts.only !== undefined) {
        const near = nearestNames(
          opts.only,
          loaded.map((l) => l.test.name),
        );
        usageError(
          `no catalogue test's name contains '${clipQuote(opts.only)}'`,
          near.length > 0 ? `did you mean ${near.join(', ')}?` : 'the catalogue is listed by gpumm demo',
          opts.only,
        );
      }

      const rows: string[][] = [];
      let failed = 0;
      let undecided = 0;
      let executions = 0;
      for (const test of tests) {
        const md = modelDiagnostics(test);
        if (md.length > 0) {
          undecided++;
          rows.push([test.name, expectedText(test), `undecided: ${md[0]!.code}`, '-', '-', '?']);
          continue;
        }
        const r = runTestSync(test, { ...DEFAULT_RUN, timeoutMs: DEMO_TIMEOUT_S * 1000 });
        const ok = r.complete && r.expectations.every((e) => e.ok);
        if (!r.complete) undecided++;
        else if (!ok) failed++;
        executions += r.stats.consistent;
        rows.push([
          test.name,
          expectedText(test),
          r.complete ? gotText(r) : `undecided: ${r.stop}`,
          String(r.stats.consistent),
          `${r.stats.ms.toFixed(1)} ms`,
          !r.complete ? '?' : ok ? 'ok' : 'FAIL',
        ]);
      }
      process.stdout.write(
        `${table(['test', 'expected', 'got', 'executions', 'time', 'as expected'], rows)}\n\n`,
      );
      const wall = (performance.now() - t0) / 1000;
      process.stdout.write(
        `${tests.length} tests, ${tests.length - failed - undecided} as expected, ${failed} not, ` +
          `${undecided} undecided; ${executions} executions in ${wall.toFixed(2)} s\n`,
      );
      if (undecided > 0) throw new CliExit(3);
      if (failed > 0) throw new CliExit(1);
    });
}

/** `holds racy undef` — the verdicts a catalogue test states, in `expect:` order (`ub` only when present). */
function expectedText(t: Test): string {
  const get = (k: string) => t.expects.find((e) => e.key === k)?.value ?? '-';
  return [get('condition'), get('race'), get('undef'), ...(get('ub') === 'ub' ? ['ub'] : [])].join(' ');
}

function gotText(r: Report): string {
  const f = r.flags;
  return [
    r.condition?.verdict ?? '-',
    f.race ? 'racy' : 'race-free',
    f.undef ? 'undef' : 'no-undef',
    ...(f.ub ? ['ub'] : []),
  ].join(' ');
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
