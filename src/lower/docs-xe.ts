/**
 * The Intel-only parts of docs/targets/intel.md, generated from the same code the lowering uses: the
 * platform groups, the scope mapping (AMDGPU syncscope → SPIR-V scope → LSC scope, per group), what
 * system scope becomes, and the readings where Intel's graphics compiler (IGC) differs from issue 17's
 * summary of it. docs.ts puts them around the table rows it renders as for every family. No Node APIs.
 */

import type { Ordering, Scope } from '../core/types.ts';
import { lscScopeOf, SPIRV_SCOPE, xeGroups } from './intel.ts';
import { formatSeq } from './isa.ts';
import { lowerCell } from './lower.ts';
import { ANY_SCOPE_CL } from './table.ts';
import type { Target } from './targets.ts';
import type { Cell } from './types.ts';

/** Readings: where IGC's code says more than, or other than, a one-line summary of it. */
export const XE_READINGS: string[] = [
  'The input is AMDGPU IR, read as the SPIR-V operation an OpenCL program with the same meaning carries: syncscope → SPIR-V Scope (singlethread Invocation, wavefront Subgroup, workgroup Workgroup, agent Device, system CrossDevice; cluster is Device: Intel has no workgroup clusters), ordering → the semantics order bits, address space → storage class. An IR fence has no address space and, as on AMDGPU, orders global and local memory: CrossWorkgroupMemory | WorkgroupMemory (OpenCL `CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE`); an `amdgpu-synchronize-as` tag keeps only the memory it names. `-one-as` changes nothing: each of the two fences orders one memory already.',
  'Fences (barrier.cl `__intel_atomic_work_item_fence`): an `slm` fence for WorkgroupMemory comes first, then the `ugm` fence for CrossWorkgroupMemory. The `ugm` fence evicts or invalidates the L1 only at Device or CrossDevice scope ("If scope doesn\'t reach outside of workgroup, L1 flush can be skipped"): workgroup, wavefront and singlethread fences are `lsc_fence.ugm.none.group`. A singlethread or wavefront fence still emits both fences (IGC does not drop narrow fences; AMDGPU emits nothing for them).',
  'acq_rel and seq_cst fences ask for both invalidate and evict; EmitVISAPass.cpp `getLSCMemoryFenceOp` keeps evict, which by the LSC_FENCE table also invalidates clean lines ("Dirty lines will be evicted and invalidated from the L1 cache. All clean lines will be invalidated").',
  'Atomics (atomic_fence_impl.h `FENCE_PRE_OP`/`FENCE_POST_OP`) fence at the atomic\'s own scope with no work-group shortcut: a release atomic at workgroup scope asks for an L1 evict at group scope. DG2, PVC, MTL and ARL raise it to tile ("On some products cache is not flushed for scope < tile"); Xe2 and later keep `lsc_fence.ugm.evict.group`.',
  'cmpxchg: IGC fences with the success (Equal) semantics only (atomics.cl `atomic_cmpxhg` passes `Equal` to both fences). SPIR-V requires Unequal to be no stronger than Equal, so an IR cmpxchg whose failure ordering is stronger than its success ordering is read with Equal strengthened: gpumm uses the merged ordering, as for AMDGPU. A cmpxchg is `lsc_atomic_icas`.',
  'System scope: barrier.cl maps CrossDevice to `LSC_FS_GPU` ("TODO: CrossDevice should be mapped to LSC_FS_SYSTEM_RELEASE or LSC_FS_SYSTEM_ACQUIRE"), so a system-scope fence or atomic is a gpu-scope one today — tile scope on DG2, MTL and ARL. See "System scope" above.',
  'Atomic loads are `lsc_atomic_or` of 0, atomic stores `lsc_atomic_store` (the LSC exchange) with the result ignored (atomics.cl: "Since we dont have specialized atomic load/store HDC message …"). atomicrmw rows show `lsc_atomic_<op>`: the LSC atomic of the IR operation (add iadd, sub isub, and, or, xor, max smax, min smin, umax, umin, xchg store).',
  'Private atomics are plain accesses (atomics.cl `__private` overloads: no fence, whatever the ordering); constant memory cannot change during a kernel, so an atomic load of it is a plain load.',
  "Generic pointers: atomics dispatch on the pointer's address space (atomics.cl `__generic` overloads: local, private, else global); loads and stores switch on the pointer's tag (GenericAddressDynamicResolution.cpp `resolveGAS`). gpumm shows every branch; IGC drops a branch no cast in the kernel can reach (CastToGASAnalysis), which does not change the branch a location takes.",
  'Compiler settings: the optimising path with default options. With optimisation off, `__intel_memfence_optnone` ignores the scope (gpu for global fences, group for local ones). The OpenCL internal option StoreCacheDefault, when set to a policy other than L1 write-back, clears `L1_Evict` (emitMemoryFence: "Do L1 evict only when default L1 cache policy is write-back"). The flag EnableGPUFenceScopeOnSingleTileGPUs turns the single-tile narrowing off.',
  'PVC: `hasMultiTile()` reads the tile count of the part; a one-tile PVC lowers the same, since PVC is not a `hasL3FlushOnGPUScopeInvalidate` platform. The narrowing only ever applies to DG2, MTL and ARL, which have one tile.',
  'Barriers: `@llvm.amdgcn.s.barrier` is vISA `barrier`, whose description says memory ordering "is also guaranteed" — more than s_barrier; signal and wait of the work-group barrier (-1) are `sbarrier.signal` and `sbarrier.wait`. Other ids, `signal_isfirst` and named barriers are LW2007/LW2006. `llvm.amdgcn.wave.barrier` emits nothing (barrier.cl ControlBarrier, Subgroup). The av load/store intrinsics have no lowering (LW2008: "The av intrinsics" below), and `!mmra !{!"amdgcn-av", !"none"}` has no Intel meaning (LW2014, a warning: the instruction lowers as without it).',
  'volatile and nontemporal change nothing: the functions read give them no fence, and default cache controls.',
];

