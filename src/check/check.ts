/**
 * Where the model and the machines meet: the model's final states (src/enumerate) against the final
 * states of a family's machine running the test's machine code (src/sim). A machine outcome is
 * allowed when some model state agrees with it on every observable, a model `undef` agreeing with
 * any value (a racy read returns undef in the model, whatever the hardware returns). The test is
 * `sound` when every machine outcome is allowed.
 *
 * The machines never see the model, so a `sound` verdict is not circular.
 */

import * as z from 'zod';
import type { Test } from '../core/types.ts';
import { isUndef } from '../core/values.ts';
import type { Report } from '../enumerate/report.ts';
import { findTarget, type TableFamily } from '../lower/targets.ts';
import type { LowerCtx } from '../lower/types.ts';
import { type AssumptionId, assumptionsOf } from '../sim/assumptions.ts';
import {
  DEFAULT_SETTINGS,
  familyMachine,
  HW_TEXTS,
  type HwText,
  type MachineSettings,
  machineMode,
} from '../sim/config.ts';

export { machineMode } from '../sim/config.ts';

import { formatIsa, type IsaInstr } from '../lower/isa.ts';
import type { ExploreOptions, MachineOutcome } from '../sim/machine.ts';
import type { LoweredCode } from '../sim/program.ts';
import { verdictText } from './verdict-text.ts';

export { docCode } from '../sim/program.ts';
export { verdictText } from './verdict-text.ts';

import {
  assumptionMatters,
  labelValue,
  machinesOf,
  type SimResult,
  simulate,
  traceOf,
} from '../sim/simulate.ts';

/** Which code-sequence table the machine runs: the documents' (`doc`), llc-22's (`llc`) or a table file's (`table:FILE`). */
export type Lowering = 'doc' | 'llc' | `table:${string}`;

const StepSchema = z.object({
  kind: z.enum(['issue', 'perform', 'evict', 'writeback', 'spurious-fail']),
  thread: z.string(),
  text: z.string(),
  detail: z.string(),
  /** The test's source line of the IR instruction the machine instruction implements (0: a cache step). */
  line: z.number().int(),
  /** The instruction's code was edited (a weakening, a table file's cell), with what. */
  edited: z.string().optional(),
});

const Values = z.record(z.string(), z.union([z.number(), z.literal('undef')]));

export const CheckSchema = z.object({
  test: z.string(),
  file: z.string(),
  target: z.string(),
  mode: z.string(),
  /** `doc`, `llc`, or `table:FILE` for a table file's code (`gpumm check --table`, docs/tables.md). */
  lowering: z.union([z.enum(['doc', 'llc']), z.templateLiteral(['table:', z.string()])]),
  verdict: z.enum(['sound', 'UNSOUND', 'unsupported', 'undecided']),
  /** Why the machine could not run the test, or why the check stopped. */
  reason: z.string().nullable(),
  observables: z.array(z.string()),
  model: z.array(Values),
  machine: z.array(
    z.object({
      values: Values,
      allowed: z.boolean(),
      /** Observables whose model value is `undef` in the state that allows this outcome. */
      undefMatched: z.array(z.string()),
    }),
  ),
  /** A machine outcome the model forbids, with a shortest machine run to it. */
  forbidden: z
    .object({
      values: Values,
      placement: z.string(),
      trace: z.array(StepSchema).nullable(),
      /**
       * Waits on counters no instruction of the test is counted on (they never block): left out of the
       * trace, named once here.
       */
      idleWaits: z.array(z.string()),
    })
    .nullable(),
  deadlock: z.boolean(),
  /**
   * The model finds undefined behaviour (a barrier misuse, seeds/001): the program may do anything,
   * so every machine outcome is allowed.
   */
  ub: z.boolean(),
  stats: z.object({ placements: z.number().int(), states: z.number().int(), ms: z.number() }),
  /**
   * The named assumptions (src/sim/assumptions.ts) a `sound` verdict needs: without them the machine
   * reaches an outcome the model forbids. Empty when the verdict holds without any.
   */
  assumptions: z.array(z.string()),
  /** Assumptions that apply to this family and mode which the run was told not to make (`--no-assume`). */
  notAssumed: z.array(z.string()),
  /** Which text the GFX12 machine's L0 and GL1 follow (`--hw-text`); null for the other families. */
  hwText: z.enum(HW_TEXTS).nullable(),
});

