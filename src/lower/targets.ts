/**
 * The processor table: every AMDGPU processor and Intel Xe platform gpumm can lower for, with the
 * features that change the memory-model code sequences. One table; the CLI, the lowering tables, the
 * docs and the llc-22 differential test all read it.
 *
 * spec: amdgpu-usage-2018.rst, "Processors" table (GFX6–GFX9 names, aliases, dGPU/APU);
 * gfx12-memory-model.rst (GFX12, CU and WGP wavefront execution modes);
 * seeds/001 (BackOffBarrier, split barriers on GFX12, named barriers on GFX12.5).
 * Intel Xe: the platform predicates of Intel's graphics compiler that change `lsc_fence` lowering
 * (src/lower/intel.ts has the citations), the device names of Intel's offline compiler `ocloc`.
 */

import { editDistance } from '../core/nearest.ts';

/** Whose GPU: the AMDGPU tables or the Intel Xe lowering (src/lower/intel.ts). */
export type Vendor = 'AMD' | 'Intel';

/** Hardware generation (AMDGPU) or graphics architecture (Intel Xe). */
export type Generation =
  | 'GFX6'
  | 'GFX7'
  | 'GFX8'
  | 'GFX9'
  | 'GFX10'
  | 'GFX11'
  | 'GFX12'
  | 'GFX12.5'
  | 'Xe-HPG'
  | 'Xe-LPG'
  | 'Xe-HPC'
  | 'Xe2'
  | 'Xe3';

/**
 * Which memory-model code-sequence table a processor uses. `null`: none transcribed yet (the
 * processor is known for barriers and target-name diagnostics only).
 */
export type TableFamily = 'gfx6-9' | 'gfx90a' | 'gfx942' | 'gfx10-11' | 'gfx12' | 'gfx1250' | 'xe';

/**
 * Barrier flavour (seeds/001): `s_barrier` only, split barriers, or split plus named barriers; Intel
 * Xe: vISA `barrier` and `sbarrier.signal`/`sbarrier.wait`.
 */
export type BarrierFamily = 'gfx6-11' | 'gfx12' | 'gfx12.5' | 'xe';

/** Discrete GPU, AMD APU, or Intel integrated GPU. */
export type GpuKind = 'dGPU' | 'APU' | 'iGPU';

/** Features that change code sequences. */
export interface ProcessorFeatures {
  /** `flat_*` instructions (and so the generic address space) exist: GFX7 and later. */
  flat: boolean;
  /** `global_*` and `scratch_*` encodings exist: GFX9 and later. */
  globalInsts: boolean;
  /** Wavefronts may run in CU or WGP mode (GFX10 and later); the default is WGP. */
  wgpMode: boolean;
  /** seeds/001 "BackOffBarrier": `s_barrier` needs no preceding waits. */
  backOffBarrier: boolean;
  /** `s_waitcnt_vscnt` exists (GFX10–11): stores have their own counter. */
  vscnt: boolean;
  /** TgSplit execution mode exists (GFX90A, GFX942, GFX950: target feature `tgsplit`). */
  tgsplit: boolean;
  /**
   * Workgroup clusters (GFX12.5: target property "Workgroup Clusters"): the `cluster` syncscope has
   * rows of its own instead of being agent scope.
   */
  clusters: boolean;
  /** `s_wait_xcnt` exists (GFX12.5): waits for address translation of issued memory operations. */
  xcnt: boolean;
  /**
   * Intel Xe: more than one tile (Intel graphics compiler Platform.hpp `hasMultiTile`, the GT system
   * info's tile count above 1): PVC.
   */
  multiTile: boolean;
  /**
   * Intel Xe: a `ugm` fence at `gpu` scope or wider is narrowed to `tile` on a single-tile part
   * (Platform.hpp `hasL3FlushOnGPUScopeInvalidate`, "UGM LSC fence with GPU scope triggers L3 flush":
   * DG2, MTL, ARL; EmitVISAPass.cpp `emitMemoryFence`).
   */
  gpuFenceToTile: boolean;
  /**
   * Intel Xe: a `ugm` fence that evicts or invalidates the L1 below `tile` scope is raised to `tile`
   * (EmitVISAPass.cpp `emitMemoryFence`, "On some products cache is not flushed for scope < tile":
   * DG2, PVC, MTL, ARL).
   */
  l1FenceToTile: boolean;
}

