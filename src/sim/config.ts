/**
 * One machine core, configured per hardware family: the cache levels between a wavefront and
 * memory (which hardware unit owns each instance, the scope rank an access must reach, whether the
 * level ever holds written data), which counters each instruction is counted on, and which levels
 * each invalidate / write-back instruction acts on. Every entry cites the hardware text it comes
 * from; docs/hardware.md lists what the machines simplify.
 *
 * A family may have several hardware configurations the text allows (GFX942 and GFX12.5: one L2
 * per agent, or several); each is a `FamilyConfig` of its own and every one is explored, so a
 * `sound` verdict holds for each.
 *
 * The machines know nothing of the model: nothing here (or anywhere in src/sim) imports
 * src/models or src/enumerate.
 *
 * No Node APIs here.
 */

import { usableBarrierIds } from '../lower/barriers.ts';
import type { Counter, InvInstr, ScBits, VmemInstr, WbInstr } from '../lower/isa.ts';
import { cacheScopeRank } from '../lower/isa.ts';
import { type LscFenceInstr, type LscFenceOp, type LscInstr, lscScopeRank } from '../lower/isa-xe.ts';
import type { Generation, TableFamily } from '../lower/targets.ts';
import type { LowerCtx } from '../lower/types.ts';
import { ASSUMPTION_IDS, type AssumptionId, assumptionsOf } from './assumptions.ts';

/**
 * How the waves of a work-group are placed: on one CU (`cu`), on either CU of a WGP (`wgp`,
 * GFX10–12), or on any CUs sharing the work-group's L2 (`tgsplit`, GFX90A/GFX942/GFX950).
 */
export type MachineMode = 'cu' | 'wgp' | 'tgsplit';

/**
 * The hardware unit that owns one instance of a cache level: a CU (GFX12.5: a WGP, whose WGP cache
 * is the first level; Intel Xe: an Xe-core), a shader array (GFX12.5: a shader engine), a group of CUs
 * sharing an L2 (GFX942, GFX12.5 with several L2s per agent; Intel Xe-HPC: a tile, whose Xe-cores share
 * an L3), an agent (a GPU).
 */
export type Unit = 'cu' | 'sa' | 'l2' | 'agent';

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

/**
 * What an Intel `lsc_fence` does (intel-lsc-fence.md: "Wait until all previous accesses by this thread
 * to this dataport are observable in the scope specified. Then optionally flush the cache."): it waits
 * until the thread's earlier requests to its port are performed, then applies `op` to the caches at
 * `levels` (indices into `FamilyConfig.levels`) of the thread's path, all in one step.
 */
export interface FenceSpec {
  /** The dataport whose requests it waits for: `ugm` (global and private memory) or `slm`. */
  port: 'ugm' | 'slm';
  op: Exclude<LscFenceOp, 'flushl3'>;
  levels: number[];
  cite: string;
}

/** The Intel LSC part of a machine: the rank of an LSC access and the effect of each fence. */
export interface LscSpec {
  /** Rank an LSC access on `ugm` must reach (SLM accesses have no caches). */
  rank: (i: LscInstr) => number;
  /** What a fence does, or why the machine does not implement it. */
  fence: (f: LscFenceInstr) => FenceSpec | string;
}

/**
 * Which of a wavefront's outstanding requests may overtake which (docs/hardware.md, "The machine
 * core"). Every family keeps one location's requests in order; the rest differs, by the text or by a
 * named assumption (assumptions.ts), which `withAssumptions` switches on.
 */
export interface RequestOrder {
  /**
   * At the CU's cache, which earlier requests of the wave a request waits for: every one (`all`: one
   * in-order queue — GFX6–9, GFX90A and GFX942, whose vector memory operations are all counted on vmcnt
   * and "completion is reported to a wavefront in execution order"; GFX12.5's WGP$ queue; Intel's "HDC
   * has an in-order pipeline"), or those counted on a counter it is counted on (`type`: GFX10–12, where
   * completion is "in-order within a type, but may be out of order between types").
   */
  front: 'all' | 'type';
  /**
   * A wave's loads read in issue order: a hit behind a miss takes its value when the miss has returned
   * (assumption `cu-in-order-reads`; the text says only that completion is reported in order).
   */
  readsInOrder: boolean;
  /** A wave's LDS requests are performed in issue order (assumption `lds-in-order`). */
  ldsInOrder: boolean;
  /**
   * Past the first cache level, the requests of the different waves of one CU to one location share a
   * queue (AMDGPU: "Each CU has a separate request queue per channel"; GFX10–12: "Each L0 cache has a
   * separate request queue per L1 quadrant"; GFX12.5: the L1 buffer's one in-order queue per WGP$). Not
   * on Intel Xe. A write-back from the first level is such a request too: it goes behind the requests
   * to its location that passed the cache before it (a campaign of generated tests found the machine
   * letting it overtake them: docs/campaigns.md, "Findings").
   */
  sharedPastL0: boolean;
  /**
   * Intel Xe: past the L1, atomics and plain accesses travel down two L3 pipelines that keep no order
   * between each other, even for one location; a wave's atomics, in the one coherent pipeline, are
   * performed in issue order (docs/hardware.md, "Intel Xe").
   */
  pipes: boolean;
  /**
   * Later requests may be taken at the CU's cache before an earlier invalidate has been performed
   * (GFX12.5: LLVM's SIMemoryLegalizer, the invalidate "may get reordered with following load
   * instructions", and the rows' "s_wait_loadcnt 0x0 must happen after global_inv and before subsequent
   * memory operations").
   */
  invOvertaken: boolean;
  /**
   * A write-back waits for every earlier request of the wave (GFX12: global_wb "ensures that previous
   * memory operation done at a lower scope level have reached the SCOPE"; GFX90A, GFX942: the release
   * rows' buffer_wbl2 "to ensure previous global/generic store/atomicrmw are visible at system scope",
   * with the wait after it). Not on GFX12.5, whose rows wait before `global_wb` so that the stores "have
   * completed in L2 so their data will be written back".
   */
  wbAfterEarlier: boolean;
  /**
   * A miss fills the CU's cache in the same step as it reads the next level (assumption `fill-at-read`);
   * without it, its value returns — filling the CU's cache and its register — in a later step.
   */
  fillAtRead: boolean;
}