/** The verdict on one test for one target, mode and lowering. */
export type CheckResult = z.infer<typeof CheckSchema>;

/** Options of one check. */
export interface CheckOptions extends ExploreOptions {
  /** Find a trace for the first forbidden outcome. */
  trace: boolean;
  /**
   * Given the machines' exploration (outcomes in the order of `CheckResult.machine`), for a caller
   * that traces other outcomes too (the explorer steps through any machine outcome's run).
   */
  onSim?: (sim: SimResult) => void;
  /**
   * The assumptions the machines may make (all by default) and which GFX12 text they follow (by
   * default the text the code was taken from: the seed's for the documents' table, AMDGPUUsage's for
   * llc-22's code).
   */
  settings?: Partial<MachineSettings>;
  /**
   * Name the assumptions a `sound` verdict needs (the default). False: run only the machine with the
   * assumptions of `settings` and report none — what the mutation matrix needs, which asks only whether
   * a mutant is caught.
   */
  attribute?: boolean;
  /**
   * IR instructions whose code differs from the reference (a mutation, a table file's edited cell):
   * their trace steps are marked with the note.
   */
  edited?: readonly { thread: string; line: number; note: string }[];
}

/** The text a GFX12 machine follows for code of `lowering`, unless told otherwise. */
export function defaultHwText(lowering: Lowering): HwText {
  return lowering === 'llc' ? 'amdgpuusage' : 'seed';
}

function valuesText(v: Record<string, number | 'undef'>): string {
  return Object.entries(v)
    .map(([k, x]) => `${k}=${x};`)
    .join(' ');
}

/** A check that ran no machine (yet): verdict `unsupported`, the model's states, `reason`. */
export function unsupportedCheck(
  test: Test,
  report: Report,
  ctx: LowerCtx,
  lowering: Lowering,
  reason: string | null,
): CheckResult {
  return {
    test: test.name,
    file: test.file,
    target: ctx.target.name,
    mode: machineMode(ctx),
    lowering,
    verdict: 'unsupported',
    reason,
    observables: report.observables,
    model: report.states.map((s) => s.values),
    machine: [],
    forbidden: null,
    deadlock: false,
    ub: report.flags.ub,
    stats: { placements: 0, states: 0, ms: 0 },
    assumptions: [],
    notAssumed: [],
    hwText: null,
  };
}

/**
 * Two targets whose machine and code agree up to the encoding of non-flat accesses (`buffer_`,
 * `global_`, `scratch_`: the same path through the caches, counted alike) reach the same outcomes:
 * a catalogue check runs the machine once for them (`gpumm check --all-targets`, the benchmark).
 */
export function machineKey(ctx: LowerCtx, code: LoweredCode): string {
  const p = ctx.target.processor;
  const canon = code.map((th) =>
    th.map((seq) => seq.map((i) => (i.kind === 'vmem' && i.enc !== 'flat' ? { ...i, enc: 'global' } : i))),
  );
  // The Intel platforms of one fence-lowering group run one machine, whatever their architecture's name.
  const machine =
    p.vendor === 'Intel' ? familyMachine(p.table as TableFamily, p.generation)!.id : p.generation;
  return `${p.table}|${machine}|${machineMode(ctx)}|${JSON.stringify(canon)}`;
}

/**
 * How a check names its machine mode in text: `CU mode`, `WGP mode`, `TGSPLIT mode` — nothing on Intel
 * Xe, whose work-groups always run on one Xe-core (`mode` is `cu` there).
 */
export function modeText(target: string, mode: string): string {
  return findTarget(target)?.processor.vendor === 'Intel' ? '' : `${mode.toUpperCase()} mode, `;
}

/**
 * Checks many (test, target and mode) at once, each distinct machine run once. `items` are in output
 * order, each with its key (`machineKey` with the test; null: checked on its own); `run` checks one.
 * An item whose key an earlier one has copies that one's result, `retarget`ed — unless it is UNSOUND:
 * its trace spells the target's own instructions, so it is checked again. `parallel`: every check of
 * a round is started at once (a worker pool takes them); else one after the other, until `stop()`.
 * Results are in item order; an item not checked (stopped) is undefined.
 */
