/**
 * Tests of up to 24 events against the 10 s target:
 * `npx tsx bench/large.ts [--random N] [--seed S] [--exotic] [--spaces] [--barriers] [--long]
 * [--random-only]`.
 * First a list of named shapes (the families that stress the search: many writes to one location,
 * synchronising coherence, SB/IRIW/MP at their largest), then N random tests (default 60) of 14–24
 * events drawn from the property-test generator with up to 8 threads. Each test runs in-process
 * with a 10 s budget and without example executions, as `gpumm run` does; a test over the budget
 * is printed in litmus syntax so it can be reproduced. Results go into docs/benchmarks.md by hand.
 */

import fc from 'fast-check';
import type { Test } from '../src/core/types.ts';
import { DEFAULT_ENUMERATE, Enumeration } from '../src/enumerate/enumerate.ts';
import { arbTest } from '../src/enumerate/gen.ts';
import type { ObserveMode } from '../src/enumerate/outcomes.ts';
import { dev, ld, makeTest, st, threads } from '../src/events/build.ts';
import { buildSkeleton } from '../src/events/skeleton.ts';
import { parse } from '../src/syntax/parser.ts';
import { print } from '../src/syntax/printer.ts';
import { co, counter, iriw, mp, sb, wrr, wrwr } from './families.ts';

const BUDGET_MS = 10_000;

function twoLoc(n: number): Test {
  return makeTest({
    name: `2LOC${n}`,
    locs: { x: 0, y: 0 },
    threads: threads(
      Array.from({ length: n }, (_, i) => [
        st('x', i + 1, 'monotonic'),
        ld('a', 'y', 'monotonic'),
        st('y', i + 1, 'monotonic'),
        ld('b', 'x', 'monotonic'),
      ]),
    ),
  });
}

function iriw4(): Test {
  return makeTest({
    name: 'IRIW-4readers',
    locs: { x: 0, y: 0 },
    threads: threads(
      [
        [st('x', 1, 'monotonic')],
        [st('y', 1, 'monotonic')],
        ...Array.from({ length: 4 }, () => [ld('a', 'x', 'monotonic'), ld('b', 'y', 'monotonic')]),
      ],
      Array.from({ length: 6 }, (_, i) => dev(i, 0, 0, 0)),
    ),
  });
}

const NAMED: [string, () => Test, ObserveMode][] = [
  ['SB 12 relaxed', () => sb(12, 'monotonic'), 'all'],
  ['SB 12 seq_cst', () => sb(12, 'seq_cst'), 'all'],
  ['MP 11 data', () => mp(11), 'all'],
  ['IRIW seq_cst', () => iriw('seq_cst'), 'all'],
  ['IRIW with 4 readers', iriw4, 'all'],
  ['CO 7 relaxed', () => co(7), 'all'],
  ['CO 7 release/acquire', () => co(7, 'release', 'acquire'), 'all'],
  ['CO 7 seq_cst', () => co(7, 'seq_cst'), 'all'],
  ['CO 8 relaxed', () => co(8), 'all'],
  ['CO 8 relaxed, observe condition', () => co(8), 'condition'],
  ['CO 4 x (W;R;W;R)', () => wrwr(4), 'all'],
  ['CO 4 x (W;R;W;R) release/acquire', () => wrwr(4, 'release', 'acquire'), 'all'],
  ['CO 5 x (W;R;W;R), observe condition', () => wrwr(5), 'condition'],
  ['CO 5 x (W;R;W;R) release/acquire, observe condition', () => wrwr(5, 'release', 'acquire'), 'condition'],
  ['CO 6 x (W;R;W;R), observe condition', () => wrwr(6), 'condition'],
  ['CO 6 x (W;R;W;R) release/acquire, observe condition', () => wrwr(6, 'release', 'acquire'), 'condition'],
  ['CO 10 relaxed, observe condition', () => co(10), 'condition'],
  ['CO 12 relaxed, observe condition', () => co(12), 'condition'],
  ['CO 12 release/acquire, observe condition', () => co(12, 'release', 'acquire'), 'condition'],
  ['5 x (W;R;R)', () => wrr(5), 'all'],
  ['6 x (W;R;R)', () => wrr(6), 'all'],
  ['6 x (W;R;R), observe condition', () => wrr(6), 'condition'],
  ['5 x (W;R;R) release/acquire', () => wrr(5, 'release', 'acquire'), 'all'],
  ['6 x (W;R;R) release/acquire', () => wrr(6, 'release', 'acquire'), 'all'],
  ['6 x (W;R;R) release/acquire, observe condition', () => wrr(6, 'release', 'acquire'), 'condition'],
  ['4 x (W x; R y; W y; R x)', () => twoLoc(4), 'all'],
  ['Counter 8 (RMW add)', () => counter(8), 'all'],
  ['Counter 9, observe condition', () => counter(9), 'condition'],
  ['Counter 9 acq_rel, observe condition', () => counter(9, 'acq_rel'), 'condition'],
  ['Counter 10, observe condition', () => counter(10), 'condition'],
  ['Counter 12 acq_rel, observe condition', () => counter(12, 'acq_rel'), 'condition'],
];

