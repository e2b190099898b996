/**
 * `gpumm campaign [run] FILE… --targets LIST --out FILE [--lowering doc,llc] [--shard i/n] [--resume]
 * [--workers n] [--timeout s] [--max-states n] [--mutate] [--json]`: the model's verdict on every test
 * and, per target, mode and lowering, the machines' check of its code, written to a results file of
 * JSON lines (src/campaign/schema.ts) one test at a time, so a campaign stopped at any moment (Ctrl-C,
 * a kill, a node lost) loses at most the tests it was running: `--resume` runs the rest. `--shard i/n`
 * runs the i-th of n disjoint slices by content hash (one per machine); `gpumm campaign merge` makes
 * the shards' files one.
 *
 * Exit status: 0 when every check in the file is sound, 1 when one is UNSOUND, 3 when some check or
 * model verdict is undecided (a budget; an `unsupported` check alone changes nothing), 2 on bad input
 * (nothing written), 130 on Ctrl-C (the file holds the tests finished, whole lines only).
 */

import { closeSync, existsSync, openSync, statSync, truncateSync, writeSync } from 'node:fs';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { generateAll, parseGenSpec, specText } from '../campaign/gen.ts';
import type { Results } from '../campaign/read.ts';
import { summarise, summaryStatus } from '../campaign/report.ts';
import {
  differencesText,
  headerDifferences,
  mergeResults,
  mutationKey,
  shardGap,
} from '../campaign/results.ts';
import {
  type CampaignLowering,
  type CampaignTest,
  campaignMutations,
  runCampaign,
  sourceHash,
} from '../campaign/run.ts';
import { CAMPAIGN_FORMAT, type Header, type MutationLine, type TestLine } from '../campaign/schema.ts';
import { inShard, parseShard, shardText, WHOLE } from '../campaign/shard.ts';
import { machineMode } from '../check/check.ts';
import { type DiagnosticCode, diag, fileSpan } from '../core/diagnostics.ts';
import { md5Hex } from '../core/md5.ts';
import type { Test } from '../core/types.ts';
import { PROGRESS_MS } from '../enumerate/verdict.ts';
import { PROCESSORS, type Target } from '../lower/targets.ts';
import type { LowerCtx } from '../lower/types.ts';
import { DEFAULT_SETTINGS } from '../run/engine.ts';
import { modelSpec } from '../run/registry.ts';
import { Runner } from '../run/runner.ts';
import { parse } from '../syntax/parser.ts';
import { positiveInt, positiveNumber, workerCount } from './budgets.ts';
import { printSummary, readResultsFiles, registerCampaignReport } from './campaign-report.ts';
import { registerCampaignSlurm } from './campaign-slurm.ts';
import { DEFAULT_MAX_MACHINE_STATES, targetRuns } from './check.ts';
import { escapeText, formatDiagnostic } from './format.ts';
import { DEFAULT_MAX_TESTS } from './gen.ts';
import { failureWhy, loadTests, stderrPrinter } from './io.ts';
import { contextsFromOptions } from './lower.ts';
import { roughDuration } from './progress.ts';
import { writeOut } from './run.ts';
import {
  CliExit,
  commandLineSpan,
  commandLineText,
  EXIT_OUTPUT_FAILED,
  errorLimitOption,
  usageError,
} from './shared.ts';

/** Default per-test budget: a campaign of thousands of tests must not wait on one. */
export const DEFAULT_TEST_TIMEOUT_S = 60;

/** UNSOUND results a run's closing summary lists: `campaign report` lists all. */
const UNSOUND_LISTED = 20;

interface RunCliOptions {
  targets: string;
  lowering: CampaignLowering[];
  out: string;
  resume?: boolean;
  shard?: string;
  workers: number;
  timeout: number;
  maxStates: number;
  mutate?: boolean;
  json?: boolean;
  llc?: string;
  gen?: string;
  errorLimit: number;
}

/** `--lowering doc,llc`: each of doc and llc at most once, in the order given. */
function loweringList(v: string): CampaignLowering[] {
  const out: CampaignLowering[] = [];
  for (const w of v.split(',').map((x) => x.trim())) {
    if (w !== 'doc' && w !== 'llc')
      throw new InvalidArgumentError(`expected doc, llc or doc,llc ('${w}' is neither)`);
    if (!out.includes(w)) out.push(w);
  }
  return out;
}

