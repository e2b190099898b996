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
import type { Report } from '../enumerate/report.ts';
import { isUndef } from '../events/program.ts';
import { findTarget, type TableFamily } from '../lower/targets.ts';
import type { LowerCtx } from '../lower/types.ts';
import { familyMachine, machineMode } from '../sim/config.ts';

export { machineMode } from '../sim/config.ts';

import type { ExploreOptions, Step } from '../sim/machine.ts';
import type { LoweredCode } from '../sim/program.ts';

export { docCode } from '../sim/program.ts';

import { labelValue, type SimResult, simulate, traceOf } from '../sim/simulate.ts';

/** Which code-sequence table the machine runs: the documents' (`doc`) or llc-22's (`llc`). */
export type Lowering = 'doc' | 'llc';

const StepSchema = z.object({
  kind: z.enum(['issue', 'perform', 'evict', 'writeback', 'spurious-fail']),
  thread: z.string(),
  text: z.string(),
  detail: z.string(),
  /** The test's source line of the IR instruction the machine instruction implements (0: a cache step). */
  line: z.number().int(),
});

const Values = z.record(z.string(), z.union([z.number(), z.literal('undef')]));

export const CheckSchema = z.object({
  test: z.string(),
  file: z.string(),
  target: z.string(),
  mode: z.string(),
  lowering: z.enum(['doc', 'llc']),
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
    .object({ values: Values, placement: z.string(), trace: z.array(StepSchema).nullable() })
    .nullable(),
  deadlock: z.boolean(),
  /**
   * The model finds undefined behaviour (a barrier misuse, seeds/001): the program may do anything,
   * so every machine outcome is allowed.
   */
  ub: z.boolean(),
  stats: z.object({ placements: z.number().int(), states: z.number().int(), ms: z.number() }),
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

/** Compares the model's report with the machine's outcomes for `code`. */
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
  const fam = familyMachine(family, ctx.target.processor.generation);
  const mode = machineMode(ctx);
  const base = unsupportedCheck(test, report, ctx, lowering, null);
  if (!fam) return { ...base, reason: `no machine for the ${family} family` };
  if (!report.complete)
    return { ...base, verdict: 'undecided', reason: `the model stopped (${report.stop})` };
  const sim = await simulate(test, code, fam, mode, opts, pause);
  if (sim.kind === 'unsupported') return { ...base, reason: sim.reason };
  opts.onSim?.(sim);
  const labels = report.observables;
  let firstBad: (typeof sim.outcomes)[number] | null = null;
  let badValues: Record<string, number | 'undef'> | null = null;
  for (const o of sim.outcomes) {
    const values: Record<string, number | 'undef'> = {};
    const vals = labels.map((l) => {
      const v = labelValue(test, sim.program, o.outcome, l);
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
    base.machine.push({ values, allowed, undefMatched });
    if (!allowed && !firstBad) {
      firstBad = o;
      badValues = values;
    }
  }
  base.deadlock = sim.deadlock;
  base.stats = { placements: sim.machines.length, states: sim.states, ms: 0 };
  if (firstBad && badValues) {
    const trace = opts.trace ? traceOf(sim, firstBad, opts) : null;
    base.verdict = 'UNSOUND';
    base.forbidden = {
      values: badValues,
      placement: sim.machines[firstBad.placement]!.placement.text,
      trace: trace as Step[] | null,
    };
    base.reason = `the machine reaches ${valuesText(badValues)}, which the model forbids`;
  } else if (sim.stop !== 'done') {
    base.verdict = 'undecided';
    base.reason = `the machine exploration stopped (${sim.stop})`;
  } else base.verdict = 'sound';
  base.stats.ms = performance.now() - t0;
  return base;
}

/** Text of one check, herd7-like: verdict, outcomes, and the trace of a forbidden outcome. */
export function formatCheck(r: CheckResult): string {
  const lines: string[] = [];
  lines.push(
    `Test ${r.test} on ${r.target} (${modeText(r.target, r.mode)}--lowering ${r.lowering}): ${r.verdict}`,
  );
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
    if (!r.forbidden.trace) lines.push('  (no trace within the budget)');
    else
      r.forbidden.trace.forEach((s, k) => {
        const who = s.thread ? `${s.thread}: ` : '';
        lines.push(
          `  ${String(k + 1).padStart(3)}. ${s.kind.padEnd(9)} ${who}${s.text}${s.line ? ` (line ${s.line})` : ''}${s.detail ? ` — ${s.detail}` : ''}`,
        );
      });
  }
  return lines.join('\n');
}
