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
import { join } from 'node:path';
import * as z from 'zod';
import type { Model } from '../cat/ast.ts';
import type { CatEnumeration } from '../cat/enumerate.ts';
import { DEFAULT_CAT } from '../cat/enumerate.ts';
import { explainCat, runCatSliced, variantsOf } from '../cat/report.ts';
import type { Cond, Test } from '../core/types.ts';
import { isUndef } from '../core/values.ts';
import type { Collector } from '../enumerate/collector.ts';
import { type Enumeration, variantSkeleton } from '../enumerate/enumerate.ts';
import { describeEvent } from '../enumerate/explain.ts';
import { evalCond, termLabel } from '../enumerate/outcomes.ts';
import { type Report, ReportSchema, stateText } from '../enumerate/report.ts';
import { DEFAULT_RUN, PROGRESS_MS, runTest, runTestSync, type SearchProgress } from '../enumerate/verdict.ts';
import { DEFAULT_OPTIONS, type ModelOptions } from '../models/amdgpu.ts';
import { type AnyTest, isVulkan, type VkCond, type VulkanTest } from '../vulkan/ast.ts';
import { describeVkEvent } from '../vulkan/front.ts';
import { runVulkan, runVulkanSlicedDetailed } from '../vulkan/run.ts';
import { type Interruptible, onCtrlC, type SearchBudgets, STOP_HINTS } from './budgets.ts';
import { CAT_MODELS, checkCatAgainst, loadCatFile, MODELS_DIR } from './cat.ts';
import { startProgress } from './progress.ts';
import { asAmdgpuAssuming, asVulkan, isVulkanModel, VULKAN_CAT, vkRunOptions } from './vulkan.ts';
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

/** What a model run of a comparison may hook into: Ctrl-C, progress. */
export interface RunHooks {
  register(s: Interruptible): void;
  onProgress?(p: SearchProgress): void;
}

export interface Runner {
  name: string;
  /** The language of the tests the model reads. */
  kind: 'amdgpu' | 'vulkan';
  /** Runs the test in slices, within `budgets`. */
  run(
    test: AnyTest,
    budgets: SearchBudgets,
    hooks: RunHooks,
  ): Promise<{ report: Report; collector: Collector; describe(id: number): string[] }>;
  /** `--explain` lines for the candidates reaching the state `values` (over the labels it names). */
  why(test: AnyTest, values: Record<string, number>): string[];
}

function amdgpuCond(values: Record<string, number>, test: Test): Cond {
  const span = test.condition?.span ?? { file: test.file, offset: 0, line: 1, col: 1, len: 0 };
  return {
    kind: 'and',
    args: Object.entries(values).map(([l, v]) => {
      const at = l.indexOf('@');
      const lhs =
        at < 0
          ? {
              kind: 'reg' as const,
              thread: l.slice(0, l.indexOf(':')),
              reg: l.slice(l.indexOf(':') + 1),
              span,
            }
          : { kind: 'mem' as const, loc: l.slice(at + 1), thread: at > 0 ? l.slice(0, at - 1) : null, span };
      return { kind: 'cmp' as const, op: '==' as const, lhs, rhs: { kind: 'int' as const, value: v } };
    }),
  };
}

/** `t` with the condition `exists` (the state `values`): `--explain` then speaks of that state. */
function amdgpuProbe(t: Test, values: Record<string, number>): Test {
  const span = t.condition?.span ?? t.threads[0]!.span;
  return { ...t, condition: { quantifier: 'exists', cond: amdgpuCond(values, t), span } };
}

function vulkanCond(values: Record<string, number>, test: VulkanTest): VkCond {
  const span = test.condition?.span ?? { file: test.file, offset: 0, line: 1, col: 1, len: 0 };
  return {
    kind: 'and',
    args: Object.entries(values).map(([l, v]) => {
      const lhs = l.startsWith('@')
        ? { kind: 'mem' as const, loc: l.slice(1), span }
        : {
            kind: 'reg' as const,
            thread: l.slice(0, l.indexOf(':')),
            reg: l.slice(l.indexOf(':') + 1),
            span,
          };
      return {
        kind: 'cmp' as const,
        op: '==' as const,
        lhs,
        rhs: { kind: 'const' as const, value: v, span },
      };
    }),
  };
}

