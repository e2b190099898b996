/** Helpers for tests of the checker: the full check of (possibly weakened) code against the model. */

import type { Test } from '../core/types.ts';
import { runTestSync } from '../enumerate/verdict.ts';
import type { LowerCtx } from '../lower/types.ts';
import type { LoweredCode } from '../sim/program.ts';
import { TEST_BUDGET } from '../sim/testutil.ts';
import { type CheckResult, checkTest } from './check.ts';

/** The full check of `code` against the model. */
export async function checkCode(test: Test, code: LoweredCode, ctx: LowerCtx): Promise<CheckResult> {
  const report = runTestSync(test);
  return checkTest(test, report, code, ctx, 'doc', { ...TEST_BUDGET, trace: true });
}
