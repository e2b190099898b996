/**
 * GFX90A code sequences (beyond the seeds): LLVM `llvm/docs/AMDGPUUsage.rst` at commit f5c8b0a9
 * (llvm/llvm-project), section "Memory Model GFX90A", table "AMDHSA Memory Model Code Sequences
 * GFX90A", with and without TgSplit execution mode. Each row cites the row it implements as
 * `AMDGPUUsage (f5c8b0a9) GFX90A table, "<row>"`.
 *
 * The rows, their steps and their omissions are GFX942's (gfx90a-942.ts builds both tables); what
 * GFX90A differs in are these hooks: `glc=1` where GFX942 has scope bits (returning atomics, volatile
 * loads, atomic loads at agent/system scope and, in TgSplit mode, at workgroup scope); `glc=1 slc=1`
 * for nontemporal accesses; no bits on atomic stores and atomicrmw; `buffer_wbinvl1_vol` (system:
 * `buffer_invl2` first) to acquire and `buffer_wbl2` to release at system scope only; and three
 * "load atomic monotonic" rows where GFX942 has one.
 */

import type { Gfx90a942Hooks } from './gfx90a-942.ts';
import { gfx90a942Table } from './gfx90a-942.ts';
import type { IsaInstr } from './isa.ts';
import { invl2, wbinvl1Vol, wbl2 } from './isa.ts';
import type { RowKey } from './table.ts';

const sys = (k: RowKey): boolean => k.scope === 'system';

/** What GFX90A says where GFX942 says otherwise. */
export const GFX90A_HOOKS: Gfx90a942Hooks = {
  name: 'GFX90A',
  returnBit: 'glc',
  // "load/store none none …" volatile: the load `glc=1`, the store no bits; nontemporal: `glc=1 slc=1`.
  volatileBits: (op) => (op === 'load' ? { glc: true } : {}),
  nontemporalBits: { glc: true, slc: true },
  // "load atomic monotonic/acquire workgroup …": `glc=1` ("If not TgSplit execution mode, omit
  // glc=1"); agent/system: `glc=1`.
  loadBits: (k, env) => {
    if (k.scope === 'workgroup') return { glc: env.tgsplit };
    return { glc: k.scope === 'agent' || sys(k) };
  },
  storeBits: () => ({}),
  rmwBits: () => ({}),
  rmwReleaseBits: () => ({}),
  workgroupInv: wbinvl1Vol,
  // Agent: `buffer_wbinvl1_vol`; system: `buffer_invl2; buffer_wbinvl1_vol`.
  acquireInv: (k): IsaInstr[] => (sys(k) ? [invl2(), wbinvl1Vol()] : [wbinvl1Vol()]),
  // System: `buffer_wbl2`; agent rows have none.
  releaseWb: (k): IsaInstr[] => (sys(k) ? [wbl2()] : []),
  // "load atomic monotonic singlethread/wavefront global/generic" — buffer/global/flat_load;
  // "… workgroup global/generic" — … glc=1 (not TgSplit: omit glc=1); "… agent global/generic" and
  // "… system global/generic" — … glc=1.
  monotonicLoadRows: [
    'load atomic monotonic singlethread/wavefront global/generic',
    'load atomic monotonic workgroup global/generic',
    'local',
    'load atomic monotonic agent/system global/generic',
  ],
};

/** The GFX90A table, in the document's order. */
export const GFX90A_TABLE = gfx90a942Table(GFX90A_HOOKS);
