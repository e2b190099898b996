/**
 * One machine core, configured per hardware family: the cache levels between a wavefront and
 * memory (which hardware unit owns each instance, the scope rank an access must reach, whether the
 * level ever holds written data), which counters each instruction is counted on, and which levels
 * each invalidate / write-back instruction acts on. Every entry cites the hardware text it comes
 * from; docs/hardware.md lists what the machines simplify.
 *
 * The machines know nothing of the model: nothing here (or anywhere in src/sim) imports
 * src/models or src/enumerate.
 *
 * No Node APIs here.
 */

import type { Counter, InvInstr, VmemInstr, WbInstr } from '../lower/isa.ts';
import { cacheScopeRank } from '../lower/isa.ts';
import type { Generation, TableFamily } from '../lower/targets.ts';
import type { WaveMode } from '../lower/types.ts';

/** The hardware unit that owns one instance of a cache level. */
export type Unit = 'cu' | 'sa' | 'agent';

/**
 * One cache level. An access of rank `r` may be performed (hit, written, read-modify-written) at the
 * first level whose `rank` is at least `r`; levels of smaller rank forward it (gfx12-memory-model.rst:
 * "When a memory operation with a given SCOPE reaches a cache with a smaller SCOPE value, it is
 * forwarded to the next level of cache").
 */
export interface LevelSpec {
  name: string;
  unit: Unit;
  rank: number;
  /** Writes and read-modify-writes are never performed here: they pass through to the next level. */
  writeThrough: boolean;
  /** The hardware sentence that puts this level there. */
  cite: string;
}

/** What an invalidate or write-back instruction does: act on the levels of rank in [`from`, `below`). */
export interface CacheOpSpec {
  from: number;
  below: number;
  /** Counters the instruction is counted on until it has been performed. */
  counters: Counter[];
  cite: string;
}

/** A family's machine. */
export interface FamilyConfig {
  family: TableFamily;
  /** Levels from the wavefront outwards; memory lies behind the last one. */
  levels: readonly LevelSpec[];
  /** Rank of memory: every access may be performed there. */
  memoryRank: number;
  /** How many CUs one WGP has (1: no WGPs, a workgroup runs on one CU). */
  cusPerWgp: 1 | 2;
  /** Wavefront execution modes the family has (GFX6–9: CU only). */
  modes: readonly WaveMode[];
  /** Rank an access by this vector memory instruction must reach. */
  rank: (i: VmemInstr) => number;
  /** Counters a memory instruction is counted on (`flat`: the generic encoding, LDS or global). */
  counters: (i: VmemInstr | { kind: 'lds'; op: VmemInstr['op']; returns: boolean }) => Counter[];
  /** The invalidate's effect, or null when this family's machine does not implement it. */
  inv: (i: InvInstr) => CacheOpSpec | null;
  /** The write-back's effect, or null when this family's machine does not implement it. */
  wb: (i: WbInstr) => CacheOpSpec | null;
  /**
   * An invalidate waits for the wave's earlier vector memory operations (GFX12: "The invalidation
   * requests cannot be reordered with pending or upcoming memory operations"). Where the text is
   * silent (GFX6–9) it may overtake them: the tables wait for them explicitly.
   */
  invAfterEarlier: boolean;
  /** Counters of the family (a wait on any other counter is an unsupported instruction). */
  knownCounters: readonly Counter[];
}

const USAGE = 'amdgpu-usage-2018.rst "Memory Model"';
const G12 = 'gfx12-memory-model.rst';

/**
 * GFX6–GFX9. Ranks: 0 the CU's vector L1, 1 the agent's L2, which this machine folds into memory:
 * the tests use coherent memory, for which "The L2 cache can be kept coherent with other agents on
 * some targets, or ranges of virtual addresses can be set up to bypass it to ensure system
 * coherence" (USAGE), and the table gives system scope the same code as agent scope.
 */
