/**
 * Intel Xe lowering: each IR memory instruction to the vISA LSC messages and `lsc_fence`s Intel's
 * graphics compiler (IGC) emits for the same OpenCL / SPIR-V operation, on each platform group.
 *
 * The IR is AMDGPU's; an instruction is read as the SPIR-V operation an OpenCL program with the same
 * meaning carries: a syncscope is a SPIR-V Scope (`SPIRV_SCOPE`), an ordering the memory-semantics
 * order bits, an access's address space its storage class, and a fence orders both global
 * (CrossWorkgroupMemory) and local (WorkgroupMemory) memory unless `amdgpu-synchronize-as` names one
 * — as AMDGPU's fences do. IGC implements those operations in its built-in library, which the rows
 * below follow function by function:
 *
 * - IGC/BiFModule/Implementation/barrier.cl @9bb52b06: `__intel_atomic_work_item_fence` (fences),
 *   `CONVERT_SCOPE_SPIRV_TO_VISA`, `__intel_memfence_handler`, `ControlBarrier`,
 *   `ControlBarrierArriveINTEL`/`ControlBarrierWaitINTEL`.
 * - IGC/BiFModule/Implementation/include/atomic_fence_impl.h @38e30ed5: `FENCE_PRE_OP`, `FENCE_POST_OP`.
 * - IGC/BiFModule/Implementation/atomics.cl @dbc92aab: `__spirv_AtomicLoad` (as `__spirv_AtomicOr` of 0),
 *   `__spirv_AtomicStore` (as `__spirv_AtomicExchange`), `atomic_operation_1op`, `atomic_cmpxhg`, the
 *   `__private` overloads (plain accesses), the `__generic` overloads (a run-time dispatch).
 * - IGC/Compiler/CISACodeGen/EmitVISAPass.cpp @b926f8aa: `EmitPass::emitMemoryFence` (the LSC path:
 *   SFID, scope adjustments per platform, fence op), `getLSCMemoryFenceOp`, `emitThreadGroupBarrier`.
 * - IGC/Compiler/CISACodeGen/Platform.hpp @9d002efd: `hasL3FlushOnGPUScopeInvalidate` (DG2, MTL, ARL),
 *   `hasMultiTile`, `L3CacheCoherentCrossTiles`, `hasL1ReadOnlyCache` (every Xe platform).
 * - IGC/Compiler/Optimizer/OpenCLPasses/GenericAddressResolution/GenericAddressDynamicResolution.cpp
 *   @98cd73ec: `resolveGAS` (generic loads and stores).
 *
 * Where IGC's text and issue 17's summary of it differ, the code follows IGC and docs/targets/intel.md
 * ("Readings") says where.
 */

import type { BarrierInstr, Instr, Ordering, RmwOp, Scope } from '../core/types.ts';
import { isAcquire, isRelease } from '../core/types.ts';
import {
  type LscAtomicOp,
  type LscFenceInstr,
  type LscScope,
  lscAccess,
  lscAtomic,
  lscFence,
  lscScopeRank,
  type XeGenericInstr,
  type XeGenericSpace,
  type XeLeaf,
  xeBarrier,
} from './isa-xe.ts';
import type { RowEnv, RowKey, RowSpace, TableRow } from './table.ts';
import { ANY_SCOPE, lookupOrdering, makeLookup } from './table.ts';
import { PROCESSORS, type Processor } from './targets.ts';
import type { LowerCtx, LowerDiagnostic, LowerResult, TableCell } from './types.ts';
import { lowerDiag } from './types.ts';

/** The name the Intel table's rows are cited with. */
export const XE_TABLE_NAME = 'Xe';

const BARRIER_CL = 'barrier.cl @9bb52b06';
const ATOMICS_CL = 'atomics.cl @dbc92aab';
const FENCE_H = 'atomic_fence_impl.h @38e30ed5';
const EMIT = 'EmitVISAPass.cpp @b926f8aa';
const GAS = 'GenericAddressDynamicResolution.cpp @98cd73ec';

