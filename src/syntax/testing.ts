/** Helpers for tests of the front end: span-free comparison of ASTs. */
import type { Test } from '../core/types.ts';

/** A deep copy of `test` (a gpumm or a Vulkan test) without spans and file name, for structural comparison. */
export function stripSpans(test: Test | { file: string }): unknown {
  return JSON.parse(JSON.stringify({ ...test, file: '' }, (k, v) => (k === 'span' ? undefined : v)));
}