/** A family's machine in one mode and hardware configuration. */
export interface FamilyConfig {
  family: TableFamily;
  /** The hardware configuration, for traces ('' when the family has only one). */
  variant: string;
  /** Levels from the wavefront outwards; memory lies behind the last one. */
  levels: readonly LevelSpec[];
  /** Rank of memory: every access may be performed there. */
  memoryRank: number;
  /** What traces call memory (a configuration that folds a cache into memory names it). */
  memoryName: string;
  /** How many CUs one WGP has (1: no WGPs, a workgroup runs on one CU unless in TgSplit mode). */
  cusPerWgp: 1 | 2;
  /**
   * The work-groups of one cluster run on one unit of this kind (GFX12.5: one shader engine), or null
   * when the family has no clusters (cluster coordinates then only name work-groups).
   */
  clusterUnit: 'sa' | null;
  /** Rank an access by this vector memory instruction must reach. */
  rank: (i: VmemInstr) => number;
  /**
   * Does this atomic return the value it read to its register? Only with the family's return bit
   * (GFX6–9, GFX90A, GFX10–11 `glc`; GFX942 `sc0`; GFX12, GFX12.5 `th:TH_ATOMIC_RETURN`): an atomic
   * without it returns nothing, and is counted as a store where the family splits the counters.
   */
  returns: (i: VmemInstr) => boolean;
  /** The assumptions this configuration makes (assumptions.ts), in force in `order` and `levels`. */
  assumed: readonly AssumptionId[];
  /** Intel Xe's LSC messages and fences; null for the AMD families. */
  lsc: LscSpec | null;
  /** Which outstanding requests may overtake which. */
  order: RequestOrder;
  /**
   * How traces name a unit, before its number (`cu`: AMD CU, Intel Xe-core `xc`; `l2`: a group of CUs
   * sharing an L2 `l2.`, an Intel tile `tile`), whether shader arrays and WGPs are shown (AMD only), and
   * what the work-group's memory is called (`LDS`, Intel's `SLM`).
   */
  labels: { cu: string; l2: string; saWgp: boolean; lds: string };
  /** At most this many L2 groups per agent (Intel Xe-HPC: two tiles); null when the text sets no bound. */
  maxL2PerAgent: number | null;
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
  /**
   * The waves of a CU share its request queues, one per channel, so accesses of different waves of a
   * CU to one location reach its cache in issue order (GFX6–9, GFX90A, GFX942: "Each CU has a separate
   * request queue per channel"; only "waves executing in different work-groups (which may be executing
   * on different CUs)" are said to reorder). Where the text says the waves of one CU reorder (GFX10–12:
   * "whether executing in the same or different work-groups"; GFX12.5: one queue per SIMD32 pair,
   * "not kept in order with the other queue"), false.
   */
  cuChannelOrder: boolean;
  /** Counters of the family (a wait on any other counter is an unsupported instruction). */
  knownCounters: readonly Counter[];
  /**
   * Barrier ids the family's split and named barrier instructions may name (seeds/001 "s_barrier IDs
   * GFX12"); empty before GFX12, which has only `s_barrier`. An instruction naming another id (llc-22
   * compiles some the hardware does not have) is an unsupported instruction.
   */
  barrierIds: readonly number[];
  /**
   * Explored only for tests on several agents (R3, docs/hardware.md): on one agent its runs are those
   * of the family's configuration with several L2s per agent in which every work-group shares one L2.
   */
  multiAgentOnly: boolean;
  /**
   * Explored only for tests on one agent, when the reductions are on (R3): it folds into memory a
   * level the agent's accesses all share, and stands for the configuration with that level.
   */
  singleAgentOnly: boolean;
}

/** A family's machines: its modes, and per mode every hardware configuration the text allows. */
export interface FamilyMachine {
  family: TableFamily;
  /** Names the machine among a family's (targets with the same id and code share a run). */
  id: string;
  modes: readonly MachineMode[];
  configs: (mode: MachineMode) => FamilyConfig[];
}

const USAGE = 'amdgpu-usage-2018.rst "Memory Model"';
const G12 = 'gfx12-memory-model.rst';
const G10 =
  'AMDGPUUsage (f5c8b0a9) "Memory Model GFX10-GFX11" (docs/research/llvm-amdgpuusage-beyond-seeds.md)';
const G90A = 'AMDGPUUsage (f5c8b0a9) "Memory Model GFX90A"';
const G942 = 'AMDGPUUsage (f5c8b0a9) "Memory Model GFX942"';
const G125 = 'AMDGPUUsage (07379fed) "Memory Model GFX125x"';

/** The AMD families' request order (docs/hardware.md, "Which requests may take a step"). */
const AMD_ORDER: RequestOrder = {
  front: 'all',
  readsInOrder: false,
  ldsInOrder: false,
  sharedPastL0: true,
  pipes: false,
  invOvertaken: false,
  wbAfterEarlier: true,
  fillAtRead: false,
};
/** GFX10–12: completion "in-order within a type, but may be out of order between types". */
const TYPED_ORDER: RequestOrder = { ...AMD_ORDER, front: 'type' };
const AMD_LABELS = { cu: 'cu', l2: 'l2.', saWgp: true, lds: 'LDS' };
/** The fields every AMD family has alike. */
const AMD = {
  memoryName: 'memory',
  lsc: null,
  order: AMD_ORDER,
  assumed: [],
  labels: AMD_LABELS,
  maxL2PerAgent: null,
  singleAgentOnly: false,
} as const;

