/** Helpers for tests of the checker: the full check of (possibly weakened) code against the model. */

import { describe, expect, it } from 'vitest';
import { CATALOGUE_DIR } from '../cli/demo.ts';
import { litmusFilesIn } from '../cli/io.ts';
import type { Test } from '../core/types.ts';
import { modelDiagnostics, runTestSync } from '../enumerate/verdict.ts';
import { findTarget } from '../lower/targets.ts';
import type { LowerCtx, WaveMode } from '../lower/types.ts';
import type { LoweredCode } from '../sim/program.ts';
import { ctxOf, litmusFile, TEST_BUDGET } from '../sim/testutil.ts';
import { type CheckResult, checkTest, docCode, type Lowering } from './check.ts';
import { llcCodes } from './llc-code.ts';

/** The full check of `code` against the model. */
export async function checkCode(test: Test, code: LoweredCode, ctx: LowerCtx): Promise<CheckResult> {
  const report = runTestSync(test);
  return checkTest(test, report, code, ctx, 'doc', { ...TEST_BUDGET, trace: true });
}

/** The machine runs the catalogue is checked on: every family, every mode, distinct code per target. */
export const CATALOGUE_RUNS: readonly [string, WaveMode | 'tgsplit'][] = [
  ['gfx600', 'cu'],
  ['gfx700', 'cu'],
  ['gfx900', 'cu'],
  ['gfx90a', 'cu'],
  ['gfx90a', 'tgsplit'],
  ['gfx942', 'cu'],
  ['gfx942', 'tgsplit'],
  ['gfx950', 'cu'],
  ['gfx1030', 'cu'],
  ['gfx1030', 'wgp'],
  ['gfx1100', 'cu'],
  ['gfx1100', 'wgp'],
  ['gfx1200', 'cu'],
  ['gfx1200', 'wgp'],
  ['gfx1250', 'cu'],
  // Intel Xe, one platform of each fence-lowering group (the others run the same machine on the same
  // code: src/sim/intel.test.ts).
  ['dg2', 'cu'],
  ['pvc', 'cu'],
  ['lnl', 'cu'],
];

/**
 * A finding of every AMD run with either profile, as `test|target|mode` → state: no table orders a
 * relaxed load before a later store of another location; the model's no-thin-air axiom does
 * (docs/hardware.md, "Findings").
 */
export const LB_RLX_PINNED: Readonly<Record<string, string>> = Object.fromEntries(
  CATALOGUE_RUNS.filter(([t]) => findTarget(t)?.processor.vendor === 'AMD').map(([t, m]) => [
    `LB+rlx.agent|${t}|${m}`,
    'P0:r0=1; P1:r1=1;',
  ]),
);

/** What the catalogue check found on one target and mode with one profile. */
export interface CatalogueVerdicts {
  checked: number;
  /** `test|target|mode` → the forbidden state (`P1:r0=1; P1:r1=0;`), with the trace's length. */
  unsound: Record<string, string>;
  traces: Record<string, number>;
  /** Why the other tests were not checked. */
  unsupported: string[];
  undecided: string[];
}

/** Checks every catalogue test on a target and mode with the documents' or llc-22's code. */
export async function checkCatalogue(
  target: string,
  mode: WaveMode | 'tgsplit',
  lowering: Lowering,
): Promise<CatalogueVerdicts> {
  const tests = litmusFilesIn(CATALOGUE_DIR)
    .map((f) => litmusFile(f))
    .filter((t) => modelDiagnostics(t).length === 0);
  const ctx = ctxOf(target, mode);
  const codes = lowering === 'llc' ? await llcCodes(tests, ctx) : tests.map((t) => docCode(t, ctx));
  const out: CatalogueVerdicts = { checked: 0, unsound: {}, traces: {}, unsupported: [], undecided: [] };
  for (const [k, test] of tests.entries()) {
    const code = codes[k]!;
    if ('error' in code) {
      out.unsupported.push(`${test.name}: ${code.error}`);
      continue;
    }
    const r = await checkTest(test, runTestSync(test), code, ctx, lowering, { ...TEST_BUDGET, trace: true });
    if (r.verdict === 'unsupported') out.unsupported.push(`${test.name}: ${r.reason}`);
    else if (r.verdict === 'undecided') out.undecided.push(`${test.name}: ${r.reason}`);
    else {
      out.checked++;
      if (r.verdict === 'UNSOUND') {
        const key = `${test.name}|${target}|${mode}`;
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
 * `pinned` ones (`test|target|mode` → forbidden state), each with a trace, and every test not checked
 * is so for one of the `allowed` reasons.
 */
export function catalogueSuite(
  lowering: Lowering,
  pinned: Record<string, string>,
  allowed: readonly RegExp[],
  skip = false,
): void {
  const what = lowering === 'doc' ? "the documents' code" : "llc-22's code";
  describe.skipIf(skip)(`the catalogue on the machines, ${what}: sound but for the pinned findings`, () => {
    for (const [target, mode] of CATALOGUE_RUNS) {
      // llc-22 has no Intel Xe backend.
      if (lowering === 'llc' && findTarget(target)?.processor.vendor === 'Intel') continue;
      it(`${target} ${mode}`, async () => {
        const v = await checkCatalogue(target, mode, lowering);
        expect(v.undecided).toEqual([]);
        expect(v.unsupported.filter((u) => !allowed.some((r) => r.test(u)))).toEqual([]);
        expect(v.checked).toBeGreaterThan(110);
        for (const [k, n] of Object.entries(v.traces)) expect(n, k).toBeGreaterThan(0);
        const want = Object.fromEntries(
          Object.entries(pinned).filter(([k]) => k.endsWith(`|${target}|${mode}`)),
        );
        expect(v.unsound).toEqual(want);
      }, 300_000);
    }
  });
}