export interface Processor {
  /** Canonical name, as `-mcpu` takes it (Intel: as `ocloc -device` takes it). */
  name: string;
  vendor: Vendor;
  /** Alternative names from the "Processors" table, each with its own dGPU/APU column. */
  aliases: readonly { name: string; gpu: GpuKind }[];
  gpu: GpuKind;
  generation: Generation;
  table: TableFamily | null;
  barriers: BarrierFamily;
  features: ProcessorFeatures;
  /** llc-22 accepts this `-mcpu` (checked by the differential test). */
  llc: boolean;
  /** Where the row comes from. */
  source: string;
}

/** Every feature off; each processor row turns on its own. */
const NO_FEATURES: ProcessorFeatures = {
  flat: false,
  globalInsts: false,
  wgpMode: false,
  backOffBarrier: false,
  vscnt: false,
  tgsplit: false,
  clusters: false,
  xcnt: false,
  multiTile: false,
  gpuFenceToTile: false,
  l1FenceToTile: false,
};

const USAGE_2018 = 'amdgpu-usage-2018.rst "Processors"';
const CURRENT = 'current LLVM AMDGPUUsage.rst "Processors" (beyond the seeds)';

function gfx6to9(
  name: string,
  generation: 'GFX6' | 'GFX7' | 'GFX8' | 'GFX9',
  gpu: GpuKind,
  aliases: { name: string; gpu: GpuKind }[],
  llc = true,
): Processor {
  return {
    name,
    vendor: 'AMD',
    aliases,
    gpu,
    generation,
    table: 'gfx6-9',
    barriers: 'gfx6-11',
    features: { ...NO_FEATURES, flat: generation !== 'GFX6', globalInsts: generation === 'GFX9' },
    llc,
    source: USAGE_2018,
  };
}

function later(
  name: string,
  generation: Generation,
  gpu: GpuKind,
  table: TableFamily | null,
  barriers: BarrierFamily,
  f: Partial<ProcessorFeatures>,
): Processor {
  return {
    name,
    vendor: 'AMD',
    aliases: [],
    gpu,
    generation,
    table,
    barriers,
    features: { ...NO_FEATURES, flat: true, globalInsts: true, ...f },
    llc: true,
    source:
      table === 'gfx12'
        ? 'gfx12-memory-model.rst; seeds/001'
        : table === 'gfx10-11'
          ? 'LLVM AMDGPUUsage.rst @001388cf "Memory Model GFX10-GFX11" (beyond the seeds); seeds/001'
          : table === 'gfx90a'
            ? 'LLVM AMDGPUUsage.rst @f5c8b0a9 "Memory Model GFX90A" and "Processors" (beyond the seeds); seeds/001'
            : table === 'gfx942'
              ? name === 'gfx950'
                ? 'LLVM AMDGPUUsage.rst @f5c8b0a9 "Memory Model GFX942" (inferred for gfx950: same features, gfx9-4-generic) and "Processors"; seeds/001'
                : 'LLVM AMDGPUUsage.rst @f5c8b0a9 "Memory Model GFX942" and "Processors" (beyond the seeds); seeds/001'
              : table === 'gfx1250'
                ? 'LLVM AMDGPUUsage.rst @07379fed (sailfishos-mirror/llvm-project) "Memory Model GFX125x" and "Processors" (beyond the seeds); seeds/001'
                : CURRENT,
  };
}

const d = (name: string): { name: string; gpu: GpuKind } => ({ name, gpu: 'dGPU' });
const a = (name: string): { name: string; gpu: GpuKind } => ({ name, gpu: 'APU' });

/** Where the Intel rows come from (src/lower/intel.ts cites each function). */
export const XE_SOURCE =
  'Intel graphics compiler: Platform.hpp @9d002efd (hasMultiTile, hasL3FlushOnGPUScopeInvalidate), EmitVISAPass.cpp @b926f8aa (emitMemoryFence); ocloc device names (NEO)';

