/**
 * The AMDGPU memory model's fast search as an engine (src/enumerate/): model diagnostics, the run
 * in slices with its estimate, progress and Ctrl-C, `--explain`, and the executions `compare`
 * describes. No Node APIs here (`--workers` comes in as a `Spread` from the command line).
 */
import type { Cond, Test } from '../core/types.ts';
import type { Collector } from '../enumerate/collector.ts';
import { type Enumeration, estimateCandidates, variantSkeleton } from '../enumerate/enumerate.ts';
import { describeEvent } from '../enumerate/explain.ts';
import { modelDiagnostics, type RunOptions, runTest, runTestSync } from '../enumerate/verdict.ts';
import type { Engine, ModelRun, RunSettings } from './engine.ts';

/** `values` (a final state over the labels it names) as a condition of `test`. */
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
export function amdgpuProbe(t: Test, values: Record<string, number>): Test {
  const span = t.condition?.span ?? t.threads[0]!.span;
  return { ...t, condition: { quantifier: 'exists', cond: amdgpuCond(values, t), span } };
}

/** The rf choices of a recorded execution of an AMDGPU test, as sentences. */
export function describeExecution(test: Test, c: Collector, id: number): string[] {
  const ex = c.exampleOf(id);
  if (ex.variant < 0) return [];
  const sk = variantSkeleton(test, ex.variant);
  return sk.reads.map((r) => {
    const s = ex.rf[r]!;
    return `${describeEvent(sk, r)} reads ${s >= 0 ? describeEvent(sk, s) : 'undef'}`;
  });
}

/** The run options of the fast search the settings select. */
export function fastRunOptions(
  s: RunSettings,
  budgets: Pick<RunOptions, 'maxExecutions' | 'timeoutMs'> & { maxStates: number },
): RunOptions {
  return {
    model: s.amdgpu,
    maxExecutions: budgets.maxExecutions,
    maxStates: budgets.maxStates,
    timeoutMs: budgets.timeoutMs,
    explain: s.explain,
    keepExamples: s.keepExamples,
    observe: s.observe,
    symmetry: s.symmetry,
  };
}

export const AMDGPU_FAST: Engine = {
  features: { spread: true, graph: true },
  diagnose: (test) => modelDiagnostics(test as Test),
  compile: () => [],
  async run(t, _cat, s, budgets, hooks, spread): Promise<ModelRun> {
    const test = t as Test;
    const opts = fastRunOptions(s, budgets);
    let collector: Collector | null = null;
    let report: ModelRun['report'];
    if (spread) {
      hooks.onStart?.(estimateCandidates(test));
      const r = await spread(test, opts, hooks);
      report = r.report;
      collector = r.collector;
    } else
      report = await runTest(test, opts, {
        onStart: hooks.onStart,
        onSlow: hooks.onSlow,
        onProgress: hooks.onProgress,
        register: (e: Enumeration) => {
          collector = e.collector;
          hooks.register?.(e);
        },
      });
    const c = collector as Collector | null;
    if (!c) throw new Error('the search registered no enumeration');
    return { report, collector: c, describe: (id) => describeExecution(test, c, id) };
  },
  why(t, _cat, values, s) {
    return runTestSync(amdgpuProbe(t as Test, values), {
      model: s.amdgpu,
      maxExecutions: Number.POSITIVE_INFINITY,
      timeoutMs: 10_000,
      explain: true,
    }).explanations.map((x) => x.text);
  },
};
