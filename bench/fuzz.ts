/**
 * The longer fuzz run of the front end: `npx tsx bench/fuzz.ts [--count N] [--seed S] [--scale K]`.
 * N inputs (default 10,000) are catalogue files under 1–6 random mutations, edits and hostile
 * ones (terminal escape sequences, lone surrogates, huge tokens, deep nesting, thousands of
 * repeated lines, scaled by K, default 2); each must keep every promise `frontEndViolations`
 * checks (src/cli/fuzz.ts), under error limits 0, 1, 3 and 20. The first broken one is shrunk and
 * printed with the seed that replays it; the exit status is then 1.
 * Then a flood: a file with `--flood M` (default 130,000) uses of an undefined location, timed to
 * parse, to print with the default error limit, and to format every diagnostic; and files of M
 * threads and of M locations, timed to parse (linear: names are looked up in maps).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { DEFAULT_ERROR_LIMIT, diagnosticPrinter, formatDiagnostics } from '../src/cli/format.ts';
import { frontEndViolations } from '../src/cli/fuzz.ts';
import { litmusFilesIn } from '../src/cli/io.ts';
import { hostileMutation, mutate } from '../src/syntax/mutate.ts';
import { parse } from '../src/syntax/parser.ts';

const args = process.argv.slice(2);
const option = (name: string, fallback: number): number => {
  const i = args.indexOf(name);
  const v = i >= 0 ? Number(args[i + 1]) : fallback;
  return Number.isFinite(v) && v > 0 ? v : fallback;
};
const count = option('--count', 10_000);
const seed = option('--seed', Date.now() % 1_000_000);
const scale = option('--scale', 2);
const flood = option('--flood', 130_000);

const catalogue = litmusFilesIn(join(import.meta.dirname, '..', 'litmus')).map((f) =>
  readFileSync(f, 'utf8'),
);
let longest = 0;
const t0 = performance.now();
const result = fc.check(
  fc.property(
    fc.nat(catalogue.length - 1),
    fc.array(hostileMutation(scale), { minLength: 1, maxLength: 6 }),
    fc.constantFrom(0, 1, 3, 20),
    (fi, ms, limit) => {
      const text = ms.reduce(mutate, catalogue[fi]!);
      longest = Math.max(longest, text.length);
      const v = frontEndViolations(text, limit);
      if (v.length > 0) throw new Error(v.slice(0, 5).join('\n'));
    },
  ),
  { numRuns: count, seed },
);
const secs = ((performance.now() - t0) / 1000).toFixed(1);
console.log(
  `${result.numRuns} inputs (seed ${seed}, scale ${scale}, longest ${longest} characters) in ${secs} s`,
);
if (result.failed) {
  console.log(fc.defaultReportMessage(result));
  process.exitCode = 1;
} else console.log('every promise kept');

const floodText = `AMDGPU flood\nP0 {\n${'  store i32 1, ptr @nope\n'.repeat(flood)}}\n`;
let t = performance.now();
const parsed = parse(floodText, 'flood.litmus');
const parseMs = performance.now() - t;
t = performance.now();
let printed = 0;
const printer = diagnosticPrinter(DEFAULT_ERROR_LIMIT, (s) => {
  printed += s.length;
});
printer.print(parsed.diagnostics, floodText);
printer.finish();
const limitMs = performance.now() - t;
t = performance.now();
const all = formatDiagnostics(parsed.diagnostics, floodText).length;
const allMs = performance.now() - t;
console.log(
  `flood of ${parsed.diagnostics.length} diagnostics: parse ${parseMs.toFixed(0)} ms; ` +
    `print with --error-limit ${DEFAULT_ERROR_LIMIT} ${limitMs.toFixed(0)} ms (${printed} characters); ` +
    `format all ${allMs.toFixed(0)} ms (${(all / 1e6).toFixed(1)} MB)`,
);

for (const [what, text] of [
  ['threads', `AMDGPU threads\n${Array.from({ length: flood }, (_, i) => `P${i} {\n}\n`).join('')}`],
  [
    'locations',
    `AMDGPU locations\n${Array.from({ length: flood }, (_, i) => `@x${i} = global i32 0\n`).join('')}P0 {\n}\n`,
  ],
] as const) {
  t = performance.now();
  const r = parse(text, 'many.litmus');
  console.log(
    `${flood} ${what}: parse ${(performance.now() - t).toFixed(0)} ms, ${r.diagnostics.length} diagnostics`,
  );
}
