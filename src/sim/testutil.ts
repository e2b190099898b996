/**
 * Helpers for tests of the machines (no model here): parse a litmus text or file, lower it with the
 * documents' tables for a target, optionally weaken the code (drop or change one instruction), and
 * run the machine or the whole check.
 */

import { readFileSync } from 'node:fs';
import { diagnosticLine } from '../core/diagnostics.ts';
import type { Test } from '../core/types.ts';
import type { IsaInstr } from '../lower/isa.ts';
import { findTarget } from '../lower/targets.ts';
import type { LowerCtx, WaveMode } from '../lower/types.ts';
import { parse } from '../syntax/parser.ts';
import { familyMachine, machineMode } from './config.ts';
import type { ExploreOptions } from './machine.ts';
import { docCode, type LoweredCode } from './program.ts';
import { labelValue, type SimResult, simulate, traceOf } from './simulate.ts';

/** Parses a litmus text (throws on errors: test inputs are well-formed). */
export function litmus(text: string, file = '<test>'): Test {
  const { test, diagnostics } = parse(text, file);
  if (!test || diagnostics.some((d) => d.severity === 'error'))
    throw new Error(`bad test: ${diagnostics.map((d) => d.message).join('; ')}`);
  return test;
}

/** Parses a catalogue file. */
export function litmusFile(path: string): Test {
  return litmus(readFileSync(path, 'utf8'), path);
}

/** The lowering context of a target and mode (`tgsplit`: TgSplit execution mode). */
export function ctxOf(target: string, mode: WaveMode | 'tgsplit' = 'cu'): LowerCtx {
  const t = findTarget(target);
  if (!t) throw new Error(`unknown target ${target}`);
  return mode === 'tgsplit'
    ? { target: t, mode: 'cu', lang: 'hsa', tgsplit: true }
    : { target: t, mode, lang: 'hsa' };
}

/** The documents' code for a test (throws when it does not lower). */
export function docOf(test: Test, ctx: LowerCtx): LoweredCode {
  const c = docCode(test, ctx);
  if ('error' in c) throw new Error(diagnosticLine(c.error));
  return c;
}

/** Where to weaken: thread name, IR instruction index, and which machine instruction of its code. */
export interface Weakening {
  thread: string;
  ir: number;
  match: (i: IsaInstr) => boolean;
  /** Replacement; absent: the instruction is dropped. */
  replace?: (i: IsaInstr) => IsaInstr;
  /** Which of the instructions `match` accepts (0: the first, the default; -1: the last). */
  nth?: number;
}

/** `code` with the `nth` instruction `w` matches dropped or replaced (throws when none matches). */
export function weaken(test: Test, code: LoweredCode, w: Weakening): LoweredCode {
  const t = test.threads.findIndex((th) => th.name === w.thread);
  const seq = code[t]?.[w.ir];
  const hits = seq ? seq.flatMap((i, n) => (w.match(i) ? [n] : [])) : [];
  const nth = w.nth ?? 0;
  const k = hits.at(nth) ?? -1;
  if (!seq || k < 0) throw new Error(`nothing to weaken in ${w.thread} instruction ${w.ir}`);
  const next = seq.slice();
  if (w.replace) next[k] = w.replace(seq[k]!);
  else next.splice(k, 1);
  return code.map((th, ti) => (ti === t ? th.map((s, ii) => (ii === w.ir ? next : s)) : th));
}

/** Generous budgets for tests. */
export const TEST_BUDGET: ExploreOptions = {
  reduce: true,
  maxStates: 2_000_000,
  deadline: Number.POSITIVE_INFINITY,
};

/** Runs the family's machine on `code`. */
export async function machineRun(
  test: Test,
  code: LoweredCode,
  ctx: LowerCtx,
  opts: ExploreOptions = TEST_BUDGET,
): Promise<SimResult> {
  const fam = familyMachine(ctx.target.processor.table!, ctx.target.processor.generation);
  if (!fam) throw new Error('no machine');
  const r = await simulate(test, code, fam, machineMode(ctx), opts);
  if (r.kind !== 'done') throw new Error(r.reason);
  return r;
}

/** The machine's outcomes over `labels`, as sorted `a=1 b=0` strings. */
export function outcomeTexts(test: Test, r: SimResult, labels: readonly string[]): string[] {
  const out = new Set<string>();
  for (const o of r.outcomes)
    out.add(labels.map((l) => `${l}=${labelValue(test, r.program, o.outcome, l)}`).join(' '));
  return [...out].sort();
}

/** A shortest trace to the first outcome whose values over `labels` read `want`, as text lines. */
export function traceText(
  test: Test,
  r: SimResult,
  labels: readonly string[],
  want: string,
): string[] | null {
  const o = r.outcomes.find(
    (x) => labels.map((l) => `${l}=${labelValue(test, r.program, x.outcome, l)}`).join(' ') === want,
  );
  if (!o) return null;
  const steps = traceOf(r, o, TEST_BUDGET);
  return steps ? steps.map((s) => `${s.kind} ${s.thread}: ${s.text} — ${s.detail}`) : null;
}