/** GFX6–GFX9 (and GFX90A/GFX942) counters: vector memory `vmcnt`, LDS `lgkmcnt`, flat both. */
function vmLgkmCounters(i: Parameters<FamilyConfig['counters']>[0]): Counter[] {
  // USAGE: vector memory operations are counted on vmcnt, LDS on lgkmcnt; flat may be either, so
  // "flat_load/store/atomic instructions can report out of vector memory order if they access LDS
  // memory, and out of LDS operation order if they access global memory": counted on both.
  return i.kind === 'lds' ? ['lgkmcnt'] : i.enc === 'flat' ? ['vmcnt', 'lgkmcnt'] : ['vmcnt'];
}

/** GFX12 / GFX12.5 counters: loads and returning atomics `loadcnt`, the rest `storecnt`, LDS `dscnt`. */
function splitCounters(i: Parameters<FamilyConfig['counters']>[0]): Counter[] {
  // G12: "Load (global, scratch, flat, buffer and image): s_wait_loadcnt", "Store …: s_wait_storecnt",
  // "LDS: s_wait_dscnt". A returning atomic is counted as a load, a non-returning one as a store
  // (LLVM's SIInsertWaitcnts); flat may reach LDS, so it is also counted on dscnt.
  if (i.kind === 'lds') return ['dscnt'];
  const own: Counter = i.op === 'load' || (i.op === 'atomic' && i.returns) ? 'loadcnt' : 'storecnt';
  return i.enc === 'flat' ? [own, 'dscnt'] : [own];
}

/** `global_inv` / `global_wb` by `scope:` (GFX12, GFX12.5): the caches of rank below the scope. */
function scopedInv(cite: string): FamilyConfig['inv'] {
  return (i) =>
    i.mnemonic === 'global_inv'
      ? { from: 0, below: i.scope === null ? 0 : cacheScopeRank(i.scope), counters: ['loadcnt'], cite }
      : null;
}

function scopedWb(cite: string): FamilyConfig['wb'] {
  return (i) =>
    i.mnemonic === 'global_wb'
      ? { from: 0, below: i.scope === null ? 0 : cacheScopeRank(i.scope), counters: ['storecnt'], cite }
      : null;
}

/** A family with one hardware configuration, the same in every mode. */
function single(cfg: FamilyConfig, modes: readonly MachineMode[], id: string = cfg.family): FamilyMachine {
  return { family: cfg.family, id, modes, configs: () => [cfg] };
}

/**
 * GFX6–GFX9. Ranks: 0 the CU's vector L1, 1 the agent's L2, which this machine folds into memory:
 * the tests use coherent memory, for which "The L2 cache can be kept coherent with other agents on
 * some targets, or ranges of virtual addresses can be set up to bypass it to ensure system
 * coherence" (USAGE), and the table gives system scope the same code as agent scope.
 */
export const GFX6_9: FamilyConfig = {
  ...AMD,
  family: 'gfx6-9',
  variant: '',
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
  clusterUnit: null,
  // USAGE table: a load with glc=1 is the agent-coherent load (bypasses the L1); atomics are
  // performed in the L2 ("The vector and scalar memory operations use an L2 cache shared by all
  // CUs on the same agent"), stores write through.
  rank: (i) => (i.op === 'load' && !i.glc ? 0 : 1),
  // The atomic return bit of the GCN ISA: glc=1 on an atomic returns the pre-op value (llc-22 prints it
  // on every returning atomic; the tables write the atomic without its bits).
  returns: (i) => i.glc,
  counters: vmLgkmCounters,
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
  cuChannelOrder: true,
  knownCounters: ['vmcnt', 'expcnt', 'lgkmcnt'],
  multiAgentOnly: false,
  barrierIds: [],
};

/**
 * GFX12. Ranks are the SCOPE values: 0 SCOPE_CU (the CU's L0), 1 SCOPE_SE (the shader array's GL1),
 * 2 SCOPE_DEV (the agent's L2), 3 SCOPE_SYS (memory; the MALL "is fully coherent with GPU memory and
 * has no impact on system coherence", so it is part of memory here).
 */
export const GFX12: FamilyConfig = {
  ...AMD,
  order: TYPED_ORDER,
  family: 'gfx12',
  variant: '',
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
  clusterUnit: null,
  // G12: "The SCOPE determines whether a cache can complete an operation locally or whether it
  // needs to forward the operation to the next cache level"; no scope operand is SCOPE_CU.
  rank: (i) => (i.scope === null ? 0 : cacheScopeRank(i.scope)),
  // G12 rows: "If atomic with return, use th:TH_ATOMIC_RETURN".
  returns: (i) => i.th === 'TH_ATOMIC_RETURN',
  counters: splitCounters,
  inv: scopedInv(
    `${G12}: "global_inv invalidates caches whose scope is strictly smaller than the instruction's."`,
  ),
  wb: scopedWb(
    `${G12}: "global_wb additionally ensures that previous memory operation done at a lower scope level have reached the SCOPE: of the global_wb."`,
  ),
  invAfterEarlier: true,
  cuChannelOrder: false,
  knownCounters: ['loadcnt', 'storecnt', 'dscnt', 'samplecnt', 'bvhcnt', 'kmcnt', 'expcnt'],
  multiAgentOnly: false,
  barrierIds: usableBarrierIds('gfx12'),
};

/**
 * GFX10–GFX11. Ranks: 0 the CU's vector L0, 1 the shader array's GL1, 2 memory — the agent's L2 is
 * folded into memory as on GFX6–9: system scope has the agent-scope code (no L2 write-back or
 * invalidate exists), so the L2 is the coherence point. The family has no write-back instruction and
 * its releases only wait, so a completed store is in the L2: the L0 and GL1 take no writes.
 */
export const GFX10_11: FamilyConfig = {
  ...AMD,
  order: TYPED_ORDER,
  family: 'gfx10-11',
  variant: '',
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
  clusterUnit: null,
  // glc=1: "workgroup/agent coherence on loads" (misses the L0); dlc=1: "device level coherent"
  // (misses the GL1). Stores and atomics are performed in the L2.
  rank: (i) => (i.op !== 'load' ? 2 : i.dlc ? 2 : i.glc ? 1 : 0),
  returns: (i) => i.glc,
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
  cuChannelOrder: false,
  knownCounters: ['vmcnt', 'vscnt', 'expcnt', 'lgkmcnt'],
  multiAgentOnly: false,
  barrierIds: [],
};

