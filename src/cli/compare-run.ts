/**
 * The work of `gpumm compare` (registered in src/cli/compare.ts): one test under two models. Per
 * test, both verdicts, and for each model a final state only it reaches, with one execution
 * reaching it: an execution that model allows and the other forbids (the other has no execution
 * with that final state at all).
 */
import { join } from 'node:path';
import * as z from 'zod';
import type { Model } from '../cat/ast.ts';
import { CatEnumeration, DEFAULT_CAT } from '../cat/enumerate.ts';
import { variantsOf } from '../cat/report.ts';
import type { Test } from '../core/types.ts';
import type { Collector } from '../enumerate/collector.ts';
import { enumerate, variantSkeleton } from '../enumerate/enumerate.ts';
import { describeEvent } from '../enumerate/explain.ts';
import { buildReport, type Report, ReportSchema, stateText } from '../enumerate/report.ts';
import { isUndef } from '../events/program.ts';
import { DEFAULT_OPTIONS, type ModelOptions } from '../models/amdgpu.ts';
import { CAT_MODELS, checkCatAgainst, loadCatFile, MODELS_DIR } from './cat.ts';

/** A final state only one model reaches, with one of its executions in words. */
const OnlyInSchema = z.object({ model: z.string(), state: z.string(), execution: z.array(z.string()) });
export type OnlyIn = z.infer<typeof OnlyInSchema>;

const ComparisonSchema = z.object({
  test: z.string(),
  verdicts: z.array(
    z.object({
      model: z.string(),
      verdict: z.enum(['holds', 'fails', 'unknown', 'no condition']),
      states: z.number().int().nonnegative(),
      flags: ReportSchema.shape.flags,
    }),
  ),
  only: z.array(OnlyInSchema),
});
export type Comparison = z.infer<typeof ComparisonSchema>;

/** JSON schema of `gpumm compare --json` output (one comparison per test, in an array). */
export const CompareJsonSchema = ComparisonSchema.array();

export interface Runner {
  name: string;
  run(test: Test): { report: Report; collector: Collector };
}

export function runnerFor(
  name: string,
  options: ModelOptions,
  errorLimit?: number,
): Runner & { cat: Model | null; file: string | null } {
  if (name === 'amdgpu')
    return {
      name,
      cat: null,
      file: null,
      run(test) {
        const en = enumerate(test, { model: options, keepExamples: true, symmetry: false });
        return { report: buildReport(test, en, options, { estimate: 0, ms: 0 }), collector: en.collector };
      },
    };
  const file = CAT_MODELS[name] ? join(MODELS_DIR, CAT_MODELS[name]!) : name;
  const model = loadCatFile(file, errorLimit);
  return {
    name,
    cat: model,
    file,
    run(test) {
      const en = new CatEnumeration(test, model, { ...DEFAULT_CAT, variants: variantsOf(options) }).run();
      return { report: buildReport(test, en, options, { estimate: 0, ms: 0 }), collector: en.collector };
    },
  };
}

function key(c: Collector, id: number): string {
  return Array.from(c.valuesOf(id), (v) => (isUndef(v) ? 'undef' : String(v))).join(',');
}

/** The rf choices of a recorded execution, as sentences. */
function describeExecution(test: Test, c: Collector, id: number): string[] {
  const ex = c.exampleOf(id);
  if (ex.variant < 0) return [];
  const sk = variantSkeleton(test, ex.variant);
  return sk.reads.map((r) => {
    const s = ex.rf[r]!;
    return `${describeEvent(sk, r)} reads ${s >= 0 ? describeEvent(sk, s) : 'undef'}`;
  });
}

/** Compares two models on one test. */
export function compareOn(test: Test, a: Runner, b: Runner): Comparison {
  const ra = a.run(test);
  const rb = b.run(test);
  const only: OnlyIn[] = [];
  for (const [x, y, name] of [
    [ra, rb, a.name],
    [rb, ra, b.name],
  ] as const) {
    const other = new Set(Array.from(y.collector.idsByValues(), (id) => key(y.collector, id)));
    for (const id of x.collector.idsByValues()) {
      if (other.has(key(x.collector, id))) continue;
      const values: Record<string, number | 'undef'> = {};
      x.collector.labels.forEach((l, k) => {
        const v = x.collector.valuesOf(id)[k]!;
        values[l] = isUndef(v) ? 'undef' : v;
      });
      only.push({
        model: name,
        state: stateText(values),
        execution: describeExecution(test, x.collector, id),
      });
      break;
    }
  }
  const verdict = (r: Report) => r.condition?.verdict ?? 'no condition';
  return {
    test: test.name,
    verdicts: [
      { model: a.name, verdict: verdict(ra.report), states: ra.report.states.length, flags: ra.report.flags },
      { model: b.name, verdict: verdict(rb.report), states: rb.report.states.length, flags: rb.report.flags },
    ],
    only,
  };
}

/** Text of one comparison. */
export function formatComparison(c: Comparison): string {
  const lines = [`Test ${c.test}`];
  const w = Math.max(...c.verdicts.map((v) => v.model.length));
  for (const v of c.verdicts) {
    const flags = [v.flags.race ? 'race' : '', v.flags.undef ? 'undef' : ''].filter(Boolean).join(', ');
    lines.push(
      `  ${v.model.padEnd(w)}  condition ${v.verdict}, ${v.states} final state${v.states === 1 ? '' : 's'}${flags ? ` (${flags})` : ''}`,
    );
  }
  if (c.only.length === 0) lines.push('  both models reach the same final states');
  for (const o of c.only) {
    lines.push(`  only ${o.model} allows: ${o.state}`);
    for (const e of o.execution) lines.push(`    ${e}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Runs the comparison of `tests` under models `a` and `b` and prints it. */
export function runCompare(tests: Test[], models: string[], json: boolean, errorLimit?: number): void {
  const [a, b] = models.map((m) => runnerFor(m, DEFAULT_OPTIONS, errorLimit)) as [
    ReturnType<typeof runnerFor>,
    ReturnType<typeof runnerFor>,
  ];
  for (const r of [a, b])
    if (r.cat && r.file) checkCatAgainst(r.cat, r.file, tests, variantsOf(DEFAULT_OPTIONS), errorLimit);
  const out = tests.map((t) => compareOn(t, a, b));
  if (json) process.stdout.write(`${JSON.stringify(CompareJsonSchema.parse(out), null, 2)}\n`);
  else process.stdout.write(out.map(formatComparison).join('\n'));
}
