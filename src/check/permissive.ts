/**
 * The permissiveness suite (litmus-hw/): litmus tests whose weak outcome the hardware text allows,
 * each citing its sentence. A machine must REACH each weak outcome with the unfenced code — the
 * documents' code of the test, on every family and mode the file names — so a machine that grows
 * stronger than the text fails. Where a named assumption (src/sim/assumptions.ts) removes the outcome
 * on purpose, the file says so (`; unless: ID`): the machine with its assumptions must then NOT reach
 * it, and the machine without them must. docs/hardware.md, "Permissiveness".
 *
 * A file's header lines: `; text:` the sentence (required), `; families:` the table families it runs
 * on (default all), `; skip:` a mode it does not run in, with the reason, `; unless:` an assumption.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { diagnosticLine } from '../core/diagnostics.ts';
import type { Test } from '../core/types.ts';
import { evalCond, termLabel } from '../enumerate/outcomes.ts';
import type { TableFamily } from '../lower/targets.ts';
import type { LowerCtx } from '../lower/types.ts';
import { type AssumptionId, assumptionsOf, isAssumptionId } from '../sim/assumptions.ts';
import { familyMachine, type HwText, machineMode } from '../sim/config.ts';
import type { ExploreOptions } from '../sim/machine.ts';
import { labelValue, simulate } from '../sim/simulate.ts';
import { docCode } from './check.ts';

/** Where the suite lives. */
export const PERMISSIVE_DIR = join(import.meta.dirname, '..', '..', 'litmus-hw');

/** A file's header: the sentence, where it runs, the assumption that removes its outcome. */
export interface PermissiveSpec {
  text: string;
  families: TableFamily[] | null;
  skipModes: string[];
  unless: AssumptionId | null;
}

/** The table families with a machine. */
const FAMILIES: readonly TableFamily[] = ['gfx6-9', 'gfx90a', 'gfx942', 'gfx10-11', 'gfx12', 'gfx1250', 'xe'];

/** Reads the header lines of a permissiveness test. */
export function permissiveSpec(source: string): PermissiveSpec {
  const field = (k: string) =>
    source
      .split('\n')
      .filter((l) => l.startsWith(`; ${k}:`))
      .map((l) => l.slice(k.length + 3).trim());
  const text = field('text').join(' ');
  if (text === '') throw new Error('a permissiveness test cites its sentence (; text:)');
  // The families, before any parenthesised reason.
  const fam = field('families')
    .join(' ')
    .replace(/\(.*\)/, '')
    .trim();
  const families = fam === '' ? null : fam.split(/\s+/);
  for (const f of families ?? [])
    if (!(FAMILIES as readonly string[]).includes(f)) throw new Error(`unknown table family ${f}`);
  const unless = field('unless')[0] ?? null;
  if (unless !== null && !isAssumptionId(unless)) throw new Error(`unknown assumption ${unless}`);
  return {
    text,
    families: families as TableFamily[] | null,
    skipModes: field('skip').map((s) => s.split(/\s+/)[0]!),
    unless,
  };
}

/** Does the test's `exists` outcome appear among the machine's final states? */
export async function reaches(
  test: Test,
  ctx: LowerCtx,
  weakest: boolean,
  budget: ExploreOptions,
  hwText: HwText = 'seed',
): Promise<boolean> {
  const code = docCode(test, ctx);
  if ('error' in code) throw new Error(diagnosticLine(code.error));
  const fam = familyMachine(
    ctx.target.processor.table!,
    ctx.target.processor.generation,
    weakest ? { assume: [], hwText } : { hwText },
  )!;
  const sim = await simulate(test, code, fam, machineMode(ctx), budget);
  if (sim.kind === 'unsupported') throw new Error(sim.reason);
  if (sim.stop !== 'done') throw new Error(`the exploration stopped (${sim.stop})`);
  const cond = test.condition!.cond;
  return sim.outcomes.some(
    (o) => evalCond(cond, (l) => labelValue(test, sim.program, o.outcome, l), termLabel) === 'true',
  );
}

/** Does the file's `unless` assumption apply to this run (so the machine with it must not reach)? */
export function assumedAway(spec: PermissiveSpec, ctx: LowerCtx): boolean {
  return (
    spec.unless !== null && assumptionsOf(ctx.target.processor.table!, machineMode(ctx)).includes(spec.unless)
  );
}

/** The suite's files, by name. */
export function permissiveFiles(): string[] {
  return readdirSync(PERMISSIVE_DIR)
    .filter((f) => f.endsWith('.litmus'))
    .sort()
    .map((f) => join(PERMISSIVE_DIR, f));
}

/** The source of a suite file. */
export function permissiveSource(file: string): string {
  return readFileSync(file, 'utf8');
}
