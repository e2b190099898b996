/**
 * `gpumm run FILE…`: the AMDGPU model's verdict on each litmus test, herd7-style or as JSON.
 *
 * Exit status: 0 when every `expect:` line holds, 1 when one fails, 2 on bad input, 3 when a test
 * cannot be decided (budget exhausted, interrupted, or a feature the model does not cover yet).
 */

import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { diag, fileSpan } from '../core/diagnostics.ts';
import type { Test } from '../core/types.ts';
import type { Enumeration } from '../enumerate/enumerate.ts';
import { prepareVariant } from '../enumerate/enumerate.ts';
import { dotToSvg, toDot } from '../enumerate/graph.ts';
import { type ObserveMode, observe } from '../enumerate/outcomes.ts';
import { type Report, ReportSchema, stateCount, undecidedNeeds, writeReport } from '../enumerate/report.ts';
import { runTestParallel } from '../enumerate/run-parallel.ts';
import {
  DEFAULT_MAX_STATES,
  MICROS_PER_CANDIDATE,
  PROGRESS_MS,
  type SearchProgress,
} from '../enumerate/verdict.ts';
import { checkCandidate, DEFAULT_OPTIONS, type ModelOptions } from '../models/amdgpu.ts';
import type { Interruptible, Spread } from '../run/engine.ts';
import { languageOf, modelNames, modelSpec, userCatSpec } from '../run/registry.ts';
import { type Prepared, Runner } from '../run/runner.ts';
import type { AnyTest } from '../vulkan/ast.ts';
import {
  addBudgetOptions,
  type BudgetCliOptions,
  budgetsOf,
  onCtrlC,
  STOP_HINTS,
  workerCount,
} from './budgets.ts';
import { decidable } from './decidable.ts';
import { formatDiagnostic, jsonText } from './format.ts';
import { failureWhy, loadAnyTests, stderrPrinter } from './io.ts';
import { catDiagnosticsExit, cliCats, compileOrExit, prepareOrSay, settingsOf } from './models.ts';
import { roughDuration, startProgress } from './progress.ts';
import { CliExit, errorLimitOption, optionValueDiagnostic, usageError } from './shared.ts';
import { addVulkanOptions, type VulkanCliOptions } from './vulkan-options.ts';

interface RunCliOptions extends VulkanCliOptions, BudgetCliOptions {
  json?: boolean;
  explain?: boolean;
  graph?: 'dot' | 'svg';
  state?: number;
  out?: string;
  observe: ObserveMode;
  thinAir?: boolean;
  valueRules: 'literal' | 'repaired';
  workers?: number;
  errorLimit: number;
  quiet?: boolean;
  cat?: string;
  /** Absent: the model the test's syntax implies (amdgpu, or vulkan for a Vulkan test). */
  model?: string;
}

function nonNegativeInt(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected a state number (0, 1, …)');
  return n;
}

/** Default `--max-states` (defined beside the search, so the explorer shares it). */
export { DEFAULT_MAX_STATES };

/**
 * stdout of `gpumm run`: the reports, text or `--json`, one at a time, each in pieces (the whole
 * output of a run can exceed the longest string V8 allows). The JSON is `JSON.stringify(reports,
 * null, 2)` and a newline, each report checked against the schema as it is added; it is held until
 * `end`, so stdout has the whole array or nothing (a run that fails part-way leaves no half array).
 */
export function reportWriter(
  json: boolean,
  write: (text: string) => void = (text) => {
    process.stdout.write(text);
  },
): { add(r: Report): void; end(): void } {
  let k = 0;
  const held: string[] = [];
  return {
    add(r) {
      if (json) {
        const text = jsonText(ReportSchema.parse(r)).replace(/\n/g, '\n  ');
        held.push(`${k === 0 ? '[\n' : ',\n'}  ${text}`);
      } else {
        if (k > 0) write('\n');
        writeReport(r, write);
      }
      k++;
    },
    end() {
      if (!json) return;
      for (const piece of held) write(piece);
      write(k === 0 ? '[]\n' : '\n]\n');
    },
  };
}
/** JSON schema of `gpumm run --json` output (one report per file, in an array). */
export const RunJsonSchema = ReportSchema.array();

