/**
 * `gpumm campaign slurm FILE… --tasks n --out-dir DIR [options]`: the campaign as a Slurm job array,
 * task i running shard i of n into DIR/results-i.jsonl (src/campaign/slurm.ts writes the script).
 * Prints the script, writes it (`--script FILE`), or submits it (`--submit`) together with a merge
 * job that waits for every task to succeed (`sbatch --dependency=afterok:ID`) and writes
 * DIR/merged.jsonl: the whole campaign is then one command, and its end one file (docs/campaigns.md).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import {
  DEFAULT_JOB_NAME,
  MERGED_FILE,
  mergeCommand,
  type SlurmJob,
  scriptProblem,
  shardFile,
  slurmScript,
} from '../campaign/slurm.ts';
import { diag, fileSpan } from '../core/diagnostics.ts';
import { positiveInt, positiveNumber } from './budgets.ts';
import { formatDiagnostic } from './format.ts';
import { failureWhy } from './io.ts';
import { writeOut } from './run.ts';
import { CliExit, commandLineSpan, commandLineText } from './shared.ts';

/** gpumm's entry point, which the jobs run: beside src/ here and beside dist/ in the bundle alike. */
const BIN = join(import.meta.dirname, '..', '..', 'bin', 'gpumm.js');

interface SlurmCliOptions {
  tasks: number;
  outDir: string;
  targets: string;
  lowering?: string;
  workers: number;
  timeout?: number;
  maxStates?: number;
  mutate?: boolean;
  llc?: string;
  gen?: string;
  partition?: string;
  time?: string;
  jobName: string;
  script?: string;
  submit?: boolean;
}

/** Slurm's time limits: minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS (sbatch(1), --time). */
function slurmTime(v: string): string {
  if (!/^(\d+|\d+:\d{1,2}|\d+:\d{1,2}:\d{1,2}|\d+-\d+(:\d{1,2}){0,2})$/.test(v))
    throw new InvalidArgumentError('expected a Slurm time limit: HH:MM:SS, minutes, or D-HH:MM:SS');
  return v;
}

/** A partition name, or a comma-separated list of them (sbatch tries each). */
function partitionName(v: string): string {
  if (!/^[A-Za-z0-9_.-]+(,[A-Za-z0-9_.-]+)*$/.test(v))
    throw new InvalidArgumentError(
      'expected a partition name (letters, digits, _ . -), or several separated by commas',
    );
  return v;
}

/** The options of `gpumm campaign run` given to `slurm`, as its command line words. */
function campaignOptions(o: SlurmCliOptions): string[] {
  const words = ['--targets', o.targets];
  if (o.lowering !== undefined) words.push('--lowering', o.lowering);
  words.push('--workers', String(o.workers));
  if (o.timeout !== undefined) words.push('--timeout', String(o.timeout));
  if (o.maxStates !== undefined) words.push('--max-states', String(o.maxStates));
  if (o.mutate) words.push('--mutate');
  if (o.llc !== undefined) words.push('--llc', o.llc);
  if (o.gen !== undefined) words.push('--gen', o.gen);
  return words;
}

