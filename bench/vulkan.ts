/**
 * Dartagnan's Vulkan suite under the Vulkan model: `npx tsx bench/vulkan.ts [--cat] [--each]`.
 *
 * In-process, after one warm-up pass, each file's fastest of three runs: the fast search alone
 * (`src/vulkan/search.ts`: every consistent execution, its final state and flags collected; the
 * verdicts are decided there); the run (`runVulkan`: the search, then the report); the text
 * (`writeReport`: the herd-style text `gpumm run` prints, every final state, to a sink that drops
 * it). Then the totals, and end to end: `node bin/gpumm.js run --quiet FILE > /dev/null` for each
 * file whose in-process run and text take over 100 ms (`--each`: every file), best of two, and one
 * process on the whole suite (start-up included). The end-to-end figures are those of the bundle
 * (`npm run build`) when it is up to date with the sources, through tsx otherwise: the output says
 * which. `--cat` adds models/vulkan.cat through the cat enumerator (once per file). The machine's
 * load average is printed first and last: measurements on a loaded machine say so.
 */
import { spawnSync } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { freshBundle } from '../bin/bundle.mjs';
import { loadModel } from '../src/cat/load.ts';
import { corpusTests, VULKAN_CORPUS } from '../src/cli/vulkan-corpus.ts';
import { stateCount, writeReport } from '../src/enumerate/report.ts';
import { parseAnyTest } from '../src/run/syntaxes.ts';
import { isVulkan, type VulkanTest } from '../src/vulkan/ast.ts';
import { vulkanFront } from '../src/vulkan/front.ts';
import { DEFAULT_VK_RUN, runVulkan } from '../src/vulkan/run.ts';
import { VkSearch } from '../src/vulkan/search.ts';

const root = join(import.meta.dirname, '..');
const withCat = process.argv.includes('--cat');
const each = process.argv.includes('--each');
const { model } = loadModel(
  readFileSync(join(root, 'models', 'vulkan.cat'), 'utf8'),
  'models/vulkan.cat',
  () => null,
);

const tests = corpusTests().map(({ test, text }) => {
  const t = parseAnyTest(text, test).test;
  if (!t || !isVulkan(t)) throw new Error(`${test} does not parse`);
  return { name: test, t };
});

function search(t: VulkanTest): void {
  new VkSearch(vulkanFront(t), DEFAULT_VK_RUN).run();
}

function best(f: () => void, reps = 3): number {
  let b = Number.POSITIVE_INFINITY;
  for (let k = 0; k < reps; k++) {
    const a = performance.now();
    f();
    b = Math.min(b, performance.now() - a);
  }
  return b;
}

const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
console.log(`load average ${load()}; ${tests.length} tests`);
// Warm-up.
for (const { t } of tests) writeReport(runVulkan(t, DEFAULT_VK_RUN), () => {});

const rows = tests.map(({ name, t }) => {
  const r = runVulkan(t, DEFAULT_VK_RUN);
  const searchMs = best(() => search(t));
  const runMs = best(() => runVulkan(t, DEFAULT_VK_RUN));
  let chars = 0;
  const textMs = best(() => {
    chars = 0;
    writeReport(r, (text) => {
      chars += text.length;
    });
  });
  let catMs = Number.NaN;
  if (withCat) {
    const a = performance.now();
    runVulkan(t, { ...DEFAULT_VK_RUN, engine: 'cat', model, timeoutMs: 60_000 });
    catMs = performance.now() - a;
  }
  return {
    name,
    states: stateCount(r),
    executions: r.stats.consistent,
    searchMs,
    runMs,
    textMs,
    chars,
    catMs,
    cliMs: Number.NaN,
  };
});

// End to end, as a user runs it: one process per file, the report text to /dev/null.
const gpumm = (files: string[]): number => {
  const a = performance.now();
  const p = spawnSync(process.execPath, [join(root, 'bin', 'gpumm.js'), 'run', '--quiet', ...files], {
    stdio: ['ignore', openSync('/dev/null', 'w'), 'pipe'],
  });
  if (p.status !== 0 && p.status !== 1) throw new Error(`gpumm run exited ${p.status}: ${p.stderr}`);
  return performance.now() - a;
};
for (const r of rows)
  if (each || r.runMs + r.textMs > 100) {
    const file = join(VULKAN_CORPUS, r.name);
    r.cliMs = Math.min(gpumm([file]), gpumm([file]));
  }

const pad = (s: string, n: number) => s.padEnd(n);
const num = (x: number) => (Number.isNaN(x) ? '' : x.toFixed(0)).padStart(8);
console.log(
  `${pad('test', 44)}${'states'.padStart(8)}${'execs'.padStart(8)}${'MB'.padStart(6)}${'search'.padStart(8)}${'run'.padStart(8)}${'text'.padStart(8)}${'cli'.padStart(8)}${withCat ? 'cat'.padStart(8) : ''}`,
);
for (const r of rows)
  console.log(
    `${pad(r.name, 44)}${String(r.states).padStart(8)}${String(r.executions).padStart(8)}${(r.chars / 1e6).toFixed(1).padStart(6)}${num(r.searchMs)}${num(r.runMs)}${num(r.textMs)}${num(r.cliMs)}${withCat ? num(r.catMs) : ''}`,
  );
const sum = (k: 'searchMs' | 'runMs' | 'textMs' | 'catMs') => rows.reduce((s, r) => s + r[k], 0);
console.log(
  `${pad('total', 66)}${num(sum('searchMs'))}${num(sum('runMs'))}${num(sum('textMs'))}${''.padStart(8)}${withCat ? num(sum('catMs')) : ''}`,
);
const slow = rows.filter((r) => r.runMs + r.textMs >= 1000).map((r) => r.name);
console.log(`files over 1 s in-process (run and text): ${slow.length === 0 ? 'none' : slow.join(', ')}`);
const slowCli = rows.filter((r) => r.cliMs >= 1000).map((r) => r.name);
console.log(`files over 1 s end to end: ${slowCli.length === 0 ? 'none' : slowCli.join(', ')}`);

// End to end: one gpumm process on the whole suite.
const wall = gpumm(tests.map(({ name }) => join(VULKAN_CORPUS, name)));
console.log(
  `gpumm run on the whole suite: ${(wall / 1000).toFixed(2)} s wall; gpumm ran ${freshBundle(root) ? 'the bundle' : 'the sources through tsx (the bundle is stale: npm run build)'}`,
);
console.log(`load average ${load()}`);