/**
 * GFX11: as GFX10, but `dlc` is "GFX10 only for agent/system loads" — the GFX11 agent-scope atomic
 * load rows omit it — so on GFX11 `glc=1` alone makes a load device coherent (it misses the GL1 too).
 */
export const GFX11: FamilyConfig = {
  ...GFX10_11,
  rank: (i) => (i.op !== 'load' || i.glc || i.dlc ? 2 : 0),
};

const L1_90A: LevelSpec = {
  name: 'L1',
  unit: 'cu',
  rank: 0,
  // As on GFX6–9: no L1 write-back exists and a workgroup-scope release in TgSplit mode (waves on
  // several CUs) only waits (`s_waitcnt vmcnt(0)`), so a completed store has left the L1.
  writeThrough: true,
  cite: `${G90A}: "The vector memory operations access a single vector L1 cache shared by all SIMDs a CU."`,
};

/**
 * GFX90A. Ranks: 0 the CU's vector L1, 1 the agent's L2 ("an L2 cache shared by all CUs on the same
 * agent"; "Since all work-groups on the same agent share the same L2, no L2 invalidation or
 * writeback is required for coherence"), 2 memory, shared by the agents. The L2 is a write-back cache
 * for other agents: "To ensure coherence of local and remote memory writes of work-groups in
 * different agents a buffer_wbl2 is required. It will writeback dirty L2 cache lines"; reads need
 * "buffer_invl2 … It will invalidate L2 cache lines with MTYPE NC". Lines of the other memory types
 * are kept coherent by probes ("Any local memory cache lines will be automatically invalidated by
 * writes from CUs associated with other L2 caches") or never cached (UC); the machine treats every
 * line as one that may be stale and evicts any clean line at any time, which covers a probe's
 * invalidation (docs/hardware.md, "Abstractions").
 */
export const GFX90A: FamilyConfig = {
  // GFX6–9's ranks, counters and queues: the table's loads have glc=1 where they must miss the L1
  // (agent and system scope, workgroup scope in TgSplit mode); stores and atomics go to the L2.
  ...GFX6_9,
  family: 'gfx90a',
  levels: [
    L1_90A,
    {
      name: 'L2',
      unit: 'agent',
      rank: 1,
      writeThrough: false,
      cite: `${G90A}: "The vector and scalar memory operations use an L2 cache shared by all CUs on the same agent."`,
    },
  ],
  memoryRank: 2,
  inv: (i) => {
    if (i.mnemonic === 'buffer_wbinvl1_vol')
      return {
        from: 0,
        below: 1,
        counters: ['vmcnt'],
        cite: `${G90A}: "A buffer_wbinvl1_vol is required for coherence between wavefronts executing in different work-groups as they may be executing on different CUs."`,
      };
    if (i.mnemonic === 'buffer_invl2')
      return {
        from: 1,
        below: 2,
        counters: ['vmcnt'],
        cite: `${G90A}: "To ensure coherence of local and remote memory reads of work-groups in different agents a buffer_invl2 is required. It will invalidate L2 cache lines with MTYPE NC"`,
      };
    return null;
  },
  wb: (i) =>
    i.mnemonic === 'buffer_wbl2' && i.sc === null
      ? {
          from: 1,
          below: 2,
          counters: ['vmcnt'],
          cite: `${G90A}: "To ensure coherence of local and remote memory writes of work-groups in different agents a buffer_wbl2 is required. It will writeback dirty L2 cache lines"`,
        }
      : null,
};

/**
 * GFX942 ranks: 0 a CU, 1 the CUs sharing an L2, 2 the agent, 3 the system. The scope bits of a load
 * or store say which (the table's rows: workgroup `sc0=1`, agent `sc1=1`, system `sc0=1 sc1=1`); a
 * read-modify-write "implicitly bypass[es] the L1 cache" and uses "sc1 to indicate system or agent
 * scope coherence" (the rows: agent no bit, system `sc1=1`).
 */
function rank942(sc0: boolean, sc1: boolean, tgsplit: boolean): number {
  if (sc1) return sc0 ? 3 : 2;
  // Workgroup scope: the L1 is coherent for a work-group whose waves share a CU; in TgSplit mode
  // they may not ("a buffer_inv sc0 is required which will invalidate the L1 cache"), so the access
  // must reach the L2. (LLVM SIGfx940CacheControl::enableLoadCacheBypass: "Setting SC bits to
  // indicate work-group scope will do this automatically".)
  return sc0 && tgsplit ? 1 : 0;
}

/**
 * The L2 of a configuration with several L2s per agent (each coherent for its group: rank 1) or one
 * (coherent for the agent: rank 2).
 */
function l2Level(severalL2s: boolean, citeSeveral: string, citeOne: string): LevelSpec {
  return severalL2s
    ? { name: 'L2', unit: 'l2', rank: 1, writeThrough: false, cite: citeSeveral }
    : { name: 'L2', unit: 'agent', rank: 2, writeThrough: false, cite: citeOne };
}

/** The scope rank of `buffer_inv` / `buffer_wbl2` scope bits (as on loads and stores). */
function scRank(sc: ScBits | null): number {
  return sc === 'sc0 sc1' ? 3 : sc === 'sc1' ? 2 : sc === 'sc0' ? 1 : 0;
}

/**
 * GFX942 (and GFX950), in one mode and one of the two configurations the text allows: "The gfx942
 * can be configured as a number of smaller agents with each having a single L2 shared by all CUs on
 * the same agent, or as fewer (possibly one) larger agents with groups of CUs on each agent each
 * sharing separate L2 caches." With one L2 per agent it is coherent at agent scope (rank 2); with
 * several, each is coherent only for its group of CUs (rank 1), and agent scope reaches memory.
 */
