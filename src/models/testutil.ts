/**
 * Helpers for model and enumerator tests: run a test and print its final states compactly.
 */

import type { Test } from '../core/types.ts';
import { isUndef } from '../core/values.ts';
import { Collector, type EnumerateOptions, enumerate } from '../enumerate/enumerate.ts';
import { DEFAULT_OPTIONS, type ModelOptions } from './amdgpu.ts';

/** Final states as sorted strings `P0:a=1 P1:b=undef`, with `!race` / `!undef` flags appended. */
export function stateStrings(c: Collector, flags = false): string[] {
  const out: string[] = [];
  for (const s of c.records()) {
    const parts = c.labels.map((l, k) => `${l}=${isUndef(s.values[k]!) ? 'undef' : s.values[k]}`);
    if (flags && s.race) parts.push('!race');
    if (flags && s.undef) parts.push('!undef');
    out.push(parts.join(' '));
  }
  return out.sort();
}

/** `stateStrings` with flags, each followed by its execution count (`×n`). */
export function withCounts(c: Collector): string[] {
  const labels = stateStrings(c, true);
  const counts = new Map<string, number>();
  for (const s of c.records()) {
    const one = new Collector(c.labels);
    one.record(s.values, s.count, s.race, s.undef);
    counts.set(stateStrings(one, true)[0]!, s.count);
  }
  return labels.map((l) => `${l} ×${counts.get(l)}`);
}

/** Final states of `test` under `model` (optimised enumerator). */
export function states(
  test: Test,
  model: Partial<ModelOptions> = {},
  flags = false,
  extra: Partial<EnumerateOptions> = {},
): string[] {
  const e = enumerate(test, { ...extra, model: { ...DEFAULT_OPTIONS, ...model } });
  return stateStrings(e.collector, flags);
}

/** True when some final state contains every `k=v` fragment given. */
export function allows(test: Test, fragments: string[], model: Partial<ModelOptions> = {}): boolean {
  return states(test, model).some((s) => {
    const parts = s.split(' ');
    return fragments.every((f) => parts.includes(f));
  });
}
