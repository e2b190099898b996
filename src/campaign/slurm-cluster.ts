/**
 * Test support: a real single-host Slurm cluster, started from Debian's packages (`slurm-wlm`,
 * `munge`; scripts/setup.mjs installs them as root) for the campaign's Slurm test, and torn down after.
 *
 * Nothing of the machine's own configuration is read or changed: the munge key, munged's socket,
 * slurm.conf, Slurm's state, spool and logs all live in one temporary folder, the daemons listen
 * on ports free at start, and every client command gets `SLURM_CONF` pointing at that slurm.conf.
 * So a machine with a Slurm of its own, or two test runs at once, do not interfere.
 *
 * The daemons run in the foreground (`munged -F`, `slurmctld -D`, `slurmd -D`) as children of the
 * test: a daemon that dies at start ends the start at once, with the tail of its log in the error.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';

/** The programs a cluster needs: the daemons and the clients the test calls. */
const PROGRAMS = ['munged', 'slurmctld', 'slurmd', 'sbatch', 'squeue', 'sinfo', 'scontrol', 'scancel'];

/** A started cluster: where it lives and the environment its clients need. */
export interface SlurmCluster {
  /** The temporary folder of everything the cluster writes. */
  readonly dir: string;
  /** Its slurm.conf. */
  readonly conf: string;
  /** This process's environment with `SLURM_CONF` set: pass it to sbatch, squeue, … */
  readonly env: NodeJS.ProcessEnv;
  /** The one partition (the default one). */
  readonly partition: string;
  /** The daemons, by name: stopped by `stopCluster`. */
  readonly daemons: ReadonlyMap<string, Daemon>;
}

interface Daemon {
  readonly child: ChildProcess;
  /** Files whose tail explains a failure: the daemon's log and its standard output. */
  readonly logs: readonly string[];
  exited: string | null;
}

/** Bounds of every wait, in milliseconds. */
const START_MS = 60_000;
const STOP_MS = 15_000;
const POLL_MS = 250;

/**
 * Why no cluster can start here, or null: Slurm's daemons run as root (SlurmUser=root keeps the
 * configuration to one user), and each program must be installed.
 */
export function clusterUnavailable(): string | null {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0)
    return 'not root: slurmctld, slurmd and munged run as root here (CI runs as root)';
  const missing = PROGRAMS.filter((p) => !onPath(p));
  if (missing.length > 0)
    return `${missing.join(', ')} not installed (Debian: apt-get install slurm-wlm munge; npm run setup does it as root)`;
  return null;
}

function onPath(program: string): boolean {
  const r = spawnSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' });
  return r.status === 0;
}

/** Runs a Slurm client (`squeue`, `sbatch`, …) against `cluster`; throws with its stderr when it fails. */
export function slurmClient(
  cluster: Pick<SlurmCluster, 'env'>,
  program: string,
  args: readonly string[],
): string {
  const r = spawnSync(program, args, { env: cluster.env, encoding: 'utf8', timeout: 30_000 });
  if (r.error) throw new Error(`${program} ${args.join(' ')}: ${r.error.message}`);
  if (r.status !== 0)
    throw new Error(`${program} ${args.join(' ')} exited with ${r.status ?? r.signal}: ${r.stderr.trim()}`);
  return r.stdout;
}

/**
 * Starts munged, slurmctld and slurmd for this machine alone and waits until its node is idle.
 * Throws (after tearing down what it started) when a daemon dies or the node is not idle in time.
 */
export async function startCluster(): Promise<SlurmCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'gpumm-slurm-'));
  // munged refuses a socket in a folder others cannot enter, and a key others can read: the
  // folder is open to all (only root writes it), the key's own folder is closed.
  chmodSync(dir, 0o755);
  for (const sub of ['munge', 'state', 'spool', 'log']) mkdirSync(join(dir, sub), { mode: 0o700 });
  const conf = join(dir, 'slurm.conf');
  const env: NodeJS.ProcessEnv = { ...process.env, SLURM_CONF: conf };
  const daemons = new Map<string, Daemon>();
  const cluster: SlurmCluster = { dir, conf, env, partition: 'gpumm', daemons };
  try {
    // A fresh key each time: the cluster trusts only itself, and the machine's key is left alone.
    writeFileSync(join(dir, 'munge', 'munge.key'), randomBytes(1024), { mode: 0o400 });
    const socket = join(dir, 'munge.socket');
    start(cluster, 'munged', [
      '-F',
      '--force',
      `--key-file=${join(dir, 'munge', 'munge.key')}`,
      `--socket=${socket}`,
      `--pid-file=${join(dir, 'munge', 'munged.pid')}`,
      `--seed-file=${join(dir, 'munge', 'munged.seed')}`,
      `--log-file=${join(dir, 'log', 'munged.log')}`,
    ]);
    await waitFor(cluster, 'munged to open its socket', () => existsSync(socket));
    const [ctldPort, dPort] = [await freePort(), await freePort()];
    writeFileSync(conf, slurmConf(dir, socket, nodeLine(), ctldPort, dPort));
    start(cluster, 'slurmctld', ['-D', '-f', conf]);
    start(cluster, 'slurmd', ['-D', '-f', conf]);
    await waitFor(cluster, 'the node to be idle', () => {
      const r = spawnSync('sinfo', ['-h', '-N', '-o', '%t'], { env, encoding: 'utf8', timeout: 10_000 });
      return r.status === 0 && r.stdout.trim() === 'idle';
    });
    return cluster;
  } catch (e) {
    await stopCluster(cluster);
    throw e;
  }
}