export const GFX6_9: FamilyConfig = {
  family: 'gfx6-9',
  levels: [
    {
      name: 'L1',
      unit: 'cu',
      rank: 0,
      // Stores complete at the L2: the release sequences publish earlier stores with
      // `s_waitcnt vmcnt(0)` alone (no L1 write-back exists), so a completed store is in the L2.
      writeThrough: true,
      cite: `${USAGE}: "The vector memory operations access a vector L1 cache shared by all wavefronts on a CU."`,
    },
  ],
  memoryRank: 1,
  cusPerWgp: 1,
  modes: ['cu'],
  // USAGE table: a load with glc=1 is the agent-coherent load (bypasses the L1); atomics are
  // performed in the L2 ("The vector and scalar memory operations use an L2 cache shared by all
  // CUs on the same agent"), stores write through.
  rank: (i) => (i.op === 'load' && !i.glc ? 0 : 1),
  // USAGE: vector memory operations are counted on vmcnt, LDS on lgkmcnt; flat may be either, so
  // "flat_load/store/atomic instructions can report out of vector memory order if they access LDS
  // memory, and out of LDS operation order if they access global memory": counted on both.
  counters: (i) => (i.kind === 'lds' ? ['lgkmcnt'] : i.enc === 'flat' ? ['vmcnt', 'lgkmcnt'] : ['vmcnt']),
  inv: (i) =>
    i.mnemonic === 'buffer_wbinvl1_vol'
      ? {
          from: 0,
          below: 1,
          counters: ['vmcnt'],
          cite: `${USAGE}: "A buffer_wbinvl1_vol is required for coherence between waves executing in different work-groups as they may be executing on different CUs."`,
        }
      : null,
  wb: () => null,
  invAfterEarlier: false,
  knownCounters: ['vmcnt', 'expcnt', 'lgkmcnt'],
};

/**
 * GFX12. Ranks are the SCOPE values: 0 SCOPE_CU (the CU's L0), 1 SCOPE_SE (the shader array's GL1),
 * 2 SCOPE_DEV (the agent's L2), 3 SCOPE_SYS (memory; the MALL "is fully coherent with GPU memory and
 * has no impact on system coherence", so it is part of memory here).
 */
export const GFX12: FamilyConfig = {
  family: 'gfx12',
  levels: [
    {
      name: 'L0',
      unit: 'cu',
      rank: 0,
      writeThrough: false,
      cite: `${G12}: "The vector memory operations access a vector L0 cache. There is a single L0 cache per CU."`,
    },
    {
      name: 'GL1',
      unit: 'sa',
      rank: 1,
      writeThrough: false,
      cite: `${G12}: "The vector and scalar memory L0 caches use an L1 buffer shared by all WGPs on the same SA."`,
    },
    {
      name: 'L2',
      unit: 'agent',
      rank: 2,
      writeThrough: false,
      cite: `${G12}: "The L1 buffers use an L2 cache shared by all SAs on the same agent."`,
    },
  ],
  memoryRank: 3,
  cusPerWgp: 2,
  modes: ['cu', 'wgp'],
  // G12: "The SCOPE determines whether a cache can complete an operation locally or whether it
  // needs to forward the operation to the next cache level"; no scope operand is SCOPE_CU.
  rank: (i) => (i.scope === null ? 0 : cacheScopeRank(i.scope)),
  // G12: "Load (global, scratch, flat, buffer and image): s_wait_loadcnt", "Store …: s_wait_storecnt",
  // "LDS: s_wait_dscnt". A returning atomic is counted as a load, a non-returning one as a store
  // (LLVM's SIInsertWaitcnts); flat may reach LDS, so it is also counted on dscnt.
  counters: (i) => {
    if (i.kind === 'lds') return ['dscnt'];
    const own: Counter = i.op === 'load' || (i.op === 'atomic' && i.returns) ? 'loadcnt' : 'storecnt';
    return i.enc === 'flat' ? [own, 'dscnt'] : [own];
  },
  inv: (i) =>
    i.mnemonic === 'global_inv'
      ? {
          from: 0,
          below: i.scope === null ? 0 : cacheScopeRank(i.scope),
          counters: ['loadcnt'],
          cite: `${G12}: "global_inv invalidates caches whose scope is strictly smaller than the instruction's."`,
        }
      : null,
  wb: (i) =>
    i.mnemonic === 'global_wb'
      ? {
          from: 0,
          below: i.scope === null ? 0 : cacheScopeRank(i.scope),
          counters: ['storecnt'],
          cite: `${G12}: "global_wb additionally ensures that previous memory operation done at a lower scope level have reached the SCOPE: of the global_wb."`,
        }
      : null,
  invAfterEarlier: true,
  knownCounters: ['loadcnt', 'storecnt', 'dscnt', 'samplecnt', 'bvhcnt', 'kmcnt', 'expcnt'],
};