/** The runner of model `name`; `vk` the Vulkan options (translation, unrolling). */
export function runnerFor(
  name: string,
  options: ModelOptions,
  vk: VulkanCliOptions,
  errorLimit?: number,
): Runner & { cat: Model | null; file: string | null } {
  if (isVulkanModel(name)) {
    const model = loadCatFile(VULKAN_CAT, errorLimit);
    const base = vkRunOptions(vk, { model, engine: name === 'vulkan' ? 'fast' : 'cat', keepExamples: true });
    return {
      name,
      kind: 'vulkan',
      cat: null,
      file: null,
      async run(test, budgets, hooks) {
        const { report, front, main } = await runVulkanSlicedDetailed(
          test as VulkanTest,
          { ...base, ...budgets },
          hooks,
        );
        return {
          report,
          collector: main.collector,
          describe(id) {
            const ex = main.collector.exampleOf(id);
            if (ex.variant < 0) return [];
            const sk = front.skeleton(ex.variant);
            return sk.reads.map((r) => {
              const s = ex.rf[r]!;
              return `${describeVkEvent(sk, r)} reads ${s >= 0 ? describeVkEvent(sk, s) : 'undef'}`;
            });
          },
        };
      },
      why(test, values) {
        const t = test as VulkanTest;
        const probe: VulkanTest = {
          ...t,
          condition: {
            quantifier: 'exists',
            cond: vulkanCond(values, t),
            span: t.condition?.span ?? t.threads[0]!.span,
          },
        };
        return runVulkan(probe, { ...base, engine: 'fast', explain: true }).explanations.map((x) => x.text);
      },
    };
  }
  if (name === 'amdgpu')
    return {
      name,
      kind: 'amdgpu',
      cat: null,
      file: null,
      async run(test, budgets, hooks) {
        let en: Enumeration | null = null;
        const report = await runTest(
          test as Test,
          { ...DEFAULT_RUN, model: options, ...budgets, keepExamples: true, symmetry: false },
          {
            register: (e) => {
              en = e;
              hooks.register(e);
            },
            onProgress: hooks.onProgress,
          },
        );
        const collector = (en as Enumeration | null)!.collector;
        return { report, collector, describe: (id) => describeExecution(test as Test, collector, id) };
      },
      why(test, values) {
        return runTestSync(amdgpuProbe(test as Test, values), {
          model: options,
          maxExecutions: Number.POSITIVE_INFINITY,
          timeoutMs: 10_000,
          explain: true,
        }).explanations.map((x) => x.text);
      },
    };
  const file = CAT_MODELS[name] ? join(MODELS_DIR, CAT_MODELS[name]!) : name;
  const model = loadCatFile(file, errorLimit);
  return {
    name,
    kind: 'amdgpu',
    cat: model,
    file,
    async run(test, budgets, hooks) {
      let en: CatEnumeration | null = null;
      const report = await runCatSliced(
        test as Test,
        model,
        options,
        budgets,
        (e) => {
          en = e;
          hooks.register(e);
        },
        hooks.onProgress,
      );
      const collector = (en as CatEnumeration | null)!.collector;
      return { report, collector, describe: (id) => describeExecution(test as Test, collector, id) };
    },
    why(test, values) {
      return explainCat(amdgpuProbe(test as Test, values), model, {
        ...DEFAULT_CAT,
        variants: variantsOf(options),
      }).map((x) => x.text);
    },
  };
}

function key(c: Collector, id: number, cols: number[]): string {
  const v = c.valuesOf(id);
  return cols.map((k) => (isUndef(v[k]!) ? 'undef' : String(v[k]))).join(',');
}

/** The rf choices of a recorded execution of an AMDGPU test, as sentences. */
function describeExecution(test: Test, c: Collector, id: number): string[] {
  const ex = c.exampleOf(id);
  if (ex.variant < 0) return [];
  const sk = variantSkeleton(test, ex.variant);
  return sk.reads.map((r) => {
    const s = ex.rf[r]!;
    return `${describeEvent(sk, r)} reads ${s >= 0 ? describeEvent(sk, s) : 'undef'}`;
  });
}

/** One test as each of two models reads it; `assumeA`/`assumeB`: what a translation assumes of a final state. */
export interface ComparePair {
  name: string;
  a: AnyTest;
  b: AnyTest;
  assumeA: Cond | null;
  assumeB: Cond | null;
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
  budgets: SearchBudgets;
  /** For each model's run: Ctrl-C stops it (and `interrupted` then skips explanations). */
  register(s: Interruptible): void;
  interrupted(): boolean;
  onProgress?(model: string, p: SearchProgress): void;
}

/** Unbounded runs, no progress (tests, scripts). */
export const UNBOUNDED_RUNS: CompareRuns = {
  budgets: {
    maxExecutions: Number.POSITIVE_INFINITY,
    maxStates: Number.POSITIVE_INFINITY,
    timeoutMs: Number.POSITIVE_INFINITY,
  },
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
  const idsA = finalStates(ra.collector, p.assumeA);
  const idsB = finalStates(rb.collector, p.assumeB);
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
          other.kind === 'vulkan' && Object.keys(defined).length < common.length
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
  loaded: { test: AnyTest; text: string }[],
  models: string[],
  json: boolean,
  vk: VulkanCliOptions,
  errorLimit?: number,
  limits: { budgets: SearchBudgets; quiet: boolean } = { budgets: UNBOUNDED_RUNS.budgets, quiet: true },
): Promise<CompareOutcome> {
  const [a, b] = models.map((m) => runnerFor(m, DEFAULT_OPTIONS, vk, errorLimit)) as [
    ReturnType<typeof runnerFor>,
    ReturnType<typeof runnerFor>,
  ];
  const pairs: ComparePair[] = [];
  let ok = true;
  for (const { test, text } of loaded) {
    const as = (r: Runner) => {
      if (r.kind === 'vulkan') {
        const t = asVulkan(test, text);
        return t && { test: t as AnyTest, assumption: null };
      }
      return asAmdgpuAssuming(test, text, vk.deviceScope);
    };
    const ta = as(a);
    const tb = as(b);
    if (!ta || !tb) ok = false;
    else
      pairs.push({ name: test.name, a: ta.test, b: tb.test, assumeA: ta.assumption, assumeB: tb.assumption });
  }
  if (!ok) return { ok: false, undecided: false, interrupted: false };
  for (const r of [a, b])
    if (r.cat && r.file)
      checkCatAgainst(
        r.cat,
        r.file,
        pairs.map((p) => (r === a ? p.a : p.b)).filter((t): t is Test => !isVulkan(t)),
        variantsOf(DEFAULT_OPTIONS),
        errorLimit,
      );
  const ctrlC = onCtrlC();
  // One bar per model run: two per test.
  const progress = limits.quiet ? null : await startProgress(process.stderr, pairs.length * 2);
  const say = (text: string) => (progress ? progress.log(text) : process.stderr.write(text));
  const out: Comparison[] = [];
  let undecided = false;
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
  if (json) process.stdout.write(`${JSON.stringify(CompareJsonSchema.parse(out), null, 2)}\n`);
  else process.stdout.write(out.map(formatComparison).join('\n'));
  return { ok: true, undecided, interrupted: ctrlC.interrupted };
}