/** DOT for the execution of `report` chosen by `state` (default: the first state the condition selects). */
function graphOf(
  test: Test,
  report: Report,
  en: Pick<Enumeration, 'collector'>,
  state: number | undefined,
): string | null {
  const recs = en.collector.records();
  if (recs.length === 0) return null;
  // Report states are sorted; map the chosen report state back to its record.
  const keyOf = (values: Float64Array) =>
    en.collector.labels.map((l, k) => `${l}=${Number.isNaN(values[k]!) ? 'undef' : values[k]};`).join(' ');
  const wanted =
    state !== undefined
      ? report.states[state]
      : (report.states.find((s) => s.condition === 'true') ?? report.states[0]);
  if (!wanted) return null;
  const text = Object.entries(wanted.values)
    .map(([k, v]) => `${k}=${v};`)
    .join(' ');
  const rec = recs.find((r) => keyOf(r.values) === text) ?? recs[0]!;
  const { ws, obs } = prepareVariant(test, rec.example.variant);
  ws.setCandidate(rec.example.rf, rec.example.co);
  checkCandidate(ws, report.model);
  // The valuation reaching the state: a value cycle's candidate has one per solution.
  const cols = en.collector.labels.map((l) => obs.findIndex((o) => o.label === l));
  const vals = new Float64Array(obs.length);
  for (let k = 0; k < ws.evaluator.count; k++) {
    ws.evaluator.loadSolution(k);
    observe(ws, obs, vals);
    if (cols.every((c, i) => c < 0 || Object.is(vals[c], rec.values[i]))) break;
  }
  return toDot(ws, `${test.name}: ${text}`);
}

/**
 * Writes `--out` whole or not at all: into a temporary file beside it, then renamed over it, so a
 * full disk or a failure part-way leaves the previous file as it was. A path that cannot be written
 * is a diagnostic (exit 2), not an internal error.
 */
export function writeOut(file: string, text: string): void {
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  try {
    writeFileSync(tmp, text, { flag: 'wx' });
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    const why = failureWhy(
      e,
      {
        ENOENT: 'no such folder',
        EACCES: 'permission denied',
        EISDIR: 'it is a folder',
        ENOTEMPTY: 'it is a folder',
        ENOSPC: 'no space left on the device',
      },
      'cannot be written',
    );
    process.stderr.write(`${formatDiagnostic(diag('CL1006', fileSpan(file), { file, why }))}\n`);
    throw new CliExit(2);
  }
}