/** Adds `slurm` to the `campaign` command it is given. */
export function registerCampaignSlurm(campaign: Command): void {
  campaign
    .command('slurm')
    .description(
      'write the sbatch script that runs a campaign as a Slurm job array, one shard a task, or submit it',
    )
    .argument('[files...]', 'litmus files (relative ones are read from this folder, wherever the job runs)')
    .requiredOption(
      '--tasks <n>',
      'array tasks: the campaign runs as shards 0/n to n-1/n, one a task',
      positiveInt,
    )
    .requiredOption(
      '--out-dir <dir>',
      "folder of the shards' results (results-i.jsonl), Slurm's logs and merged.jsonl; --script and --submit create it",
    )
    // The campaign's options, passed on (`gpumm campaign run --help` says what each does): each
    // task's campaign checks them, so a wrong value fails every task at its start, with the reason
    // in its log.
    .requiredOption('--targets <list>', "the campaign's --targets")
    .option('--lowering <list>', "the campaign's --lowering")
    .option(
      '--workers <n>',
      "the campaign's --workers in each task, and the CPUs each task asks for (--cpus-per-task)",
      positiveInt,
      1,
    )
    .option('--timeout <seconds>', "the campaign's per-test --timeout", positiveNumber)
    .option('--max-states <n>', "the campaign's --max-states", positiveInt)
    .option(
      '--mutate',
      "the campaign's --mutate: each shard scores the tables over its tests; merge adds them up",
    )
    .option('--llc <path>', "the campaign's --llc, as a path on the cluster's nodes")
    .option(
      '--gen <spec>',
      "the campaign's --gen: generated tests (docs/campaigns.md), beside or instead of files",
    )
    .option('--partition <name>', 'the Slurm partition (sbatch --partition)', partitionName)
    .option(
      '--time <limit>',
      "each task's time limit (sbatch --time): HH:MM:SS, minutes, D-HH:MM:SS",
      slurmTime,
    )
    .option('--job-name <name>', 'the job name Slurm shows (sbatch --job-name)', DEFAULT_JOB_NAME)
    .option('--script <file>', 'write the script to FILE instead of printing it')
    .option(
      '--submit',
      'submit the script with sbatch, and a merge job that runs when every task has succeeded; print the job id',
    )
    .action((files: string[], opts: SlurmCliOptions) => {
      const job: SlurmJob = {
        files,
        tasks: opts.tasks,
        outDir: resolve(opts.outDir),
        cwd: process.cwd(),
        node: process.execPath,
        bin: BIN,
        options: campaignOptions(opts),
        cpusPerTask: opts.workers,
        jobName: opts.jobName,
        partition: opts.partition,
        time: opts.time,
      };
      const problem = scriptProblem(job);
      if (problem) {
        const span = commandLineSpan(problem.what.startsWith('--') ? problem.what : '');
        fail(formatDiagnostic(diag('CL1032', span, problem), commandLineText()));
      }
      const script = slurmScript(job);
      if (opts.script === undefined && !opts.submit) {
        process.stdout.write(script);
        return;
      }
      // Slurm opens each task's log in the out folder before the task starts: it must exist.
      try {
        mkdirSync(job.outDir, { recursive: true });
      } catch (e) {
        const why = failureWhy(
          e,
          { EACCES: 'permission denied', EEXIST: 'a file is there', ENOTDIR: 'a file is in its path' },
          'cannot be created',
        );
        fail(formatDiagnostic(diag('CL1033', fileSpan(job.outDir), { dir: job.outDir, why })));
      }
      if (opts.script !== undefined) writeOut(opts.script, script);
      if (opts.submit) submit(job, script, opts.script);
    });
}

/**
 * Submits the array (the written script, else the text on sbatch's standard input), then the
 * merge job, and prints the array's job id. The merge waits on `afterok`: if a task fails it never
 * runs (squeue says DependencyNeverSatisfied); resubmitting the same script resumes the shards.
 */
function submit(job: SlurmJob, script: string, file: string | undefined): void {
  const arrayId = file === undefined ? sbatch([], script) : sbatch([file], undefined);
  process.stdout.write(`${arrayId}\n`);
  const merged = join(job.outDir, MERGED_FILE);
  const mergeId = sbatch(
    [
      `--dependency=afterok:${arrayId}`,
      `--job-name=${job.jobName}-merge`,
      ...(job.partition === undefined ? [] : [`--partition=${job.partition}`]),
      // Arguments, not #SBATCH lines: no quoting, but `%` is still Slurm's pattern character.
      `--output=${job.outDir.replaceAll('%', '%%')}/slurm-%j-merge.out`,
      `--wrap=${mergeCommand(job)}`,
    ],
    undefined,
  );
  process.stderr.write(
    `gpumm: submitted job ${arrayId}: ${job.tasks} tasks writing ${join(job.outDir, shardFile('*'))}; ` +
      `job ${mergeId} merges them into ${merged} once all have succeeded\n`,
  );
}

/** Runs `sbatch --parsable args…` (the script on its standard input when `input` is given): the job id. */
function sbatch(args: string[], input: string | undefined): string {
  const r = spawnSync('sbatch', ['--parsable', ...args], { input, encoding: 'utf8', timeout: 120_000 });
  if ((r.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT')
    fail(formatDiagnostic(diag('CL1030', commandLineSpan('--submit'), {}), commandLineText()));
  const out = r.stdout?.trim() ?? '';
  // --parsable prints `id` or `id;cluster`.
  const id = /^(\d+)(;\S+)?$/.exec(out)?.[1];
  if (r.status !== 0 || id === undefined) {
    // sbatch may say several lines: one diagnostic is one line.
    const said = (r.stderr ?? '').trim().split('\n').join('; ');
    const why = said || r.error?.message || `exit status ${r.status}, no job id`;
    fail(formatDiagnostic(diag('CL1031', commandLineSpan('--submit'), { why }), commandLineText()));
  }
  return id;
}

function fail(text: string): never {
  process.stderr.write(`${text}\n`);
  throw new CliExit(2);
}
