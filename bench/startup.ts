/**
 * Start-up of the CLI: `npx tsx bench/startup.ts [runs]` (default 40). Spawns each command `runs`
 * times, one after the other, and prints the median wall time with the 10th and 90th percentiles
 * (the median, because other work on the machine delays some runs), and on Linux the median CPU
 * time of the child (user + system, from /proc/self/stat; 10 ms ticks), which other work on the
 * machine inflates much less. Results go into docs/benchmarks.md by hand.
 *
 * Builds the bundle first (`npm run build`), so the bundle rows measure current sources.
 */

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const runs = Number(process.argv[2] ?? 40);
const small = 'litmus/MP+rel+acq.agent.litmus';

const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) throw new Error('the bundle did not build');

const fromSource = { ...process.env, GPUMM_FROM_SOURCE: '1' };
const rows: { name: string; cmd: string; args: string[]; env?: NodeJS.ProcessEnv }[] = [
  { name: 'node -e 0 (Node itself)', cmd: process.execPath, args: ['-e', '0'] },
  { name: 'node bin/gpumm.js --help (bundle)', cmd: process.execPath, args: ['bin/gpumm.js', '--help'] },
  {
    name: `node bin/gpumm.js run ${small} (bundle)`,
    cmd: process.execPath,
    args: ['bin/gpumm.js', 'run', small],
  },
  { name: 'npx gpumm --help (bundle)', cmd: 'npx', args: ['gpumm', '--help'] },
  { name: `npx gpumm run ${small} (bundle)`, cmd: 'npx', args: ['gpumm', 'run', small] },
  {
    name: 'node bin/gpumm.js --help (tsx, GPUMM_FROM_SOURCE=1)',
    cmd: process.execPath,
    args: ['bin/gpumm.js', '--help'],
    env: fromSource,
  },
  {
    name: `node bin/gpumm.js run ${small} (tsx)`,
    cmd: process.execPath,
    args: ['bin/gpumm.js', 'run', small],
    env: fromSource,
  },
];

/** CPU seconds used by this process's waited-for children so far (Linux; null elsewhere). */
function childrenCpu(): number | null {
  if (!existsSync('/proc/self/stat')) return null;
  // Fields after the command name (which may hold spaces): cutime and cstime are the 14th and 15th.
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

console.log(`${runs} runs each; in ms: wall median (10th–90th percentile), CPU median`);
for (const row of rows) {
  const times: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c0 = childrenCpu();
    const t0 = performance.now();
    const r = spawnSync(row.cmd, row.args, { cwd: root, env: row.env ?? process.env, stdio: 'ignore' });
    times.push(performance.now() - t0);
    const c1 = childrenCpu();
    if (c0 !== null && c1 !== null) cpus.push((c1 - c0) * 1000);
    if (r.status !== 0 && r.status !== 1) throw new Error(`${row.name}: exit ${r.status}`);
  }
  times.sort((a, b) => a - b);
  cpus.sort((a, b) => a - b);
  const f = (x: number) => x.toFixed(0);
  const cpu = cpus.length > 0 ? f(quantile(cpus, 0.5)) : '-';
  console.log(
    `${row.name.padEnd(62)} ${f(quantile(times, 0.5)).padStart(5)} (${f(quantile(times, 0.1))}–${f(quantile(times, 0.9))})  CPU ${cpu}`,
  );
}
