/**
 * Cat models against the fast search: `npx tsx bench/cat.ts [dir]` runs every `.litmus` file under
 * litmus/ (or dir) three ways, in-process, after one warm-up pass:
 * - the fast search (`src/enumerate/enumerate.ts`);
 * - models/amdgpu.cat with the cat enumerator's monotone pruning (what `--model amdgpu-cat` does);
 * - models/amdgpu.cat unpruned (every complete candidate evaluated in full: the evaluator's cost per
 *   candidate), each test capped at 5 s.
 * It prints total time, search nodes, complete candidates, and microseconds per node and per
 * candidate, for docs/benchmarks.md.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CatEnumeration, DEFAULT_CAT } from '../src/cat/enumerate.ts';
import { loadModel } from '../src/cat/load.ts';
import { CATALOGUE_DIR } from '../src/cli/demo.ts';
import { litmusFilesIn } from '../src/cli/io.ts';
import { enumerate } from '../src/enumerate/enumerate.ts';
import { modelDiagnostics } from '../src/enumerate/verdict.ts';
import { parse } from '../src/syntax/parser.ts';

const CAT = join(import.meta.dirname, '..', 'models', 'amdgpu.cat');
const { model } = loadModel(readFileSync(CAT, 'utf8'), CAT, () => null);
const dir = process.argv[2] ?? CATALOGUE_DIR;
const tests = litmusFilesIn(dir)
  .map((f) => parse(readFileSync(f, 'utf8'), f).test)
  .filter((t) => t !== null && modelDiagnostics(t).length === 0);

interface Row {
  ms: number;
  nodes: number;
  explored: number;
  stopped: number;
}

function measure(
  run: (t: (typeof tests)[number]) => { nodes: number; explored: number; done: boolean },
): Row {
  const row: Row = { ms: 0, nodes: 0, explored: 0, stopped: 0 };
  for (const t of tests) {
    const a = performance.now();
    const s = run(t!);
    row.ms += performance.now() - a;
    row.nodes += s.nodes;
    row.explored += s.explored;
    if (!s.done) row.stopped++;
  }
  return row;
}

const fast = (t: (typeof tests)[number]) => {
  const en = enumerate(t!, { keepExamples: false });
  return { ...en.stats, done: en.stop === 'done' };
};
const cat = (prune: boolean) => (t: (typeof tests)[number]) => {
  const en = new CatEnumeration(t!, model, {
    ...DEFAULT_CAT,
    prune,
    keepExamples: false,
    timeoutMs: 5000,
  }).run();
  return { ...en.stats, done: en.stop === 'done' };
};

// Warm-up: one pass of each, so the JIT has compiled the hot paths.
measure(fast);
measure(cat(true));
const rows: [string, Row][] = [
  ['fast search', measure(fast)],
  ['amdgpu.cat, pruned', measure(cat(true))],
  ['amdgpu.cat, unpruned', measure(cat(false))],
];
console.log(`${tests.length} tests`);
console.log(
  '| run | total (ms) | search nodes | complete candidates | µs / node | µs / candidate | stopped at 5 s |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|');
for (const [name, r] of rows)
  console.log(
    `| ${name} | ${r.ms.toFixed(0)} | ${r.nodes} | ${r.explored} | ${((r.ms * 1000) / Math.max(1, r.nodes)).toFixed(1)} | ${((r.ms * 1000) / Math.max(1, r.explored)).toFixed(1)} | ${r.stopped} |`,
  );