/**
 * An Intel Xe platform. `group` is the fence-lowering group of Intel's graphics compiler
 * (EmitVISAPass.cpp `emitMemoryFence`): `narrow-raise` single-tile DG2/MTL/ARL (gpu scope or wider
 * narrowed to tile, L1 maintenance below tile raised to tile), `raise` multi-tile PVC (the raise only),
 * `none` Xe2 and later (no adjustment).
 */
function xe(
  name: string,
  generation: Generation,
  gpu: GpuKind,
  group: 'narrow-raise' | 'raise' | 'none',
  aliases: string[],
): Processor {
  return {
    name,
    vendor: 'Intel',
    aliases: aliases.map((n) => ({ name: n, gpu })),
    gpu,
    generation,
    table: 'xe',
    barriers: 'xe',
    features: {
      ...NO_FEATURES,
      flat: true,
      multiTile: group === 'raise',
      gpuFenceToTile: group === 'narrow-raise',
      l1FenceToTile: group !== 'none',
    },
    llc: false,
    source: XE_SOURCE,
  };
}

/**
 * Every processor gpumm knows. GFX6–GFX9 rows follow the 2018 "Processors" table exactly (gfx800,
 * gfx804, gfx901 and gfx903 are there but no longer accepted by llc-22). GFX12/GFX12.5 follow
 * gfx12-memory-model.rst and seeds/001. GFX10/GFX11 entries are beyond the seeds (table from the current
 * LLVM AMDGPUUsage.rst); GFX9.4 (gfx90a, gfx942, gfx950) follow the current LLVM AMDGPUUsage.rst (f5c8b0a9); GFX12.5 (gfx1250, gfx1251) follows the GFX125x section of the sailfishos-mirror copy
 * (07379fed).
 */
