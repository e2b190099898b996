/**
 * The verdict on one test, as data (with its zod schema for `--json`) and as text that herd7's log
 * tools read (docs/output.md).
 */

import * as z from 'zod';
import type { Cond, Expectation, Test } from '../core/types.ts';
import { analyseBarriers } from '../events/barriers.ts';
import { isUndef } from '../events/program.ts';
import { buildSkeleton } from '../events/skeleton.ts';
import type { ModelOptions } from '../models/amdgpu.ts';
import { printCondition } from '../syntax/printer.ts';
import type { Collector } from './collector.ts';
import type { Enumeration, StopReason } from './enumerate.ts';
import { decidedAnswers, expectationOutcome, expectationText } from './expectations.ts';
import { condLabels, herdCondition, herdNames, herdTestName, testHash } from './herd.ts';
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
  /** `bound`: a Vulkan test's loop needs more iterations than --unroll allows. */
  stop: z.enum(['done', 'max-executions', 'max-states', 'timeout', 'interrupted', 'bound']),
  model: z.object({ noThinAir: z.boolean(), valueRules: z.enum(['literal', 'repaired']) }),
  observables: z.array(z.string()),
  states: z.array(
    z.object({
      values: z.record(z.string(), Value),
      count: z.number().int(),
      /**
       * `unset`: the condition names a register of a Vulkan test this state has no value for (its
       * thread stopped at a barrier that never completes; `values` leaves it out): not counted.
       */
      condition: z.enum(['true', 'false', 'unknown', 'unset']),
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
  /**
   * Which answers are final (all of them when `complete`): on a stopped run, a verdict a state found
   * already proves (a witness of `exists`, a counterexample of `~exists`/`forall`) and each flag
   * found; a flag not found, or a verdict still open, is undecided (src/enumerate/expectations.ts).
   */
  decided: z.object({
    condition: z.boolean(),
    race: z.boolean(),
    undef: z.boolean(),
    undefFinal: z.boolean(),
    ub: z.boolean(),
  }),
  /** Flags a cat model raised (`flag … as NAME`) on some execution, beyond gpumm's own (docs/cat.md). */
  modelFlags: z.array(z.string()).optional(),
  /** Why some barrier execution has undefined behaviour (src/events/barriers.ts). */
  ubReasons: z.array(z.string()).optional(),
  expectations: z.array(
    z.object({
      /** `assertion`: a Khronos SATISFIABLE/NOSOLUTION line. */
      key: z.enum(['condition', 'race', 'undef', 'ub', 'assertion']),
      expected: z.string(),
      actual: z.string(),
      ok: z.boolean(),
      /** `actual` is final: `ok` is false and `decided` true for an expectation proved false. */
      decided: z.boolean(),
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
  /** herd7's spelling of the test, for the text report (src/enumerate/herd.ts, docs/output.md). */
  herd: z.object({
    /** The test name in herd's alphabet. */
    name: z.string(),
    kind: z.enum(['Allowed', 'Forbidden', 'Required']),
    /** herd's name of each observable: `P1:r0` → `1:r0`, `@x` → `x`, `P1:@l` → `l.1`. */
    names: z.record(z.string(), z.string()),
    /** The condition in herd's syntax (`forall (true)` for a test without one). */
    condition: z.string(),
    /** MD5 of the normalised test's memory, placement and code. */
    hash: z.string(),
  }),
});

/** The verdict on one test. */
export type Report = z.infer<typeof ReportSchema>;

function valueText(v: number): number | 'undef' {
  return isUndef(v) ? 'undef' : v;
}

/**
 * `P0:a=1; P1:b=undef;` — a state in gpumm's names (explanations, graph titles). The report's state
 * lines use herd's names instead (`formatReport`, docs/output.md).
 */
export function stateText(values: Record<string, number | 'undef'>): string {
  return Object.entries(values)
    .map(([k, v]) => `${k}=${v};`)
    .join(' ');
}

/** At most this many distinct explanations are kept (identical ones are counted). */
const MAX_EXPLANATION_GROUPS = 50;

/**
 * `--explain`'s list, shared by the fast search and cat models: identical explanations (state,
 * axiom, text) grouped and counted, and, when the examination stopped early, a closing entry saying
 * the list is partial.
 */
export function explanationGroups(): {
  add(state: string, axiom: string, text: string): void;
  finish(complete: boolean, seconds: number, explored: number): Report['explanations'];
} {
  const groups = new Map<string, Report['explanations'][number]>();
  return {
    add(state, axiom, text) {
      const key = `${state}\n${axiom}\n${text}`;
      const g = groups.get(key);
      if (g) g.count++;
      else if (groups.size < MAX_EXPLANATION_GROUPS) groups.set(key, { state, axiom, text, count: 1 });
    },
    finish(complete, seconds, explored) {
      const out = [...groups.values()];
      if (!complete)
        out.push({
          state: '(incomplete)',
          axiom: 'none',
          text: `explanations stopped after ${seconds} s and ${explored} candidates; the list above is partial`,
          count: 0,
        });
      return out;
    },
  };
}

/**
 * The state text of observables `labels` with values `vals` (NaN: undef) when `cond` is true of
 * them, else null: how `--explain` picks the rejected candidates the condition selects.
 */
export function selectedState(
  test: Test,
  cond: Cond,
  labels: readonly string[],
  vals: ArrayLike<number>,
): string | null {
  const truth = evalCond(
    cond,
    (l) => {
      const k = labels.indexOf(l);
      return k < 0 ? undefined : vals[k];
    },
    termLabel,
    (c) => termWidth(test, c),
  );
  if (truth !== 'true') return null;
  const values: Record<string, number | 'undef'> = {};
  labels.forEach((l, k) => {
    values[l] = Number.isNaN(vals[k]!) ? 'undef' : vals[k]!;
  });
  return stateText(values);
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

/** The states of a run in report order, their condition truths, witness counts and flags. */
export interface StateTally {
  states: Report['states'];
  /** The truth of every counted state (states whose condition is `unset` are not counted). */
  truths: Truth[];
  positive: number;
  negative: number;
  unknown: number;
  race: boolean;
  undef: boolean;
  undefFinal: boolean;
}

/**
 * Tallies a collector's states: `truthOf` gives a state's condition truth (or `unset`: not
 * counted), `undefFinalOf` whether an observed written location ends undef, `shown(v, k)` the value
 * of column k as the report shows it (null: left out of the state).
 */
export function tallyStates(
  c: Collector,
  truthOf: (vals: Float64Array) => Truth | 'unset',
  undefFinalOf: (vals: Float64Array) => boolean,
  shown: (v: number, k: number) => number | 'undef' | null = (v) => valueText(v),
): StateTally {
  const labels = c.labels;
  const t: StateTally = {
    states: [],
    truths: [],
    positive: 0,
    negative: 0,
    unknown: 0,
    race: false,
    undef: false,
    undefFinal: false,
  };
  // Report order: by values, numerically (Collector.idsByValues).
  for (const id of c.idsByValues()) {
    const vals = c.valuesOf(id);
    const count = c.countOf(id);
    const values: Record<string, number | 'undef'> = {};
    for (let k = 0; k < labels.length; k++) {
      const v = shown(vals[k]!, k);
      if (v !== null) values[labels[k]!] = v;
    }
    const truth = truthOf(vals);
    if (truth !== 'unset') {
      t.truths.push(truth);
      if (truth === 'true') t.positive += count;
      else if (truth === 'false') t.negative += count;
      else t.unknown += count;
    }
    const sRace = c.raceOf(id);
    const sUndef = c.undefOf(id);
    t.race ||= sRace;
    t.undef ||= sUndef;
    const uf = undefFinalOf(vals);
    t.undefFinal ||= uf;
    t.states.push({ values, count, condition: truth, race: sRace, undef: sUndef, undefFinal: uf });
  }
  return t;
}

/** Builds the report of a finished (or stopped) enumeration. */
export function buildReport(
  test: Test,
  en: Pick<Enumeration, 'collector' | 'stats' | 'stop'>,
  model: ModelOptions,
  extra: { estimate: number; ms: number; explanations?: Report['explanations']; modelFlags?: string[] },
): Report {
  const labels = en.collector.labels;
  const sk = buildSkeleton(test);
  const writtenMem = writtenLocationLabels(test, labels);
  const labelIndex = new Map(labels.map((l, k) => [l, k]));
  const { states, truths, positive, negative, unknown, race, undef, undefFinal } = tallyStates(
    en.collector,
    (vals) =>
      test.condition
        ? evalCond(
            test.condition.cond,
            (l) => {
              const k = labelIndex.get(l);
              return k === undefined ? undefined : vals[k];
            },
            termLabel,
            (t) => termWidth(test, t),
          )
        : 'true',
    (vals) => writtenMem.some((k) => isUndef(vals[k]!)),
  );
  const verdict: ConditionVerdict | null = conditionVerdict(test, truths);
  const names = herdNames(test, [...labels, ...(test.condition ? condLabels(test.condition.cond) : [])]);
  const herdC = herdCondition(test, names);
  const ub = sk.barrierUb;
  const stop: StopReason = en.stop ?? 'interrupted';
  const complete = stop === 'done';
  const flags = { race, undef, undefFinal, ub };
  // The barrier analysis is of the test, not of the executions: its answer is final either way.
  const decided = decidedAnswers(
    complete,
    test.condition && verdict ? { quantifier: test.condition.quantifier, verdict } : null,
    flags,
    true,
  );
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
    flags,
    decided,
    ...(extra.modelFlags ? { modelFlags: extra.modelFlags } : {}),
    ubReasons: ub ? analyseBarriers(test).ubReasons : [],
    expectations: test.expects.map((e) => expectationOutcome(e, actual(e), decided[e.key])),
    stats: { ...en.stats, estimate: extra.estimate, ms: extra.ms },
    explanations: extra.explanations ?? [],
    herd: {
      name: herdTestName(test.name),
      kind: herdC.kind,
      names: Object.fromEntries(labels.map((l) => [l, names.get(l)!])),
      condition: herdC.text,
      hash: testHash(test),
    },
  };
}

/**
 * A run leaves something it was asked open (exit 3): it stopped before deciding an `expect:` line,
 * or, for a test without any, its condition's verdict (the states, for a test without a condition).
 */
export function undecidedNeeds(r: Report): boolean {
  if (r.complete) return false;
  if (r.expectations.length > 0) return r.expectations.some((e) => !e.decided);
  return !(r.condition && r.decided.condition);
}

/**
 * The validation word herd prints after the states: `Ok` / `No` for the condition's verdict, `Undef`
 * when some execution has undefined behaviour (herd's word for a flagged-undefined test), `??` when
 * there is no answer (the run stopped early, or the verdict depends on undef values) — the words
 * herd's log reader knows (`validation` in tools/lexLog_tools.mll).
 */
function validationWord(r: Report): string {
  // A stopped run whose verdict a state it found already proves gives it (`decided`).
  if (!r.complete && !(r.condition && r.decided.condition)) return '??';
  if (r.flags.ub) return 'Undef';
  const v = r.condition?.verdict ?? 'holds';
  return v === 'holds' ? 'Ok' : v === 'fails' ? 'No' : '??';
}

/**
 * The text report: herd7's lines in herd7's order and spelling (herd/top_herd.ml), then gpumm's
 * own. docs/output.md describes every line. `timing: false` leaves out the time (golden baselines).
 */
export function formatReport(r: Report, opts: { timing: boolean } = { timing: true }): string {
  const h = r.herd;
  const out: string[] = [`Test ${h.name} ${h.kind}`];
  // Stopped on --max-states: the partial list is too long to be of use on a terminal (--json keeps it).
  const listed = r.stop === 'max-states' ? [] : r.states;
  out.push(`States ${listed.length}`);
  // The observables' herd names once; a state lists its values in observable order (tallyStates
  // writes them so), leaving out the ones it has none for.
  const named = r.observables.map((k) => `${h.names[k] ?? k}=`);
  const parts: string[] = [];
  for (const s of listed) {
    parts.length = 0;
    const vs = s.values;
    for (let k = 0; k < named.length; k++) {
      const v = vs[r.observables[k]!];
      if (v !== undefined) parts.push(`${named[k]}${v};`);
    }
    const bindings = parts.join(' ');
    const flags = [s.race ? 'race' : '', s.undef ? 'undef-read' : '', s.undefFinal ? 'undef-final' : '']
      .filter(Boolean)
      .join(', ');
    // herd's reader skips a `#` comment at the end of a state line: gpumm's per-state figures go there.
    out.push(`${bindings}${bindings ? ' ' : ''}# ×${s.count}${flags ? ` ${flags}` : ''}`);
  }
  const word = validationWord(r);
  out.push(word);
  // herd counts witnesses for the test's kind: for `~exists`, the executions that do not satisfy
  // the proposition are the positive ones (check_wit in herd/top_herd.ml).
  const { positive: sat, negative: unsat, unknown } = r.witnesses;
  const forbid = h.kind === 'Forbidden';
  out.push('Witnesses', `Positive: ${forbid ? unsat : sat} Negative: ${forbid ? sat : unsat}`);
  if (r.flags.race) out.push('Flag data-race');
  if (r.flags.undef) out.push('Flag undef-read');
  if (r.flags.undefFinal) out.push('Flag undef-final');
  if (r.flags.ub) out.push('Flag undefined-behaviour');
  for (const f of r.modelFlags ?? []) out.push(`Flag ${f}`);
  out.push(`Condition ${h.condition}`);
  // Observation counts are for the proposition itself; with no complete answer there is none.
  if (r.complete && unknown === 0)
    out.push(
      `Observation ${h.name} ${sat === 0 ? 'Never' : unsat === 0 ? 'Always' : 'Sometimes'} ${sat} ${unsat}`,
    );
  if (opts.timing) out.push(`Time ${h.name} ${(r.stats.ms / 1000).toFixed(2)}`);
  out.push(`Hash=${h.hash}`);

  // gpumm's own lines.
  if (!r.complete)
    out.push(
      r.stop === 'max-states'
        ? `Incomplete (max-states): ${r.states.length} states found, not listed (--json lists them)`
        : `Incomplete (${r.stop}): the states above are those found so far`,
    );
  if (!r.complete) {
    // Three-valued: what the states found prove, and what only the whole search could.
    const d = r.decided;
    if (r.condition)
      out.push(
        d.condition
          ? `Decided: the condition ${r.condition.verdict} (a state found proves it)`
          : 'Undecided: the condition (no state found so far proves it either way)',
      );
    const open = [
      d.race ? '' : 'data-race',
      d.undef ? '' : 'undef-read',
      d.undefFinal ? '' : 'undef-final',
      d.ub ? '' : 'undefined-behaviour',
    ].filter(Boolean);
    if (open.length > 0) out.push(`Undecided flags: ${open.join(', ')} (none found so far)`);
  }
  if (unknown > 0) out.push(`Unknown (depends on undef): ${unknown}`);
  // The verdict, when the word after the states does not give it (Undef, ??).
  if (r.complete && r.condition && word !== 'Ok' && word !== 'No') out.push(`Verdict ${r.condition.verdict}`);
  for (const why of r.ubReasons ?? []) out.push(`Undefined behaviour: ${why}`);
  for (const e of r.expectations)
    out.push(`Expect ${e.key} ${e.expected}: ${expectationText(e, r.complete)}`);
  out.push(
    `Candidates ${r.stats.explored} explored, ${r.stats.consistent} consistent (${r.stats.nodes} search nodes)`,
  );
  if (r.explanations.length > 0) {
    out.push('Forbidden candidates the condition selects:');
    for (const x of r.explanations) out.push(`  ${x.state} (×${x.count}) — ${x.text.replace(/\n/g, '\n  ')}`);
  }
  return `${out.join('\n')}\n`;
}