/** SPIR-V memory scopes (SPIR-V spec, "Scope <id>"), as IGC's built-ins compare them. */
export type SpirvScope = 'CrossDevice' | 'Device' | 'Workgroup' | 'Subgroup' | 'Invocation';

/**
 * The SPIR-V scope of an AMDGPU syncscope: OpenCL's memory_scope_all_svm_devices / SYCL's system is
 * CrossDevice, device is Device, work_group is Workgroup, sub_group is Subgroup, work_item is
 * Invocation. Intel GPUs have no workgroup clusters, so `cluster` is Device (as AMDGPU targets without
 * clusters treat it as agent).
 */
export const SPIRV_SCOPE: Record<Scope, SpirvScope> = {
  system: 'CrossDevice',
  agent: 'Device',
  cluster: 'Device',
  workgroup: 'Workgroup',
  wavefront: 'Subgroup',
  singlethread: 'Invocation',
};

/**
 * barrier.cl `CONVERT_SCOPE_SPIRV_TO_VISA`: CrossDevice and Device are `LSC_FS_GPU`, everything else
 * `LSC_FS_THREAD_GROUP` ("our HW spec doesn't have corresponding scope for Invocation or Subgroup, hence
 * mapping to lowest possible scope"). CrossDevice is GPU scope today: the macro's "TODO: CrossDevice
 * should be mapped to LSC_FS_SYSTEM_RELEASE or LSC_FS_SYSTEM_ACQUIRE". The LSC_FS enum
 * (IGCBiF_Intrinsics_Lsc.cl) has the encoding order of LSC_SCOPE.
 */
export function lscScopeOf(s: SpirvScope): LscScope {
  return s === 'CrossDevice' || s === 'Device' ? 'gpu' : 'group';
}

/** The flags IGC's fence built-in `__builtin_IB_memfence` carries that decide an LSC fence. */
export interface MemFence {
  /** `isGlobal`: a `ugm` fence; otherwise an `slm` one. */
  global: boolean;
  invalidateL1: boolean;
  evictL1: boolean;
  scope: SpirvScope;
}

/**
 * EmitVISAPass.cpp `EmitPass::emitMemoryFence`, the LSC path, with the default compiler flags: the
 * fence and the platform rules it went through (for `--explain`). Steps, in IGC's order:
 * - `L1_Invalidate` is kept only where `hasL1ReadOnlyCache()` (Platform.hpp: render core GEN10 or
 *   later, so every Xe platform); `flushRW` (the L3 flush) is cleared for every global fence ("no need
 *   to flush L3" unless EnableL3FlushForGlobal), so it never clears `L1_Invalidate` here.
 * - SFID: `ugm` for a global fence, `slm` otherwise; "SLM only gets .group and .none".
 * - "Change the scope from `GPU` or wider to `Tile` on single-tile platforms to avoid L3 flush on DG2
 *   and MTL and ARL": `!hasMultiTile() && hasL3FlushOnGPUScopeInvalidate()`.
 * - "On some products cache is not flushed for scope < tile": a global fence that invalidates or evicts
 *   the L1 below tile scope is raised to tile on DG2, PVC, MTL, ARL.
 * - `getLSCMemoryFenceOp`: evict if evictL1, else invalidate if invalidateL1, else none; an `slm`
 *   fence is always `none`.
 */
