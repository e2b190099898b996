import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command, CommanderError } from 'commander';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { registerCampaign } from '../cli/campaign.ts';
import { CliExit } from '../cli/shared.ts';
import { gpumm, ROOT } from '../cli/testing.ts';
import { shardOf } from './shard.ts';
import { mergeCommand, type SlurmJob, sbatchQuote, scriptProblem, shellQuote, slurmScript } from './slurm.ts';
import {
  clusterUnavailable,
  fakeCalls,
  fakeProgram,
  parseCampaign,
  type SlurmCluster,
  slurmClient,
  startCluster,
  stopCluster,
  waitForJob,
} from './slurm-cluster.ts';

/** Names a careless script would break on: blanks, both quotes, `$`, backquotes, globs, a line break. */
const HOSTILE = [
  "it's.litmus",
  'two words.litmus',
  '$HOME.litmus',
  '`id`.litmus',
  '"quoted".litmus',
  'back\\slash.litmus',
  'star*.litmus',
  'line\nbreak.litmus',
  'ümlaut €.litmus',
  '',
];

const dirs: string[] = [];
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'gpumm-slurm-test-'));
  dirs.push(d);
  return d;
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function job(over: Partial<SlurmJob> = {}): SlurmJob {
  return {
    files: ['litmus/MP+rel+acq.agent.litmus'],
    tasks: 4,
    outDir: '/shared/out',
    cwd: ROOT,
    node: '/usr/bin/node',
    bin: '/opt/gpumm/bin/gpumm.js',
    options: ['--targets', 'gfx900', '--lowering', 'doc', '--workers', '1', '--timeout', '2.5'],
    cpusPerTask: 2,
    jobName: 'gpumm-campaign',
    ...over,
  };
}

describe('shellQuote', () => {
  it('makes any text one word that bash reads back unchanged', () => {
    const words = HOSTILE.map(shellQuote).join(' ');
    const r = spawnSync('bash', ['-c', `printf '%s\\0' ${words}`], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout.split('\0').slice(0, -1)).toEqual(HOSTILE);
  });

  it('leaves plain words bare, for a script a person reads', () => {
    expect(shellQuote('litmus/MP+rel+acq.agent.litmus')).toBe('litmus/MP+rel+acq.agent.litmus');
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(shellQuote('')).toBe("''");
  });
});

describe('sbatchQuote', () => {
  it("quotes for sbatch's reader: double quotes, and a backslash before a quote or a backslash", () => {
    expect(sbatchQuote('gpumm-campaign')).toBe('gpumm-campaign');
    expect(sbatchQuote(`a "b" c\\d 'e'`)).toBe(`"a \\"b\\" c\\\\d 'e'"`);
  });
});