export async function checkDistinct<T>(
  items: readonly T[],
  keyOf: (x: T) => string | null,
  run: (x: T) => Promise<CheckResult>,
  retarget: (r: CheckResult, x: T) => CheckResult,
  parallel: boolean,
  stop: () => boolean = () => false,
): Promise<(CheckResult | undefined)[]> {
  const out: (CheckResult | undefined)[] = items.map(() => undefined);
  const owner = new Map<string, number>();
  const firsts: number[] = [];
  items.forEach((x, k) => {
    const key = keyOf(x);
    if (key === null) firsts.push(k);
    else if (!owner.has(key)) {
      owner.set(key, k);
      firsts.push(k);
    }
  });
  const settle = async (ks: number[]) => {
    if (parallel) await Promise.all(ks.map(async (k) => (out[k] = await run(items[k]!))));
    else
      for (const k of ks) {
        if (stop()) break;
        out[k] = await run(items[k]!);
      }
  };
  await settle(firsts);
  const again: number[] = [];
  items.forEach((x, k) => {
    const key = keyOf(x);
    if (out[k] !== undefined || key === null) return;
    const first = out[owner.get(key)!];
    if (first === undefined) return;
    if (first.verdict === 'UNSOUND') again.push(k);
    else out[k] = retarget(first, x);
  });
  await settle(again);
  return out;
}

/** The machine's outcomes judged against the model: each one allowed or not, and the first forbidden one. */
interface Judged {
  machine: CheckResult['machine'];
  bad: { outcome: SimResult['outcomes'][number]; values: Record<string, number | 'undef'> } | null;
}

/** One machine outcome against the model: its values, whether some model state allows it, and how. */
function judgeOne(
  test: Test,
  report: Report,
  program: SimResult['program'],
  o: MachineOutcome,
): CheckResult['machine'][number] {
  const labels = report.observables;
  const values: Record<string, number | 'undef'> = {};
  const vals = labels.map((l) => {
    const v = labelValue(test, program, o, l);
    values[l] = v === undefined || isUndef(v) ? 'undef' : v;
    return v;
  });
  // Undefined behaviour allows every outcome (seeds/001: "It is undefined behavior for a barrier
  // wait to never complete", "to operate on an uninitialized barrier object", …).
  let allowed = report.flags.ub;
  let undefMatched: string[] = [];
  for (const s of allowed ? [] : report.states) {
    let ok = true;
    const um: string[] = [];
    labels.forEach((l, k) => {
      const mv = s.values[l];
      if (mv === 'undef') {
        um.push(l);
        return;
      }
      if (vals[k] !== mv) ok = false;
    });
    if (ok) {
      allowed = true;
      undefMatched = um;
      if (um.length === 0) break;
    }
  }
  return { values, allowed, undefMatched };
}

function judge(test: Test, report: Report, sim: SimResult): Judged {
  const machine: CheckResult['machine'] = [];
  let bad: Judged['bad'] = null;
  for (const o of sim.outcomes) {
    const j = judgeOne(test, report, sim.program, o.outcome);
    machine.push(j);
    if (!j.allowed && !bad) bad = { outcome: o, values: j.values };
  }
  return { machine, bad };
}

/**
 * Compares the model's report with the machine's outcomes for `code`. The machines may make the
 * assumptions of `opts.settings` (all that apply, by default); a `sound` verdict names those it needs.
 * The weakest machine — without every assumption that can matter to the program — runs first: when it
 * is sound, so is the code, assuming nothing. Otherwise the machine with the assumptions runs: when it
 * too reaches a forbidden outcome the verdict is UNSOUND (with its trace), else `sound` with each
 * assumption without which the machine is unsound (all of them when no one alone is).
 */