export function emitMemoryFence(f: MemFence, proc: Processor): { fence: LscFenceInstr; notes: string[] } {
  const notes: string[] = [];
  const sfid = f.global ? 'ugm' : 'slm';
  let scope = lscScopeOf(f.scope);
  if (!f.global && lscScopeRank(scope) >= lscScopeRank('local')) scope = 'group';
  const l1 = f.global && (f.invalidateL1 || f.evictL1);
  if (
    lscScopeRank(scope) >= lscScopeRank('gpu') &&
    !proc.features.multiTile &&
    proc.features.gpuFenceToTile
  ) {
    notes.push(
      `${EMIT} emitMemoryFence: ${scope} scope narrowed to tile on a single-tile part (Platform.hpp hasL3FlushOnGPUScopeInvalidate: DG2, MTL, ARL)`,
    );
    scope = 'tile';
  }
  if (l1 && lscScopeRank(scope) < lscScopeRank('tile') && proc.features.l1FenceToTile) {
    notes.push(
      `${EMIT} emitMemoryFence: L1 ${f.evictL1 ? 'evict' : 'invalidate'} at ${scope} scope raised to tile ("On some products cache is not flushed for scope < tile": DG2, PVC, MTL, ARL)`,
    );
    scope = 'tile';
  }
  const op = sfid === 'slm' ? 'none' : f.evictL1 ? 'evict' : f.invalidateL1 ? 'invalidate' : 'none';
  return { fence: lscFence(sfid, op, scope), notes };
}

/** The fences and notes a sequence of `emitMemoryFence` calls produced. */
interface Fenced {
  seq: LscFenceInstr[];
  rows: string[];
}

function fenced(fs: MemFence[], proc: Processor, why: string): Fenced {
  const out: Fenced = { seq: [], rows: fs.length > 0 ? [why] : [] };
  for (const f of fs) {
    const { fence, notes } = emitMemoryFence(f, proc);
    out.seq.push(fence);
    out.rows.push(...notes);
  }
  return out;
}

/**
 * barrier.cl `__intel_atomic_work_item_fence(Memory, Semantics)` for an acquire-or-stronger fence:
 * WorkgroupMemory gets an `slm` fence (`__intel_memfence_handler(false, false, false, false, Memory)`),
 * then CrossWorkgroupMemory a `ugm` fence — at Device or CrossDevice scope with `invalidateL1` for
 * acquire-like and `evictL1` for release-like semantics, below that with neither ("Single workgroup
 * executes on one DSS and shares the same L1 cache. If scope doesn't reach outside of workgroup, L1
 * flush can be skipped").
 */
export function workItemFence(
  ordering: Ordering,
  scope: SpirvScope,
  memory: { local: boolean; global: boolean },
  proc: Processor,
): Fenced {
  const fs: MemFence[] = [];
  if (memory.local) fs.push({ global: false, invalidateL1: false, evictL1: false, scope });
  if (memory.global) {
    const wide = scope === 'Device' || scope === 'CrossDevice';
    fs.push({
      global: true,
      invalidateL1: wide && isAcquire(ordering),
      evictL1: wide && isRelease(ordering),
      scope,
    });
  }
  return fenced(fs, proc, `${BARRIER_CL} __intel_atomic_work_item_fence → ${EMIT} emitMemoryFence`);
}

/**
 * atomic_fence_impl.h `FENCE_PRE_OP(Scope, Semantics, isGlobal)`: for release, acq_rel or seq_cst,
 * `__intel_memfence_handler(flushL3, isGlobal, false, isGlobal, Scope)` — an evicting `ugm` fence for a
 * global atomic at the atomic's own scope (no work-group shortcut), an `slm` fence for a local one.
 */
function fencePreOp(ordering: Ordering, scope: SpirvScope, global: boolean, proc: Processor): Fenced {
  if (!isRelease(ordering)) return { seq: [], rows: [] };
  return fenced(
    [{ global, invalidateL1: false, evictL1: global, scope }],
    proc,
    `${FENCE_H} FENCE_PRE_OP → ${EMIT} emitMemoryFence`,
  );
}

/**
 * atomic_fence_impl.h `FENCE_POST_OP(Scope, Semantics, isGlobal)`: for acquire, acq_rel or seq_cst,
 * `__intel_memfence_handler(flushL3, isGlobal, isGlobal, false, Scope)` — an invalidating `ugm` fence
 * after a global atomic, an `slm` fence after a local one.
 */
