/**
 * Worker speed-up: `npx tsx bench/workers.ts [n]` runs CO n (default 6), SB relaxed 8, CO n-1 and
 * 4 x (W;R;W;R) with release/acquire in-process
 * and on a piscina pool of 2 threads, and prints wall time, CPU time and the task sizes.
 */

import { cpuUsage } from 'node:process';
import type { Test } from '../src/core/types.ts';
import { enumerate, splitSearch } from '../src/enumerate/enumerate.ts';
import type { ObserveMode } from '../src/enumerate/outcomes.ts';
import { runSlice } from '../src/enumerate/parallel.ts';
import { enumerateParallel, SLICES_PER_WORKER } from '../src/enumerate/pool.ts';
import { DEFAULT_OPTIONS } from '../src/models/amdgpu.ts';
import { co, sb, wrwr } from './families.ts';

const n = Number(process.argv[2] ?? 6);
// The last row is bound by search, not by merging: 5.2 M executions and 7 states over the
// condition (`--observe condition`).
const tests: [Test, ObserveMode][] = [
  [co(n), 'all'],
  [sb(8, 'monotonic'), 'all'],
  [co(n - 1), 'all'],
  [wrwr(4, 'release', 'acquire'), 'condition'],
];
console.log(
  '| test | in-process (ms) | 2 workers (ms) | speed-up | CPU in-process (s) | CPU with workers, all threads (s) | tasks | smallest task (ms) |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
for (const [t, observe] of tests) {
  let c0 = cpuUsage();
  let t0 = performance.now();
  // As `gpumm run` does without --graph: no example execution per state.
  const seq = enumerate(t, { keepExamples: false, observe });
  const seqMs = performance.now() - t0;
  const d1 = cpuUsage(c0);
  const seqCpu = (d1.user + d1.system) / 1e6;
  c0 = cpuUsage();
  t0 = performance.now();
  const par = await enumerateParallel(t, { workers: 2, keepExamples: false, observe });
  const parMs = performance.now() - t0;
  const d2 = cpuUsage(c0);
  const parCpu = (d2.user + d2.system) / 1e6;
  if (par.stats.consistent !== seq.stats.consistent) throw new Error('parallel and sequential disagree');
  const slices = splitSearch(t, 2 * SLICES_PER_WORKER);
  let smallest = Number.POSITIVE_INFINITY;
  for (const slice of slices) {
    const a = performance.now();
    runSlice({
      test: t,
      model: DEFAULT_OPTIONS,
      timeoutMs: Number.POSITIVE_INFINITY,
      maxExecutions: Number.POSITIVE_INFINITY,
      maxStates: Number.POSITIVE_INFINITY,
      keepExamples: false,
      observe,
      slice,
    });
    smallest = Math.min(smallest, performance.now() - a);
  }
  console.log(
    `| ${t.name}${observe === 'condition' ? ', observe condition' : ''} | ${seqMs.toFixed(0)} | ${parMs.toFixed(0)} | ${(seqMs / parMs).toFixed(2)} | ${seqCpu.toFixed(2)} | ${parCpu.toFixed(2)} | ${slices.length} | ${smallest.toFixed(1)} |`,
  );
}