const G10 =
  'AMDGPUUsage (f5c8b0a9) "Memory Model GFX10-GFX11" (docs/research/llvm-amdgpuusage-beyond-seeds.md)';

/**
 * GFX10–GFX11. Ranks: 0 the CU's vector L0, 1 the shader array's GL1, 2 memory — the agent's L2 is
 * folded into memory as on GFX6–9: system scope has the agent-scope code (no L2 write-back or
 * invalidate exists), so the L2 is the coherence point. The family has no write-back instruction and
 * its releases only wait, so a completed store is in the L2: the L0 and GL1 take no writes.
 */
export const GFX10_11: FamilyConfig = {
  family: 'gfx10-11',
  levels: [
    {
      name: 'L0',
      unit: 'cu',
      rank: 0,
      writeThrough: true,
      cite: `${G10}: "Vector L0 per CU (buffer_gl0_inv to invalidate)"`,
    },
    {
      name: 'GL1',
      unit: 'sa',
      rank: 1,
      writeThrough: true,
      cite: `${G10}: "L1 (GL1) per SA, shared by that SA's WGPs, invalidated with buffer_gl1_inv"`,
    },
  ],
  memoryRank: 2,
  cusPerWgp: 2,
  modes: ['cu', 'wgp'],
  // glc=1: "workgroup/agent coherence on loads" (misses the L0); dlc=1: "device level coherent"
  // (misses the GL1). Stores and atomics are performed in the L2.
  rank: (i) => (i.op !== 'load' ? 2 : i.dlc ? 2 : i.glc ? 1 : 0),
  // G10: "vmcnt counts loads, atomics with return and samples; vscnt counts stores and atomics
  // without return"; "lgkmcnt is for LDS/GDS/scalar"; flat may reach LDS.
  counters: (i) => {
    if (i.kind === 'lds') return ['lgkmcnt'];
    const own: Counter = i.op === 'load' || (i.op === 'atomic' && i.returns) ? 'vmcnt' : 'vscnt';
    return i.enc === 'flat' ? [own, 'lgkmcnt'] : [own];
  },
  inv: (i) =>
    i.mnemonic === 'buffer_gl0_inv' || i.mnemonic === 'buffer_gl1_inv'
      ? {
          from: i.mnemonic === 'buffer_gl0_inv' ? 0 : 1,
          below: i.mnemonic === 'buffer_gl0_inv' ? 1 : 2,
          counters: ['vmcnt'],
          cite: `${G10}: "Agent and system scope invalidate with buffer_gl1_inv ; buffer_gl0_inv"`,
        }
      : null,
  wb: () => null,
  invAfterEarlier: false,
  knownCounters: ['vmcnt', 'vscnt', 'expcnt', 'lgkmcnt'],
};

/**
 * GFX11: as GFX10, but `dlc` is "GFX10 only for agent/system loads" — the GFX11 agent-scope atomic
 * load rows omit it — so on GFX11 `glc=1` alone makes a load device coherent (it misses the GL1 too).
 */
export const GFX11: FamilyConfig = {
  ...GFX10_11,
  rank: (i) => (i.op !== 'load' || i.glc || i.dlc ? 2 : 0),
};

/** The machine of a table family (of a generation, where they differ), or null when none is built yet. */
export function familyConfig(f: TableFamily, generation?: Generation): FamilyConfig | null {
  switch (f) {
    case 'gfx6-9':
      return GFX6_9;
    case 'gfx12':
      return GFX12;
    case 'gfx10-11':
      return generation === 'GFX11' ? GFX11 : GFX10_11;
    default:
      return null;
  }
}
