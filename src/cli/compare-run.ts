/**
 * The work of `gpumm compare` (registered in src/cli/compare.ts): one test under two models. Per
 * test, both verdicts, and for each model a final state only it reaches, with one execution
 * reaching it — an execution that model allows and the other forbids, since the other has no
 * execution with that final state at all — and, from the other model's `--explain`, the axiom that
 * forbids it there.
 *
 * A model runs on tests of its own language: a Vulkan test under an AMDGPU model is translated
 * (src/vulkan/translate.ts), an AMDGPU test under the Vulkan model too (src/vulkan/from-amdgpu.ts).
 * States are compared over the observables both runs have (the translation adds registers for
 * branch conditions, which the other side does not observe).
 */
import * as z from 'zod';
import type { Cond } from '../core/types.ts';
import { isUndef } from '../core/values.ts';
import type { Collector } from '../enumerate/collector.ts';
import { evalCond, termLabel } from '../enumerate/outcomes.ts';
import { type Report, ReportSchema, stateText } from '../enumerate/report.ts';
import { PROGRESS_MS, type SearchProgress } from '../enumerate/verdict.ts';
import { DEFAULT_OPTIONS } from '../models/amdgpu.ts';
import { type Budgets, type Interruptible, type RunHooks, UNBOUNDED } from '../run/engine.ts';
import type { Prepared, Runner } from '../run/runner.ts';
import type { AnyTest } from '../vulkan/ast.ts';
import { onCtrlC, STOP_HINTS } from './budgets.ts';
import { decidable } from './decidable.ts';
import type { DiagnosticPrinter } from './format.ts';
import { jsonText } from './format.ts';
import { compileOrExit, openRunner, prepareOrSay, settingsOf, specOf } from './models.ts';
import { startProgress } from './progress.ts';
import type { VulkanCliOptions } from './vulkan-options.ts';

/** A final state only one model reaches, with one of its executions in words. */
const OnlyInSchema = z.object({
  model: z.string(),
  state: z.string(),
  execution: z.array(z.string()),
  /** Why the other model forbids that state: its `--explain` lines for candidates reaching it. */
  forbidden: z.array(z.string()),
});
export type OnlyIn = z.infer<typeof OnlyInSchema>;

const ComparisonSchema = z.object({
  test: z.string(),
  /**
   * Both runs completed. Otherwise `only` lists only the states proved to be one model's alone (found
   * by it, and absent from the other's complete run), and the comparison is undecided (exit 3).
   */
  complete: z.boolean(),
  verdicts: z.array(
    z.object({
      model: z.string(),
      verdict: z.enum(['holds', 'fails', 'unknown', 'no condition']),
      /** The verdict is final: the run completed, or the states it found prove it (docs/output.md). */
      decided: z.boolean(),
      /** Why the run stopped (`done`: it completed), as a report's `stop`. */
      stop: ReportSchema.shape.stop,
      states: z.number().int().nonnegative(),
      flags: ReportSchema.shape.flags,
    }),
  ),
  only: z.array(OnlyInSchema),
});
export type Comparison = z.infer<typeof ComparisonSchema>;

/** JSON schema of `gpumm compare --json` output (one comparison per test, in an array). */
export const CompareJsonSchema = ComparisonSchema.array();

function key(c: Collector, id: number, cols: number[]): string {
  const v = c.valuesOf(id);
  return cols.map((k) => (isUndef(v[k]!) ? 'undef' : String(v[k]))).join(',');
}

/** One test as each of two models reads it; `assumeA`/`assumeB`: what a translation assumes of a final state. */
export interface ComparePair {
  name: string;
  a: Prepared;
  b: Prepared;
}

/** Why the Vulkan model has no final state with an undef value. */
const UNDEF_IN_VULKAN =
  'the Vulkan model has no undef value: a read in a data race reads one of the writes it may see, and the race itself makes the behaviour undefined (flag race)';

/** The recorded final states of a run that satisfy `assume` (all of them when it is null). */
function finalStates(c: Collector, assume: Cond | null): number[] {
  const ids = Array.from(c.idsByValues());
  if (!assume) return ids;
  return ids.filter((id) => {
    const v = c.valuesOf(id);
    return (
      evalCond(
        assume,
        (l) => {
          const k = c.labels.indexOf(l);
          return k < 0 ? undefined : v[k];
        },
        termLabel,
      ) !== 'false'
    );
  });
}

/** A comparison's model runs: their budgets and hooks. */
export interface CompareRuns {
  budgets: Budgets;
  /** For each model's run: Ctrl-C stops it (and `interrupted` then skips explanations). */
  register(s: Interruptible): void;
  interrupted(): boolean;
  onProgress?(model: string, p: SearchProgress): void;
}

