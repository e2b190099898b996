/**
 * The verdict on one test, as data (with its zod schema for `--json`) and as herd7-style text.
 */

import * as z from 'zod';
import type { Expectation, Test } from '../core/types.ts';
import { analyseBarriers } from '../events/barriers.ts';
import { isUndef } from '../events/program.ts';
import { buildSkeleton } from '../events/skeleton.ts';
import type { ModelOptions } from '../models/amdgpu.ts';
import { printCondition } from '../syntax/printer.ts';
import type { Enumeration, StopReason } from './enumerate.ts';
import {
  type ConditionVerdict,
  conditionVerdict,
  evalCond,
  resolveLoc,
  type Truth,
  termLabel,
  termWidth,
} from './outcomes.ts';

const Value = z.union([z.number(), z.literal('undef')]);

export const ReportSchema = z.object({
  test: z.string(),
  file: z.string(),
  complete: z.boolean(),
  stop: z.enum(['done', 'max-executions', 'max-states', 'timeout', 'interrupted']),
  model: z.object({ noThinAir: z.boolean(), valueRules: z.enum(['literal', 'repaired']) }),
  observables: z.array(z.string()),
  states: z.array(
    z.object({
      values: z.record(z.string(), Value),
      count: z.number().int(),
      condition: z.enum(['true', 'false', 'unknown']),
      race: z.boolean(),
      undef: z.boolean(),
      /** Some observed location that some write initialises or updates ends `undef` in this state. */
      undefFinal: z.boolean(),
    }),
  ),
  condition: z
    .object({
      text: z.string(),
      quantifier: z.enum(['exists', 'not exists', 'forall']),
      verdict: z.enum(['holds', 'fails', 'unknown']),
    })
    .nullable(),
  witnesses: z.object({ positive: z.number().int(), negative: z.number().int(), unknown: z.number().int() }),
  flags: z.object({ race: z.boolean(), undef: z.boolean(), undefFinal: z.boolean(), ub: z.boolean() }),
  /** Why some barrier execution has undefined behaviour (src/events/barriers.ts). */
  ubReasons: z.array(z.string()).optional(),
  expectations: z.array(
    z.object({
      key: z.enum(['condition', 'race', 'undef', 'ub']),
      expected: z.string(),
      actual: z.string(),
      ok: z.boolean(),
    }),
  ),
  stats: z.object({
    nodes: z.number().int(),
    explored: z.number().int(),
    consistent: z.number().int(),
    estimate: z.number(),
    ms: z.number(),
  }),
  explanations: z.array(
    z.object({ state: z.string(), axiom: z.string(), text: z.string(), count: z.number().int() }),
  ),
});

/** The verdict on one test. */
export type Report = z.infer<typeof ReportSchema>;

function valueText(v: number): number | 'undef' {
  return isUndef(v) ? 'undef' : v;
}

/** `P0:a=1; P1:b=undef;` — herd7's state spelling. */
export function stateText(values: Record<string, number | 'undef'>): string {
  return Object.entries(values)
    .map(([k, v]) => `${k}=${v};`)
    .join(' ');
}

/**
 * Indices of the observables that are final values of locations some write initialises or
 * updates (docs/model.md, choice 23). A location without an initial value that nothing writes ends
 * `undef` simply because it was never written; that is not flagged.
 */
function writtenLocationLabels(test: Test, labels: readonly string[]): number[] {
  const sk = buildSkeleton(test);
  const out: number[] = [];
  labels.forEach((label, k) => {
    const at = label.indexOf('@');
    if (at < 0) return;
    const thread = at > 0 ? label.slice(0, at - 1) : null;
    const l = resolveLoc(sk, label.slice(at), thread);
    if (l >= 0 && sk.writesByLoc[l]!.length > 0) out.push(k);
  });
  return out;
}

