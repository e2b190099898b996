/**
 * `gpumm check` of the whole catalogue: `npx tsx bench/check-catalogue.ts [doc|llc|both]` checks
 * every litmus file (barriers included) on every target with a machine, in every mode, with the
 * chosen lowering profiles (default both), in-process, and prints the wall time, the verdict counts,
 * the machine states explored per family and the slowest checks. The model runs once per test;
 * targets whose code is identical for a test share one machine run, as `gpumm check --all-targets`
 * does.
 */

import { type CheckResult, checkTest, docCode, type Lowering } from '../src/check/check.ts';
import { llcCodes } from '../src/check/llc-code.ts';
import { CATALOGUE_DIR } from '../src/cli/demo.ts';
import { litmusFilesIn } from '../src/cli/io.ts';
import { DEFAULT_RUN, modelDiagnostics, runTestSync } from '../src/enumerate/verdict.ts';
import { PROCESSORS } from '../src/lower/targets.ts';
import type { LowerCtx, WaveMode } from '../src/lower/types.ts';
import { familyMachine, machineMode } from '../src/sim/config.ts';
import { litmusFile } from '../src/sim/testutil.ts';

const which = process.argv[2] ?? 'both';
const profiles: Lowering[] = which === 'both' ? ['doc', 'llc'] : [which as Lowering];
const files = litmusFilesIn(CATALOGUE_DIR);
const targets = PROCESSORS.filter((p) => p.table !== null && familyMachine(p.table) !== null);
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
const tests = [...new Set(files)].map((f) => litmusFile(f)).filter((t) => modelDiagnostics(t).length === 0);
// llc-22 once per target and mode for the whole catalogue.
const llcByRun = profiles.includes('llc') ? await Promise.all(ctxs.map((ctx) => llcCodes(tests, ctx))) : [];
const llcMs = performance.now() - t0;
const results: CheckResult[] = [];
const statesPerFamily = new Map<string, number>();
let machineRuns = 0;
let modelMs = 0;
for (const [ti, test] of tests.entries()) {
  const m0 = performance.now();
  const report = runTestSync(test, DEFAULT_RUN);
  modelMs += performance.now() - m0;
  for (const lowering of profiles) {
    const done = new Map<string, CheckResult>();
    for (const [ci, ctx] of ctxs.entries()) {
      const code = lowering === 'doc' ? docCode(test, ctx) : llcByRun[ci]![ti]!;
      if ('error' in code) continue;
      const key = `${ctx.target.processor.table}|${ctx.target.processor.generation}|${machineMode(ctx)}|${JSON.stringify(code)}`;
      let r = done.get(key);
      if (!r) {
        r = await checkTest(test, report, code, ctx, lowering, {
          reduce: true,
          maxStates: 5_000_000,
          deadline: performance.now() + 60_000,
          trace: true,
        });
        done.set(key, r);
        machineRuns++;
        const fam = ctx.target.processor.table!;
        statesPerFamily.set(fam, (statesPerFamily.get(fam) ?? 0) + r.stats.states);
      }
      results.push({ ...r, target: ctx.target.name });
    }
  }
}
const ms = performance.now() - t0;
const count = (v: string) => results.filter((r) => r.verdict === v).length;
console.log(
  `${files.length} files × ${ctxs.length} target/mode runs × ${profiles.join('+')}: ${(ms / 1000).toFixed(1)} s ` +
    `(llc-22 ${(llcMs / 1000).toFixed(1)} s, model ${(modelMs / 1000).toFixed(1)} s, ${machineRuns} distinct machine runs)`,
);
console.log(
  `checks: ${results.length}; sound ${count('sound')}, UNSOUND ${count('UNSOUND')}, unsupported ${count('unsupported')}, undecided ${count('undecided')}`,
);
for (const [f, n] of statesPerFamily) console.log(`machine states explored, ${f}: ${n}`);
const slow = [...new Map(results.map((r) => [`${r.test} ${r.target} ${r.mode} ${r.lowering}`, r])).values()]
  .sort((a, b) => b.stats.ms - a.stats.ms)
  .slice(0, 5);
for (const r of slow)
  console.log(
    `  slowest: ${r.test} (${r.mode}, ${r.lowering}) ${r.stats.ms.toFixed(0)} ms, ${r.stats.states} states`,
  );
const unsound = [
  ...new Set(
    results.filter((r) => r.verdict === 'UNSOUND').map((r) => `${r.test} [${r.lowering}, ${r.mode}]`),
  ),
];
console.log(`UNSOUND (test [profile, mode]): ${unsound.sort().join('; ')}`);