/** Unbounded runs, no progress (tests, scripts). */
export const UNBOUNDED_RUNS: CompareRuns = {
  budgets: UNBOUNDED,
  register: () => {},
  interrupted: () => false,
};

/**
 * Compares two models on one test (each given the test in its language). A state one run found
 * and the other did not is that model's alone only when the other run completed: a stopped run may
 * not have reached it yet.
 */
export async function compareOn(
  p: ComparePair,
  a: Runner,
  b: Runner,
  runs: CompareRuns = UNBOUNDED_RUNS,
): Promise<Comparison> {
  const hooks = (r: Runner): RunHooks => ({
    register: runs.register,
    onProgress: runs.onProgress && ((q) => runs.onProgress?.(r.name, q)),
  });
  const ra = await a.run(p.a, runs.budgets, hooks(a));
  const rb = await b.run(p.b, runs.budgets, hooks(b));
  const idsA = finalStates(ra.collector, p.a.translation?.assumption ?? null);
  const idsB = finalStates(rb.collector, p.b.translation?.assumption ?? null);
  // Compare over the observables both runs have.
  const common = ra.collector.labels.filter((l) => rb.collector.labels.includes(l));
  const colsA = common.map((l) => ra.collector.labels.indexOf(l));
  const colsB = common.map((l) => rb.collector.labels.indexOf(l));
  const only: OnlyIn[] = [];
  for (const [x, ix, y, iy, runner, other, cx, cy, test] of [
    [ra, idsA, rb, idsB, a, b, colsA, colsB, p.b],
    [rb, idsB, ra, idsA, b, a, colsB, colsA, p.a],
  ] as const) {
    if (!y.report.complete) continue;
    const seen = new Set(iy.map((id) => key(y.collector, id, cy)));
    for (const id of ix) {
      if (seen.has(key(x.collector, id, cx))) continue;
      const values: Record<string, number | 'undef'> = {};
      const defined: Record<string, number> = {};
      common.forEach((l, k) => {
        const v = x.collector.valuesOf(id)[cx[k]!]!;
        values[l] = isUndef(v) ? 'undef' : v;
        if (!isUndef(v)) defined[l] = v;
      });
      only.push({
        model: runner.name,
        state: stateText(values),
        execution: x.describe(id),
        forbidden:
          other.language === 'vulkan' && Object.keys(defined).length < common.length
            ? [UNDEF_IN_VULKAN]
            : runs.interrupted()
              ? []
              : [...new Set(other.why(test, defined))],
      });
      break;
    }
  }
  const verdict = (m: Runner, r: Report, states: number) => ({
    model: m.name,
    verdict: r.condition?.verdict ?? ('no condition' as const),
    decided: r.condition ? r.decided.condition : r.complete,
    stop: r.stop,
    states,
    flags: r.flags,
  });
  return {
    test: p.name,
    complete: ra.report.complete && rb.report.complete,
    verdicts: [verdict(a, ra.report, idsA.length), verdict(b, rb.report, idsB.length)],
    only,
  };
}

/** Text of one comparison. */
export function formatComparison(c: Comparison): string {
  const lines = [`Test ${c.test}`];
  const w = Math.max(...c.verdicts.map((v) => v.model.length));
  for (const v of c.verdicts) {
    const flags = [v.flags.race ? 'race' : '', v.flags.undef ? 'undef' : '', v.flags.ub ? 'ub' : '']
      .filter(Boolean)
      .join(', ');
    // A stopped run: its verdict when the states found prove it, else undecided; the states so far.
    const stopped = v.stop === 'done' ? '' : ` so far, stopped (${v.stop})`;
    const verdict = v.stop === 'done' || v.decided ? v.verdict : `undecided (${v.verdict} so far)`;
    lines.push(
      `  ${v.model.padEnd(w)}  condition ${verdict}, ${v.states} final state${v.states === 1 ? '' : 's'}${stopped}${flags ? ` (${flags})` : ''}`,
    );
  }
  if (!c.complete) {
    const stopped = c.verdicts.filter((v) => v.stop !== 'done').map((v) => v.model);
    lines.push(
      `  undecided: ${stopped.join(' and ')} stopped before ${stopped.length > 1 ? 'their searches were' : 'its search was'} complete; a state only one model reaches is listed only when the other's search completed`,
    );
  } else if (c.only.length === 0) lines.push('  both models reach the same final states');
  for (const o of c.only) {
    lines.push(`  only ${o.model} allows: ${o.state}`);
    for (const e of o.execution) lines.push(`    ${e}`);
    const other = c.verdicts.find((v) => v.model !== o.model)?.model ?? 'the other model';
    for (const f of o.forbidden) lines.push(`    ${other} forbids it: ${f.replace(/\n/g, '\n    ')}`);
  }
  return `${lines.join('\n')}\n`;
}

