/**
 * A cat model on AMDGPU tests as an engine (src/cat/): the model compiled against the test's
 * primitives, the run in slices, `--explain` through the cat model. No Node APIs here.
 */
import { type CatEnumeration, compileFor, DEFAULT_CAT } from '../cat/enumerate.ts';
import { explainCat, runCatSliced, variantsOf } from '../cat/report.ts';
import type { Test } from '../core/types.ts';
import type { Collector } from '../enumerate/collector.ts';
import { estimateCandidates } from '../enumerate/enumerate.ts';
import { modelDiagnostics } from '../enumerate/verdict.ts';
import type { Engine } from './engine.ts';
import { amdgpuProbe, describeExecution } from './engine-amdgpu.ts';

export const AMDGPU_CAT: Engine = {
  features: { spread: false, graph: false },
  diagnose: (test) => modelDiagnostics(test as Test),
  compile: (cat, test, s) => compileFor(test as Test, cat, variantsOf(s.amdgpu)).diagnostics,
  async run(t, cat, s, budgets, hooks) {
    const test = t as Test;
    if (!cat) throw new Error('a cat engine runs a cat model');
    // The estimate goes into the report; it is not announced (it counts the fast search's candidates).
    const estimate = estimateCandidates(test);
    let collector: Collector | null = null;
    const report = await runCatSliced(
      test,
      cat,
      s.amdgpu,
      {
        maxExecutions: budgets.maxExecutions,
        maxStates: budgets.maxStates,
        timeoutMs: budgets.timeoutMs,
        observe: s.observe,
        keepExamples: s.keepExamples,
        explain: s.explain,
        estimate,
      },
      (e: CatEnumeration) => {
        collector = e.collector;
        hooks.register?.(e);
      },
      hooks.onProgress,
    );
    const c = collector as Collector | null;
    if (!c) throw new Error('the cat search registered no enumeration');
    return { report, collector: c, describe: (id) => describeExecution(test, c, id) };
  },
  why(t, cat, values, s) {
    if (!cat) return [];
    return explainCat(amdgpuProbe(t as Test, values), cat, {
      ...DEFAULT_CAT,
      variants: variantsOf(s.amdgpu),
    }).map((x) => x.text);
  },
};