/**
 * The targets of `--targets`: each name looked up as `gpumm lower --target` does (a misspelt name is
 * LW2001 with the nearest names, exit 2); `all` is every processor with a code-sequence table.
 */
function targetsOf(list: string): Target[] {
  const names = list.split(',').map((n) => n.trim());
  if (names.includes('all')) {
    if (names.length > 1)
      usageError('--targets all names every target already', 'give all alone, or a list of targets', list);
    return PROCESSORS.filter((p) => p.table !== null).map((p) => ({
      name: p.name,
      processor: p,
      gpu: p.gpu,
    }));
  }
  return contextsFromOptions({ target: list }).map((c) => c.target);
}

/** Prints one diagnostic about the command line (or a file, when it has a span in one) and exits 2. */
function failWith(
  code: DiagnosticCode,
  word: string | null,
  args: Record<string, string>,
  file?: string,
): never {
  const d = diag(code, file !== undefined ? fileSpan(file) : commandLineSpan(word ?? ''), args);
  process.stderr.write(`${formatDiagnostic(d, file !== undefined ? undefined : commandLineText())}\n`);
  throw new CliExit(2);
}

/** Writes one line (and its line break) to `fd` in one call: a kill leaves it whole or torn, never split. */
function appendLine(fd: number, line: object): void {
  writeSync(fd, `${JSON.stringify(line)}\n`);
}

/**
 * Where the results go: the file opened for appending, the lines it holds already (`--resume`), the
 * tests done. Refuses (exit 2, the file untouched) a file that holds results without `--resume`, one
 * with an error (src/campaign/read.ts), and one of another campaign. A torn last line is cut off (a
 * warning, CL1021); so are mutation lines when tests remain (they would be stale, and must come after
 * every test line). A file whose only line is torn (killed as it started) is started afresh.
 */
function openResults(
  opts: RunCliOptions,
  header: Header,
  remaining: (done: ReadonlySet<string>) => number,
): { fd: number; tests: TestLine[]; mutations: MutationLine[] } {
  const file = opts.out;
  let prior: Results | null = null;
  if (existsSync(file) && !statSync(file).isDirectory() && statSync(file).size > 0) {
    if (!opts.resume) failWith('CL1009', file, { file });
    prior = readResultsFiles([file], opts.errorLimit)[0]!;
    if (prior.header !== null) {
      const fields = headerDifferences(header, prior.header, false);
      if (fields.length > 0)
        failWith('CL1010', file, {
          file,
          fields: fields.join(', '),
          detail: differencesText(fields, header, prior.header),
        });
    }
  }
  const done = new Set(prior?.tests.map((t) => t.hash));
  const keepMutations = prior !== null && remaining(done) === 0;
  const keep =
    prior === null || prior.header === null ? 0 : keepMutations ? prior.validBytes : prior.mutationsAt;
  let fd: number;
  try {
    if (prior !== null) truncateSync(file, keep);
    fd = openSync(file, prior === null ? 'w' : 'a');
  } catch (e) {
    const why = failureWhy(
      e,
      {
        ENOENT: 'no such folder',
        EACCES: 'permission denied',
        EISDIR: 'it is a folder',
        ENOSPC: 'no space left',
      },
      'cannot be written',
    );
    failWith('CL1006', file, { file, why });
  }
  if (keep === 0) appendLine(fd, header);
  return {
    fd,
    tests: prior?.header ? prior.tests : [],
    mutations: keepMutations ? prior!.mutations : [],
  };
}