function gfx942(mode: MachineMode, severalL2s: boolean): FamilyConfig {
  const tgsplit = mode === 'tgsplit';
  return {
    ...AMD,
    family: 'gfx942',
    variant: severalL2s ? 'several L2s per agent' : 'one L2 per agent',
    levels: [
      {
        name: 'L1',
        unit: 'cu',
        rank: 0,
        // As on GFX90A: no L1 write-back exists and workgroup-scope releases in TgSplit mode only wait.
        writeThrough: true,
        cite: `${G942}: "The vector memory operations access a single vector L1 cache shared by all SIMDs a CU."`,
      },
      l2Level(
        severalL2s,
        `${G942}: "fewer (possibly one) larger agents with groups of CUs on each agent each sharing separate L2 caches"`,
        `${G942}: "a number of smaller agents with each having a single L2 shared by all CUs on the same agent"`,
      ),
    ],
    memoryRank: 3,
    cusPerWgp: 1,
    clusterUnit: null,
    rank: (i) => (i.op === 'atomic' ? (i.sc1 ? 3 : 2) : rank942(i.sc0, i.sc1, tgsplit)),
    // G942: on a read-modify-write sc0 returns the pre-op value (not a coherence bit: RMWs use sc1 for
    // that; docs/research/llvm-amdgpuusage-beyond-seeds.md, GFX942 hardware facts).
    returns: (i) => i.sc0,
    counters: vmLgkmCounters,
    inv: (i) =>
      i.mnemonic === 'buffer_inv'
        ? {
            from: 0,
            below: scRank(i.sc),
            counters: ['vmcnt'],
            cite: `${G942}: "A buffer_inv sc0 is required to invalidate the L1 cache"; "a buffer_inv sc1 … will invalidate non-local L2 cache lines if configured to have multiple L2 caches"; "a buffer_inv sc0 sc1 … will invalidate non-local L2 cache lines"`,
          }
        : null,
    // The text pairs the bare `buffer_wbl2` with the agent and `buffer_wbl2 sc1` with other agents;
    // the table writes `buffer_wbl2 sc1=1` (agent) and `sc0=1 sc1=1` (system). The machine reads the
    // bits as scopes, as everywhere else in the table (docs/hardware.md, "GFX942").
    wb: (i) =>
      i.mnemonic === 'buffer_wbl2'
        ? {
            from: 0,
            below: scRank(i.sc),
            counters: ['vmcnt'],
            cite: `${G942}: "To ensure coherence of local memory writes of CUs with different L1 caches in the same agent a buffer_wbl2 is required. It does nothing if the agent is configured to have a single L2, or will writeback dirty L2 cache lines if configured to have multiple L2 caches."`,
          }
        : null,
    invAfterEarlier: false,
    cuChannelOrder: true,
    knownCounters: ['vmcnt', 'expcnt', 'lgkmcnt'],
    multiAgentOnly: !severalL2s,
    barrierIds: [],
  };
}

/**
 * GFX12.5 in one of its two configurations: "There may be multiple L2 caches per agent"; "Each cache
 * is assigned a SCOPE by the hardware depending on the agent's configuration. This ensures that
 * SCOPE_DEV can always be used to implement agent coherence, even in the presence of multiple
 * non-coherent L2 caches on the same agent." Ranks are the SCOPE values; with several L2s each is
 * given SCOPE_SE (it serves a group of shader engines) and agent scope reaches memory.
 */
function gfx1250(severalL2s: boolean): FamilyConfig {
  return {
    ...AMD,
    // G125: the WGP$'s "two request queues; one per SIMD32-pair" are in order each, "not ordered with
    // each other": a wave's requests reach the WGP$ in issue order, the waves of two SIMD32 pairs in no
    // order (cuChannelOrder false). Past it, the L1 buffer has one in-order queue per WGP$: the WGP's
    // requests to a location reach the L1 in the order they left the WGP$ (sharedPastL0). "global_inv …
    // may get reordered with following load instructions" (LLVM SIMemoryLegalizer), and the rows wait
    // before global_wb for the stores to "have completed in L2 so their data will be written back".
    order: { ...AMD_ORDER, invOvertaken: true, wbAfterEarlier: false },
    family: 'gfx1250',
    variant: severalL2s ? 'several L2s per agent' : 'one L2 per agent',
    levels: [
      {
        name: 'WGP$',
        unit: 'cu',
        rank: 0,
        // "Each WGP has a single write-through WGP cache (WGP$)"; "Vector L0 memory holds clean data only."
        writeThrough: true,
        cite: `${G125}: "Each WGP has a single write-through WGP cache (WGP$) shared by the wavefronts of the work-groups executing on it."`,
      },
      {
        name: 'L1',
        unit: 'sa',
        rank: 1,
        writeThrough: false,
        cite: `${G125}: "The vector and scalar memory L0 caches are both clients of an L1 buffer shared by all WGPs on the same SE."`,
      },
      l2Level(
        severalL2s,
        `${G125}: "There may be multiple L2 caches per agent"; "Be non-hardware-coherent; copies of the data are not coherent between multiple L2s."`,
        `${G125}: "L1 buffers are clients of the L2 cache."`,
      ),
    ],
    memoryRank: 3,
    cusPerWgp: 1,
    // The cluster syncscope is SCOPE_SE (the instruction-scope table): the work-groups of a cluster
    // share a shader engine's L1 buffer (docs/hardware.md, "Thread placement").
    clusterUnit: 'sa',
    rank: (i) => (i.scope === null ? 0 : cacheScopeRank(i.scope)),
    returns: (i) => i.th === 'TH_ATOMIC_RETURN',
    counters: splitCounters,
    inv: scopedInv(
      `${G125}: "global_inv invalidates the data in affected caches so that subsequent reads will re-read from the next level in the cache hierarchy"; "Only caches whose scope is strictly smaller than the instruction's are affected."`,
    ),
    wb: scopedWb(
      `${G125}: "global_wb flushes the dirty data in affected caches to the next level in the cache hierarchy. This instruction additionally ensures previous memory operation done at a lower scope level have reached the desired SCOPE:."`,
    ),
    // The hardware text says "global_inv, global_wb and global_wbinv behave like memory operations
    // issued to every address at the same time. They are kept in order with other memory operations
    // from the same wave", yet every row waits on both sides of them ("s_wait_loadcnt 0x0 must happen
    // after global_inv and before subsequent memory operations"; a wait before global_wb so the stores
    // "have completed in L2") and LLVM's legalizer says the invalidate "may get reordered with following
    // load instructions": the machine takes the weaker reading — an invalidate or write-back is ordered
    // with nothing but by those waits (docs/hardware.md, "GFX12.5 invalidate and write-back").
    invAfterEarlier: false,
    cuChannelOrder: false,
    // `s_wait_xcnt` waits for address translation: no instruction the machine runs is counted on it
    // (translation completes at issue here), so a wait on it never blocks (docs/hardware.md).
    knownCounters: ['loadcnt', 'storecnt', 'dscnt', 'samplecnt', 'bvhcnt', 'kmcnt', 'expcnt', 'xcnt'],
    multiAgentOnly: !severalL2s,
    barrierIds: usableBarrierIds('gfx12.5'),
  };
}