function fencePostOp(ordering: Ordering, scope: SpirvScope, global: boolean, proc: Processor): Fenced {
  if (!isAcquire(ordering)) return { seq: [], rows: [] };
  return fenced(
    [{ global, invalidateL1: global, evictL1: false, scope }],
    proc,
    `${FENCE_H} FENCE_POST_OP → ${EMIT} emitMemoryFence`,
  );
}

/** LSC atomic of an IR read-modify-write (IGC AtomicOp → vISA LSC_OP; exchange is `lsc_atomic_store`). */
export const LSC_OF_RMW: Record<RmwOp, LscAtomicOp> = {
  xchg: 'store',
  add: 'iadd',
  sub: 'isub',
  and: 'and',
  or: 'or',
  xor: 'xor',
  max: 'smax',
  min: 'smin',
  umax: 'umax',
  umin: 'umin',
};

/**
 * The LSC atomic a key performs: an atomic load is `atomic_or` of 0 (atomics.cl: "Since we dont have
 * specialized atomic load/store HDC message we're using atomic_or( a, 0x0 ) to emulate an atomic load"),
 * an atomic store an exchange "with the return value ignored", a cmpxchg `icas`.
 */
function atomicOf(k: RowKey): { op: LscAtomicOp | null; returns: boolean } {
  if (k.instr === 'load') return { op: 'or', returns: true };
  if (k.instr === 'store') return { op: 'store', returns: false };
  if (k.atomic === 'cmpxchg') return { op: 'icas', returns: k.returns };
  return { op: k.atomic === undefined ? null : LSC_OF_RMW[k.atomic], returns: k.returns };
}

/**
 * atomics.cl `atomic_operation_1op` / `atomic_cmpxhg`: `FENCE_PRE_OP`, the atomic, `FENCE_POST_OP`, on
 * `ugm` (`isGlobal` true) or `slm`.
 */
function atomicSeq(k: RowKey, proc: Processor, sfid: 'ugm' | 'slm'): { seq: XeLeaf[]; rows: string[] } {
  const scope = SPIRV_SCOPE[k.scope];
  const global = sfid === 'ugm';
  const pre = fencePreOp(k.ordering, scope, global, proc);
  const post = fencePostOp(k.ordering, scope, global, proc);
  const { op, returns } = atomicOf(k);
  return { seq: [...pre.seq, lscAtomic(sfid, op, returns), ...post.seq], rows: [...pre.rows, ...post.rows] };
}

/**
 * atomics.cl `__private` overloads: "return *Pointer", "*Pointer = Value", exchange and cmpxchg as a
 * load then a store — no fence. Private memory is per-thread memory behind the `ugm` port.
 */
function privateSeq(k: RowKey): XeLeaf[] {
  if (k.instr === 'load') return [lscAccess('load', 'ugm')];
  if (k.instr === 'store') return [lscAccess('store', 'ugm')];
  return [lscAccess('load', 'ugm'), lscAccess('store', 'ugm')];
}

/** A plain load or store on `sfid`. */
function plain(k: RowKey, sfid: 'ugm' | 'slm'): XeLeaf[] {
  return [lscAccess(k.instr === 'store' ? 'store' : 'load', sfid)];
}

function generic(branches: { spaces: XeGenericSpace[]; seq: XeLeaf[] }[]): XeGenericInstr {
  return { kind: 'xe_generic', branches };
}

const PLAIN: readonly Ordering[] = ['notatomic'];
const ATOMIC_LOAD: readonly Ordering[] = ['monotonic', 'acquire', 'seq_cst'];
const ATOMIC_STORE: readonly Ordering[] = ['monotonic', 'release', 'seq_cst'];
const ATOMIC_RMW: readonly Ordering[] = ['monotonic', 'acquire', 'release', 'acq_rel', 'seq_cst'];
const ANY_ATOMIC: readonly Ordering[] = ['monotonic', 'acquire', 'release', 'acq_rel', 'seq_cst'];

