/**
 * The permissiveness suite (src/check/permissive.ts, litmus-hw/): on every family and mode each test
 * runs on, the machine without assumptions reaches the weak outcome the hardware text allows; the
 * machine with its assumptions reaches it too, unless the test names the assumption that removes it
 * — then it must not. A machine that gets stronger than the text fails here.
 */

import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ASSUMPTIONS } from '../sim/assumptions.ts';
import { HW_TEXTS, type HwText } from '../sim/config.ts';
import { ctxOf, litmus, TEST_BUDGET } from '../sim/testutil.ts';
import { assumedAway, permissiveFiles, permissiveSource, permissiveSpec, reaches } from './permissive.ts';
import { CATALOGUE_RUNS } from './testutil.ts';

const FILES = permissiveFiles();

describe('the permissiveness suite: the machines reach what the hardware text allows', () => {
  for (const file of FILES) {
    const source = permissiveSource(file);
    const spec = permissiveSpec(source);
    const test = litmus(source, file);
    const runs = CATALOGUE_RUNS.filter(([target, mode]) => {
      const fam = ctxOf(target, mode).target.processor.table!;
      return (spec.families === null || spec.families.includes(fam)) && !spec.skipModes.includes(mode);
    });
    it(`${basename(file)} on ${runs.length} runs`, async () => {
      expect(runs.length).toBeGreaterThan(0);
      for (const [target, mode] of runs) {
        const ctx = ctxOf(target, mode);
        // GFX12 under both readings of its L0 and GL1 (docs/hardware.md, "GFX12 L0: two readings").
        const readings: HwText[] = ctx.target.processor.table === 'gfx12' ? [...HW_TEXTS] : ['seed'];
        for (const hw of readings) {
          const at = `${target} ${mode}${readings.length > 1 ? ` (${hw})` : ''}`;
          expect(await reaches(test, ctx, true, TEST_BUDGET, hw), `${at} without assumptions`).toBe(true);
          expect(await reaches(test, ctx, false, TEST_BUDGET, hw), `${at} with its assumptions`).toBe(
            !assumedAway(spec, ctx),
          );
        }
      }
    }, 300_000);
  }

  it('every assumption has a test whose outcome it removes (so dropping it is seen to matter)', () => {
    const named = FILES.map((f) => permissiveSpec(permissiveSource(f)).unless);
    for (const a of ASSUMPTIONS) expect(named, a.id).toContain(a.id);
  });
});
