/**
 * Reports of a cat model's run, in the shape `gpumm run` prints (`src/enumerate/report.ts`), and
 * `--explain` for a cat model: for every candidate the condition selects and the model rejects,
 * the check that rejects it (its `as` name) with a witness (a cycle for `acyclic`).
 * No Node APIs here: the web page imports this file.
 */
import type { Test } from '../core/types.ts';
import { buildReport, explanationGroups, type Report, selectedState } from '../enumerate/report.ts';
import { type SearchProgress, tick } from '../enumerate/verdict.ts';
import type { ModelOptions } from '../models/amdgpu.ts';
import type { Model } from './ast.ts';
import {
  amdgpuFront,
  CatEnumeration,
  type CatFront,
  type CatOptions,
  type CatVariant,
  DEFAULT_CAT,
  FINAL_UNDEF,
} from './enumerate.ts';
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
 * sentence `--explain` prints for it, with the check's witness (a cycle for `acyclic`); `describe`
 * gives the words for an event, `words` more words for the name: the words of `gpumm run --explain`
 * and of the explorer.
 */
export function catRejection(
  c: CompiledCheck,
  describe: (e: number) => string,
  words: (name: string) => string | undefined = () => undefined,
): { name: string; text: string; witness: number[] } {
  const name = c.name ?? `${c.negated ? '~' : ''}${c.test} (line ${c.span.line})`;
  const say = words(name);
  const witness = checkWitness(c);
  const wit = witness.map(describe);
  const text = `${name}${say ? ` (${say})` : ''}: ${
    c.test === 'acyclic' && wit.length > 0
      ? `cycle: ${[...wit, wit[0]!].join(' → ')}`
      : wit.length > 0
        ? `${c.test} fails on: ${wit.join(' → ')}`
        : `${c.negated ? '~' : ''}${c.test} fails`
  }`;
  return { name, text, witness };
}

/**
 * The observables' values (NaN: undef) of the valuation now loaded in `v`'s evaluator, into `out`;
 * false when the state is filtered out.
 */
export function catObserve(v: CatVariant, out: Float64Array): boolean {
  const fu = v.compiled.bound.get(FINAL_UNDEF);
  return v.input.observe(out, v.coRank, fu?.bits ?? null);
}

/**
 * The final states of the candidate loaded in `v`, one per valuation of its register values (the
 * solutions of a value cycle: docs/model.md, "Values out of thin air"): each is put in `out` (NaN:
 * undef) and passed to `each` with the solution's index, unless the filter drops it. Returns the
 * number of valuations, 0 when the values are inconsistent (a cmpxchg outcome contradicted, a value
 * cycle without a solution).
 */
export function forEachCatState(v: CatVariant, out: Float64Array, each: (solution: number) => void): number {
  const ev = v.input.evaluator;
  const n = ev.valuations(v.rfSrc);
  for (let k = 0; k < n; k++) {
    if (k > 0) ev.loadSolution(k);
    if (catObserve(v, out)) each(k);
  }
  return n;
}

/** Explanations of the candidates the condition selects and the model rejects. */
export function explainCat(test: Test, model: Model, opts: CatOptions): Report['explanations'] {
  if (!test.condition) return [];
  const cond = test.condition.cond;
  const front = amdgpuFront(test, opts.observe);
  return explainFront(front, model, opts, (vals) => selectedState(test, cond, front.labels, vals));
}

/**
 * `--explain` for any front: every complete candidate the model rejects whose final state `selects`
 * (it returns the state's text, or null), grouped by the check that rejects it (its `as` name, with
 * `words(name)` in front when given) with a witness.
 */
export function explainFront(
  front: CatFront,
  model: Model,
  opts: CatOptions,
  selects: (vals: Float64Array) => string | null,
  words: (name: string) => string | undefined = () => undefined,
): Report['explanations'] {
  const groups = explanationGroups();
  const vals = new Float64Array(front.labels.length);
  const en = new CatEnumeration(front, model, {
    ...opts,
    prune: false,
    timeoutMs: Math.min(opts.timeoutMs, CAT_EXPLAIN_MS),
    onReject: (v, why) => {
      if (why.kind !== 'check') return;
      forEachCatState(v, vals, () => {
        const state = selects(vals);
        if (state === null) return;
        const { name, text } = catRejection(why.check, (e) => v.input.describe(e), words);
        groups.add(state, name, text);
      });
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