/**
 * The Intel Xe table, one row per IGC function path; the platform rules live in `emitMemoryFence`, so
 * one table serves every platform group. Cells are looked up after `lowerXeCell`'s rules.
 */
export const XE_TABLE: readonly TableRow[] = [
  // ---- Plain accesses ------------------------------------------------------------------------
  {
    // LSC_UNTYPED.md: `lsc_load.ugm` / `lsc_store.ugm` on flat (stateless) addresses. Private memory is
    // per-thread memory (scratch or stateless) reached through the same `ugm` port.
    row: 'load/store none global/private',
    instr: ['load', 'store'],
    orderings: PLAIN,
    scopes: ANY_SCOPE,
    spaces: ['global', 'private'],
    build: (k) => plain(k, 'ugm'),
  },
  {
    // Constant memory is global memory the kernel does not write: `lsc_load.ugm`. (Stores to it are
    // rejected before lookup, LW2003.)
    row: 'load none constant',
    instr: ['load'],
    orderings: PLAIN,
    scopes: ANY_SCOPE,
    spaces: ['constant'],
    build: (k) => plain(k, 'ugm'),
  },
  {
    // LSC_UNTYPED.md: `lsc_load.slm` / `lsc_store.slm`.
    row: 'load/store none local',
    instr: ['load', 'store'],
    orderings: PLAIN,
    scopes: ANY_SCOPE,
    spaces: ['local'],
    build: (k) => plain(k, 'slm'),
  },
  {
    // GenericAddressDynamicResolution.cpp resolveGAS: "resolve its corresponding address space by
    // looking at its tag on bits[61:63]": a switch to the local (tag 010), private (001) or global
    // access. Private and global both use `ugm`.
    row: 'load/store none generic',
    instr: ['load', 'store'],
    orderings: PLAIN,
    scopes: ANY_SCOPE,
    spaces: ['generic'],
    build: (k) => ({
      seq: [
        generic([
          { spaces: ['local'], seq: plain(k, 'slm') },
          { spaces: ['private', 'global'], seq: plain(k, 'ugm') },
        ]),
      ],
      rows: [`${GAS} resolveGAS: a switch on the generic pointer's tag`],
    }),
  },
  // ---- Global atomics ------------------------------------------------------------------------
  {
    // atomics.cl __spirv_AtomicLoad(__global): __spirv_AtomicOr(Pointer, Scope, Semantics, 0) →
    // atomic_operation_1op(__builtin_IB_atomic_or_global_i32, …, true): FENCE_PRE_OP, lsc_atomic_or.ugm,
    // FENCE_POST_OP. Relaxed: the atomic alone.
    row: 'load atomic global (atomic_or 0)',
    instr: ['load'],
    orderings: ATOMIC_LOAD,
    scopes: ANY_SCOPE,
    spaces: ['global'],
    build: (k, env) => atomicSeq(k, env.proc, 'ugm'),
  },
  {
    // atomics.cl __spirv_AtomicStore(__global): __spirv_AtomicExchange → atomic_operation_1op(
    // __builtin_IB_atomic_xchg_global_i32, …, true); vISA lsc_atomic_store with a null destination.
    row: 'store atomic global (exchange)',
    instr: ['store'],
    orderings: ATOMIC_STORE,
    scopes: ANY_SCOPE,
    spaces: ['global'],
    build: (k, env) => atomicSeq(k, env.proc, 'ugm'),
  },
  {
    // atomics.cl __spirv_Atomic<Op>(__global) / __spirv_AtomicCompareExchange(__global):
    // atomic_operation_1op / atomic_cmpxhg(…, true).
    row: 'atomicrmw/cmpxchg global',
    instr: ['rmw'],
    orderings: ATOMIC_RMW,
    scopes: ANY_SCOPE,
    spaces: ['global'],
    build: (k, env) => atomicSeq(k, env.proc, 'ugm'),
  },
  // ---- Local (SLM) atomics -------------------------------------------------------------------
  {
    // atomics.cl __spirv_AtomicLoad(__local): __spirv_AtomicOr(…, 0) → atomic_operation_1op(
    // __builtin_IB_atomic_or_local_i32, …, false): the fences are slm fences.
    row: 'load atomic local (atomic_or 0)',
    instr: ['load'],
    orderings: ATOMIC_LOAD,
    scopes: ANY_SCOPE,
    spaces: ['local'],
    build: (k, env) => atomicSeq(k, env.proc, 'slm'),
  },
  {
    // atomics.cl __spirv_AtomicStore(__local): __spirv_AtomicExchange(__local) (…, false).
    row: 'store atomic local (exchange)',
    instr: ['store'],
    orderings: ATOMIC_STORE,
    scopes: ANY_SCOPE,
    spaces: ['local'],
    build: (k, env) => atomicSeq(k, env.proc, 'slm'),
  },
  {
    // atomics.cl __spirv_Atomic<Op>(__local) / __spirv_AtomicCompareExchange(__local) (…, false).
    row: 'atomicrmw/cmpxchg local',
    instr: ['rmw'],
    orderings: ATOMIC_RMW,
    scopes: ANY_SCOPE,
    spaces: ['local'],
    build: (k, env) => atomicSeq(k, env.proc, 'slm'),
  },
  // ---- Private and generic atomics -----------------------------------------------------------
  {
    // atomics.cl __private overloads: plain accesses, no fence, whatever the ordering and scope.
    row: 'load/store/atomicrmw atomic private (plain)',
    instr: ['load', 'store', 'rmw'],
    orderings: ANY_ATOMIC,
    scopes: ANY_SCOPE,
    spaces: ['private'],
    build: (k) => privateSeq(k),
  },
  {
    // atomics.cl __generic overloads: "if(__spirv_GenericCastToPtrExplicit_ToLocal(…))" the local
    // atomic, "else if (…ToPrivate…)" the private one, else the global one.
    row: 'load/store/atomicrmw atomic generic (dispatch)',
    instr: ['load', 'store', 'rmw'],
    orderings: ANY_ATOMIC,
    scopes: ANY_SCOPE,
    spaces: ['generic'],
    build: (k, env) => {
      const local = atomicSeq(k, env.proc, 'slm');
      const global = atomicSeq(k, env.proc, 'ugm');
      return {
        seq: [
          generic([
            { spaces: ['local'], seq: local.seq },
            { spaces: ['private'], seq: privateSeq(k) },
            { spaces: ['global'], seq: global.seq },
          ]),
        ],
        rows: [`${ATOMICS_CL} __generic overload: a dispatch on the pointer's address space`, ...global.rows],
      };
    },
  },
  // ---- Fences --------------------------------------------------------------------------------
  {
    // barrier.cl __intel_atomic_work_item_fence (SPIR-V OpMemoryBarrier): slm fence for
    // WorkgroupMemory, then ugm fence for CrossWorkgroupMemory; `lowerXeCell` drops the one an
    // amdgpu-synchronize-as tag leaves out.
    row: 'fence',
    instr: ['fence'],
    orderings: ['acquire', 'release', 'acq_rel', 'seq_cst'],
    scopes: ANY_SCOPE,
    spaces: ['none'],
    build: (k, env) =>
      workItemFence(k.ordering, SPIRV_SCOPE[k.scope], { local: true, global: true }, env.proc),
  },
];

