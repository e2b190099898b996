/**
 * A campaign as a Slurm job array (`gpumm campaign slurm`): the text of the `sbatch` script whose
 * task i runs shard i of n (`--shard ${SLURM_ARRAY_TASK_ID}/n`), and the merge that follows it.
 * Pure: the command line resolves paths and writes or submits the text (src/cli/campaign-slurm.ts).
 *
 * Two quoting regimes meet in one script. The body is read by the shell (`shellQuote`). The
 * `#SBATCH` lines are read by sbatch itself, which splits on blanks, honours double quotes and
 * backslash escapes only (a single quote is an ordinary character there), and then expands `%A`,
 * `%a`, `%%` in `--output`; a backslash left in a file name turns that expansion off. Hence
 * `sbatchQuote`, and the refusal of values neither regime can carry (`scriptProblem`).
 */

/** What `slurmScript` needs, with paths already absolute (the job may start anywhere). */
export interface SlurmJob {
  /** The test files, as the user gave them: relative ones are relative to `cwd`. */
  readonly files: readonly string[];
  /** Array tasks, one shard each. */
  readonly tasks: number;
  /** Absolute folder of the shards' results files and Slurm's per-task logs. */
  readonly outDir: string;
  /** Absolute folder the campaign runs in, so relative file names resolve as they did here. */
  readonly cwd: string;
  /** The Node.js executable and gpumm's `bin/gpumm.js`, both absolute. */
  readonly node: string;
  readonly bin: string;
  /**
   * The campaign's own options as words of its command line (`['--targets', 'gfx900', '--mutate']`),
   * passed on as they are: all but `--shard`, `--out` and `--resume`, which the script sets per task.
   */
  readonly options: readonly string[];
  /** The CPUs each task asks Slurm for: the campaign's `--workers`. */
  readonly cpusPerTask: number;
  readonly jobName: string;
  readonly partition?: string;
  /** Slurm's time limit per task (`--time`), in a form sbatch reads (`HH:MM:SS`, `D-HH:MM`, …). */
  readonly time?: string;
}

/** The default `--job-name`. */
export const DEFAULT_JOB_NAME = 'gpumm-campaign';

/** The merged results file a `--submit`ted merge job writes, in the out folder. */
export const MERGED_FILE = 'merged.jsonl';

/** The results file of shard `index` (a number, or a shell expression such as `$SLURM_ARRAY_TASK_ID`). */
export function shardFile(index: string | number): string {
  return `results-${index}.jsonl`;
}

// Words the shell reads as themselves: no quoting makes the script easier to read.
const PLAIN = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * `s` as one POSIX shell word, whatever it holds (blanks, quotes, `$`, backquotes, newlines): in
 * single quotes, where nothing is special but the single quote, which is closed, escaped, reopened.
 */
