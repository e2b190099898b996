/**
 * The verdict on one test, as data (with its zod schema for `--json`) and as text that herd7's log
 * tools read (docs/output.md).
 */

import * as z from 'zod';
import type { Cond, Expectation, Test } from '../core/types.ts';
import { isUndef } from '../core/values.ts';
import { analyseBarriers } from '../events/barriers.ts';
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

/**
 * The final states of a report in report order, by columns: the collector's store read through the
 * sorted order, with each state's condition truth and flags. The text report prints every state
 * from it with no object per state (a run can have a million states of dozens of values each:
 * docs/benchmarks.md); `Report.states`, the same states as objects, is built from it when first read.
 */
export interface StateTable {
  readonly size: number;
  /** Column k of the i-th state as the report shows it; null: left out of the state. */
  value(i: number, k: number): number | 'undef' | null;
  count(i: number): number;
  condition(i: number): Truth | 'unset';
  race(i: number): boolean;
  undef(i: number): boolean;
  undefFinal(i: number): boolean;
}

const TRUTHS: readonly (Truth | 'unset')[] = ['true', 'false', 'unknown', 'unset'];

/** A collector's states in report order (`tallyStates`). */
class CollectorStates implements StateTable {
  constructor(
    private readonly c: Collector,
    private readonly order: Int32Array,
    /** Per state in report order: its index in TRUTHS. */
    private readonly truth: Uint8Array,
    private readonly final: Uint8Array,
    private readonly shown: (v: number, k: number) => number | 'undef' | null,
  ) {}
  get size(): number {
    return this.order.length;
  }
  value(i: number, k: number): number | 'undef' | null {
    return this.shown(this.c.valueAt(this.order[i]!, k), k);
  }
  count(i: number): number {
    return this.c.countOf(this.order[i]!);
  }
  condition(i: number): Truth | 'unset' {
    return TRUTHS[this.truth[i]!]!;
  }
  race(i: number): boolean {
    return this.c.raceOf(this.order[i]!);
  }
  undef(i: number): boolean {
    return this.c.undefOf(this.order[i]!);
  }
  undefFinal(i: number): boolean {
    return this.final[i] === 1;
  }
}

/** The states of a report that has only them (one read back from JSON, or written by hand). */
class ListedStates implements StateTable {
  constructor(
    private readonly states: Report['states'],
    private readonly labels: readonly string[],
  ) {}
  get size(): number {
    return this.states.length;
  }
  value(i: number, k: number): number | 'undef' | null {
    return this.states[i]!.values[this.labels[k]!] ?? null;
  }
  count(i: number): number {
    return this.states[i]!.count;
  }
  condition(i: number): Truth | 'unset' {
    return this.states[i]!.condition;
  }
  race(i: number): boolean {
    return this.states[i]!.race;
  }
  undef(i: number): boolean {
    return this.states[i]!.undef;
  }
  undefFinal(i: number): boolean {
    return this.states[i]!.undefFinal;
  }
}

/** The states of `labels` in `table` as report objects. */
function listStates(table: StateTable, labels: readonly string[]): Report['states'] {
  const out: Report['states'] = new Array(table.size);
  for (let i = 0; i < table.size; i++) {
    const values: Record<string, number | 'undef'> = {};
    for (let k = 0; k < labels.length; k++) {
      const v = table.value(i, k);
      if (v !== null) values[labels[k]!] = v;
    }
    out[i] = {
      values,
      count: table.count(i),
      condition: table.condition(i),
      race: table.race(i),
      undef: table.undef(i),
      undefFinal: table.undefFinal(i),
    };
  }
  return out;
}

/** The tables of reports whose `states` nobody has read yet (`withStateTable`). */
const TABLES = new WeakMap<Report, StateTable>();

/**
 * `report` with its states given by `table` (over `report.observables`): `report.states` is built
 * when first read (by `--json`, the explorer, tests), and until then the text report and
 * `stateCount` use the table. Once the objects exist they are the states (a caller may change
 * them), so the table is dropped.
 */
export function withStateTable(report: Report, table: StateTable): Report {
  TABLES.set(report, table);
  const settle = (states: Report['states']) => {
    TABLES.delete(report);
    Object.defineProperty(report, 'states', {
      value: states,
      writable: true,
      enumerable: true,
      configurable: true,
    });
    return states;
  };
  Object.defineProperty(report, 'states', {
    enumerable: true,
    configurable: true,
    get: () => settle(listStates(table, report.observables)),
    set: settle,
  });
  return report;
}

/** The states of `r` as a table: the one it was built with, or a view of its state objects. */
export function stateTable(r: Report): StateTable {
  return TABLES.get(r) ?? new ListedStates(r.states, r.observables);
}

/** How many final states `r` has (without building its state objects). */
export function stateCount(r: Report): number {
  return stateTable(r).size;
}