const GFX1250_CONFIGS = [gfx1250(false), gfx1250(true)];
const GFX942_CONFIGS: Record<'cu' | 'tgsplit', FamilyConfig[]> = {
  cu: [gfx942('cu', false), gfx942('cu', true)],
  tgsplit: [gfx942('tgsplit', false), gfx942('tgsplit', true)],
};

const LSC = 'intel-lsc-fence.md (vISA LSC_FENCE)';
const IGC_BARRIER = 'IGC barrier.cl @9bb52b06 __intel_atomic_work_item_fence';
const IGC_EMIT = 'IGC EmitVISAPass.cpp @b926f8aa emitMemoryFence';
const IGC_VC = 'IGC VectorCompiler GenXLoadStoreLowering.cpp @0fc2de4b getLSCFenceScope';

/**
 * The Intel Xe fence-lowering groups of the processor table, as machines: DG2/MTL/ARL (one tile, L1
 * maintenance only from tile scope), PVC (two tiles, the same), Xe2 and later (one tile, L1 maintenance
 * at every scope). `src/sim/intel.test.ts` checks they agree with the processor table's features.
 */
export interface XeGroup {
  /** More than one tile, each with its own L3 (Platform.hpp `hasMultiTile`: PVC). */
  multiTile: boolean;
  /**
   * An L1 evict, invalidate, clean or discard below tile scope is performed (Xe2 and later). On DG2,
   * PVC, MTL and ARL it is not: EmitVISAPass.cpp emitMemoryFence, "On some products cache is not flushed
   * for scope < tile", which is why IGC raises such fences to tile there.
   */
  l1BelowTile: boolean;
}

/** The fence-lowering group of an Intel generation (the processor table's `xe` rows). */
export function xeGroupOf(generation: Generation | undefined): XeGroup {
  if (generation === 'Xe-HPC') return { multiTile: true, l1BelowTile: false };
  if (generation === 'Xe2' || generation === 'Xe3') return { multiTile: false, l1BelowTile: true };
  return { multiTile: false, l1BelowTile: false };
}

/** The rank of tile scope. */
const TILE = lscScopeRank('tile');

/**
 * Intel Xe in one of its configurations. Ranks are LSC scopes (intel-lsc-fence.md, table LSC_SCOPE):
 * group 0, local 1, tile 2, gpu 3, gpus 4, sysrel 5, sysacq 6.
 * - L1 (rank local): one per Xe-core — "Single workgroup executes on one DSS and shares the same L1
 *   cache" (barrier.cl); the DSS is the Xe-core, "local: Flush out to the local scope (DSSs)" — write-back
 *   ("evict: Dirty lines will be evicted and invalidated from the L1 cache"; LSC_UNTYPED.md CachingL1
 *   ".wb writeback").
 * - L3 per tile (rank tile: "Tile (out to several DSSs)"). On a one-tile part the tile is the GPU and its
 *   L3 the GPU's last-level cache ("gpu: The entire GPU (out to the GPUs LLC)"), so its rank is gpu.
 * - PVC: the tiles' L3s are kept coherent with each other (Platform.hpp `L3CacheCoherentCrossTiles`), but
 *   a tile-scope fence does not reach across tiles (IGC's vector compiler scopes device-wide fences
 *   `hasMultiTile() ? LSC_SCOPE_GPU : LSC_SCOPE_TILE`): the machine lets each tile's L3 hold stale copies
 *   (coherent L3s are its runs in which copies are written back and evicted at once) and puts the GPU's
 *   coherence point behind them (level `GPU`, rank gpu).
 * - Memory (rank gpus: "All GPUs in the system (memory shared by all GPUs)"), shared by the agents.
 * `full` false: for tests on one agent (R3), the GPU-wide level is folded into memory.
 */