/** Live progress on a terminal's stderr: tests done of the total, rate, time left, UNSOUND so far. */
async function campaignProgress(
  total: number,
  done: number,
): Promise<{ done(line: TestLine): void; stop(): void } | null> {
  const stream = process.stderr;
  if (!stream.isTTY || total === done) return null;
  const { SingleBar, Presets } = (await import('cli-progress')).default;
  const t0 = performance.now();
  let ran = 0;
  let unsound = 0;
  let bar: InstanceType<typeof SingleBar> | null = null;
  const text = () => {
    const secs = (performance.now() - t0) / 1000;
    const rate = ran / Math.max(secs, 1e-3);
    const eta = ran > 0 ? roughDuration((total - done - ran) / rate) : '?';
    const width = 20;
    const full = Math.round(((done + ran) / total) * width);
    const bars = `${Presets.shades_classic.barCompleteChar.repeat(full)}${Presets.shades_classic.barIncompleteChar.repeat(width - full)}`;
    return `tests ${bars} ${done + ran}/${total} | ${rate.toFixed(1)}/s | ETA ${eta} | ${unsound} UNSOUND`.slice(
      0,
      (stream.columns ?? 80) - 1,
    );
  };
  // Shown only once the campaign has run a moment: a quick one shows nothing.
  const show = () => {
    if (bar || performance.now() - t0 < PROGRESS_MS) return;
    bar = new SingleBar({ stream, clearOnComplete: true, hideCursor: true, fps: 4, format: () => text() });
    bar.start(total, done + ran);
  };
  const timer = setInterval(show, 250);
  timer.unref();
  return {
    done(line) {
      ran++;
      if (line.checks.some((c) => c.verdict === 'UNSOUND')) unsound++;
      show();
      bar?.update(done + ran);
    },
    stop() {
      clearInterval(timer);
      bar?.stop();
    },
  };
}

/**
 * The tests of `--gen SPEC` (src/campaign/gen.ts), each read back from its text as a file's would be
 * (so traces name its lines), with the spec's canonical text for the header. A bad spec is a usage
 * error on `--gen`; a vocabulary past gen's cap, too.
 */
function generatedTests(spec: string): { spec: string; tests: { file: string; text: string; test: Test }[] } {
  const r = parseGenSpec(spec);
  if ('error' in r) usageError(escapeText(r.error.message), r.error.hint, '--gen');
  if (r.options.lang !== 'amdgpu')
    usageError(
      'a campaign runs AMDGPU tests',
      'drop lang= from --gen: the machines run AMDGPU code',
      '--gen',
    );
  const all = generateAll(r.options, DEFAULT_MAX_TESTS);
  if (all === null)
    usageError(
      `--gen makes more than ${DEFAULT_MAX_TESTS} tests`,
      'narrow the vocabulary (size, orders, fences, scopes, placements, spaces)',
      '--gen',
    );
  return {
    spec: specText(r.options),
    tests: all.map((g) => {
      const file = `gen:${g.name}`;
      const p = parse(g.text, file);
      return { file, text: g.text, test: p.test! };
    }),
  };
}