/** How `runCompare` ended. */
export interface CompareOutcome {
  /** False when a test could not be given to both models (nothing compared, exit 2). */
  ok: boolean;
  /** Some comparison is undecided: a model's run stopped on a budget (exit 3). */
  undecided: boolean;
  /** Ctrl-C stopped the runs (exit 130): the comparisons so far are printed. */
  interrupted: boolean;
}

/**
 * Runs the comparison of `tests` under models `a` and `b` and prints it, each model's run within
 * the budgets (`gpumm run`'s: src/cli/budgets.ts), with progress on a terminal unless `quiet`.
 */
export async function runCompare(
  loaded: { file: string; test: AnyTest; text: string }[],
  models: string[],
  json: boolean,
  vk: VulkanCliOptions,
  printer: DiagnosticPrinter,
  errorLimit: number,
  limits: { budgets: Budgets; quiet: boolean } = { budgets: UNBOUNDED, quiet: true },
): Promise<CompareOutcome> {
  // Each state's own execution is described: no symmetry reduction; `why` needs the explaining model.
  const settings = settingsOf(vk, DEFAULT_OPTIONS, { keepExamples: true, symmetry: false, observe: 'all' });
  const a = await openRunner(specOf(models[0]!), settings, errorLimit, true);
  const b = await openRunner(specOf(models[1]!), settings, errorLimit, true);
  const pairs: ComparePair[] = [];
  let ok = true;
  // A test a model cannot decide is said so (exit 3), never silently left out.
  let undecided = false;
  for (const { file, test, text } of loaded) {
    const ta = await prepareOrSay(a, test, text, vk.deviceScope);
    const tb = await prepareOrSay(b, test, text, vk.deviceScope);
    if (!ta || !tb) {
      ok = false;
      continue;
    }
    const da = decidable(a, ta, file, text, printer);
    const db = decidable(b, tb, file, text, printer);
    if (da === 'bad' || db === 'bad') ok = false;
    else if (da === 'undecidable' || db === 'undecidable') undecided = true;
    else pairs.push({ name: test.name, a: ta, b: tb });
  }
  printer.finish();
  if (!ok) return { ok: false, undecided, interrupted: false };
  await compileOrExit(
    a,
    pairs.map((p) => p.a),
    errorLimit,
  );
  await compileOrExit(
    b,
    pairs.map((p) => p.b),
    errorLimit,
  );
  const ctrlC = onCtrlC();
  // One bar per model run: two per test.
  const progress = limits.quiet ? null : await startProgress(process.stderr, pairs.length * 2);
  const say = (text: string) => (progress ? progress.log(text) : process.stderr.write(text));
  const out: Comparison[] = [];
  try {
    for (const p of pairs) {
      if (ctrlC.interrupted) break;
      let model = '';
      let warned = false;
      const c = await compareOn(p, a, b, {
        budgets: limits.budgets,
        register: (s) => ctrlC.register(s),
        interrupted: () => ctrlC.interrupted,
        onProgress: (m, q) => {
          if (m !== model) {
            if (model) progress?.done();
            model = m;
            warned = false;
            progress?.test(`${p.name} (${m})`);
          }
          progress?.update(q);
          // Without the bars (not a terminal), one line per run that takes a while, as gpumm run.
          if (!progress && !limits.quiet && !warned && q.elapsedMs > PROGRESS_MS) {
            warned = true;
            say(
              `${p.name} (${m}): ${(q.fraction * 100).toFixed(1)}% of the search space after ${PROGRESS_MS} ms (Ctrl-C prints the comparisons so far)\n`,
            );
          }
        },
      });
      if (model) progress?.done();
      out.push(c);
      if (c.complete) continue;
      undecided = true;
      // Which model stopped, and why.
      for (const v of c.verdicts)
        if (v.stop !== 'done')
          say(
            `${p.name}: undecided: ${v.model} stopped (${v.stop}) with ${v.states} final state${v.states === 1 ? '' : 's'} found\n` +
              `  hint: ${STOP_HINTS[v.stop] ?? 'raise the budget'}\n`,
          );
    }
  } finally {
    progress?.stop();
    ctrlC.dispose();
  }
  if (json) process.stdout.write(`${jsonText(CompareJsonSchema.parse(out))}\n`);
  else process.stdout.write(out.map(formatComparison).join('\n'));
  return { ok: true, undecided, interrupted: ctrlC.interrupted };
}