/**
 * Cancels the cluster's jobs, stops its daemons (SIGTERM, then SIGKILL after a while) and removes
 * its folder. Safe to call on a cluster that failed half-way through starting.
 */
export async function stopCluster(cluster: SlurmCluster): Promise<void> {
  const ctld = cluster.daemons.get('slurmctld');
  if (ctld && ctld.exited === null)
    spawnSync('scancel', ['--full', `--partition=${cluster.partition}`], {
      env: cluster.env,
      timeout: 10_000,
    });
  // slurmd first (it runs the jobs' steps), munged last (the others authenticate through it).
  for (const name of ['slurmd', 'slurmctld', 'munged']) {
    const d = cluster.daemons.get(name);
    if (!d || d.exited !== null) continue;
    d.child.kill('SIGTERM');
    const until = Date.now() + STOP_MS;
    while (d.exited === null && Date.now() < until) await sleep(POLL_MS);
    if (d.exited === null) {
      d.child.kill('SIGKILL');
      while (d.exited === null && Date.now() < until + STOP_MS) await sleep(POLL_MS);
    }
  }
  rmSync(cluster.dir, { recursive: true, force: true });
}

/** One array task as Slurm last reported it. */
export interface TaskState {
  readonly task: number;
  readonly state: string;
  readonly exitCode: string;
}

/**
 * Waits until array job `jobId` has left the queue, then returns its tasks' final states
 * (`scontrol show job` keeps finished jobs for MinJobAge, 300 s by default).
 */
export async function waitForJob(
  cluster: SlurmCluster,
  jobId: string,
  timeoutMs: number,
): Promise<TaskState[]> {
  await waitFor(
    cluster,
    `job ${jobId} to finish`,
    () => slurmClient(cluster, 'squeue', ['-h', '-j', jobId, '-o', '%i']).trim() === '',
    timeoutMs,
  );
  const records = slurmClient(cluster, 'scontrol', ['-o', 'show', 'job', jobId]).trim().split('\n');
  return records
    .map((r) => {
      const field = (k: string) => new RegExp(`(?:^| )${k}=(\\S*)`).exec(r)?.[1] ?? '';
      return { task: Number(field('ArrayTaskId')), state: field('JobState'), exitCode: field('ExitCode') };
    })
    .sort((a, b) => a.task - b.task);
}

/** This machine as one node, as slurmd measures it (`slurmd -C`: its CPUs, sockets and memory). */
function nodeLine(): string {
  const r = spawnSync('slurmd', ['-C'], { encoding: 'utf8', timeout: 30_000 });
  const line = r.stdout?.split('\n').find((l) => l.startsWith('NodeName='));
  if (r.status !== 0 || !line)
    throw new Error(`slurmd -C did not describe this machine: ${r.stderr ?? r.error}`);
  return line.trim();
}

/** The smallest slurm.conf that schedules jobs on this one machine, everything under `dir`. */
function slurmConf(dir: string, socket: string, node: string, ctldPort: number, dPort: number): string {
  const name = /^NodeName=(\S+)/.exec(node)![1]!;
  return [
    'ClusterName=gpumm',
    // The address given, so the host's name need not resolve (a container's often does not).
    `SlurmctldHost=${name}(127.0.0.1)`,
    `SlurmctldPort=${ctldPort}`,
    `SlurmdPort=${dPort}`,
    'SlurmUser=root',
    'SlurmdUser=root',
    'AuthType=auth/munge',
    'CredType=cred/munge',
    `AuthInfo=socket=${socket}`,
    `StateSaveLocation=${join(dir, 'state')}`,
    `SlurmdSpoolDir=${join(dir, 'spool')}`,
    `SlurmctldPidFile=${join(dir, 'slurmctld.pid')}`,
    `SlurmdPidFile=${join(dir, 'slurmd.pid')}`,
    `SlurmctldLogFile=${join(dir, 'log', 'slurmctld.log')}`,
    `SlurmdLogFile=${join(dir, 'log', 'slurmd.log')}`,
    // No cgroups: a container or a CI machine may not delegate them.
    'ProctrackType=proctrack/linuxproc',
    'TaskPlugin=task/none',
    'SelectType=select/cons_tres',
    'SelectTypeParameters=CR_CPU',
    'MpiDefault=none',
    'JobAcctGatherType=jobacct_gather/none',
    'AccountingStorageType=accounting_storage/none',
    // A node that was down comes back by itself when its slurmd registers.
    'ReturnToService=2',
    `${node} NodeAddr=127.0.0.1 State=UNKNOWN`,
    `PartitionName=gpumm Nodes=${name} Default=YES MaxTime=INFINITE State=UP`,
    '',
  ].join('\n');
}