async function runAction(files: string[], opts: RunCliOptions, version: string): Promise<void> {
  const t0 = performance.now();
  if (files.length === 0 && opts.gen === undefined)
    usageError(
      'gpumm campaign needs the tests to run',
      'give litmus files, e.g. litmus/*.litmus, or --gen SPEC for generated ones',
      'campaign',
    );
  const generated = opts.gen === undefined ? null : generatedTests(opts.gen);
  const shard = opts.shard === undefined ? WHOLE : parseShard(opts.shard);
  if ('why' in shard) usageError(shard.why, 'give --shard i/n with 0 ≤ i < n, e.g. --shard 0/4', '--shard');
  const targets = targetsOf(opts.targets);
  const runs: LowerCtx[] = targets.flatMap((t) => targetRuns(t));
  const printer = stderrPrinter(opts.errorLimit);
  const { loaded, ok } = loadTests(files, printer);
  let bad = !ok;
  // What keeps the model from a test is bad input, as for `gpumm check` (a barrier it cannot decide,
  // MD004, is run all the same: its checks say the model is undecided).
  const model = await Runner.open(modelSpec('amdgpu')!, DEFAULT_SETTINGS);
  const tests: CampaignTest[] = [];
  const seen = new Set<string>();
  const hashes: string[] = [];
  for (const { file, text, test } of [...loaded, ...(generated?.tests ?? [])]) {
    const md = model.diagnose({ test, original: test, translation: null });
    printer.print(md, text, file);
    if (md.some((d) => d.code !== 'MD004')) bad = true;
    const hash = sourceHash(text);
    // Two files of one text are one test: its hash is its key.
    if (seen.has(hash)) continue;
    seen.add(hash);
    hashes.push(hash);
    if (inShard(hash, shard)) tests.push({ name: test.name, file, source: text, test });
  }
  printer.finish();
  if (bad) throw new CliExit(2);

  const header: Header = {
    kind: 'header',
    format: CAMPAIGN_FORMAT,
    targets: targets.map((t) => t.name),
    lowerings: opts.lowering,
    gen: generated?.spec ?? null,
    timeoutMs: opts.timeout * 1000,
    maxStates: opts.maxStates,
    mutate: opts.mutate === true,
    testSet: { count: hashes.length, digest: md5Hex(hashes.sort().join('\n')) },
    shard,
    version,
  };
  const remainingOf = (done: ReadonlySet<string>) => tests.filter((t) => !done.has(sourceHash(t.source)));
  const { fd, tests: lines, mutations } = openResults(opts, header, (done) => remainingOf(done).length);
  const todo = remainingOf(new Set(lines.map((l) => l.hash)));

  const controller = new AbortController();
  let writeError: NodeJS.ErrnoException | null = null;
  const write = (line: TestLine | MutationLine) => {
    if (writeError) return;
    try {
      appendLine(fd, line);
    } catch (e) {
      writeError = e as NodeJS.ErrnoException;
      controller.abort();
    }
  };
  const onSigint = () => controller.abort();
  process.on('SIGINT', onSigint);
  const progress = await campaignProgress(tests.length, tests.length - todo.length);
  let ran = 0;
  try {
    await runCampaign(
      todo,
      {
        runs,
        lowerings: opts.lowering,
        timeoutMs: header.timeoutMs ?? Number.POSITIVE_INFINITY,
        maxStates: opts.maxStates,
        ...(opts.llc !== undefined ? { llcPath: opts.llc } : {}),
      },
      {
        workers: opts.workers,
        signal: controller.signal,
        onLine: (line) => {
          write(line);
          if (writeError) return;
          lines.push(line);
          ran++;
          progress?.done(line);
        },
      },
    );
    progress?.stop();
    if (opts.mutate && !controller.signal.aborted) {
      const have = new Set(mutations.map((m) => mutationKey(m.target, m.mode)));
      await campaignMutations(
        tests,
        runs.filter((ctx) => !have.has(mutationKey(ctx.target.name, machineMode(ctx)))),
        { timeoutMs: header.timeoutMs ?? Number.POSITIVE_INFINITY, maxStates: opts.maxStates },
        {
          signal: controller.signal,
          onLine: (line) => {
            write(line);
            if (!writeError) mutations.push(line);
          },
        },
      );
    }
  } finally {
    progress?.stop();
    process.off('SIGINT', onSigint);
    closeSync(fd);
  }
  if (writeError) {
    const why =
      (writeError as NodeJS.ErrnoException).code === 'ENOSPC'
        ? 'no space left on the device'
        : String((writeError as Error).message);
    process.stderr.write(
      `${formatDiagnostic(diag('CL1006', commandLineSpan(opts.out), { file: opts.out, why }), commandLineText())}\n`,
    );
    throw new CliExit(EXIT_OUTPUT_FAILED);
  }
  const interrupted = controller.signal.aborted;
  const summary = summarise([{ header, tests: lines, mutations }], {
    ran,
    interrupted,
    wallMs: performance.now() - t0,
  });
  printSummary(summary, opts.json === true, UNSOUND_LISTED);
  if (interrupted) throw new CliExit(130);
  const status = summaryStatus(summary);
  if (status !== 0) throw new CliExit(status);
}