function xeConfig(group: XeGroup, full: boolean): FamilyConfig {
  const { multiTile, l1BelowTile } = group;
  const gpu = lscScopeRank('gpu');
  const levels: LevelSpec[] = [
    {
      name: 'L1',
      unit: 'cu',
      rank: lscScopeRank('local'),
      writeThrough: false,
      cite: `${IGC_BARRIER}: "Single workgroup executes on one DSS and shares the same L1 cache"; ${LSC}: "Dirty lines will be evicted and invalidated from the L1 cache"`,
    },
  ];
  if (multiTile)
    levels.push({
      name: 'L3',
      unit: 'l2',
      rank: TILE,
      writeThrough: false,
      cite: `${LSC}: "tile: Tile (out to several DSSs)"; ${IGC_VC}: device scope is "hasMultiTile() ? LSC_SCOPE_GPU : LSC_SCOPE_TILE"`,
    });
  if (full)
    levels.push({
      name: multiTile ? 'GPU' : 'L3',
      unit: 'agent',
      rank: gpu,
      writeThrough: false,
      cite: multiTile
        ? `${LSC}: "gpu: The entire GPU (out to the GPUs LLC)"; Platform.hpp @9d002efd L3CacheCoherentCrossTiles (Xe-HPC): the tiles' L3s are coherent with each other`
        : `${LSC}: "gpu: The entire GPU (out to the GPUs LLC)": one tile, whose L3 is the GPU's last-level cache`,
    });
  const memoryRank = full ? lscScopeRank('gpus') : gpu;
  return {
    family: 'xe',
    variant: '',
    levels,
    memoryRank,
    // One agent: the GPU-wide level and memory behave as one (R3); traces name it as the GPU's level.
    memoryName: full ? 'memory' : multiTile ? 'GPU' : 'L3',
    cusPerWgp: 1,
    clusterUnit: null,
    rank: () => 0,
    // Intel atomics are LSC messages (their result is in the message): no vector memory atomics run.
    returns: () => true,
    assumed: [],
    lsc: {
      // Plain accesses are performed in the L1 (a load may hit there, a store writes it). An atomic carries
      // no scope — IGC's relaxed atomics have no fence either — yet two threads anywhere on the GPU must
      // update one location atomically, so it is performed at the GPU's coherence point: atomics.cl, "Even
      // when coherency is disabled atomics will still go down the coherant pipeline".
      rank: (i) => (i.op === 'atomic' ? gpu : 0),
      fence: (f) => xeFence(f, levels, l1BelowTile),
    },
    // atomics.cl @036fb054: "While our HDC has an in-order pipeline the L3$ has 2 pipelines - coherant and
    // non-coherant. … The 2 L3$ pipes do not guarentee order of operations between themselves." Atomics
    // of a thread stay in order in the coherent pipeline: IGC's SynchronizationObjectCoalescing removes a
    // fence between two atomics ("(only for barriers) any atomic instruction, this synchronization
    // instruction, any atomic instruction"). Nothing orders loads or SLM requests of a thread among
    // themselves, nor one Xe-core's threads past its L1 (docs/hardware.md, "Intel Xe").
    order: {
      front: 'all',
      readsInOrder: false,
      ldsInOrder: false,
      sharedPastL0: false,
      pipes: true,
      invOvertaken: false,
      wbAfterEarlier: true,
      fillAtRead: false,
    },
    labels: { cu: 'xc', l2: 'tile', saWgp: false, lds: 'SLM' },
    // PVC: "Xe-HPC" has two tiles (stacks); the placement never uses more.
    maxL2PerAgent: multiTile ? 2 : null,
    counters: () => [],
    inv: () => null,
    wb: () => null,
    invAfterEarlier: false,
    cuChannelOrder: false,
    knownCounters: [],
    barrierIds: [],
    multiAgentOnly: full,
    singleAgentOnly: !full,
  };
}

/**
 * What `f` does on a machine with `levels`: it waits for the thread's earlier requests to its port, then
 * applies its op to the L1 — at tile scope and wider, or at every scope where the platform flushes below
 * tile — and to every other level of rank below its scope (a gpu-scope fence on PVC also acts on the
 * tile's L3; wider scopes on every level: "gpus: … memory shared by all GPUs").
 */
function xeFence(f: LscFenceInstr, levels: readonly LevelSpec[], l1BelowTile: boolean): FenceSpec | string {
  if (f.sfid !== 'ugm' && f.sfid !== 'slm')
    return `${f.sfid} fences order typed or cross-tile low-bandwidth messages, which no lowering emits: the machine models the ugm and slm ports`;
  if (f.op === 'flushl3')
    return `flushl3 ("Flush L3 only") is never emitted (${IGC_EMIT} clears flushRW for global fences) and not implemented by the machine`;
  const s = lscScopeRank(f.scope);
  // SLM has no cache: an slm fence only waits (EmitVISAPass: "SLM only gets .group and .none").
  const acted =
    f.sfid === 'slm' || f.op === 'none'
      ? []
      : levels.flatMap((lv, k) => ((k === 0 ? s >= TILE || l1BelowTile : lv.rank < s) ? [k] : []));
  return {
    port: f.sfid,
    op: f.op,
    levels: acted,
    cite: `${LSC}: "Wait until all previous accesses by this thread to this dataport are observable in the scope specified. Then optionally flush the cache." ${XE_OP_TEXT[f.op]}${
      f.sfid === 'ugm' && f.op !== 'none' && !l1BelowTile && s < TILE
        ? `; ${IGC_EMIT}: "On some products cache is not flushed for scope < tile"`
        : ''
    }`,
  };
}

/** The LSC_FENCE_OP table's sentence for each op the machine implements. */
const XE_OP_TEXT: Record<Exclude<LscFenceOp, 'flushl3'>, string> = {
  none: 'none: "No operation"',
  evict:
    'evict: "Dirty lines will be evicted and invalidated from the L1 cache. All clean lines will be invalidated"',
  invalidate:
    'invalidate: "Invalidate all Clean lines in the cache. Don\'t evict the dirty lines (they stay in M state)"',
  discard: 'discard: "Direct and clean lines are discarded (invalidated) without eviction"',
  clean:
    'clean: "Dirty lines are written to memory, but retained in cache in the "Clean" state. Clean lines are not invalidated"',
};

const XE_MACHINES = new Map<string, FamilyMachine>();

/** The machine of an Intel Xe generation's fence-lowering group (one per group, built once). */
function xeMachine(generation: Generation | undefined): FamilyMachine {
  const group = xeGroupOf(generation);
  const id = `xe/${group.multiTile ? 'multi-tile' : 'one tile'}, L1 maintenance ${group.l1BelowTile ? 'at every scope' : 'from tile scope'}`;
  let m = XE_MACHINES.get(id);
  if (!m) {
    const configs = [xeConfig(group, true), xeConfig(group, false)];
    m = { family: 'xe', id, modes: ['cu'], configs: () => configs };
    XE_MACHINES.set(id, m);
  }
  return m;
}