function start(cluster: SlurmCluster, name: string, args: string[]): void {
  const out = join(cluster.dir, 'log', `${name}.out`);
  const fd = openSync(out, 'a');
  const child = spawn(name, args, { env: cluster.env, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  const d: Daemon = { child, logs: [join(cluster.dir, 'log', `${name}.log`), out], exited: null };
  child.on('exit', (code, signal) => {
    d.exited = signal ?? String(code);
  });
  child.on('error', (e) => {
    d.exited = e.message;
  });
  (cluster.daemons as Map<string, Daemon>).set(name, d);
}

/** Polls `ready` until true; throws when time is up or a daemon has died, with its log's tail. */
async function waitFor(
  cluster: SlurmCluster,
  what: string,
  ready: () => boolean,
  timeoutMs = START_MS,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    for (const [name, d] of cluster.daemons)
      if (d.exited !== null)
        throw new Error(`${name} exited (${d.exited}) while waiting for ${what}\n${tails(d.logs)}`);
    if (ready()) return;
    if (Date.now() > until) {
      const logs = [...cluster.daemons.values()].flatMap((d) => d.logs);
      throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}\n${tails(logs)}`);
    }
    await sleep(POLL_MS);
  }
}

/** The last lines of each file that exists, under its name. */
function tails(files: readonly string[], lines = 15): string {
  const out: string[] = [];
  for (const f of files) {
    let text: string;
    try {
      text = readFileSync(f, 'utf8');
    } catch {
      continue;
    }
    if (text.trim() === '') continue;
    out.push(`--- ${f}`, ...text.trimEnd().split('\n').slice(-lines));
  }
  return out.join('\n');
}

/** A TCP port free now: the system picks it for a listener that is closed at once. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Reads `argv` (the words after `gpumm campaign`) with the real `gpumm campaign` command line, the
 * actions of its subcommands replaced: which one would run (`run`, the default, or `merge`), with
 * what files and options; commander's error when it would not. Lets a test check that a generated
 * command (a Slurm script's, a Kubernetes manifest's) is one gpumm reads as meant.
 */
export async function parseCampaign(
  argv: readonly string[],
): Promise<{ command: string; files: string[]; opts: Record<string, unknown> }> {
  const { registerCampaign } = await import('../cli/campaign.ts');
  const program = new Command().exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} });
  let got: { command: string; files: string[]; opts: Record<string, unknown> } | undefined;
  for (const sub of registerCampaign(program).commands)
    sub.action((files: string[], opts: Record<string, unknown>) => {
      got = { command: sub.name(), files, opts };
    });
  await program.parseAsync(['campaign', ...argv], { from: 'user' });
  if (!got) throw new Error(`gpumm campaign ${argv.join(' ')} reached no subcommand`);
  return got;
}

/**
 * A stand-in for a program (`node`, `sbatch`) in folder `dir`: it appends its arguments to
 * `PATH.args`, then runs the bash `body` (which may print an answer or fail). `fakeCalls` reads them.
 */
export function fakeProgram(dir: string, name: string, body = ''): string {
  const p = join(dir, name);
  // Each argument ends with NUL and each call with \x01: a line break may be part of an argument.
  writeFileSync(p, `#!/bin/bash\nprintf '%s\\0' "$@" >> "${p}.args"\nprintf '\\1' >> "${p}.args"\n${body}\n`);
  chmodSync(p, 0o755);
  return p;
}

/** The calls a `fakeProgram` saw, in order: the arguments of each. */
export function fakeCalls(program: string): string[][] {
  if (!existsSync(`${program}.args`)) return [];
  return readFileSync(`${program}.args`, 'utf8')
    .split('\x01')
    .slice(0, -1)
    .map((c) => c.split('\0').slice(0, -1));
}