function codeOf(cell: Cell, target: Target): string {
  const r = lowerCell(cell, { target, mode: 'cu', lang: 'opencl' });
  if ('diagnostic' in r) return `error ${r.diagnostic.code}`;
  return formatSeq(r.seq)
    .flatMap((l) => l.split('; '))
    .map((l) => `\`${l}\``)
    .join('<br>');
}

function cellAt(instr: Cell['instr'], ordering: Ordering, scope: Scope): Cell {
  return {
    instr,
    ordering,
    failure: 'monotonic',
    syncscope: { scope, oneAs: false },
    space: instr === 'fence' ? null : 'global',
    volatile: false,
    nontemporal: false,
    returns: instr !== 'store',
    ...(instr === 'fence' ? { syncAs: ['global' as const] } : {}),
  };
}

/** The sections of docs/targets/intel.md before the readings and rows. */
export function xeDocPrelude(): string[] {
  const groups = xeGroups();
  const out: string[] = [
    '## Platform groups',
    '',
    "Intel's graphics compiler adjusts the scope of a `ugm` fence per platform (EmitVISAPass.cpp `emitMemoryFence`). The groups below are the processor table's; the columns of every table on this page are one platform of each group.",
    '',
    '| Group | Platforms (`--target`) | Architecture | one tile | gpu scope or wider → tile (single tile: `hasL3FlushOnGPUScopeInvalidate`) | L1 evict/invalidate below tile → tile |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const g of groups) {
    const f = g.processors[0]!.features;
    const names = g.processors
      .map((p) => `${p.name}${p.aliases.length > 0 ? ` (${p.aliases.map((a) => a.name).join(', ')})` : ''}`)
      .join('; ');
    const arch = [...new Set(g.processors.map((p) => p.generation))].join(', ');
    const yes = (b: boolean): string => (b ? 'yes' : '—');
    out.push(
      `| ${g.label} | ${names} | ${arch} | ${yes(!f.multiTile)} | ${yes(f.gpuFenceToTile)} | ${yes(f.l1FenceToTile)} |`,
    );
  }
  out.push(
    '',
    '## AMDGPU syncscopes on Intel Xe',
    '',
    'Each syncscope becomes a SPIR-V scope, which barrier.cl `CONVERT_SCOPE_SPIRV_TO_VISA` turns into an LSC scope (CrossDevice and Device: gpu; the others: group, "our HW spec doesn\'t have corresponding scope for Invocation or Subgroup, hence mapping to lowest possible scope"); emitMemoryFence then adjusts it per group. The group columns show a release fence tagged `amdgpu-synchronize-as` global (one `ugm` fence) and a release atomic store to global memory.',
    '',
    `| AMDGPU syncscope | SPIR-V scope | LSC scope | ${groups.map((g) => g.label).join(' | ')} |`,
    `| --- | --- | --- | ${groups.map(() => '---').join(' | ')} |`,
  );
  for (const scope of ANY_SCOPE_CL) {
    const spirv = SPIRV_SCOPE[scope];
    const cells = groups.map((g) => {
      const target: Target = {
        name: g.processors[0]!.name,
        processor: g.processors[0]!,
        gpu: g.processors[0]!.gpu,
      };
      return `fence: ${codeOf(cellAt('fence', 'release', scope), target)}<br>store: ${codeOf(cellAt('store', 'release', scope), target)}`;
    });
    out.push(`| ${scope} | ${spirv} | ${lscScopeOf(spirv)} | ${cells.join(' | ')} |`);
  }
  out.push(
    '',
    '## System scope',
    '',
    '- From IR (SPIR-V CrossDevice, OpenCL `memory_scope_all_svm_devices`, SYCL `memory_scope::system`): gpu scope, as Device — barrier.cl `CONVERT_SCOPE_SPIRV_TO_VISA` maps CrossDevice to `LSC_FS_GPU` and carries the TODO that it "should be mapped to LSC_FS_SYSTEM_RELEASE or LSC_FS_SYSTEM_ACQUIRE". On DG2, MTL and ARL the gpu scope is narrowed further, to tile. No IR gpumm reads reaches `sysrel` or `sysacq`.',
    '- The `sysrel` and `sysacq` scopes exist only through Intel\'s explicit LSC fence built-ins (`__builtin_IB_lsc_fence_global_untyped(LSC_FS_SYSTEM_RELEASE, …)`). LSCFuncsResolution.cpp @98cd73ec `CreateLSCFenceIntrinsicCallInst` deletes such a fence on integrated parts and Xe2 ("Global memory fences are not needed on integrated devices or on Xe2 platforms") and rejects it where `supportSystemFence()` is false ("platform does not support system fence"; Platform.hpp @000cd780 `supportSystemFence`: every LSC platform but DG2, MTL and ARL). Of the platforms here only PVC keeps such a fence.',
    '',
    '## Hardware check',
    '',
    "`gpumm check --target <platform>` runs this code on the Intel Xe machine (docs/hardware.md, [\"Intel Xe\"](../hardware.md#intel-xe)), one per group above: an L1 per Xe-core, shared by a work-group's threads (its SRAM also holds the SLM); an L3 per tile (the level Intel's product pages call L2), two tiles on PVC; behind them the GPU's coherence point, then memory shared by the GPUs. `lsc_fence` waits for the thread's earlier requests to its port, then evicts, invalidates, cleans or discards as the LSC_FENCE table says, on the L1 (from tile scope on DG2, PVC, MTL and ARL) and on every level below its scope. `gpumm mutate --target <platform>` drops each fence, weakens its op and narrows its scope. The catalogue is sound on every group but for three findings, explained there: a system-scope release and acquire are gpu-scope fences (MP+rel+acq.sys.diff-agent, AV-Prop4.vis-outside-writer: across agents), and a global release atomic does not wait for the thread's SLM stores (MP+rel+acq.wg.lds-data).",
    '',
  );
  return out;
}
