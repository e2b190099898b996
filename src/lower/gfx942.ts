/**
 * GFX942 code sequences (beyond the seeds): LLVM `llvm/docs/AMDGPUUsage.rst` at commit f5c8b0a9
 * (llvm/llvm-project), section "Memory Model GFX942", table "AMDHSA Memory Model Code Sequences
 * GFX942", with and without TgSplit execution mode. Each row cites the row it implements as
 * `AMDGPUUsage (f5c8b0a9) GFX942 table, "<row>"`. gfx950 uses this table too: an inference (no
 * "Memory Model GFX950" section exists; see docs/targets/README.md).
 *
 * The rows, their steps and their omissions are GFX90A's (gfx90a-942.ts builds both tables); what
 * GFX942 differs in are these hooks. Scope bits: `sc0=1` workgroup, `sc1=1` agent, `sc0=1 sc1=1`
 * system on atomic loads and stores (and on release atomicrmw, as written); atomics use `sc0=1` for
 * "returns the pre-op value" (Memory Model GFX942 text) and `sc1=1` for system scope; volatile
 * accesses `sc0=1 sc1=1`, nontemporal ones `nt=1`. `buffer_inv` with scope bits acquires (`sc0=1` at
 * workgroup in TgSplit mode) and `buffer_wbl2 sc1=1` / `sc0=1 sc1=1` releases at agent and system
 * scope. One "load atomic monotonic" row spans every scope.
 */

import type { Gfx90a942Hooks } from './gfx90a-942.ts';
import { gfx90a942Table } from './gfx90a-942.ts';
import type { ScBits, VmemBits } from './isa.ts';
import { bufferInv, wbl2 } from './isa.ts';
import type { RowKey } from './table.ts';

const sys = (k: RowKey): boolean => k.scope === 'system';

/** The load/store scope bits of a row: workgroup `sc0=1`, agent `sc1=1`, system `sc0=1 sc1=1`. */
function scopeBits(k: RowKey): VmemBits {
  return {
    sc0: k.scope === 'workgroup' || k.scope === 'system',
    sc1: k.scope === 'agent' || k.scope === 'system',
  };
}

/** Agent `sc1`, system `sc0 sc1`: the bits of the agent/system invalidate and write-back. */
const agentSystemSc = (k: RowKey): ScBits => (sys(k) ? 'sc0 sc1' : 'sc1');

/** What GFX942 says where GFX90A says otherwise. */
export const GFX942_HOOKS: Gfx90a942Hooks = {
  name: 'GFX942',
  returnBit: 'sc0',
  volatileBits: () => ({ sc0: true, sc1: true }),
  nontemporalBits: { nt: true },
  loadBits: scopeBits,
  storeBits: scopeBits,
  // "atomicrmw monotonic/acquire/acq_rel … system" — … sc1=1; "atomicrmw monotonic agent" and
  // "atomicrmw acq_rel agent" have none (docs/targets/gfx942.md, "Readings").
  rmwBits: (k) => ({ sc1: sys(k) }),
  // "atomicrmw release workgroup" — … sc0=1; "… agent" — … sc1=1; "… system" — … sc0=1 sc1=1.
  rmwReleaseBits: scopeBits,
  workgroupInv: () => bufferInv('sc0'),
  acquireInv: (k) => [bufferInv(agentSystemSc(k))],
  releaseWb: (k) => [wbl2(agentSystemSc(k))],
  // "load atomic monotonic singlethread/wavefront global/generic" — buffer/global/flat_load;
  // "… workgroup …" — … sc0=1; "… agent …" — … sc1=1; "… system …" — … sc0=1 sc1=1.
  monotonicLoadRows: [
    'load atomic monotonic singlethread/wavefront/workgroup/agent/system global/generic',
    'local',
  ],
};

/** The GFX942 table, in the document's order. */
export const GFX942_TABLE = gfx90a942Table(GFX942_HOOKS);
