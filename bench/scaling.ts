/**
 * Scaling series: `npx tsx bench/scaling.ts [--quick]`. Each row runs one test in a fresh child
 * process (so peak RSS is per test) and prints time, search nodes, candidates explored, consistent
 * executions and peak memory. Results go into docs/benchmarks.md by hand.
 */

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Test } from '../src/core/types.ts';
import { enumerate } from '../src/enumerate/enumerate.ts';
import { co, iriw, mp, sb, wrr } from './families.ts';

const SERIES: Record<string, () => Test> = {};
for (let n = 2; n <= 8; n++) SERIES[`SB relaxed ${n}`] = () => sb(n, 'monotonic');
for (let n = 2; n <= 6; n++) SERIES[`SB seq_cst ${n}`] = () => sb(n, 'seq_cst');
for (let n = 2; n <= 7; n++) SERIES[`CO ${n}`] = () => co(n);
for (const k of [1, 2, 4, 8]) SERIES[`MP ${k} data`] = () => mp(k);
for (const o of ['monotonic', 'acquire', 'seq_cst'] as const) SERIES[`IRIW ${o}`] = () => iriw(o);
// States over the condition only (`--observe condition`): unobserved reads are counted, not enumerated.
for (const n of [7, 8]) SERIES[`CO ${n}, observe condition`] = () => co(n);
SERIES['WRR 6, observe condition'] = () => wrr(6);

const child = process.argv[2] === '--one';
if (child) {
  const name = process.argv[3]!;
  const t0 = performance.now();
  const e = enumerate(SERIES[name]!(), {
    timeoutMs: 60_000,
    keepExamples: false,
    observe: name.endsWith('observe condition') ? 'condition' : 'all',
  });
  const ms = performance.now() - t0;
  const rss = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(
    JSON.stringify({
      name,
      ms,
      nodes: e.stats.nodes,
      explored: e.stats.explored,
      consistent: e.stats.consistent,
      stop: e.stop,
      rss,
    }),
  );
} else {
  const quick = process.argv.includes('--quick');
  const names = Object.keys(SERIES).filter((n) => !quick || !/ [78]$| 6$/.test(n));
  console.log(
    '| test | time (ms) | search nodes | explored | consistent | explored/consistent | peak RSS (MiB) |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  const self = fileURLToPath(import.meta.url);
  for (const name of names) {
    const r = spawnSync(process.execPath, ['--import', 'tsx', self, '--one', name], { encoding: 'utf8' });
    if (r.status !== 0) {
      console.log(`| ${name} | failed: ${r.stderr.split('\n')[0]} |`);
      continue;
    }
    const x = JSON.parse(r.stdout);
    const ratio = x.consistent > 0 ? (x.explored / x.consistent).toFixed(2) : '-';
    console.log(
      `| ${name} | ${x.ms.toFixed(1)}${x.stop === 'done' ? '' : ` (${x.stop})`} | ${x.nodes} | ${x.explored} | ${x.consistent} | ${ratio} | ${x.rss.toFixed(0)} |`,
    );
  }
}