const R_CMPXCHG = `rule: cmpxchg fences with its merged ordering — SPIR-V OpAtomicCompareExchange requires Unequal no stronger than Equal, and ${ATOMICS_CL} atomic_cmpxhg fences with Equal only`;
const R_UNORDERED = 'rule: unordered is a plain access (it orders nothing; SPIR-V has no unordered atomic)';
const R_CONSTANT =
  'rule: constant memory does not change during a kernel: an atomic load of it is a plain load (no OpenCL atomic takes a __constant pointer)';
const R_CLUSTER = 'rule: cluster scope is Device scope: Intel Xe has no workgroup clusters';
const R_SYNC_AS = `rule: amdgpu-synchronize-as names the memory the fence orders (${BARRIER_CL} __intel_atomic_work_item_fence: WorkgroupMemory → slm fence, CrossWorkgroupMemory → ugm fence)`;

/** Rows of a no-op wave barrier (barrier.cl ControlBarrier, Subgroup). */
export const R_XE_WAVE_BARRIER = `${BARRIER_CL} ControlBarrier(Subgroup): __builtin_IB_sub_group_barrier, "nothing will be emited"`;

/**
 * Lowers one cell for an Intel target; the caller has checked what LLVM IR itself rejects (orderings,
 * cmpxchg failure, constant stores and atomics).
 */