/** Builds the report of a finished (or stopped) enumeration. */
export function buildReport(
  test: Test,
  en: Pick<Enumeration, 'collector' | 'stats' | 'stop'>,
  model: ModelOptions,
  extra: { estimate: number; ms: number; explanations?: Report['explanations'] },
): Report {
  const labels = en.collector.labels;
  const states: Report['states'] = [];
  const truths: Truth[] = [];
  let positive = 0;
  let negative = 0;
  let unknown = 0;
  let race = false;
  let undef = false;
  let undefFinal = false;
  const sk = buildSkeleton(test);
  const writtenMem = writtenLocationLabels(test, labels);
  const c = en.collector;
  const labelIndex = new Map(labels.map((l, k) => [l, k]));
  // Report order: by values, numerically (Collector.idsByValues).
  for (const id of c.idsByValues()) {
    const vals = c.valuesOf(id);
    const count = c.countOf(id);
    const values: Record<string, number | 'undef'> = {};
    labels.forEach((l, k) => {
      values[l] = valueText(vals[k]!);
    });
    const truth: Truth = test.condition
      ? evalCond(
          test.condition.cond,
          (l) => {
            const k = labelIndex.get(l);
            return k === undefined ? undefined : vals[k];
          },
          termLabel,
          (t) => termWidth(test, t),
        )
      : 'true';
    truths.push(truth);
    if (truth === 'true') positive += count;
    else if (truth === 'false') negative += count;
    else unknown += count;
    const sRace = c.raceOf(id);
    const sUndef = c.undefOf(id);
    race ||= sRace;
    undef ||= sUndef;
    const uf = writtenMem.some((k) => isUndef(vals[k]!));
    undefFinal ||= uf;
    states.push({ values, count, condition: truth, race: sRace, undef: sUndef, undefFinal: uf });
  }
  const verdict: ConditionVerdict | null = conditionVerdict(test, truths);
  const ub = sk.barrierUb;
  const stop: StopReason = en.stop ?? 'interrupted';
  const complete = stop === 'done';
  const actual = (e: Expectation): string => {
    switch (e.key) {
      case 'condition':
        return verdict ?? 'none';
      case 'race':
        return race ? 'racy' : 'race-free';
      case 'undef':
        return undef ? 'undef' : 'no-undef';
      case 'ub':
        return ub ? 'ub' : 'no-ub';
    }
  };
  return {
    test: test.name,
    file: test.file,
    complete,
    stop,
    model: { ...model },
    observables: labels,
    states,
    condition: test.condition
      ? {
          text: printCondition(test.condition),
          quantifier: test.condition.quantifier,
          verdict: verdict ?? 'unknown',
        }
      : null,
    witnesses: { positive, negative, unknown },
    flags: { race, undef, undefFinal, ub },
    ubReasons: ub ? analyseBarriers(test).ubReasons : [],
    expectations: test.expects.map((e) => {
      const a = actual(e);
      return { key: e.key, expected: e.value, actual: a, ok: complete && a === e.value };
    }),
    stats: { ...en.stats, estimate: extra.estimate, ms: extra.ms },
    explanations: extra.explanations ?? [],
  };
}

/** herd7-style text. `timing: false` leaves out the time (for golden baselines). */
export function formatReport(r: Report, opts: { timing: boolean } = { timing: true }): string {
  const out: string[] = [];
  const verdictWord =
    r.condition?.verdict === 'holds' ? 'Ok' : r.condition?.verdict === 'fails' ? 'No' : 'Unknown';
  out.push(
    `Test ${r.test}${r.complete ? '' : ` INCOMPLETE (${r.stop}${r.stop === 'max-states' ? '' : ': these are the states found so far'})`}`,
  );
  // Stopped on --max-states: the partial list is too long to be of use on a terminal (--json keeps it).
  const listed = r.stop === 'max-states' ? [] : r.states;
  out.push(
    r.stop === 'max-states'
      ? `States ≥ ${r.states.length} (not listed: --max-states reached)`
      : `States ${r.states.length}`,
  );
  for (const s of listed) {
    const flags = [s.race ? 'race' : '', s.undef ? 'undef-read' : '', s.undefFinal ? 'undef-final' : '']
      .filter(Boolean)
      .join(', ');
    out.push(`${stateText(s.values)}  ×${s.count}${flags ? `  [${flags}]` : ''}`);
  }
  if (r.condition) {
    out.push(r.complete ? verdictWord : 'Undecided');
    out.push('Witnesses');
    out.push(
      `Positive: ${r.witnesses.positive} Negative: ${r.witnesses.negative}` +
        (r.witnesses.unknown > 0 ? ` Unknown (depends on undef): ${r.witnesses.unknown}` : ''),
    );
  }
  if (r.flags.race) out.push('Flag data-race');
  if (r.flags.undef) out.push('Flag undef-read');
  if (r.flags.undefFinal) out.push('Flag undef-final');
  if (r.flags.ub)
    out.push(
      r.ubReasons && r.ubReasons.length > 0
        ? `Flag undefined-behaviour (barriers: ${r.ubReasons.join('; ')})`
        : 'Flag undefined-behaviour (barriers)',
    );
  if (r.condition) out.push(`Condition ${r.condition.text}`);
  for (const e of r.expectations)
    out.push(
      `Expect ${e.key} ${e.expected}: ${e.ok ? 'ok' : `FAILED (got ${e.actual}${r.complete ? '' : ', incomplete'})`}`,
    );
  out.push(
    `Candidates ${r.stats.explored} explored, ${r.stats.consistent} consistent (${r.stats.nodes} search nodes)` +
      (opts.timing ? ` Time ${(r.stats.ms / 1000).toFixed(3)}s` : ''),
  );
  if (r.explanations.length > 0) {
    out.push('Forbidden candidates the condition selects:');
    for (const x of r.explanations) out.push(`  ${x.state} (×${x.count}) — ${x.text.replace(/\n/g, '\n  ')}`);
  }
  return `${out.join('\n')}\n`;
}