describe('slurmScript', () => {
  /** Runs the script's body with bash, its `node` a recorder: the arguments gpumm would get. */
  function runBody(j: SlurmJob, env: Record<string, string>): { status: number | null; args: string[][] } {
    const script = slurmScript(j);
    const r = spawnSync('bash', ['-c', script], {
      env: { PATH: process.env.PATH ?? '', ...env },
      encoding: 'utf8',
    });
    return { status: r.status, args: fakeCalls(j.node) };
  }

  it('runs shard $SLURM_ARRAY_TASK_ID of n with --resume, every file passed as it was named', async () => {
    const dir = tmp();
    const node = fakeProgram(dir, 'node');
    const files = [
      'litmus/MP+rel+acq.agent.litmus',
      ...HOSTILE.filter((f) => f !== ''),
      '-dash.litmus',
      'merge',
    ];
    const outDir = join(dir, `out dir 'q' $x %p`);
    const r = runBody(job({ files, node, outDir, cwd: dir }), { SLURM_ARRAY_TASK_ID: '2' });
    expect(r.status).toBe(0);
    expect(r.args).toEqual([
      [
        '/opt/gpumm/bin/gpumm.js',
        'campaign',
        '--targets',
        'gfx900',
        '--lowering',
        'doc',
        '--workers',
        '1',
        '--timeout',
        '2.5',
        '--shard',
        '2/4',
        '--out',
        `${outDir}/results-2.jsonl`,
        '--resume',
        // An option-like name and a subcommand's name become paths.
        ...files.slice(0, -2),
        './-dash.litmus',
        './merge',
      ],
    ]);
    // …and the real `gpumm campaign` reads them as its run subcommand, this task's shard resumed.
    const { command, files: read, opts } = await parseCampaign(r.args[0]!.slice(2));
    expect(command).toBe('run');
    expect(read).toEqual(r.args[0]!.slice(-files.length));
    expect(opts).toMatchObject({
      targets: 'gfx900',
      lowering: ['doc'],
      workers: 1,
      timeout: 2.5,
      shard: '2/4',
      out: `${outDir}/results-2.jsonl`,
      resume: true,
    });
  });

  it('stops, running nothing, outside an array job', () => {
    const dir = tmp();
    const node = fakeProgram(dir, 'node');
    const r = runBody(job({ node, cwd: dir }), {});
    expect(r.status).not.toBe(0);
    expect(r.args).toEqual([]);
  });

  it('asks for an array of n tasks, a log per task, and --workers CPUs unless told otherwise', () => {
    const directives = (s: string) => s.split('\n').filter((l) => l.startsWith('#SBATCH'));
    expect(directives(slurmScript(job()))).toEqual([
      '#SBATCH --job-name=gpumm-campaign',
      '#SBATCH --array=0-3',
      '#SBATCH --output=/shared/out/slurm-%A_%a.out',
      '#SBATCH --cpus-per-task=2',
    ]);
    const s = slurmScript(
      job({
        tasks: 1,
        cpusPerTask: 8,
        partition: 'gpu',
        time: '02:00:00',
        outDir: '/a b/50%',
        jobName: 'x"y',
      }),
    );
    expect(directives(s)).toEqual([
      '#SBATCH --job-name="x\\"y"',
      '#SBATCH --array=0-0',
      '#SBATCH --output="/a b/50%%/slurm-%A_%a.out"',
      '#SBATCH --cpus-per-task=8',
      '#SBATCH --partition=gpu',
      '#SBATCH --time=02:00:00',
    ]);
    // sbatch reads #SBATCH lines only before the first line of shell.
    const lines = s.split('\n');
    const firstShell = lines.findIndex((l, k) => k > 0 && l !== '' && !l.startsWith('#'));
    expect(lines.map((l) => l.startsWith('#SBATCH')).lastIndexOf(true)).toBeLessThan(firstShell);
  });

  it('refuses values a line of the script cannot hold', () => {
    expect(scriptProblem(job())).toBe(null);
    expect(scriptProblem(job({ outDir: '/a\nb' }))?.what).toBe('--out-dir');
    expect(scriptProblem(job({ outDir: '/a\\b' }))?.what).toBe('--out-dir');
    expect(scriptProblem(job({ jobName: 'a\rb' }))?.what).toBe('--job-name');
    // A file's name is a quoted word of the shell: any character will do.
    expect(scriptProblem(job({ files: ['a\nb.litmus'] }))).toBe(null);
  });
});

describe('mergeCommand', () => {
  it("merges every shard's file of the out folder into merged.jsonl there", async () => {
    const dir = tmp();
    const node = fakeProgram(dir, 'node');
    const outDir = join(dir, `out dir 'q' $x`);
    mkdirSync(outDir);
    for (const i of [0, 1, 2, 3]) writeFileSync(join(outDir, `results-${i}.jsonl`), '');
    const r = spawnSync('bash', ['-c', mergeCommand({ node, bin: '/g.js', outDir })]);
    expect(r.status).toBe(0);
    expect(fakeCalls(node)).toEqual([
      [
        '/g.js',
        'campaign',
        'merge',
        ...[0, 1, 2, 3].map((i) => join(outDir, `results-${i}.jsonl`)),
        '--out',
        join(outDir, 'merged.jsonl'),
      ],
    ]);
    const { command, files, opts } = await parseCampaign(fakeCalls(node)[0]!.slice(2));
    expect({ command, files: files.length, out: opts.out }).toEqual({
      command: 'merge',
      files: 4,
      out: join(outDir, 'merged.jsonl'),
    });
  });
});