function events(t: Test): number {
  return buildSkeleton(t).events.filter((e) => e.thread >= 0).length;
}

function run(t: Test, observe: ObserveMode) {
  const t0 = performance.now();
  const en = new Enumeration(t, {
    ...DEFAULT_ENUMERATE,
    timeoutMs: BUDGET_MS,
    keepExamples: false,
    maxStates: 1_000_000,
    observe,
  }).run();
  return { ms: performance.now() - t0, en };
}

const args = process.argv.slice(2);
const randomN = Number(args[args.indexOf('--random') + 1] ?? 60) || 60;
const seed = Number(args[args.indexOf('--seed') + 1] ?? 1) || 1;
// Wider generators: av-none operations and intrinsics, LDS and `-one-as`, barriers.
const exotic = args.includes('--exotic');
const spaces = args.includes('--spaces');
const barriers = args.includes('--barriers');
const namedRows = !args.includes('--random-only');
// Long threads: 2–4 threads of up to 7 instructions (reads followed by more work) instead of up
// to 8 threads of up to 3.
const long = args.includes('--long');

if (namedRows) {
  console.log('| test | events | time (ms) | consistent | final states | stop | symmetry |');
  console.log('|---|---:|---:|---:|---:|---|---|');
}
for (const [name, make, observe] of namedRows ? NAMED : []) {
  const t = make();
  const { ms, en } = run(t, observe);
  console.log(
    `| ${name} | ${events(t)} | ${ms.toFixed(0)} | ${en.stats.consistent} | ${en.collector.size} | ${en.stop} | ${en.symmetric} |`,
  );
}

// Random tests: the enumerator's property-test generator, scaled up (up to 8 threads of up to 3
// instructions, RMWs and fences included), kept when they have 14–24 events.
const arb = arbTest({
  maxThreads: long ? 4 : 8,
  threadLen: long ? 7 : 3,
  maxInstrs: 22,
  locs: ['x', 'y', 'z'],
  exotic,
  spaces,
  barriers,
}).filter((t) => {
  const n = events(t);
  // Only tests a user could write: the generator's LDS may be shared across agents, which the
  // parser rejects (LT3009).
  return n >= 14 && n <= 24 && parse(print(t)).diagnostics.length === 0;
});
const samples = fc.sample(arb, { numRuns: randomN, seed });
const times: number[] = [];
const over: { t: Test; ms: number; stop: string; n: number }[] = [];
for (const t of samples) {
  const { ms, en } = run(t, 'all');
  times.push(ms);
  if (en.stop !== 'done' || ms > BUDGET_MS) over.push({ t, ms, stop: en.stop ?? '?', n: events(t) });
}
times.sort((a, b) => a - b);
const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!;
console.log('');
console.log(
  `Random tests (seed ${seed}${[
    long && 'long threads',
    exotic && 'exotic',
    spaces && 'spaces',
    barriers && 'barriers',
  ]
    .filter(Boolean)
    .map((f) => `, ${f}`)
    .join('')}): ${samples.length} of 14–24 events; time median ${q(0.5).toFixed(0)} ms, ` +
    `90th percentile ${q(0.9).toFixed(0)} ms, max ${q(1).toFixed(0)} ms; over ${BUDGET_MS / 1000} s or stopped: ${over.length}`,
);
for (const o of over) {
  console.log(`\n--- ${o.n} events, ${o.ms.toFixed(0)} ms, stop ${o.stop}:\n${print(o.t)}`);
}
