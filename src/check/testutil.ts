/** Helpers for tests of the checker: the full check of (possibly weakened) code against the model. */

import { describe, expect, it } from 'vitest';
import { CATALOGUE_DIR } from '../cli/demo.ts';
import { litmusFilesIn } from '../cli/io.ts';
import { diagnosticLine } from '../core/diagnostics.ts';
import type { Test } from '../core/types.ts';
import { modelDiagnostics, runTestSync } from '../enumerate/verdict.ts';
import { findTarget } from '../lower/targets.ts';
import type { LowerCtx, WaveMode } from '../lower/types.ts';
import type { HwText } from '../sim/config.ts';
import type { LoweredCode } from '../sim/program.ts';
import { ctxOf, litmusFile, TEST_BUDGET } from '../sim/testutil.ts';
import { type CheckOptions, type CheckResult, checkTest, docCode, type Lowering } from './check.ts';
import { CATALOGUE_RUNS, otherReading, READING_RUNS } from './findings.ts';
import { llcCodes } from './llc-code.ts';

export { CATALOGUE_RUNS, LB_RLX_PINNED, otherReading, READING_RUNS } from './findings.ts';

/** The full check of `code` against the model (`edited`: IR instructions to mark in the trace). */
export async function checkCode(
  test: Test,
  code: LoweredCode,
  ctx: LowerCtx,
  edited: CheckOptions['edited'] = [],
): Promise<CheckResult> {
  const report = runTestSync(test);
  return checkTest(test, report, code, ctx, 'doc', { ...TEST_BUDGET, trace: true, edited });
}

/** What the catalogue check found on one target and mode with one profile. */
export interface CatalogueVerdicts {
  checked: number;
  /** `test|target|mode` → the forbidden state (`P1:r0=1; P1:r1=0;`), with the trace's length. */
  unsound: Record<string, string>;
  traces: Record<string, number>;
  /** `test|target|mode` → the assumptions a sound verdict needs (src/sim/assumptions.ts), when any. */
  assumed: Record<string, string[]>;
  /** Why the other tests were not checked. */
  unsupported: string[];
  undecided: string[];
}

/** Checks every catalogue test on a target and mode with the documents' or llc-22's code. */
export async function checkCatalogue(
  target: string,
  mode: WaveMode | 'tgsplit',
  lowering: Lowering,
  hwText?: HwText,
): Promise<CatalogueVerdicts> {
  const suffix = hwText === undefined ? '' : `|${hwText}`;
  const tests = litmusFilesIn(CATALOGUE_DIR)
    .map((f) => litmusFile(f))
    .filter((t) => modelDiagnostics(t).length === 0);
  const ctx = ctxOf(target, mode);
  const codes = lowering === 'llc' ? await llcCodes(tests, ctx) : tests.map((t) => docCode(t, ctx));
  const out: CatalogueVerdicts = {
    checked: 0,
    unsound: {},
    traces: {},
    assumed: {},
    unsupported: [],
    undecided: [],
  };
  for (const [k, test] of tests.entries()) {
    const code = codes[k]!;
    if ('error' in code) {
      out.unsupported.push(`${test.name}: ${diagnosticLine(code.error)}`);
      continue;
    }
    const r = await checkTest(test, runTestSync(test), code, ctx, lowering, {
      ...TEST_BUDGET,
      trace: true,
      settings: hwText === undefined ? {} : { hwText },
    });
    if (r.verdict === 'unsupported') out.unsupported.push(`${test.name}: ${r.reason}`);
    else if (r.verdict === 'undecided') out.undecided.push(`${test.name}: ${r.reason}`);
    else {
      out.checked++;
      const key = `${test.name}|${target}|${mode}${suffix}`;
      if (r.assumptions.length > 0) out.assumed[key] = r.assumptions;
      if (r.verdict === 'UNSOUND') {
        out.unsound[key] = Object.entries(r.forbidden!.values)
          .map(([l, v]) => `${l}=${v};`)
          .join(' ');
        out.traces[key] = r.forbidden?.trace?.length ?? 0;
      }
    }
  }
  return out;
}

/**
 * The catalogue suite of one profile: on every run of CATALOGUE_RUNS every test is sound but the
 * `pinned` ones (`test|target|mode` → forbidden state), each with a trace; the sound verdicts that need
 * assumptions are exactly the `assumed` ones (`test|target|mode` → the assumptions); and every test not
 * checked is so for one of the `allowed` reasons.
 */
export function catalogueSuite(
  lowering: Lowering,
  pinned: Record<string, string>,
  assumed: Record<string, readonly string[]>,
  allowed: readonly RegExp[],
  skip = false,
): void {
  const what = lowering === 'doc' ? "the documents' code" : "llc-22's code";
  describe.skipIf(skip)(`the catalogue on the machines, ${what}: sound but for the pinned findings`, () => {
    const runs: [string, WaveMode | 'tgsplit', HwText | undefined][] = [
      ...CATALOGUE_RUNS.map(([t, m]): [string, WaveMode | 'tgsplit', undefined] => [t, m, undefined]),
      ...READING_RUNS.map(([t, m]): [string, WaveMode, HwText] => [t, m, otherReading(lowering)]),
    ];
    for (const [target, mode, hwText] of runs) {
      // llc-22 has no Intel Xe backend.
      if (lowering === 'llc' && findTarget(target)?.processor.vendor === 'Intel') continue;
      const suffix = `|${target}|${mode}${hwText === undefined ? '' : `|${hwText}`}`;
      it(`${target} ${mode}${hwText === undefined ? '' : `, --hw-text ${hwText}`}`, async () => {
        const v = await checkCatalogue(target, mode, lowering, hwText);
        expect(v.undecided).toEqual([]);
        expect(v.unsupported.filter((u) => !allowed.some((r) => r.test(u)))).toEqual([]);
        expect(v.checked).toBeGreaterThan(110);
        for (const [k, n] of Object.entries(v.traces)) expect(n, k).toBeGreaterThan(0);
        const mine = <T>(pins: Record<string, T>) =>
          Object.fromEntries(Object.entries(pins).filter(([k]) => k.endsWith(suffix)));
        expect(v.unsound).toEqual(mine(pinned));
        expect(v.assumed).toEqual(mine(assumed));
      }, 300_000);
    }
  });
}