export function shellQuote(s: string): string {
  if (PLAIN.test(s)) return s;
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

/** `s` as one argument of an `#SBATCH` line (sbatch's own reader: double quotes, backslash escapes). */
export function sbatchQuote(s: string): string {
  if (PLAIN.test(s)) return s;
  return `"${s.replace(/["\\]/g, '\\$&')}"`;
}

/**
 * Why `job` cannot be written as a script, or null. A line break in a value that goes in an
 * `#SBATCH` line or a comment would end it and start a line of its own (of shell, for a comment);
 * a backslash in the out folder would turn off `%A_%a` in the log names (see the file's comment).
 */
export function scriptProblem(job: SlurmJob): { what: string; value: string; why: string } | null {
  const oneLine: [string, string | undefined][] = [
    ['--out-dir', job.outDir],
    ['--job-name', job.jobName],
    ['--partition', job.partition],
    ['--time', job.time],
    ['the path of node', job.node],
    ['the path of gpumm', job.bin],
  ];
  for (const [what, value] of oneLine)
    if (value !== undefined && /[\n\r]/.test(value))
      return { what, value, why: 'it holds a line break, which would end its line of the script' };
  if (job.outDir.includes('\\'))
    return { what: '--out-dir', value: job.outDir, why: "a backslash turns off Slurm's %A_%a in log names" };
  return null;
}

/**
 * A file name as the campaign's command line reads it as a file: `-x` would be an option, and a bare
 * word without a dot (`merge`) could be one of its subcommands; `./` makes either a path.
 */
function asOperand(file: string): string {
  return file.startsWith('-') || /^[^/.]+$/.test(file) ? `./${file}` : file;
}

/** The campaign's options, an option and its value a line: `['--targets gfx900', '--mutate']`. */
function optionLines(options: readonly string[]): string[] {
  const out: string[] = [];
  for (const w of options) {
    const q = shellQuote(w);
    if (w.startsWith('--') || out.length === 0) out.push(q);
    else out[out.length - 1] += ` ${q}`;
  }
  return out;
}

/**
 * The shell command that merges the shards once every task is done:
 * `node gpumm.js campaign merge DIR/results-*.jsonl --out DIR/merged.jsonl` (the glob is the shell's).
 */
export function mergeCommand(job: Pick<SlurmJob, 'node' | 'bin' | 'outDir'>, out?: string): string {
  const dir = shellQuote(job.outDir);
  const merged = out === undefined ? `${dir}/${MERGED_FILE}` : shellQuote(out);
  return [
    shellQuote(job.node),
    shellQuote(job.bin),
    'campaign merge',
    `${dir}/${shardFile('*')}`,
    '--out',
    merged,
  ].join(' ');
}

/**
 * The sbatch script of a campaign: an array of `tasks` tasks, task i running shard i/tasks into
 * `outDir/results-i.jsonl` with `--resume`, so that a requeued or resubmitted task continues its
 * file instead of starting over. Call `scriptProblem` first: a value it refuses would break the text.
 */
export function slurmScript(job: SlurmJob): string {
  const id = '$SLURM_ARRAY_TASK_ID';
  const n = job.tasks;
  const sbatch = [
    `--job-name=${sbatchQuote(job.jobName)}`,
    `--array=0-${n - 1}`,
    // %A: the array's job id, %a: the task's index; `%%` is how a `%` of the folder's name survives.
    `--output=${sbatchQuote(`${job.outDir.replaceAll('%', '%%')}/slurm-%A_%a.out`)}`,
    `--cpus-per-task=${job.cpusPerTask}`,
  ];
  if (job.partition !== undefined) sbatch.push(`--partition=${sbatchQuote(job.partition)}`);
  if (job.time !== undefined) sbatch.push(`--time=${sbatchQuote(job.time)}`);
  const files = job.files.length === 1 ? 'one test file' : `${job.files.length} test files`;
  const command = [
    `${shellQuote(job.node)} ${shellQuote(job.bin)} campaign`,
    ...optionLines(job.options),
    `--shard "${id}/${n}"`,
    `--out ${shellQuote(job.outDir)}/"${shardFile(id)}"`,
    '--resume',
    ...job.files.map((f) => shellQuote(asOperand(f))),
  ];
  return [
    '#!/bin/bash',
    `# A gpumm campaign over ${files} in ${n} shards, written by \`gpumm campaign slurm\`.`,
    '# Task i runs shard i; --resume makes a requeued or resubmitted task continue its results file.',
    '# When every task has succeeded, merge the shards:',
    `#   ${mergeCommand(job)}`,
    ...sbatch.map((o) => `#SBATCH ${o}`),
    '',
    '# -u: outside an array job SLURM_ARRAY_TASK_ID is unset, and bash stops rather than run no shard.',
    'set -eu',
    `cd ${shellQuote(job.cwd)}`,
    'status=0',
    `${command.join(' \\\n  ')} || status=$?`,
    '# 1 (a check UNSOUND) and 3 (a check undecided) are verdicts the results file holds, not failures:',
    '# the task succeeded, and the merge job (afterok) runs.',
    'case $status in 0 | 1 | 3) exit 0 ;; *) exit "$status" ;; esac',
    '',
  ].join('\n');
}