/** `gpumm campaign merge FILE… [--out FILE]`: the shards' files as one (src/campaign/results.ts `mergeResults`). */
function mergeAction(files: string[], opts: { out?: string }): void {
  const read = readResultsFiles(files).map((r, k) => ({ file: files[k]!, r }));
  for (const { file, r } of read)
    if (r.header === null) {
      const what = 'the file holds no header, only a line cut short (the campaign stopped as it started)';
      const d = diag('CL1020', { file, offset: 0, line: 1, col: 1, len: 0 }, { what });
      process.stderr.write(`${formatDiagnostic(d)}\n`);
      throw new CliExit(2);
    }
  const first = read[0]!;
  for (const { file, r } of read.slice(1)) {
    const fields = headerDifferences(first.r.header!, r.header!, true);
    if (fields.length > 0)
      failWith(
        'CL1012',
        null,
        {
          file,
          first: first.file,
          fields: fields.join(', '),
          detail: differencesText(fields, r.header!, first.r.header!),
        },
        file,
      );
  }
  const gap = shardGap(read.map(({ r }) => r.header!.shard));
  if (gap !== null) {
    const d = diag('CL1013', null, {
      missing: gap.missing.map((i) => shardText({ index: i, count: gap.count })).join(', '),
      count: String(gap.count),
      plural: gap.missing.length > 1 ? 's' : '',
    });
    process.stderr.write(`${formatDiagnostic(d, undefined, '<merge>')}\n`);
  }
  const merged = mergeResults(read.map(({ r }) => r));
  const have = merged.filter((l) => l.kind === 'test').length;
  const { count } = first.r.header!.testSet;
  if (gap === null && have < count) {
    const d = diag('CL1014', null, { have: String(have), count: String(count) });
    process.stderr.write(`${formatDiagnostic(d, undefined, '<merge>')}\n`);
  }
  const text = merged.map((l) => `${JSON.stringify(l)}\n`).join('');
  if (opts.out !== undefined) writeOut(opts.out, text);
  else process.stdout.write(text);
}

/**
 * Registers `gpumm campaign` with its subcommands `run` (the default: `gpumm campaign FILE…`) and
 * `merge`; others (`report`, `slurm`) register on the command this returns.
 */
export function registerCampaign(program: Command): Command {
  const campaign = program
    .command('campaign')
    .description(
      'check many tests on many targets into a results file of JSON lines, one line per test: resumable, sharded, merged',
    );
  campaign
    .command('run', { isDefault: true })
    .description(
      'run the campaign: the model and every check of each test, one results line per test; exit 0 all sound, 1 some check UNSOUND, 3 some undecided, 2 bad input, 130 interrupted',
    )
    .argument('[files...]', 'litmus files')
    .requiredOption(
      '--targets <list>',
      'comma-separated processors (gfx900,gfx1200, Intel Xe pvc …), each in every mode it has; all: every processor with a code-sequence table',
    )
    .addOption(
      new Option('--lowering <list>', "the documents' code (doc), llc-22's (llc), or both (doc,llc)")
        .argParser(loweringList)
        .default(['doc'], 'doc'),
    )
    .requiredOption('--out <file>', 'the results file (JSON lines; schema: src/campaign/schema.ts)')
    .option('--resume', 'continue the campaign in --out: run only the tests it does not hold yet')
    .option('--shard <i/n>', 'run only the i-th of n slices of the tests, by content hash (0 ≤ i < n)')
    .option('--llc <path>', 'with --lowering llc: the llc to run (default: llc-22 on PATH)')
    .option(
      '--gen <spec>',
      'also run the tests gpumm gen makes of SPEC, key=value pairs such as "size=5 orders=rlx,sc" (docs/campaigns.md)',
    )
    .option('--workers <n>', 'run n tests at a time on worker threads (1: in-process)', workerCount, 1)
    .option(
      '--timeout <seconds>',
      'stop a test (its model and checks) after this many seconds: undecided',
      positiveNumber,
      DEFAULT_TEST_TIMEOUT_S,
    )
    .option(
      '--max-states <n>',
      'stop a check once the machine has visited n states: undecided',
      positiveInt,
      DEFAULT_MAX_MACHINE_STATES,
    )
    .option(
      '--mutate',
      "after the tests, the mutation matrix of each target's table per mode over them (docs/mutation.md)",
    )
    .option(
      '--json',
      'print the closing summary as JSON (schema: CampaignSummarySchema in src/campaign/report.ts, as campaign report --json)',
    )
    .addOption(errorLimitOption())
    .action((files: string[], opts: RunCliOptions) => runAction(files, opts, program.version() ?? 'unknown'));
  campaign
    .command('merge')
    .description(
      "merge the results files of a campaign's shards into one (tests by hash, mutants killed in any shard)",
    )
    .argument('<files...>', 'results files of the shards')
    .option('--out <file>', 'write the merged results here (default: standard output)')
    .action((files: string[], opts: { out?: string }) => mergeAction(files, opts));
  registerCampaignReport(campaign);
  registerCampaignSlurm(campaign);
  return campaign;
}
