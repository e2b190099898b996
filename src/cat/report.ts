/**
 * Reports of a cat model's run, in the shape `gpumm run` prints (`src/enumerate/report.ts`), and
 * `--explain` for a cat model: for every candidate the condition selects and the model rejects,
 * the check that rejects it (its `as` name) with a witness (a cycle for `acyclic`).
 * No Node APIs here: the web page imports this file.
 */
import type { Test } from '../core/types.ts';
import { describeEvent } from '../enumerate/explain.ts';
import { buildReport, explanationGroups, type Report, selectedState } from '../enumerate/report.ts';
import { type SearchProgress, tick } from '../enumerate/verdict.ts';
import type { Skeleton } from '../events/skeleton.ts';
import type { ModelOptions } from '../models/amdgpu.ts';
import type { Model } from './ast.ts';
import { CatEnumeration, type CatOptions, type CatVariant, DEFAULT_CAT, FINAL_UNDEF } from './enumerate.ts';
import { type CompiledCheck, checkWitness } from './eval.ts';

/** Time allowed for `--explain`'s unpruned search, as for the fast search. */
export const CAT_EXPLAIN_MS = 10_000;

/** The variants `gpumm run`'s model options select in a cat model (docs/cat.md, "Variants"). */
export function variantsOf(model: ModelOptions): Set<string> {
  const v = new Set<string>();
  if (model.valueRules === 'repaired') v.add('repaired');
  if (!model.noThinAir) v.add('allow-thin-air');
  return v;
}

/**
 * The name of the check that rejects a candidate (its `as` name, else its kind and line) and the
 * sentence `--explain` prints for it, with the check's witness (a cycle for `acyclic`): the words of
 * `gpumm run --explain` and of the explorer.
 */
export function catRejection(
  c: CompiledCheck,
  sk: Skeleton,
): { name: string; text: string; witness: number[] } {
  const name = c.name ?? `${c.negated ? '~' : ''}${c.test} (line ${c.span.line})`;
  const witness = checkWitness(c);
  const wit = witness.map((e) => describeEvent(sk, e));
  const text = `${name}: ${
    c.test === 'acyclic' && wit.length > 0
      ? `cycle: ${[...wit, wit[0]!].join(' → ')}`
      : wit.length > 0
        ? `${c.test} fails on: ${wit.join(' → ')}`
        : `${c.negated ? '~' : ''}${c.test} fails`
  }`;
  return { name, text, witness };
}

/**
 * The observables' values of the candidate loaded in `v` (NaN: undef), or null when its register
 * values are inconsistent (a value cycle, a cmpxchg outcome it contradicts).
 */
export function catValues(v: CatVariant): number[] | null {
  if (v.evaluator.run(v.rfSrc) !== 'ok') return null;
  const fu = v.compiled.bound.get(FINAL_UNDEF);
  return v.obs.map((o) => {
    if (o.kind === 'reg') return v.evaluator.regs[o.thread]![o.reg]!;
    let last = -1;
    for (const w of v.sk.writesByLoc[o.loc]!) if (last < 0 || v.coRank[w]! > v.coRank[last]!) last = w;
    if (last < 0 || (fu && ((fu.bits[last >>> 5]! >>> (last & 31)) & 1) === 1)) return Number.NaN;
    return v.evaluator.writeVal[last]!;
  });
}

/** Explanations of the candidates the condition selects and the model rejects. */
export function explainCat(test: Test, model: Model, opts: CatOptions): Report['explanations'] {
  if (!test.condition) return [];
  const cond = test.condition.cond;
  const groups = explanationGroups();
  const en = new CatEnumeration(test, model, {
    ...opts,
    prune: false,
    timeoutMs: Math.min(opts.timeoutMs, CAT_EXPLAIN_MS),
    onReject: (v, why) => {
      if (why.kind !== 'check') return;
      const vals = catValues(v);
      if (vals === null) return;
      const labels = v.obs.map((o) => o.label);
      const state = selectedState(test, cond, labels, vals);
      if (state === null) return;
      const { name, text } = catRejection(why.check, v.sk);
      groups.add(state, name, text);
    },
  }).run();
  return groups.finish(en.stop === 'done', CAT_EXPLAIN_MS / 1000, en.stats.explored);
}

/**
 * Runs `test` under a cat model in slices, yielding to the event loop between them so a caller can
 * `interrupt` the enumeration it receives through `register` (Ctrl-C), then builds its report.
 */
export async function runCatSliced(
  test: Test,
  model: Model,
  options: ModelOptions,
  opts: Partial<CatOptions> & { explain?: boolean; estimate?: number },
  register: (en: CatEnumeration) => void,
  onProgress?: (p: SearchProgress) => void,
): Promise<Report> {
  const t0 = performance.now();
  const o: CatOptions = { ...DEFAULT_CAT, variants: variantsOf(options), ...opts };
  const en = new CatEnumeration(test, model, o);
  register(en);
  while (!en.step(1 << 12)) {
    onProgress?.({
      fraction: en.progress(),
      states: en.collector.size,
      executions: en.stats.consistent,
      elapsedMs: performance.now() - t0,
    });
    await tick();
  }
  const ms = performance.now() - t0;
  const explanations = opts.explain && en.stop === 'done' ? explainCat(test, model, o) : [];
  const modelFlags = [...en.modelFlags].sort();
  return buildReport(test, en, options, { estimate: opts.estimate ?? 0, ms, explanations, modelFlags });
}

/** Runs `test` under a cat model to the end (or a budget) and builds its report. */
export function runCat(
  test: Test,
  model: Model,
  options: ModelOptions,
  opts: Partial<CatOptions> & { explain?: boolean; estimate?: number } = {},
): Report {
  const t0 = performance.now();
  const o: CatOptions = { ...DEFAULT_CAT, variants: variantsOf(options), ...opts };
  const en = new CatEnumeration(test, model, o).run();
  const ms = performance.now() - t0;
  const explanations = opts.explain && en.stop === 'done' ? explainCat(test, model, o) : [];
  const modelFlags = [...en.modelFlags].sort();
  return buildReport(test, en, options, { estimate: opts.estimate ?? 0, ms, explanations, modelFlags });
}