export async function checkTest(
  test: Test,
  report: Report,
  code: LoweredCode,
  ctx: LowerCtx,
  lowering: Lowering,
  opts: CheckOptions,
  pause?: () => Promise<void>,
): Promise<CheckResult> {
  const t0 = performance.now();
  const family = ctx.target.processor.table as TableFamily;
  const mode = machineMode(ctx);
  const settings: MachineSettings = {
    assume: opts.settings?.assume ?? DEFAULT_SETTINGS.assume,
    hwText: opts.settings?.hwText ?? defaultHwText(lowering),
  };
  const machineOf = (assume: readonly AssumptionId[]) =>
    familyMachine(family, ctx.target.processor.generation, { ...settings, assume });
  const fam = machineOf(settings.assume);
  const base = unsupportedCheck(test, report, ctx, lowering, null);
  if (!fam) return { ...base, reason: `no machine for the ${family} family` };
  const applicable = assumptionsOf(family, mode);
  base.notAssumed = applicable.filter((a) => !settings.assume.includes(a));
  base.hwText = family === 'gfx12' ? settings.hwText : null;
  if (!report.complete)
    return { ...base, verdict: 'undecided', reason: `the model stopped (${report.stop})` };
  const made = applicable.filter((a) => settings.assume.includes(a));
  const run = (assume: readonly AssumptionId[], seek?: ExploreOptions['seek']) =>
    simulate(test, code, machineOf(assume)!, mode, seek ? { ...opts, seek } : opts, pause);
  let sim: SimResult | null = null;
  let relevant: AssumptionId[] = [];
  /** Sound without `drop`? (set below, where assumptions can matter) */
  let soundWithout: (drop: readonly AssumptionId[]) => Promise<SimResult | null> = async () => null;
  if (made.length > 0 && opts.attribute !== false) {
    const built = machinesOf(test, code, fam, mode, opts.reduce);
    if ('kind' in built) return { ...base, reason: built.reason };
    relevant = made.filter((a) => assumptionMatters(a, built.program));
    // A run without some assumptions only needs to know whether it is sound: it stops at the first
    // forbidden outcome.
    const forbidden = (o: MachineOutcome) => !judgeOne(test, report, built.program, o).allowed;
    soundWithout = async (drop: readonly AssumptionId[]): Promise<SimResult | null> => {
      const r = await run(
        settings.assume.filter((a) => !drop.includes(a)),
        forbidden,
      );
      return r.kind === 'done' && r.stop === 'done' ? r : null;
    };
    if (relevant.length > 0) {
      const weak = await soundWithout(relevant);
      if (weak) {
        sim = weak;
        relevant = [];
      }
    }
  }
  if (!sim) {
    const strong = await run(settings.assume);
    if (strong.kind === 'unsupported') return { ...base, reason: strong.reason };
    sim = strong;
  }
  const judged = judge(test, report, sim);
  opts.onSim?.(sim);
  const { machine, bad } = judged;
  base.machine = machine;
  base.deadlock = sim.deadlock;
  base.stats = { placements: sim.machines.length, states: sim.states, ms: 0 };
  if (bad) {
    const idle = idleWaits(sim);
    const trace = opts.trace ? traceOf(sim, bad.outcome, opts) : null;
    base.verdict = 'UNSOUND';
    base.forbidden = {
      values: bad.values,
      placement: sim.machines[bad.outcome.placement]!.placement.text,
      trace:
        trace === null
          ? null
          : trace
              .filter((st) => !(st.kind === 'issue' && idle.includes(st.text)))
              .map((st) => {
                const e = opts.edited?.find((x) => x.thread === st.thread && x.line === st.line);
                return e && st.line > 0 ? { ...st, edited: e.note } : st;
              }),
      idleWaits: idle,
    };
    base.reason = `the machine reaches ${valuesText(bad.values)}, which the model forbids`;
  } else if (sim.stop !== 'done') {
    base.verdict = 'undecided';
    base.reason = `the machine exploration stopped (${sim.stop})`;
  } else {
    base.verdict = 'sound';
    if (relevant.length > 1) {
      // Each assumption without which the machine is unsound; all of them when no one alone is.
      const out: AssumptionId[] = [];
      for (const a of relevant) if (!(await soundWithout([a]))) out.push(a);
      if (out.length > 0) relevant = out;
    }
    base.assumptions = relevant;
  }
  base.stats.ms = performance.now() - t0;
  return base;
}