/** `gpumm campaign slurm args…` in this process, through commander as main.ts would parse it. */
async function slurmCli(
  ...args: string[]
): Promise<{ stdout: string; stderr: string; exit: number | string }> {
  const program = new Command().exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} });
  // The real `campaign` command (which registers `slurm`), whose default subcommand (run) must not
  // take `slurm` as a file.
  registerCampaign(program);
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((s) => {
    stdout += String(s);
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((s) => {
    stderr += String(s);
    return true;
  });
  let exit: number | string = 0;
  try {
    await program.parseAsync(['campaign', 'slurm', ...args], { from: 'user' });
  } catch (e) {
    if (e instanceof CliExit) exit = e.status;
    else if (e instanceof CommanderError) exit = e.code;
    else throw e;
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
  return { stdout, stderr, exit };
}

describe('gpumm campaign slurm', () => {
  const FILE = 'litmus/MP+rel+acq.agent.litmus';
  /** The options every call gives: the file, the targets, the tasks and the out folder. */
  const given = (outDir: string, tasks = 2) => [
    FILE,
    '--targets',
    'gfx900',
    '--tasks',
    String(tasks),
    '--out-dir',
    outDir,
  ];
  const path = process.env.PATH;
  afterEach(() => {
    process.env.PATH = path;
  });

  it('prints the script of the options given', async () => {
    const dir = tmp();
    const r = await slurmCli(
      FILE,
      '--tasks',
      '3',
      '--out-dir',
      dir,
      '--targets',
      'gfx900',
      '--time',
      '1:00:00',
    );
    expect(r.exit).toBe(0);
    expect(r.stdout).toBe(
      slurmScript({
        files: [FILE],
        tasks: 3,
        outDir: dir,
        cwd: process.cwd(),
        node: process.execPath,
        bin: join(ROOT, 'bin', 'gpumm.js'),
        options: ['--targets', 'gfx900', '--workers', '1'],
        cpusPerTask: 1,
        jobName: 'gpumm-campaign',
        time: '1:00:00',
      }),
    );
  });

  it("passes the campaign's options on, its --workers as the CPUs a task asks for", async () => {
    const r = await slurmCli(
      ...[FILE, '--tasks', '2', '--out-dir', tmp(), '--targets', 'gfx900,pvc', '--lowering', 'doc,llc'],
      ...['--workers', '2', '--timeout', '30', '--max-states', '1000', '--mutate', '--llc', '/opt/l l/llc'],
    );
    expect(r.exit).toBe(0);
    expect(r.stdout).toContain('#SBATCH --cpus-per-task=2\n');
    const command = r.stdout.slice(r.stdout.indexOf('\nstatus=0\n')).split(' \\\n  ').slice(1, -4);
    expect(command).toEqual([
      '--targets gfx900,pvc',
      '--lowering doc,llc',
      '--workers 2',
      '--timeout 30',
      '--max-states 1000',
      '--mutate',
      "--llc '/opt/l l/llc'",
    ]);
  });

  it('--script writes it, creating the out folder that Slurm opens the logs in', async () => {
    const dir = tmp();
    const outDir = join(dir, 'new', 'out');
    const r = await slurmCli(...given(outDir), '--script', join(dir, 'job.sh'));
    expect(r).toEqual({ stdout: '', stderr: '', exit: 0 });
    expect(readFileSync(join(dir, 'job.sh'), 'utf8')).toContain('#SBATCH --array=0-1');
    expect(existsSync(outDir)).toBe(true);
  });

  it('--submit submits the array, then a merge job after it, and prints the array job id', async () => {
    const dir = tmp();
    // --parsable prints `id;cluster` on a multi-cluster setup: the id is the part before.
    const sbatch = fakeProgram(
      dir,
      'sbatch',
      `cat >> "${dir}/stdin"; n=$(tr -cd '\\001' < "$0.args" | wc -c); echo "$((40 + n));gpumm"`,
    );
    process.env.PATH = `${dir}:${path}`;
    const outDir = join(dir, 'out');
    const r = await slurmCli(...given(outDir, 4), '--partition', 'gpu', '--submit');
    expect(r.exit).toBe(0);
    expect(r.stdout).toBe('41\n');
    expect(r.stderr).toContain('job 42 merges them');
    const [array, merge] = fakeCalls(sbatch);
    expect(array).toEqual(['--parsable']);
    // Without --script the script goes on sbatch's standard input, whole.
    expect(readFileSync(join(dir, 'stdin'), 'utf8')).toMatch(
      /^#!\/bin\/bash\n[\s\S]*--shard "\$SLURM_ARRAY_TASK_ID\/4"/,
    );
    expect(merge).toEqual([
      '--parsable',
      '--dependency=afterok:41',
      '--job-name=gpumm-campaign-merge',
      '--partition=gpu',
      `--output=${outDir}/slurm-%j-merge.out`,
      `--wrap=${mergeCommand({ node: process.execPath, bin: join(ROOT, 'bin', 'gpumm.js'), outDir })}`,
    ]);
  });

  it('--submit where sbatch is not installed: CL1030, exit 2', async () => {
    process.env.PATH = tmp();
    const r = await slurmCli(...given(join(tmp(), 'out')), '--submit');
    expect(r.exit).toBe(2);
    expect(r.stderr).toMatch(/error CL1030: /);
    expect(r.stdout).toBe('');
  });

  it("--submit that sbatch refuses: CL1031 quoting sbatch's reason, exit 2", async () => {
    const dir = tmp();
    fakeProgram(dir, 'sbatch', 'echo "sbatch: error: invalid partition specified: nope" >&2; exit 1');
    process.env.PATH = `${dir}:${path}`;
    const r = await slurmCli(...given(join(dir, 'out')), '--submit');
    expect(r.exit).toBe(2);
    expect(r.stderr).toMatch(/error CL1031: sbatch refused the job: sbatch: error: invalid partition/);
  });

  it('refuses what a script cannot hold, and values sbatch would refuse later (CL1032, usage errors)', async () => {
    const bad = await slurmCli(...given('/tmp/a\nb'));
    expect(bad.exit).toBe(2);
    expect(bad.stderr).toMatch(/error CL1032: --out-dir/);
    for (const args of [
      ['--tasks', '0', '--out-dir', 'o'],
      ['--tasks', '2'],
      ['--tasks', '2', '--out-dir', 'o', '--time', '1h'],
      ['--tasks', '2', '--out-dir', 'o', '--partition', 'a b'],
    ]) {
      const r = await slurmCli(FILE, '--targets', 'gfx900', ...args);
      expect(r.exit, args.join(' ')).toMatch(/^commander\./);
    }
  });
});

// The real thing: a Slurm cluster on this machine runs the campaign as a 4-task array and a merge
// job, and the merged file must say what one process says over the same tests.
const unavailable = clusterUnavailable();
if (unavailable) console.log(`slurm cluster test skipped: ${unavailable}`);

/** Eight small catalogue tests: enough to spread over 4 shards, quick enough for CI's 2 cores. */
const TESTS = [
  'CoRR.plain',
  'CoWW.plain',
  'MP+rel+acq.agent',
  'MP+bar',
  'SB+sc.agent',
  'LB+plain',
  'WRC+rlx.agent',
  'CoRR.atomic.agent',
  // UNSOUND on every target (load buffering, docs/hardware.md): the campaign exits 1, yet each task
  // succeeds and the merge job runs.
  'LB+rlx.agent',
].map((t) => `litmus/${t}.litmus`);
const OPTIONS = ['--targets', 'gfx900', '--lowering', 'doc', '--workers', '1'];

/** A results file's lines without the wall times, which differ run to run; test lines by hash. */
function lines(file: string): unknown[] {
  const parsed = readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l, (k, v) => (k === 'ms' ? undefined : v)) as { kind: string; hash?: string });
  return parsed.sort((a, b) =>
    a.kind === b.kind ? (a.hash ?? '').localeCompare(b.hash ?? '') : a.kind === 'header' ? -1 : 1,
  );
}

