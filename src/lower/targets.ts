/**
 * The processor table: every AMDGPU processor gpumm can lower for, with the features that change
 * the memory-model code sequences. One table; the CLI, the lowering tables, the docs and the llc-22
 * differential test all read it.
 *
 * spec: amdgpu-usage-2018.rst, "Processors" table (GFX6–GFX9 names, aliases, dGPU/APU);
 * gfx12-memory-model.rst (GFX12, CU and WGP wavefront execution modes);
 * seeds/001 (BackOffBarrier, split barriers on GFX12, named barriers on GFX12.5).
 */

import { editDistance } from '../core/nearest.ts';

/** Hardware generation. */
export type Generation = 'GFX6' | 'GFX7' | 'GFX8' | 'GFX9' | 'GFX10' | 'GFX11' | 'GFX12' | 'GFX12.5';

/**
 * Which memory-model code-sequence table a processor uses. `null`: none transcribed yet (the
 * processor is known for barriers and target-name diagnostics only).
 */
export type TableFamily = 'gfx6-9' | 'gfx90a' | 'gfx942' | 'gfx10-11' | 'gfx12' | 'gfx1250';

/** Barrier flavour (seeds/001): `s_barrier` only, split barriers, or split plus named barriers. */
export type BarrierFamily = 'gfx6-11' | 'gfx12' | 'gfx12.5';

export type GpuKind = 'dGPU' | 'APU';

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
}

export interface Processor {
  /** Canonical name, as `-mcpu` takes it. */
  name: string;
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
    aliases,
    gpu,
    generation,
    table: 'gfx6-9',
    barriers: 'gfx6-11',
    features: {
      flat: generation !== 'GFX6',
      globalInsts: generation === 'GFX9',
      wgpMode: false,
      backOffBarrier: false,
      vscnt: false,
      tgsplit: false,
      clusters: false,
      xcnt: false,
    },
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
    aliases: [],
    gpu,
    generation,
    table,
    barriers,
    features: {
      flat: true,
      globalInsts: true,
      wgpMode: f.wgpMode ?? false,
      backOffBarrier: f.backOffBarrier ?? false,
      vscnt: f.vscnt ?? false,
      tgsplit: f.tgsplit ?? false,
      clusters: f.clusters ?? false,
      xcnt: f.xcnt ?? false,
    },
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