export function lowerXeCell(cell: TableCell, ctx: LowerCtx): LowerResult {
  const proc = ctx.target.processor;
  const looked = lookupOrdering(cell, { cmpxchg: R_CMPXCHG, unordered: R_UNORDERED });
  const pre = looked.pre;
  let ordering = looked.ordering;
  let atomic: RowKey['atomic'] = cell.instr === 'cmpxchg' ? 'cmpxchg' : cell.rmwOp;
  if (cell.space === 'constant' && ordering !== 'notatomic') {
    ordering = 'notatomic';
    pre.push(R_CONSTANT);
  }
  if (ordering === 'notatomic') atomic = undefined;
  let scope: Scope = cell.syncscope.scope;
  if (scope === 'cluster') {
    scope = 'agent';
    if (ordering !== 'notatomic') pre.push(R_CLUSTER);
  }
  if (ordering === 'notatomic') scope = 'system';
  const key: RowKey = {
    instr: cell.instr === 'cmpxchg' ? 'rmw' : cell.instr,
    ordering,
    scope,
    space: (cell.space ?? 'none') as RowSpace,
    volatile: cell.volatile,
    nontemporal: cell.nontemporal,
    returns: cell.returns,
    ...(atomic !== undefined ? { atomic } : {}),
  };
  const env: RowEnv = { proc, mode: 'cu', lang: 'opencl', tgsplit: false };
  const built = makeLookup(XE_TABLE, env, XE_TABLE_NAME)(key);
  if (cell.instr === 'fence' && cell.syncAs !== undefined && cell.syncAs.length > 0) {
    // The fences of the memory the tag names, with their own notes only (a dropped ugm fence's
    // "narrowed to tile" note stayed beside a lone slm fence).
    const memory = { local: cell.syncAs.includes('local'), global: cell.syncAs.includes('global') };
    const f = workItemFence(ordering, SPIRV_SCOPE[scope], memory, proc);
    return { seq: f.seq, rows: [built.rows[0]!, ...f.rows, ...pre, R_SYNC_AS] };
  }
  return { seq: built.seq, rows: [...built.rows, ...pre] };
}

/**
 * The AMDGPU-only annotation an IR instruction carries that has no meaning on Intel Xe:
 * `!mmra !{!"amdgcn-av", !"none"}` (amdgpu-memory-model.rst: no MakeAvailable/MakeVisible). The
 * instruction lowers as without it (an MMRA only relaxes, so dropping it is sound).
 */
export function xeWarnings(instr: Instr, ctx: LowerCtx): LowerDiagnostic[] {
  if (!('avNone' in instr) || !instr.avNone) return [];
  return [
    lowerDiag(
      'LW2014',
      [
        '!mmra !{!"amdgcn-av", !"none"}',
        `${ctx.target.name} (Intel ${ctx.target.processor.generation})`,
        'an AMDGPU memory-model relaxation annotation; the instruction is lowered as without it',
      ],
      instr.span,
      'amdgpu-memory-model.rst (amdgcn-av MMRA); the Intel graphics compiler has no such annotation',
    ),
  ];
}

