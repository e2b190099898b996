/**
 * Cat models against the fast search: `npx tsx bench/cat.ts [dir]`, on every `.litmus` file under
 * litmus/ (or dir), in-process, after one warm-up pass.
 *
 * 1. Whole runs: the fast search (`src/enumerate/enumerate.ts`), models/amdgpu.cat with the cat
 *    enumerator's monotone pruning (`--model amdgpu-cat`), and amdgpu.cat unpruned (each test capped
 *    at 5 s). Each test runs three times and counts its fastest run, so that other processes on a
 *    shared machine inflate the totals less.
 * 2. Cost of deciding one complete candidate, per test (variant 0, every read reading the first
 *    write of its location, coherence in event order): amdgpu.cat with every step recomputed (from
 *    scratch), amdgpu.cat after its rf changed but to the same value (its caches as in the search:
 *    steps rerun until a value comes out unchanged), and the fast search's `checkCandidate` (which
 *    re-derives rf, sw, hb and reuses availability, visibility and location order while hb is
 *    unchanged). Fastest of 5 batches of 200; the mean over tests is printed.
 * `--candidates` runs part 2 only.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CatEnumeration, DEFAULT_CAT } from '../src/cat/enumerate.ts';
import { checkPasses, compileModel, runStep } from '../src/cat/eval.ts';
import { loadModel } from '../src/cat/load.ts';
import { buildPrimitives } from '../src/cat/primitives.ts';
import { CATALOGUE_DIR } from '../src/cli/demo.ts';
import { litmusFilesIn } from '../src/cli/io.ts';
import { add } from '../src/core/relation.ts';
import type { Test } from '../src/core/types.ts';
import { enumerate, prepareVariant } from '../src/enumerate/enumerate.ts';
import { modelDiagnostics } from '../src/enumerate/verdict.ts';
import { checkCandidate, DEFAULT_OPTIONS } from '../src/models/amdgpu.ts';
import { parse } from '../src/syntax/parser.ts';

const CAT = join(import.meta.dirname, '..', 'models', 'amdgpu.cat');
const { model } = loadModel(readFileSync(CAT, 'utf8'), CAT, () => null);
const dir = process.argv.slice(2).find((a) => !a.startsWith('--')) ?? CATALOGUE_DIR;
const tests: Test[] = litmusFilesIn(dir)
  .map((f) => parse(readFileSync(f, 'utf8'), f).test)
  .filter((t): t is Test => t !== null && modelDiagnostics(t).length === 0);

interface Row {
  ms: number;
  nodes: number;
  explored: number;
  stopped: number;
}

type Runner = (t: Test) => { nodes: number; explored: number; done: boolean };

function measure(run: Runner, reps: number): Row {
  const row: Row = { ms: 0, nodes: 0, explored: 0, stopped: 0 };
  for (const t of tests) {
    let best = Number.POSITIVE_INFINITY;
    let s = { nodes: 0, explored: 0, done: true };
    for (let k = 0; k < reps; k++) {
      const a = performance.now();
      s = run(t);
      best = Math.min(best, performance.now() - a);
    }
    row.ms += best;
    row.nodes += s.nodes;
    row.explored += s.explored;
    if (!s.done) row.stopped++;
  }
  return row;
}

const fast: Runner = (t) => {
  const en = enumerate(t, { keepExamples: false });
  return { ...en.stats, done: en.stop === 'done' };
};
const cat =
  (prune: boolean): Runner =>
  (t) => {
    const en = new CatEnumeration(t, model, {
      ...DEFAULT_CAT,
      prune,
      keepExamples: false,
      timeoutMs: 5000,
    }).run();
    return { ...en.stats, done: en.stop === 'done' };
  };

/** Fastest of 5 batches of 200 calls of `f`, in microseconds per call. */
function perCall(f: () => void): number {
  let best = Number.POSITIVE_INFINITY;
  for (let b = 0; b < 5; b++) {
    const a = performance.now();
    for (let i = 0; i < 200; i++) f();
    best = Math.min(best, ((performance.now() - a) * 1000) / 200);
  }
  return best;
}

function candidateCosts(t: Test): { cat: number; catCached: number; fast: number } {
  const { sk, ws } = prepareVariant(t, 0);
  const { prims, cand } = buildPrimitives(sk);
  const c = compileModel(model, prims, new Set());
  ws.rfSrc.fill(-2);
  for (const r of sk.reads) {
    const w = sk.writesByLoc[sk.events[r]!.loc]![0];
    ws.rfSrc[r] = w ?? -1;
    if (w !== undefined) add(cand.rf, w, r);
    else cand.undef[r >>> 5]! |= 1 << (r & 31);
  }
  for (const l of sk.writesByLoc)
    l.forEach((w, i) => {
      ws.coRank[w] = i;
      for (const x of l.slice(i + 1)) add(cand.co, w, x);
    });
  cand.refreshFr();
  const scratch = new Uint32Array(4);
  return {
    cat: perCall(() => {
      for (const s of c.steps) {
        s.fresh = true;
        runStep(s);
      }
      for (const k of c.checks) checkPasses(k, scratch);
    }),
    catCached: perCall(() => {
      for (const name of ['rf', 'Undef', 'fr']) {
        const p = c.prims.get(name);
        if (p) p.version++;
      }
      for (const s of c.steps) runStep(s);
      for (const k of c.checks) checkPasses(k, scratch);
    }),
    fast: perCall(() => {
      ws.refreshCo();
      checkCandidate(ws, DEFAULT_OPTIONS);
    }),
  };
}

if (!process.argv.includes('--candidates')) {
  // Warm-up: one pass of each, so the JIT has compiled the hot paths.
  measure(fast, 1);
  measure(cat(true), 1);
  const rows: [string, Row][] = [
    ['fast search', measure(fast, 3)],
    ['amdgpu.cat, pruned', measure(cat(true), 3)],
    ['amdgpu.cat, unpruned', measure(cat(false), 1)],
  ];
  console.log(`${tests.length} tests`);
  console.log('| run | total (ms) | search nodes | complete candidates | µs / node | stopped at 5 s |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const [name, r] of rows)
    console.log(
      `| ${name} | ${r.ms.toFixed(0)} | ${r.nodes} | ${r.explored} | ${((r.ms * 1000) / Math.max(1, r.nodes)).toFixed(0)} | ${r.stopped} |`,
    );
}
let sumCat = 0;
let sumCached = 0;
let sumFast = 0;
for (const t of tests) {
  const k = candidateCosts(t);
  sumCat += k.cat;
  sumCached += k.catCached;
  sumFast += k.fast;
}
const mean = (x: number) => (x / tests.length).toFixed(1);
console.log(`\none complete candidate, mean over ${tests.length} tests (µs):`);
console.log(
  '| amdgpu.cat from scratch | amdgpu.cat, caches as in the search | fast search `checkCandidate` |',
);
console.log('|---:|---:|---:|');
console.log(`| ${mean(sumCat)} | ${mean(sumCached)} | ${mean(sumFast)} |`);