export const PROCESSORS: readonly Processor[] = [
  gfx6to9('gfx600', 'GFX6', 'dGPU', [d('tahiti')]),
  gfx6to9('gfx601', 'GFX6', 'dGPU', [d('pitcairn'), d('verde'), d('oland'), d('hainan')]),
  gfx6to9('gfx700', 'GFX7', 'dGPU', [d('bonaire'), a('kaveri')]),
  gfx6to9('gfx701', 'GFX7', 'dGPU', [d('hawaii')]),
  gfx6to9('gfx702', 'GFX7', 'dGPU', []),
  gfx6to9('gfx703', 'GFX7', 'APU', [a('kabini'), a('mullins')]),
  gfx6to9('gfx800', 'GFX8', 'dGPU', [d('iceland')], false),
  gfx6to9('gfx801', 'GFX8', 'APU', [a('carrizo')]),
  gfx6to9('gfx802', 'GFX8', 'dGPU', [d('tonga')]),
  gfx6to9('gfx803', 'GFX8', 'dGPU', [d('fiji'), d('polaris10'), d('polaris11')]),
  gfx6to9('gfx804', 'GFX8', 'dGPU', [], false),
  gfx6to9('gfx810', 'GFX8', 'APU', [a('stoney')]),
  gfx6to9('gfx900', 'GFX9', 'dGPU', []),
  gfx6to9('gfx901', 'GFX9', 'dGPU', [], false),
  gfx6to9('gfx902', 'GFX9', 'APU', []),
  gfx6to9('gfx903', 'GFX9', 'APU', [], false),
  later('gfx90a', 'GFX9', 'dGPU', 'gfx90a', 'gfx6-11', { backOffBarrier: true, tgsplit: true }),
  later('gfx942', 'GFX9', 'dGPU', 'gfx942', 'gfx6-11', { backOffBarrier: true, tgsplit: true }),
  later('gfx950', 'GFX9', 'dGPU', 'gfx942', 'gfx6-11', { backOffBarrier: true, tgsplit: true }),
  later('gfx1010', 'GFX10', 'dGPU', 'gfx10-11', 'gfx6-11', {
    wgpMode: true,
    backOffBarrier: true,
    vscnt: true,
  }),
  later('gfx1030', 'GFX10', 'dGPU', 'gfx10-11', 'gfx6-11', {
    wgpMode: true,
    backOffBarrier: true,
    vscnt: true,
  }),
  later('gfx1100', 'GFX11', 'dGPU', 'gfx10-11', 'gfx6-11', {
    wgpMode: true,
    backOffBarrier: true,
    vscnt: true,
  }),
  later('gfx1200', 'GFX12', 'dGPU', 'gfx12', 'gfx12', { wgpMode: true, backOffBarrier: true }),
  later('gfx1201', 'GFX12', 'dGPU', 'gfx12', 'gfx12', { wgpMode: true, backOffBarrier: true }),
  // "Processors" (07379fed): gfx1250 and gfx1251 are APUs with no target features (no cumode: one
  // table, no CU/WGP modes) and the properties "Workgroup Clusters" and "Globally Accessible Scratch".
  later('gfx1250', 'GFX12.5', 'APU', 'gfx1250', 'gfx12.5', {
    backOffBarrier: true,
    clusters: true,
    xcnt: true,
  }),
  later('gfx1251', 'GFX12.5', 'APU', 'gfx1250', 'gfx12.5', {
    backOffBarrier: true,
    clusters: true,
    xcnt: true,
  }),
  // Intel Xe, in the groups whose fence lowering differs (EmitVISAPass.cpp `emitMemoryFence`). Aliases:
  // `ocloc -device` acronyms (NEO's product config table: acm-g10 … lnl-m); arl-s/arl-u are MTL-U
  // configurations there, ARL products all the same.
  xe('dg2', 'Xe-HPG', 'dGPU', 'narrow-raise', [
    'acm-g10',
    'acm-g11',
    'acm-g12',
    'dg2-g10',
    'dg2-g11',
    'dg2-g12',
  ]),
  xe('mtl', 'Xe-LPG', 'iGPU', 'narrow-raise', ['mtl-u', 'mtl-s', 'mtl-h', 'mtl-p']),
  xe('arl', 'Xe-LPG', 'iGPU', 'narrow-raise', ['arl-h', 'arl-s', 'arl-u']),
  xe('pvc', 'Xe-HPC', 'dGPU', 'raise', []),
  xe('lnl', 'Xe2', 'iGPU', 'none', ['lnl-m']),
  xe('bmg', 'Xe2', 'dGPU', 'none', ['bmg-g21', 'bmg-g31']),
  xe('ptl', 'Xe3', 'iGPU', 'none', ['ptl-h', 'ptl-u']),
];

/** A resolved `--target`: the processor and the name it was given as. */
export interface Target {
  /** Name as given (`fiji`, `gfx803` …), lower-cased. */
  name: string;
  processor: Processor;
  /** dGPU/APU of this name (aliases of one processor can differ, e.g. bonaire vs kaveri). */
  gpu: GpuKind;
}

/** Every accepted name: canonical names and aliases. */
export function knownTargetNames(): string[] {
  return PROCESSORS.flatMap((p) => [p.name, ...p.aliases.map((x) => x.name)]);
}

/** Looks up a processor or alias; null when unknown. */
export function findTarget(name: string): Target | null {
  const n = name.trim().toLowerCase();
  for (const p of PROCESSORS) {
    if (p.name === n) return { name: n, processor: p, gpu: p.gpu };
    const al = p.aliases.find((x) => x.name === n);
    if (al) return { name: n, processor: p, gpu: al.gpu };
  }
  return null;
}

/** Up to `n` known names closest to `name` (edit distance, then alphabetical), however far. */
export function nearestTargetNames(name: string, n = 3): string[] {
  const q = name.trim().toLowerCase();
  return knownTargetNames()
    .map((k) => ({ k, dist: editDistance(q, k) }))
    .sort((x, y) => x.dist - y.dist || x.k.localeCompare(y.k))
    .slice(0, n)
    .map((x) => x.k);
}

/** Target used when none is given. */
export const DEFAULT_TARGET = 'gfx1200';