/**
 * Barriers on Intel Xe. The AMDGPU intrinsics carry no memory semantics, so no fence goes with them
 * (barrier.cl ControlBarrier with Semantics None: `__intel_atomic_work_item_fence` emits nothing).
 * - `@llvm.amdgcn.s.barrier`: ControlBarrier(Workgroup) → `__builtin_IB_thread_group_barrier` →
 *   EmitVISAPass.cpp emitThreadGroupBarrier (EBARRIER_NORMAL): vISA `barrier` (BARRIER.md; it "also
 *   guarantees" memory ordering, more than s_barrier).
 * - signal / wait of the work-group barrier (-1): ControlBarrierArriveINTEL / ControlBarrierWaitINTEL
 *   (Workgroup) → `__builtin_IB_thread_group_barrier_signal` / `_wait` → EBARRIER_SIGNAL / EBARRIER_WAIT:
 *   `sbarrier.signal` / `sbarrier.wait` (SBARRIER.md).
 * - Other barrier ids, `signal_isfirst` and GFX12.5 named barriers are AMDGPU operations with no Xe
 *   counterpart gpumm maps (Xe's named barriers, vISA NBARRIER, count producer and consumer threads).
 */
export function lowerXeBarrier(b: BarrierInstr, ctx: LowerCtx): LowerResult {
  const name = ctx.target.name;
  const cite = `${BARRIER_CL} ControlBarrier / ControlBarrierArriveINTEL / ControlBarrierWaitINTEL`;
  switch (b.op) {
    case 'barrier':
      return {
        seq: [xeBarrier('barrier')],
        rows: [`${BARRIER_CL} ControlBarrier(Workgroup) → ${EMIT} emitThreadGroupBarrier: barrier`],
      };
    case 'signal':
    case 'wait': {
      const id = b.id ?? -1;
      if (id !== -1) {
        return {
          diagnostic: lowerDiag(
            'LW2007',
            [String(id), b.op, name, 'Intel Xe split barriers synchronise the work-group: use id -1'],
            b.span,
            cite,
          ),
        };
      }
      const signal = b.op === 'signal';
      return {
        seq: [xeBarrier(signal ? 'sbarrier.signal' : 'sbarrier.wait')],
        rows: [
          `${BARRIER_CL} ControlBarrier${signal ? 'Arrive' : 'Wait'}INTEL(Workgroup) → ${EMIT} emitThreadGroupBarrier: EBARRIER_${signal ? 'SIGNAL' : 'WAIT'}`,
        ],
      };
    }
    default:
      return {
        diagnostic: lowerDiag(
          'LW2006',
          [
            b.op,
            name,
            'an AMDGPU barrier operation with no Intel Xe counterpart: Xe has the work-group barrier and its split signal/wait (vISA barrier, sbarrier); its named barriers (vISA NBARRIER) count producer and consumer threads',
          ],
          b.span,
          cite,
        ),
      };
  }
}

/** A fence-lowering group of Intel platforms: the processors whose `emitMemoryFence` rules agree. */
export interface XeGroup {
  /** `DG2, MTL, ARL` … */
  label: string;
  processors: Processor[];
}

/** The Intel platform groups of the processor table, in table order. */
export function xeGroups(): XeGroup[] {
  const groups = new Map<string, Processor[]>();
  for (const p of PROCESSORS) {
    if (p.vendor !== 'Intel') continue;
    const f = p.features;
    const key = `${f.multiTile}|${f.gpuFenceToTile}|${f.l1FenceToTile}`;
    groups.set(key, [...(groups.get(key) ?? []), p]);
  }
  return [...groups.values()].map((ps) => ({
    label: ps.map((p) => p.name.toUpperCase()).join(', '),
    processors: ps,
  }));
}
