/**
 * Dartagnan's Vulkan suite under the Vulkan model: `npx tsx bench/vulkan.ts [--cat]`, in-process,
 * after one warm-up pass, each file's fastest of three runs.
 *
 * Per file of corpus/vulkan-dat3m/: the fast search alone (`src/vulkan/search.ts`: every
 * consistent execution, its final state and flags collected; the verdicts are decided there) and
 * the whole run (`runVulkan`: the search, then the report object with every final state); the
 * final states and consistent executions. Then the totals, and the end-to-end time of
 * `gpumm run` on the whole suite (one process, the report text written to /dev/null, start-up
 * included). `--cat` adds models/vulkan.cat through the cat enumerator (once per file).
 * The machine's load average is printed first: measurements on a loaded machine say so.
 */
import { spawnSync } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { loadModel } from '../src/cat/load.ts';
import { corpusTests, VULKAN_CORPUS } from '../src/cli/vulkan-corpus.ts';
import { isVulkan, type VulkanTest } from '../src/vulkan/ast.ts';
import { parseAnyTest } from '../src/vulkan/detect.ts';
import { vulkanFront } from '../src/vulkan/front.ts';
import { DEFAULT_VK_RUN, runVulkan } from '../src/vulkan/run.ts';
import { VkSearch } from '../src/vulkan/search.ts';

const root = join(import.meta.dirname, '..');
const withCat = process.argv.includes('--cat');
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

const [l1, l5, l15] = loadavg();
console.log(`load average ${l1!.toFixed(2)} ${l5!.toFixed(2)} ${l15!.toFixed(2)}; ${tests.length} tests`);
// Warm-up.
for (const { t } of tests) runVulkan(t, DEFAULT_VK_RUN);

const rows = tests.map(({ name, t }) => {
  const r = runVulkan(t, DEFAULT_VK_RUN);
  const searchMs = best(() => search(t));
  const runMs = best(() => runVulkan(t, DEFAULT_VK_RUN));
  let catMs = Number.NaN;
  if (withCat) {
    const a = performance.now();
    runVulkan(t, { ...DEFAULT_VK_RUN, engine: 'cat', model, timeoutMs: 60_000 });
    catMs = performance.now() - a;
  }
  return { name, states: r.states.length, executions: r.stats.consistent, searchMs, runMs, catMs };
});

const pad = (s: string, n: number) => s.padEnd(n);
const num = (x: number) => (Number.isNaN(x) ? '' : x.toFixed(0)).padStart(8);
console.log(
  `${pad('test', 44)}${'states'.padStart(8)}${'execs'.padStart(8)}${'search'.padStart(8)}${'run'.padStart(8)}${withCat ? 'cat'.padStart(8) : ''}`,
);
for (const r of rows)
  console.log(
    `${pad(r.name, 44)}${String(r.states).padStart(8)}${String(r.executions).padStart(8)}${num(r.searchMs)}${num(r.runMs)}${withCat ? num(r.catMs) : ''}`,
  );
const sum = (k: 'searchMs' | 'runMs' | 'catMs') => rows.reduce((s, r) => s + r[k], 0);
console.log(
  `${pad('total', 60)}${num(sum('searchMs'))}${num(sum('runMs'))}${withCat ? num(sum('catMs')) : ''}`,
);
const slow = rows.filter((r) => r.runMs >= 1000).map((r) => r.name);
console.log(`files over 1 s (whole run): ${slow.length === 0 ? 'none' : slow.join(', ')}`);

// End to end: one gpumm process on the whole suite, the text report to /dev/null.
const files = tests.map(({ name }) => join(VULKAN_CORPUS, name));
const a = performance.now();
const p = spawnSync(process.execPath, [join(root, 'bin', 'gpumm.js'), 'run', '--quiet', ...files], {
  stdio: ['ignore', openSync('/dev/null', 'w'), 'pipe'],
});
const wall = performance.now() - a;
console.log(`gpumm run on the whole suite: ${(wall / 1000).toFixed(2)} s wall (exit ${p.status})`);