/**
 * The IR instructions whose code in `code` differs from `reference` (a weakened or hand-edited table),
 * for `CheckOptions.edited`: each with its thread, source line and what it became.
 */
export function editsOf(
  test: Test,
  reference: LoweredCode,
  code: LoweredCode,
): { thread: string; line: number; note: string }[] {
  const text = (seq: readonly IsaInstr[] | undefined) =>
    seq === undefined || seq.length === 0 ? '(nothing)' : seq.map(formatIsa).join('; ');
  return test.threads.flatMap((th, t) =>
    th.body.flatMap((ir, k) => {
      const was = text(reference[t]?.[k]);
      const now = text(code[t]?.[k]);
      return was === now ? [] : [{ thread: th.name, line: ir.span.line, note: `${now} (was: ${was})` }];
    }),
  );
}

/**
 * The waits of the program on counters no instruction of it is counted on (sampling, BVH, export,
 * address translation…): they never block, so a trace names them once instead of as steps.
 */
export function idleWaits(sim: SimResult): string[] {
  const all = sim.program.threads.flatMap((th) => th.instrs);
  const used = new Set(
    all.flatMap((i) => (i.k === 'mem' || i.k === 'inv' || i.k === 'wb' ? i.counters : [])),
  );
  return [
    ...new Set(all.flatMap((i) => (i.k === 'wait' && i.counters.every((c) => !used.has(c)) ? [i.text] : []))),
  ];
}

/** How a check's machine was set: mode, lowering, the GFX12 text, the assumptions left out. */
function settingsText(r: CheckResult): string {
  const parts = [`${modeText(r.target, r.mode)}--lowering ${r.lowering}`];
  if (r.hwText !== null) parts.push(`--hw-text ${r.hwText}`);
  if (r.notAssumed.length > 0) parts.push(`--no-assume ${r.notAssumed.join(',')}`);
  return parts.join(', ');
}

/** Text of one check, herd7-like: verdict, outcomes, and the trace of a forbidden outcome. */
export function formatCheck(r: CheckResult, dim: (s: string) => string = (s) => s): string {
  const lines: string[] = [];
  lines.push(`Test ${r.test} on ${r.target} (${settingsText(r)}): ${verdictText(r)}`);
  if (r.reason) lines.push(`  ${r.reason}`);
  if (r.verdict === 'unsupported' || r.verdict === 'undecided') return lines.join('\n');
  lines.push(`Model states ${r.model.length}`);
  for (const v of r.model) lines.push(`  ${valuesText(v)}`);
  lines.push(
    `Machine states ${r.machine.length} (${r.stats.placements} placements, ${r.stats.states} machine states)`,
  );
  for (const m of r.machine) {
    const note = !m.allowed
      ? '  <- forbidden by the model'
      : m.undefMatched.length > 0
        ? `  (allowed: the model's ${m.undefMatched.join(', ')} is undef, matching any value)`
        : '';
    lines.push(`  ${valuesText(m.values)}${note}`);
  }
  if (r.deadlock) lines.push('  (some run leaves a wave blocked at a barrier forever)');
  if (r.ub) lines.push('  (the model finds undefined behaviour: every machine outcome is allowed)');
  if (r.forbidden) {
    lines.push(`Trace to ${valuesText(r.forbidden.values)} with ${r.forbidden.placement}:`);
    if (r.forbidden.idleWaits.length > 0)
      lines.push(
        dim(
          `  (not shown: ${r.forbidden.idleWaits.join(', ')} — no instruction of the test is counted on them, so they never block)`,
        ),
      );
    if (!r.forbidden.trace) lines.push('  (no trace within the budget)');
    else
      r.forbidden.trace.forEach((s, k) => {
        const who = s.thread ? `${s.thread}: ` : '';
        lines.push(
          `  ${String(k + 1).padStart(3)}. ${s.kind.padEnd(9)} ${who}${s.text}${s.line ? ` (line ${s.line})` : ''}${s.detail ? ` — ${s.detail}` : ''}${s.edited ? `  [edited: ${s.edited}]` : ''}`,
        );
      });
  }
  return lines.join('\n');
}