describe.skipIf(unavailable !== null)('a campaign on a real single-host Slurm cluster', () => {
  let cluster: SlurmCluster;
  beforeAll(async () => {
    cluster = await startCluster();
  }, 120_000);
  afterAll(async () => {
    if (cluster) await stopCluster(cluster);
  }, 60_000);

  it('runs as a 4-task array whose merged results equal one process', async () => {
    const dir = tmp();
    const t0 = performance.now();
    const single = join(dir, 'single.jsonl');
    const one = gpumm('campaign', ...OPTIONS, '--out', single, ...TESTS);
    expect(one.stderr).toBe('');
    expect(one.status).toBe(1);
    const singleMs = performance.now() - t0;

    // The out folder's name tests both quotings for real: sbatch's (#SBATCH --output) and bash's.
    const outDir = join(dir, `out dir 'q' $x %p`);
    const conf = process.env.SLURM_CONF;
    process.env.SLURM_CONF = cluster.conf;
    const t1 = performance.now();
    let submitted: Awaited<ReturnType<typeof slurmCli>>;
    try {
      submitted = await slurmCli(
        ...TESTS,
        '--tasks',
        '4',
        '--out-dir',
        outDir,
        ...OPTIONS.slice(0, 4),
        '--submit',
      );
    } finally {
      if (conf === undefined) delete process.env.SLURM_CONF;
      else process.env.SLURM_CONF = conf;
    }
    expect(submitted.exit, submitted.stderr).toBe(0);
    const arrayId = submitted.stdout.trim();
    const tasks = await waitForJob(cluster, arrayId, 600_000);
    const arrayMs = performance.now() - t1;
    const logs = () =>
      spawnSync('sh', ['-c', 'tail -n 20 "$0"/slurm-*.out', outDir], { encoding: 'utf8' }).stdout;
    expect(
      tasks.map((t) => `${t.task} ${t.state} ${t.exitCode}`),
      logs(),
    ).toEqual(['0 COMPLETED 0:0', '1 COMPLETED 0:0', '2 COMPLETED 0:0', '3 COMPLETED 0:0']);
    const mergeId = /job (\d+) merges/.exec(submitted.stderr)?.[1];
    expect(mergeId, submitted.stderr).toBeDefined();
    const merge = await waitForJob(cluster, mergeId!, 120_000);
    const totalMs = performance.now() - t1;
    expect(
      merge.map((t) => t.state),
      logs(),
    ).toEqual(['COMPLETED']);

    // Each shard holds exactly the tests its index takes, under a header that says which shard.
    for (const i of [0, 1, 2, 3]) {
      const [header, ...rest] = readFileSync(join(outDir, `results-${i}.jsonl`), 'utf8')
        .trim()
        .split('\n');
      expect(JSON.parse(header!).shard).toEqual({ index: i, count: 4 });
      for (const l of rest) expect(shardOf(JSON.parse(l).hash, 4)).toBe(i);
    }
    expect(lines(join(outDir, 'merged.jsonl'))).toEqual(lines(single));
    expect(lines(single)).toHaveLength(1 + TESTS.length);

    const runSeconds = (t: string) => t.split(':').reduce((s, p) => s * 60 + Number(p), 0);
    const record = slurmClient(cluster, 'scontrol', ['-o', 'show', 'job', arrayId]);
    const taskSeconds = [...record.matchAll(/ RunTime=(\S+)/g)].map((m) => runSeconds(m[1]!));
    console.log(
      `slurm overhead: one process ${(singleMs / 1000).toFixed(1)} s; 4-task array ${(arrayMs / 1000).toFixed(1)} s ` +
        `from submission to the last task's end (tasks ran ${taskSeconds.join(', ')} s by Slurm's clock), ` +
        `${((totalMs - arrayMs) / 1000).toFixed(1)} s more to the merge job's end; ` +
        `${((arrayMs - singleMs) / 4 / 1000).toFixed(2)} s per task over one process`,
    );
  }, 900_000);
});
