/**
 * Worker speed-up: `npx tsx bench/workers.ts [n]` runs CO n (default 6) and SB relaxed 8 in-process
 * and on a piscina pool of 2 threads, and prints wall time, CPU time and the task sizes.
 */

import { cpuUsage } from 'node:process';
import type { Test } from '../src/core/types.ts';
import { enumerate, splitSearch } from '../src/enumerate/enumerate.ts';
import { runSlice } from '../src/enumerate/parallel.ts';
import { enumerateParallel, SLICES_PER_WORKER } from '../src/enumerate/pool.ts';
import { DEFAULT_OPTIONS } from '../src/models/amdgpu.ts';
import { co, sb } from './families.ts';

const n = Number(process.argv[2] ?? 6);
const tests: Test[] = [co(n), sb(8, 'monotonic'), co(n - 1)];
console.log(
  '| test | in-process (ms) | 2 workers (ms) | speed-up | CPU in-process (s) | CPU with workers, all threads (s) | tasks | smallest task (ms) |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
for (const t of tests) {
  let c0 = cpuUsage();
  let t0 = performance.now();
  // As `gpumm run` does without --graph: no example execution per state.
  const seq = enumerate(t, { keepExamples: false });
  const seqMs = performance.now() - t0;
  const d1 = cpuUsage(c0);
  const seqCpu = (d1.user + d1.system) / 1e6;
  c0 = cpuUsage();
  t0 = performance.now();
  const par = await enumerateParallel(t, { workers: 2, keepExamples: false });
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
      slice,
    });
    smallest = Math.min(smallest, performance.now() - a);
  }
  console.log(
    `| ${t.name} | ${seqMs.toFixed(0)} | ${parMs.toFixed(0)} | ${(seqMs / parMs).toFixed(2)} | ${seqCpu.toFixed(2)} | ${parCpu.toFixed(2)} | ${slices.length} | ${smallest.toFixed(1)} |`,
  );
}
