/**
 * `gpumm check` of the whole catalogue: `npx tsx bench/check-catalogue.ts [doc|llc|both] [workers]`
 * checks every litmus file (barriers included) on every target with a machine, in every mode (CU and
 * WGP, with and without TgSplit), with the chosen lowering profiles (default both; the Intel Xe targets
 * have the documents' profile only: llc-22 has no Intel backend), on `workers`
 * threads (default 2, as `gpumm check --all-targets --workers 2`), and prints the wall time, the
 * verdict counts, the machine states explored per family and the slowest checks. The model runs
 * once per test; targets whose machine runs are the same for a test (`machineKey`) share one run.
 */

import { loadavg } from 'node:os';
import { type CheckResult, checkDistinct, docCode, type Lowering, machineKey } from '../src/check/check.ts';
import { llcCodes } from '../src/check/llc-code.ts';
import { checkPool } from '../src/check/pool.ts';
import task, { type CheckJob, checkJob } from '../src/check/worker.ts';
import { CATALOGUE_DIR } from '../src/cli/demo.ts';
import { litmusFilesIn } from '../src/cli/io.ts';
import { diagnosticLine } from '../src/core/diagnostics.ts';
import { DEFAULT_RUN, modelDiagnostics, runTestSync } from '../src/enumerate/verdict.ts';
import { PROCESSORS } from '../src/lower/targets.ts';
import type { LowerCtx, WaveMode } from '../src/lower/types.ts';
import type { CodeOrWhy } from '../src/sim/program.ts';
import { litmusFile } from '../src/sim/testutil.ts';

const which = process.argv[2] ?? 'both';
const workers = Number(process.argv[3] ?? 2);
const profiles: Lowering[] = which === 'both' ? ['doc', 'llc'] : [which as Lowering];
const files = litmusFilesIn(CATALOGUE_DIR);
const targets = PROCESSORS.filter((p) => p.table !== null);
// Every mode: CU and WGP where a target has them, with and without TgSplit where it has that.
const ctxs: LowerCtx[] = targets.flatMap((p) => {
  const target = { name: p.name, processor: p, gpu: p.gpu };
  if (p.features.tgsplit)
    return [false, true].map((tgsplit) => ({
      target,
      mode: 'cu' as WaveMode,
      lang: 'hsa' as const,
      tgsplit,
    }));
  return (p.features.wgpMode ? (['cu', 'wgp'] as WaveMode[]) : (['cu'] as WaveMode[])).map((mode) => ({
    target,
    mode,
    lang: 'hsa' as const,
  }));
});

const t0 = performance.now();
const cpu0 = process.cpuUsage();
const load0 = loadavg()[0]!;
const tests = [...new Set(files)].map((f) => litmusFile(f)).filter((t) => modelDiagnostics(t).length === 0);
// llc-22 once per target and mode for the whole catalogue.
const llcByRun = profiles.includes('llc')
  ? await Promise.all(
      ctxs.map((ctx) => (ctx.target.processor.vendor === 'Intel' ? [] : llcCodes(tests, ctx))),
    )
  : [];
const llcMs = performance.now() - t0;

/** One (test, target and mode, profile) with its code, and the job checking it (null: no code). */
interface Planned {
  ctx: LowerCtx;
  lowering: Lowering;
  key: string;
  job: CheckJob | null;
  error: string | null;
}
const planned: Planned[] = [];
let modelMs = 0;
for (const [ti, test] of tests.entries()) {
  const m0 = performance.now();
  const report = runTestSync(test, DEFAULT_RUN);
  modelMs += performance.now() - m0;
  for (const lowering of profiles)
    for (const [ci, ctx] of ctxs.entries()) {
      // llc-22 has no Intel Xe backend: the Intel targets have the documents' (Intel's compiler's) code only.
      if (lowering === 'llc' && ctx.target.processor.vendor === 'Intel') continue;
      const code: CodeOrWhy = lowering === 'doc' ? docCode(test, ctx) : llcByRun[ci]![ti]!;
      if ('error' in code) {
        planned.push({ ctx, lowering, key: '', job: null, error: diagnosticLine(code.error) });
        continue;
      }
      planned.push({
        ctx,
        lowering,
        key: `${test.file}|${lowering}|${machineKey(ctx, code)}`,
        error: null,
        job: checkJob(test, report, code, ctx, lowering, 5_000_000, 60_000),
      });
    }
}

const pool = workers > 1 ? checkPool(workers) : null;
const toRun = planned.filter((p): p is Planned & { job: CheckJob } => p.job !== null);
const seen = new Set<string>();
let distinct = 0;
let reruns = 0;
const statesPerFamily = new Map<string, number>();
const slots = await checkDistinct(
  toRun,
  (p) => p.key,
  async (p) => {
    const r = await (pool ? pool.run(p.job) : task(p.job));
    // A second run of a key is an UNSOUND one checked again for its own trace.
    if (seen.has(p.key)) reruns++;
    else {
      seen.add(p.key);
      distinct++;
      const fam = p.ctx.target.processor.table!;
      statesPerFamily.set(fam, (statesPerFamily.get(fam) ?? 0) + r.stats.states);
    }
    return r;
  },
  (r, p) => ({ ...r, target: p.ctx.target.name }),
  pool !== null,
);
await pool?.close();

const results = slots.filter((r): r is CheckResult => r !== undefined);
const unsupported = planned.filter((p) => p.error !== null).length;
const ms = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
const count = (v: string) => results.filter((r) => r.verdict === v).length;
console.log(
  `${files.length} files × ${ctxs.length} target/mode runs × ${profiles.join('+')} on ${workers} worker(s): ${(ms / 1000).toFixed(1)} s ` +
    `(llc-22 ${(llcMs / 1000).toFixed(1)} s, model ${(modelMs / 1000).toFixed(1)} s, ${distinct} distinct machine runs, ${reruns} re-run for their traces)`,
);
console.log(
  `main thread CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s; load average ${load0.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end`,
);
console.log(
  `checks: ${results.length + unsupported}; sound ${count('sound')}, UNSOUND ${count('UNSOUND')}, unsupported ${count('unsupported') + unsupported}, undecided ${count('undecided')}`,
);
for (const [f, n] of statesPerFamily) console.log(`machine states explored, ${f}: ${n}`);
const slow = [...new Map(results.map((r) => [`${r.test} ${r.target} ${r.mode} ${r.lowering}`, r])).values()]
  .sort((a, b) => b.stats.ms - a.stats.ms)
  .slice(0, 5);
for (const r of slow)
  console.log(
    `  slowest: ${r.test} (${r.target} ${r.mode}, ${r.lowering}) ${r.stats.ms.toFixed(0)} ms, ${r.stats.states} states`,
  );
const unsound = new Map<string, string[]>();
for (const r of results)
  if (r.verdict === 'UNSOUND')
    unsound.set(r.test, [...(unsound.get(r.test) ?? []), `${r.lowering} ${r.target} ${r.mode}`]);
console.log('UNSOUND:');
for (const [t, where] of [...unsound].sort()) console.log(`  ${t}: ${where.join(', ')}`);