export function registerRun(program: Command): void {
  const cmd = program
    .command('run')
    .description(
      'run litmus tests under the AMDGPU memory model (Vulkan tests: the Vulkan one) and print the verdicts',
    )
    .argument('<files...>', 'litmus files')
    .option('--json', 'print the reports as JSON (an array; schema: RunJsonSchema in src/cli/run.ts)')
    .option(
      '--explain',
      'for each forbidden candidate the condition selects, say which axiom rejects it and why',
    )
    .addOption(
      new Option(
        '--graph <format>',
        "print one execution of each test as a graph (dot: the graphs one after another, as Graphviz reads them; svg: one test's document)",
      ).choices(['dot', 'svg']),
    )
    .option(
      '--state <k>',
      'with --graph: the k-th state of the report (default: first the condition selects)',
      nonNegativeInt,
    )
    .option('--out <file>', 'with --graph: write the graph to a file instead of stdout');
  addBudgetOptions(cmd)
    .option(
      '--workers <n>',
      "split each test over n worker threads, at most the machine's cores (pays only for tests of seconds; one done within 0.25 s in-process never starts them)",
      workerCount,
    )
    .option(
      '-q, --quiet',
      'no progress on stderr: no live bars (shown only when stderr is a terminal), estimate or projected-time lines',
    )
    .addOption(
      new Option(
        '--observe <what>',
        "what a final state shows: every register a read writes and the condition's terms (all), or the condition's terms only, as herd7 lists them (condition)",
      )
        .choices(['all', 'condition'])
        .default('all'),
    )
    .addOption(errorLimitOption())
    .option('--no-thin-air', 'drop the no-thin-air axiom acyclic(po ∪ rf) (on by default)')
    .addOption(
      new Option(
        '--value-rules <mode>',
        'the value rules: the spec literally, or with the repair of docs/model.md',
      )
        .choices(['literal', 'repaired'])
        .default('literal'),
    )
    .option(
      '--cat <file>',
      'run the tests under a cat model (herd7 language; docs/cat.md) instead of the fast search',
    )
    .addOption(
      new Option(
        '--model <name>',
        "the model: the fast AMDGPU or Vulkan search, or a cat model of models/ (docs/cat.md); default: the model of the test's syntax (a test of the other model's syntax is translated, docs/model-vulkan.md)",
      )
        .choices(modelNames())
        // Both name the model: one of them was silently ignored (--cat won).
        .conflicts('cat'),
    );
  addVulkanOptions(cmd);
  cmd.action(async (files: string[], opts: RunCliOptions) => {
    // Options that would be silently ignored, or would lose output, are refused up front.
    if (!opts.graph && opts.state !== undefined)
      usageError(
        '--state chooses the execution --graph draws',
        'add --graph dot (or svg), or drop --state',
        '--state',
      );
    if (!opts.graph && opts.out !== undefined)
      usageError(
        '--out is where --graph writes its graph',
        'add --graph dot (or svg), or drop --out',
        '--out',
      );
    if (opts.graph && opts.json)
      usageError(
        '--graph prints a graph and --json the reports: give one of them',
        'drop --json or --graph',
        '--json',
      );
    if (opts.out !== undefined && files.length > 1)
      usageError(
        `--out holds the graph of one test; ${files.length} files were given`,
        'give one litmus file with --out, or drop --out to print each graph',
        '--out',
      );
    // DOT graphs may follow one another in a file (Graphviz draws each); SVG documents may not.
    if (opts.graph === 'svg' && opts.out === undefined && files.length > 1)
      usageError(
        `--graph svg prints one SVG document, and two in a row are not a valid file; ${files.length} files were given`,
        'draw one test per run (with --out FILE.svg for each), or use --graph dot, whose graphs can follow one another',
        '--graph',
      );
    const model: ModelOptions = {
      ...DEFAULT_OPTIONS,
      noThinAir: opts.thinAir !== false,
      valueRules: opts.valueRules,
    };
    // Parse everything first: bad input means exit 2 and nothing half-written.
    const printer = stderrPrinter(opts.errorLimit);
    const { loaded, ok } = loadAnyTests(files, printer);
    let bad = !ok;
    let undecidable = false;
    const settings = settingsOf(opts, model, {
      observe: opts.observe,
      explain: opts.explain === true,
      keepExamples: opts.graph !== undefined,
    });
    // Each test runs under the model asked for, or the one its language implies; a test of another
    // language is translated (docs/model-vulkan.md, "Vulkan and AMDGPU"). A user's cat file runs on
    // each test in the test's own language.
    const runners = new Map<string, Runner>();
    const runnerOf = async (test: AnyTest): Promise<Runner> => {
      const lang = languageOf(test);
      const spec = opts.cat ? userCatSpec(opts.cat, lang.id) : modelSpec(opts.model ?? lang.defaultModel)!;
      const key = `${spec.name}|${spec.language}`;
      let r = runners.get(key);
      if (!r) {
        r = await Runner.open(spec, settings);
        runners.set(key, r);
      }
      return r;
    };
    const items: { runner: Runner; prepared: Prepared }[] = [];
    for (const { file, text, test } of loaded) {
      const runner = await runnerOf(test);
      const prepared = await prepareOrSay(runner, test, text, opts.deviceScope);
      if (!prepared) {
        bad = true;
        continue;
      }
      // A test the model cannot decide is said so (exit 3), never silently left out.
      const d = decidable(runner, prepared, file, text, printer);
      if (d === 'bad') bad = true;
      else if (d === 'undecidable') undecidable = true;
      else items.push({ runner, prepared });
    }
    printer.finish();
    if (bad) throw new CliExit(2);
    // The cat files are read only now, for the models some test runs under (each once).
    const used = [...new Set(items.map((i) => i.runner))];
    for (const r of used) {
      const ds = await r.loadCat(cliCats(opts.errorLimit));
      if (ds.length > 0) await catDiagnosticsExit(ds, opts.errorLimit);
    }
    const lacking = used.find((r) =>
      opts.graph ? !r.features.graph : (opts.workers ?? 1) > 1 && !r.features.spread,
    );
    if (lacking) {
      const what = opts.graph ? '--graph' : '--workers';
      process.stderr.write(
        `${formatDiagnostic(
          diag('CL1003', fileSpan('<command-line>'), {
            what: `${what} works with the fast AMDGPU search only, not with a cat model or a Vulkan test`,
            fix: `drop ${what}, or run AMDGPU tests with --model amdgpu`,
          }),
        )}\n`,
      );
      throw new CliExit(2);
    }
    for (const r of used)
      await compileOrExit(
        r,
        items.filter((i) => i.runner === r).map((i) => i.prepared),
        opts.errorLimit,
      );

    const ctrlC = onCtrlC();
    // An expectation proved false: a definite answer, even beside a test left undecided.
    let expectFailed = false;
    const failedIn = (r: Report) => {
      expectFailed ||= r.expectations.some((e) => e.decided && !e.ok);
    };
    // With --graph: the graphs (or reports with no execution to draw), written at the end.
    const graphs: string[] = [];
    const progress = opts.quiet ? null : await startProgress(process.stderr, items.length);
    // Lines for stderr while the bars are drawn go above them.
    const say = (text: string) => (progress ? progress.log(text) : process.stderr.write(text));
    // Each report goes to stdout as its test ends, except while live bars are drawn on the terminal
    // stdout writes to as well: the reports then follow the bars, at the end.
    const writer = reportWriter(opts.json === true);
    const pending: Report[] | null = progress && process.stdout.isTTY ? [] : null;
    const emit = (r: Report) => {
      failedIn(r);
      if (pending) pending.push(r);
      else writer.add(r);
    };
    /** Says why a run stopped early; true when that left something needed undecided (exit 3). */
    const stopped = (report: Report, more: string): boolean => {
      if (report.complete) return false;
      const found = `after ${report.stats.consistent} executions and ${stateCount(report)} final states${more}`;
      if (!undecidedNeeds(report)) {
        say(`${report.test}: stopped (${report.stop}) ${found}; the states found decide what was asked\n`);
        return false;
      }
      say(
        `${report.test}: undecided (${report.stop}) ${found}\n  hint: ${STOP_HINTS[report.stop] ?? 'raise the budget'}\n`,
      );
      return true;
    };
    try {
      for (const { runner, prepared } of items) {
        if (ctrlC.interrupted) break;
        const test = prepared.test;
        progress?.test(test.name);
        const fast = runner.features.spread;
        const hooks = {
          onStart: (estimate: number) => {
            const secs = (estimate * MICROS_PER_CANDIDATE) / 1e6;
            if (secs > 1 && !opts.quiet)
              say(
                `${test.name}: estimate ${estimate.toExponential(2)} candidates before pruning (up to ~${roughDuration(secs)}; the search prunes most of them)\n`,
              );
          },
          register: (e: Interruptible) => ctrlC.register(e),
          onSlow: (projectedMs: number, fraction: number) => {
            // The bars show as much, and keep it current.
            if (progress || opts.quiet) return;
            const eta = Number.isFinite(projectedMs)
              ? `~${(projectedMs / 1000).toFixed(1)}s in all (a rough guess: it assumes equal subtrees)`
              : 'unknown';
            process.stderr.write(
              `${test.name}: ${(fraction * 100).toFixed(1)}% of the search space after ${PROGRESS_MS} ms; projected ${eta} (Ctrl-C prints the states found so far)\n`,
            );
          },
          onProgress: (p: SearchProgress) => progress?.update(p),
        };
        const spread: Spread | undefined =
          opts.workers && opts.workers > 1
            ? async (t, o, h) => {
                const par = await runTestParallel(t, o, opts.workers!, undefined, h);
                return { report: par.report, collector: par.merged.collector };
              }
            : undefined;
        const run = await runner.run(prepared, budgetsOf(opts), hooks, spread);
        const report = run.report;
        // The estimate counts the AMDGPU search's candidates; the Vulkan searches make none.
        const estimate =
          report.stats.estimate > 0
            ? `; estimate ${report.stats.estimate.toExponential(2)} candidates before pruning`
            : '';
        if (stopped(report, estimate)) undecidable = true;
        if (opts.graph && fast) {
          const amdgpu = test as Test;
          // The state numbers are known only now: one out of range is a command-line error.
          if (opts.state !== undefined && opts.state >= stateCount(report)) {
            process.stderr.write(
              `${optionValueDiagnostic('CL1004', process.argv.slice(2), '--state', {
                state: String(opts.state),
                test: test.name,
                count: String(stateCount(report)),
              })}\n`,
            );
            throw new CliExit(2);
          }
          const dot = graphOf(amdgpu, report, run, opts.state);
          if (dot) {
            const out = opts.graph === 'svg' ? await dotToSvg(dot) : dot;
            if (opts.out) writeOut(opts.out, out);
            else graphs.push(out);
          }
          // The graphs are written at the end: a later test's --state may still be refused (exit 2).
          failedIn(report);
        } else emit(report);
        progress?.done();
      }
    } finally {
      progress?.stop();
      ctrlC.dispose();
    }
    if (opts.graph)
      graphs.forEach((t, k) => {
        process.stdout.write(k === 0 ? t : `\n${t}`);
      });
    else {
      for (const r of pending ?? []) writer.add(r);
      writer.end();
    }
    if (ctrlC.interrupted) throw new CliExit(130);
    if (expectFailed) throw new CliExit(1);
    if (undecidable) throw new CliExit(3);
  });
}
