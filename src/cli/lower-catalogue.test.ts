/**
 * Every test of the litmus catalogue (litmus/) lowers on every table family that has its
 * operations: no errors but LW2006/LW2007 (a barrier operation or barrier id the family lacks:
 * split barriers before GFX12, named barriers before GFX12.5, AMDGPU-only barrier operations on Intel
 * Xe) and, on Intel Xe only, the documented LW2008 warnings (the av intrinsics have no Xe
 * lowering); and every test lowers completely on at least one of the targets. An invariant
 * rather than a golden file, so adding a catalogue test never needs a lowering baseline accepted.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Test } from '../core/types.ts';
import { lowerTest } from '../lower/lower.ts';
import { findTarget } from '../lower/targets.ts';
import { parse } from '../syntax/parser.ts';
import { litmusFilesIn } from './io.ts';

const ROOT = join(import.meta.dirname, '..', '..');
// Intel Xe: one platform per fence-lowering group.
const TARGETS = [
  'gfx700',
  'gfx900',
  'gfx90a',
  'gfx942',
  'gfx1030',
  'gfx1100',
  'gfx1200',
  'gfx1250',
  'dg2',
  'pvc',
  'lnl',
];

const catalogue: { file: string; test: Test }[] = litmusFilesIn(join(ROOT, 'litmus')).flatMap((file) => {
  const { test } = parse(readFileSync(file, 'utf8'), relative(ROOT, file));
  return test ? [{ file: relative(ROOT, file), test }] : [];
});

/** Diagnostic codes of lowering `test` on `name` in every mode the target has, LW2008 left out on Intel. */
function lowerCodes(test: Test, name: string): string[] {
  const target = findTarget(name)!;
  const intel = target.processor.vendor === 'Intel';
  const codes: string[] = [];
  // Targets without CU/WGP modes ignore the mode.
  for (const mode of ['cu', 'wgp'] as const) {
    for (const t of lowerTest(test, { target, mode, lang: 'hsa' })) {
      for (const { result } of t.instrs) {
        if ('diagnostic' in result && !(intel && result.diagnostic.code === 'LW2008'))
          codes.push(result.diagnostic.code);
      }
    }
  }
  return codes;
}

describe('lowering the catalogue', () => {
  it('has tests to lower', () => expect(catalogue.length).toBeGreaterThan(100));

  it.each(TARGETS)('%s: every test lowers, but for barrier operations the family lacks', (name) => {
    const problems = catalogue.flatMap(({ file, test }) =>
      lowerCodes(test, name)
        .filter((c) => c !== 'LW2006' && c !== 'LW2007')
        .map((c) => `${file}: ${c}`),
    );
    expect(problems).toEqual([]);
  });

  it('every test lowers completely on at least one target', () => {
    const nowhere = catalogue
      .filter(({ test }) => TARGETS.every((name) => lowerCodes(test, name).length > 0))
      .map(({ file }) => file);
    expect(nowhere).toEqual([]);
  });
});
