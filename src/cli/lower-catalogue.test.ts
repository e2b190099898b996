/**
 * Every test of the litmus catalogue (litmus/) lowers on every table family: no errors, only the
 * documented LW2008 warnings (av intrinsics have no table row). An invariant rather than a golden
 * file, so adding a catalogue test never needs a lowering baseline accepted.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lowerTest } from '../lower/lower.ts';
import { findTarget } from '../lower/targets.ts';
import { parse } from '../syntax/parser.ts';
import { litmusFilesIn } from './io.ts';

const ROOT = join(import.meta.dirname, '..', '..');

describe('lowering the catalogue', () => {
  it.each(['gfx700', 'gfx900', 'gfx1030', 'gfx1100', 'gfx1200'])('%s: every test lowers', (name) => {
    const target = findTarget(name)!;
    const problems: string[] = [];
    for (const file of litmusFilesIn(join(ROOT, 'litmus'))) {
      const { test } = parse(readFileSync(file, 'utf8'), relative(ROOT, file));
      if (!test) continue;
      for (const mode of ['cu', 'wgp'] as const) {
        for (const t of lowerTest(test, { target, mode, lang: 'hsa' })) {
          for (const { result } of t.instrs) {
            if ('diagnostic' in result && result.diagnostic.code !== 'LW2008') {
              problems.push(`${relative(ROOT, file)} ${t.thread}: ${result.diagnostic.code}`);
            }
          }
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
