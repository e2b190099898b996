/**
 * The whole catalogue: `npx tsx bench/catalogue.ts [dir]` parses and runs every `.litmus` file
 * under litmus/ (or dir) in-process and prints the wall time, per-test times and the slowest tests.
 * The end-to-end CLI time (`time npx gpumm run litmus/*.litmus`) adds Node and tsx start-up.
 */

import { readFileSync } from 'node:fs';
import { CATALOGUE_DIR } from '../src/cli/demo.ts';
import { litmusFilesIn } from '../src/cli/io.ts';
import { DEFAULT_RUN, modelDiagnostics, runTestSync } from '../src/enumerate/verdict.ts';
import { parse } from '../src/syntax/parser.ts';

if (process.argv[2] === '--synthetic') {
  // A stand-in catalogue of 80 tests: the benchmark families at small sizes plus seeded random tests.
  const fc = (await import('fast-check')).default;
  const { arbTest } = await import('../src/enumerate/gen.ts');
  const { co, iriw, mp, sb } = await import('./families.ts');
  const tests = [
    ...[2, 3, 4, 5, 6].flatMap((n) => [sb(n, 'monotonic'), sb(n, 'seq_cst')]),
    ...[2, 3, 4].map((n) => co(n)),
    ...[1, 2, 4, 8].map((k) => mp(k)),
    ...(['monotonic', 'acquire', 'seq_cst'] as const).map((o) => iriw(o)),
  ];
  tests.push(
    ...fc.sample(arbTest({ exotic: true, maxThreads: 3, maxInstrs: 7 }), {
      numRuns: 80 - tests.length,
      seed: 42,
    }),
  );
  const t1 = performance.now();
  let worst = 0;
  for (const t of tests) {
    const a = performance.now();
    runTestSync(t, DEFAULT_RUN);
    worst = Math.max(worst, performance.now() - a);
  }
  console.log(
    `${tests.length} synthetic tests in ${(performance.now() - t1).toFixed(0)} ms (slowest ${worst.toFixed(1)} ms)`,
  );
  process.exit(0);
}

const dir = process.argv[2] ?? CATALOGUE_DIR;
const files = litmusFilesIn(dir);
const t0 = performance.now();
const times: [string, number, number][] = [];
let failed = 0;
let undecided = 0;
for (const f of files) {
  const a = performance.now();
  const { test } = parse(readFileSync(f, 'utf8'), f);
  if (!test) {
    failed++;
    continue;
  }
  if (modelDiagnostics(test).length > 0) {
    undecided++;
    continue;
  }
  const r = runTestSync(test, DEFAULT_RUN);
  if (r.expectations.some((e) => !e.ok)) failed++;
  times.push([test.name, performance.now() - a, r.stats.explored]);
}
const total = performance.now() - t0;
times.sort((x, y) => y[1] - x[1]);
console.log(
  `${files.length} tests in ${total.toFixed(0)} ms (${undecided} the model cannot decide yet, ${failed} with a failing expectation or parse error)`,
);
for (const [name, ms, explored] of times.slice(0, 10))
  console.log(`  ${name}: ${ms.toFixed(1)} ms, ${explored} candidates`);
