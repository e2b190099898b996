/**
 * A campaign of generated tests: `npx tsx bench/campaign.ts [TARGET] [SPEC]` runs
 * `gpumm campaign --gen SPEC --targets TARGET` (the bundle, as a user runs it) with 1 and with 2
 * workers and prints wall time, tests per second and the speed-up, as a row of docs/benchmarks.md.
 * Defaults: gfx1200 (both wavefront modes), `size=5 placements=wg,wgs,agents` (10,116 tests).
 * Run `npm run build` first: a stale bundle makes `bin/gpumm.js` fall back to tsx.
 */

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const target = process.argv[2] ?? 'gfx1200';
const spec = process.argv[3] ?? 'size=5 placements=wg,wgs,agents';
const bin = join(import.meta.dirname, '..', 'bin', 'gpumm.js');
const dir = mkdtempSync(join(tmpdir(), 'gpumm-bench-campaign-'));

function run(workers: number): { ms: number; tests: number; unsound: number; undecided: number } {
  const out = join(dir, `w${workers}.jsonl`);
  const t0 = performance.now();
  const r = spawnSync(
    process.execPath,
    [
      bin,
      'campaign',
      '--gen',
      spec,
      '--targets',
      target,
      '--workers',
      String(workers),
      '--out',
      out,
      '--json',
    ],
    { encoding: 'utf8', maxBuffer: 1 << 28 },
  );
  const ms = performance.now() - t0;
  if (r.status !== 0 && r.status !== 1) throw new Error(`campaign failed (${r.status}): ${r.stderr}`);
  const lines = readFileSync(out, 'utf8').trim().split('\n').slice(1);
  let unsound = 0;
  let undecided = 0;
  for (const l of lines) {
    const t = JSON.parse(l) as { checks: { verdict: string }[] };
    if (t.checks.some((c) => c.verdict === 'UNSOUND')) unsound++;
    if (t.checks.some((c) => c.verdict === 'undecided')) undecided++;
  }
  return { ms, tests: lines.length, unsound, undecided };
}

const one = run(1);
const two = run(2);
rmSync(dir, { recursive: true, force: true });
console.log(
  '| target | spec | tests | 1 worker (s) | 2 workers (s) | tests/s (2 workers) | speed-up | tests UNSOUND | undecided |',
);
console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|');
console.log(
  `| ${target} | \`${spec}\` | ${one.tests} | ${(one.ms / 1000).toFixed(1)} | ${(two.ms / 1000).toFixed(1)} | ${(
    (two.tests / two.ms) * 1000
  ).toFixed(0)} | ${(one.ms / two.ms).toFixed(2)}× | ${two.unsound} | ${two.undecided} |`,
);