/** The machines of a table family (of a generation, where they differ) as the text has them, or null. */
function textMachine(f: TableFamily, generation?: Generation): FamilyMachine | null {
  switch (f) {
    case 'gfx6-9':
      return single(GFX6_9, ['cu']);
    case 'gfx90a':
      return single(GFX90A, ['cu', 'tgsplit']);
    case 'gfx942':
      return {
        family: f,
        id: f,
        modes: ['cu', 'tgsplit'],
        configs: (m) => GFX942_CONFIGS[m === 'tgsplit' ? m : 'cu'],
      };
    case 'gfx10-11':
      return generation === 'GFX11'
        ? single(GFX11, ['cu', 'wgp'], 'gfx10-11/GFX11')
        : single(GFX10_11, ['cu', 'wgp']);
    case 'gfx12':
      return single(GFX12, ['cu', 'wgp']);
    case 'gfx1250':
      return { family: f, id: f, modes: ['cu'], configs: () => GFX1250_CONFIGS };
    case 'xe':
      return xeMachine(generation);
    default:
      return null;
  }
}

/**
 * Which text a GFX12 machine's L0 and GL1 follow (docs/hardware.md, "GFX12 L0: two readings"): the seed's
 * (gfx12-memory-model.rst: at a level of sufficient scope "Writes can happen in this cache and the
 * transaction is acknowledged from this level of cache" — write-back caches) or the current
 * AMDGPUUsage's, which keeps that sentence but adds "global_wb can be omitted for scopes other than
 * SCOPE_SYS in gfx120x": no dirty data below the L2, so the L0 and GL1 write through.
 */
export const HW_TEXTS = ['seed', 'amdgpuusage'] as const;
export type HwText = (typeof HW_TEXTS)[number];

/** How a family's machines are built: which assumptions they may make, which text GFX12 follows. */
export interface MachineSettings {
  /**
   * The assumptions the machines may make (each is made where it applies: assumptions.ts); every one
   * by default. `gpumm check --no-assume ID` leaves one out.
   */
  assume: readonly AssumptionId[];
  hwText: HwText;
}

/** Every assumption, the seed's GFX12 text. */
export const DEFAULT_SETTINGS: MachineSettings = { assume: ASSUMPTION_IDS, hwText: 'seed' };

/** Makes the assumptions `ids` in `cfg` (those that act on the request order; assumptions.ts). */
function strengthen(cfg: FamilyConfig, ids: readonly AssumptionId[]): FamilyConfig {
  const o: RequestOrder = { ...cfg.order };
  if (ids.includes('cu-in-order-reads')) o.readsInOrder = true;
  if (ids.includes('cu-in-order-types')) o.front = 'all';
  if (ids.includes('lds-in-order')) o.ldsInOrder = true;
  if (ids.includes('fill-at-read')) o.fillAtRead = true;
  return { ...cfg, order: o, assumed: ids };
}

/**
 * GFX6–9 and GFX10–11 without `l2-system-coherent`: the L2 folded into memory comes back as one
 * write-back L2 per agent (USAGE: "The vector and scalar memory operations use an L2 cache shared by all
 * CUs on the same agent"; G10: "L2 per agent"), which no instruction of these families writes back or
 * invalidates. Explored for tests on several agents only: on one agent every access passes the one L2,
 * so it always agrees with memory (R3).
 */
function withAgentL2(cfg: FamilyConfig): FamilyConfig {
  const rank = cfg.memoryRank;
  return {
    ...cfg,
    variant: 'an L2 per agent, not coherent',
    levels: [
      ...cfg.levels,
      {
        name: 'L2',
        unit: 'agent',
        rank,
        writeThrough: false,
        cite: `${cfg.family === 'gfx6-9' ? USAGE : G10}: "The L2 cache can be kept coherent with other agents on some targets" — here, not (assumption l2-system-coherent dropped)`,
      },
    ],
    memoryRank: rank + 1,
    multiAgentOnly: true,
    singleAgentOnly: false,
  };
}

/** GFX12 under the current AMDGPUUsage: the L0 and GL1 write through (`HwText`). */
function writeThroughBelowL2(cfg: FamilyConfig): FamilyConfig {
  return {
    ...cfg,
    variant: cfg.variant || 'L0 and GL1 write-through (AMDGPUUsage)',
    levels: cfg.levels.map((l) =>
      l.unit === 'agent'
        ? l
        : {
            ...l,
            writeThrough: true,
            cite: `${l.cite}; AMDGPUUsage (f5c8b0a9) "Memory Model GFX12": "global_wb can be omitted for scopes other than SCOPE_SYS in gfx120x"`,
          },
    ),
  };
}

/**
 * The machines of a table family (of a generation, where they differ), built with `settings`, or null
 * when none is built. Each configuration makes the assumptions of assumptions.ts that apply to its
 * family and mode and that `settings.assume` lists.
 */
export function familyMachine(
  f: TableFamily,
  generation?: Generation,
  settings: Partial<MachineSettings> = {},
): FamilyMachine | null {
  const text = textMachine(f, generation);
  if (!text) return null;
  const assume = settings.assume ?? DEFAULT_SETTINGS.assume;
  const hwText = settings.hwText ?? DEFAULT_SETTINGS.hwText;
  return {
    ...text,
    configs: (mode) => {
      const made = assumptionsOf(f, mode).filter((a) => assume.includes(a));
      let cfgs = text.configs(mode);
      if (f === 'gfx12' && hwText === 'amdgpuusage') cfgs = cfgs.map(writeThroughBelowL2);
      if ((f === 'gfx6-9' || f === 'gfx10-11') && !made.includes('l2-system-coherent'))
        cfgs = cfgs.flatMap((c) => [{ ...c, singleAgentOnly: true }, withAgentL2(c)]);
      return cfgs.map((c) => strengthen(c, made));
    },
  };
}

/** The machine mode of a lowering context: TgSplit, WGP or CU. */
export function machineMode(ctx: LowerCtx): MachineMode {
  const f = ctx.target.processor.features;
  if (f.tgsplit && ctx.tgsplit === true) return 'tgsplit';
  return f.wgpMode ? ctx.mode : 'cu';
}
