/**
 * The catalogue against the machines, with the documents' code: every test of up to three threads on
 * GFX6 (buffer encoding), GFX9, GFX10 and GFX12 in both modes is `sound`, except the pinned findings below,
 * each `UNSOUND` with the forbidden final state and a trace (docs/hardware.md, "Findings on the
 * catalogue", explains each). The whole catalogue on every target, tests of four threads included,
 * is bench/check-catalogue.ts (docs/benchmarks.md).
 */

import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { WaveMode } from '../lower/types.ts';
import { ctxOf, litmusFile } from '../sim/testutil.ts';
import { docCode } from './check.ts';
import { checkCode } from './testutil.ts';

/** `file|target|mode` → the forbidden state the machine reaches. */
const PINNED: Record<string, string> = {
  // No table orders a relaxed load before a later store; the model's no-thin-air axiom does.
  'LB+rlx.agent|gfx600|cu': 'P0:r0=1; P1:r1=1;',
  'LB+rlx.agent|gfx900|cu': 'P0:r0=1; P1:r1=1;',
  'LB+rlx.agent|gfx1200|cu': 'P0:r0=1; P1:r1=1;',
  'LB+rlx.agent|gfx1200|wgp': 'P0:r0=1; P1:r1=1;',
  // Workgroup-scope acquire on global memory has no wait before a later LDS load.
  'MP+rel+acq.wg.lds-data|gfx1200|cu': 'P1:r0=1; P1:r1=0;',
  'MP+fence.wg.mixed-data|gfx1200|cu': 'P1:r0=1; P1:r1=1; P1:r2=0;',
  // A workgroup-scope release drains only the wave's own counters: a store of another wave of the
  // work-group, still queued in the CU, is not published by a later agent-scope release.
  'ISA2+rel+acq.hrf|gfx600|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf|gfx900|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf.atomic|gfx600|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf.atomic|gfx900|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf.atomic|gfx1200|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  // GFX12 CU mode: the workgroup-scope release omits the counter waits ("the vector and scalar memory
  // operations performed by different wavefronts, whether executing in the same or different
  // work-groups …, can be reordered"), and s_barrier orders no memory.
  'MP+bar+fence.wg|gfx1200|cu': 'P1:r0=0;',
  'MP+bar+fence.wg-one-as.mixed-data|gfx1200|cu': 'P1:r0=0; P1:r1=1;',
  // GFX10–11 follows GFX12 in CU mode.
  'LB+rlx.agent|gfx1030|cu': 'P0:r0=1; P1:r1=1;',
  'LB+rlx.agent|gfx1030|wgp': 'P0:r0=1; P1:r1=1;',
  'MP+rel+acq.wg.lds-data|gfx1030|cu': 'P1:r0=1; P1:r1=0;',
  'MP+fence.wg.mixed-data|gfx1030|cu': 'P1:r0=1; P1:r1=1; P1:r2=0;',
  'ISA2+rel+acq.hrf|gfx1030|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf.atomic|gfx1030|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'MP+bar+fence.wg|gfx1030|cu': 'P1:r0=0;',
  'MP+bar+fence.wg-one-as.mixed-data|gfx1030|cu': 'P1:r0=0; P1:r1=1;',
  'LB+rlx.agent|gfx1100|cu': 'P0:r0=1; P1:r1=1;',
  'MP+rel+acq.wg.lds-data|gfx1100|cu': 'P1:r0=1; P1:r1=0;',
  'MP+fence.wg.mixed-data|gfx1100|cu': 'P1:r0=1; P1:r1=1; P1:r2=0;',
  'ISA2+rel+acq.hrf|gfx1100|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf.atomic|gfx1100|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'MP+bar+fence.wg|gfx1100|cu': 'P1:r0=0;',
  'MP+bar+fence.wg-one-as.mixed-data|gfx1100|cu': 'P1:r0=0; P1:r1=1;',
};

const RUNS: [string, WaveMode][] = [
  ['gfx600', 'cu'],
  ['gfx900', 'cu'],
  ['gfx1200', 'cu'],
  ['gfx1200', 'wgp'],
  ['gfx1030', 'cu'],
  ['gfx1030', 'wgp'],
  // GFX11 lowers agent-scope atomic loads without dlc=1 (glc=1 alone is device coherent there).
  ['gfx1100', 'cu'],
];

const files = readdirSync('litmus')
  .filter((f) => f.endsWith('.litmus'))
  .map((f) => `litmus/${f}`);

describe('the catalogue is sound on the machines, but for the pinned findings', () => {
  for (const [target, mode] of RUNS) {
    it(`${target} ${mode}`, async () => {
      const unsound: Record<string, string> = {};
      let checked = 0;
      for (const file of files) {
        const test = litmusFile(file);
        if (test.threads.length > 3 || test.threads.some((t) => t.placement.kind === 'host')) continue;
        const ctx = ctxOf(target, mode);
        const code = docCode(test, ctx);
        if ('error' in code) continue;
        const r = await checkCode(test, code, ctx);
        if (r.verdict === 'unsupported') continue;
        checked++;
        expect(r.verdict === 'sound' || r.verdict === 'UNSOUND', `${test.name}: ${r.reason}`).toBe(true);
        if (r.verdict === 'UNSOUND') {
          expect(r.forbidden?.trace?.length ?? 0, test.name).toBeGreaterThan(0);
          unsound[`${test.name}|${target}|${mode}`] = Object.entries(r.forbidden!.values)
            .map(([k, v]) => `${k}=${v};`)
            .join(' ');
        }
      }
      expect(checked).toBeGreaterThan(90);
      const pinned = Object.fromEntries(
        Object.entries(PINNED).filter(([k]) => k.endsWith(`|${target}|${mode}`)),
      );
      expect(unsound).toEqual(pinned);
    }, 300_000);
  }
});