/** The states of a run in report order, their condition truths, witness counts and flags. */
export interface StateTally {
  table: StateTable;
  /** The truths of the counted states, each once (states whose condition is `unset` are not counted). */
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
 * of column k as the report shows it (null: left out of the state). `truthOf` and `undefFinalOf`
 * are given one array, refilled for each state.
 */
export function tallyStates(
  c: Collector,
  truthOf: (vals: Float64Array) => Truth | 'unset',
  undefFinalOf: (vals: Float64Array) => boolean,
  shown: (v: number, k: number) => number | 'undef' | null = (v) => valueText(v),
): StateTally {
  const k = c.labels.length;
  // Report order: by values, numerically (Collector.idsByValues).
  const order = c.idsByValues();
  const n = order.length;
  const truth = new Uint8Array(n);
  const final = new Uint8Array(n);
  const seen = [false, false, false];
  const vals = new Float64Array(k);
  const t: StateTally = {
    table: new CollectorStates(c, order, truth, final, shown),
    truths: [],
    positive: 0,
    negative: 0,
    unknown: 0,
    race: false,
    undef: false,
    undefFinal: false,
  };
  for (let i = 0; i < n; i++) {
    const id = order[i]!;
    c.readValues(id, vals);
    const count = c.countOf(id);
    const tr = truthOf(vals);
    const code = tr === 'true' ? 0 : tr === 'false' ? 1 : tr === 'unknown' ? 2 : 3;
    truth[i] = code;
    if (code === 0) t.positive += count;
    else if (code === 1) t.negative += count;
    else if (code === 2) t.unknown += count;
    if (code < 3) seen[code] = true;
    t.race ||= c.raceOf(id);
    t.undef ||= c.undefOf(id);
    const uf = undefFinalOf(vals);
    final[i] = uf ? 1 : 0;
    t.undefFinal ||= uf;
  }
  t.truths = (['true', 'false', 'unknown'] as const).filter((_, j) => seen[j]);
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
  const { table, truths, positive, negative, unknown, race, undef, undefFinal } = tallyStates(
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
  const report: Report = {
    test: test.name,
    file: test.file,
    complete,
    stop,
    model: { ...model },
    observables: labels,
    states: [],
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
  return withStateTable(report, table);
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

/** A state line's flags after its count, by bits race (1), undef read (2), undef final (4). */
const STATE_FLAGS = Array.from({ length: 8 }, (_, b) =>
  [b & 1 ? 'race' : '', b & 2 ? 'undef-read' : '', b & 4 ? 'undef-final' : ''].filter(Boolean).join(', '),
);

/** The text written between two calls of the sink of `writeReport`, about (characters). */
const CHUNK = 1 << 16;

/**
 * The text report: herd7's lines in herd7's order and spelling (herd/top_herd.ml), then gpumm's
 * own. docs/output.md describes every line. `timing: false` leaves out the time (golden baselines).
 */
export function formatReport(r: Report, opts: { timing: boolean } = { timing: true }): string {
  const parts: string[] = [];
  writeReport(r, (text) => parts.push(text), opts);
  return parts.join('');
}

/**
 * `formatReport`'s text handed to `write` in pieces of about 64 KB, so that a report of a million
 * states is printed without one string of all of it (the CLI writes each piece to stdout).
 */
export function writeReport(
  r: Report,
  write: (text: string) => void,
  opts: { timing: boolean } = { timing: true },
): void {
  const h = r.herd;
  const table = stateTable(r);
  // Stopped on --max-states: the partial list is too long to be of use on a terminal (--json keeps it).
  const listed = r.stop === 'max-states' ? 0 : table.size;
  let text = `Test ${h.name} ${h.kind}\nStates ${listed}\n`;
  // A state lists its values in observable order, leaving out the ones it has none for, each as
  // `name=value; ` (herd's name), a string made once per observable and value (small ones, and a
  // few others per observable).
  const named = r.observables.map((k) => `${h.names[k] ?? k}=`);
  const small = named.map((): string[] => []);
  const other = named.map(() => new Map<number | 'undef', string>());
  for (let i = 0; i < listed; i++) {
    let line = '';
    for (let k = 0; k < named.length; k++) {
      const v = table.value(i, k);
      if (v === null) continue;
      const cached = typeof v === 'number' && v >= 0 && v < 64 && Number.isInteger(v);
      let piece = cached ? small[k]![v] : other[k]!.get(v);
      if (piece === undefined) {
        piece = `${named[k]}${v}; `;
        if (cached) small[k]![v] = piece;
        else if (other[k]!.size < 256) other[k]!.set(v, piece);
      }
      line += piece;
    }
    const flags =
      STATE_FLAGS[(table.race(i) ? 1 : 0) | (table.undef(i) ? 2 : 0) | (table.undefFinal(i) ? 4 : 0)]!;
    // herd's reader skips a `#` comment at the end of a state line: gpumm's per-state figures go there.
    text += `${line}# ×${table.count(i)}${flags ? ` ${flags}` : ''}\n`;
    if (text.length >= CHUNK) {
      write(text);
      text = '';
    }
  }
  if (text) write(text);
  const out: string[] = [];
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
        ? `Incomplete (max-states): ${table.size} states found, not listed (--json lists them)`
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
  write(`${out.join('\n')}\n`);
}
