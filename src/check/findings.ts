/**
 * The findings of the catalogue on the machines, per profile: the UNSOUND verdicts (`test|target|mode` →
 * the forbidden state; docs/hardware.md, "Findings on the catalogue", explains each) and the sound verdicts
 * that need a named assumption (`test|target|mode` → the assumptions; src/sim/assumptions.ts). The
 * catalogue tests pin both (catalogue.test.ts, catalogue.llc.test.ts) and docs/assumptions.md is generated
 * from them (src/check/docs.ts). Keys of a second GFX12 reading end in `|seed` or `|amdgpuusage`.
 *
 * No test framework here: the docs generator imports it.
 */

import { findTarget } from '../lower/targets.ts';
import type { WaveMode } from '../lower/types.ts';
import type { AssumptionId } from '../sim/assumptions.ts';
import type { HwText } from '../sim/config.ts';
import { defaultHwText, type Lowering } from './check.ts';

/** The machine runs the catalogue is checked on: every family, every mode, distinct code per target. */
export const CATALOGUE_RUNS: readonly [string, WaveMode | 'tgsplit'][] = [
  ['gfx600', 'cu'],
  ['gfx700', 'cu'],
  ['gfx900', 'cu'],
  ['gfx90a', 'cu'],
  ['gfx90a', 'tgsplit'],
  ['gfx942', 'cu'],
  ['gfx942', 'tgsplit'],
  ['gfx950', 'cu'],
  ['gfx1030', 'cu'],
  ['gfx1030', 'wgp'],
  ['gfx1100', 'cu'],
  ['gfx1100', 'wgp'],
  ['gfx1200', 'cu'],
  ['gfx1200', 'wgp'],
  ['gfx1250', 'cu'],
  // Intel Xe, one platform of each fence-lowering group (the others run the same machine on the same
  // code: src/sim/intel.test.ts).
  ['dg2', 'cu'],
  ['pvc', 'cu'],
  ['lnl', 'cu'],
];

/**
 * The GFX12 runs checked a second time under the other reading of its L0 and GL1 (docs/hardware.md, "GFX12
 * L0: two readings"): the seed's for llc-22's code, AMDGPUUsage's for the documents'. Their keys end in
 * `|seed` or `|amdgpuusage`.
 */
export const READING_RUNS: readonly [string, WaveMode][] = [
  ['gfx1200', 'cu'],
  ['gfx1200', 'wgp'],
];

/** The GFX12 reading a profile's catalogue is checked under a second time. */
export function otherReading(lowering: Lowering): HwText {
  return defaultHwText(lowering) === 'seed' ? 'amdgpuusage' : 'seed';
}

/**
 * A finding of every AMD run with either profile, as `test|target|mode` → state: no table orders a
 * relaxed load before a later store of another location; the model's no-thin-air axiom does
 * (docs/hardware.md, "Findings").
 */
export const LB_RLX_PINNED: Readonly<Record<string, string>> = Object.fromEntries(
  CATALOGUE_RUNS.filter(([t]) => findTarget(t)?.processor.vendor === 'AMD').map(([t, m]) => [
    `LB+rlx.agent|${t}|${m}`,
    'P0:r0=1; P1:r1=1;',
  ]),
);

export const DOC_UNSOUND: Readonly<Record<string, string>> = {
  ...LB_RLX_PINNED,
  // A workgroup-scope release drains only the wave's own counters (or none, GFX6–9 and CU mode): a
  // store of another wave of the work-group, still queued in the CU, is not published by a later
  // agent-scope release of the second wave.
  'ISA2+rel+acq.hrf|gfx600|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf|gfx700|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf|gfx900|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf|gfx90a|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf|gfx942|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf|gfx950|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf|gfx1030|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf|gfx1100|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf.atomic|gfx600|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf.atomic|gfx700|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf.atomic|gfx900|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf.atomic|gfx90a|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf.atomic|gfx942|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf.atomic|gfx950|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf.atomic|gfx1030|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf.atomic|gfx1100|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf.atomic|gfx1200|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  // The same with av operations: a workgroup-scope av store of P0 (a plain store at workgroup scope),
  // still queued in the CU, is not published by P1's later agent-scope release.
  'AV-Prop5.av-vis-chain|gfx600|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'AV-Prop5.av-vis-chain|gfx700|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'AV-Prop5.av-vis-chain|gfx900|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'AV-Prop5.av-vis-chain|gfx90a|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'AV-Prop5.av-vis-chain|gfx942|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'AV-Prop5.av-vis-chain|gfx950|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'AV-Prop5.av-vis-chain|gfx1030|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'AV-Prop5.av-vis-chain|gfx1100|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  // CU mode (GFX10–12): the workgroup-scope release omits the counter waits ("the vector and scalar
  // memory operations performed by different wavefronts, whether executing in the same or different
  // work-groups …, can be reordered"), and s_barrier orders no memory.
  'MP+bar+fence.wg|gfx1030|cu': 'P1:r0=0;',
  'MP+bar+fence.wg|gfx1100|cu': 'P1:r0=0;',
  'MP+bar+fence.wg|gfx1200|cu': 'P1:r0=0;',
  'MP+bar+fence.wg.avvis|gfx1030|cu': 'P1:r0=0;',
  'MP+bar+fence.wg.avvis|gfx1100|cu': 'P1:r0=0;',
  'MP+bar+fence.wg.avvis|gfx1200|cu': 'P1:r0=0;',
  'MP+bar+fence.wg-one-as.mixed-data|gfx1030|cu': 'P1:r0=0; P1:r1=1;',
  'MP+bar+fence.wg-one-as.mixed-data|gfx1100|cu': 'P1:r0=0; P1:r1=1;',
  'MP+bar+fence.wg-one-as.mixed-data|gfx1200|cu': 'P1:r0=0; P1:r1=1;',
  // CU mode (GFX10–12): a workgroup-scope acquire on global memory has no wait before a later LDS
  // load of the wave (another counter).
  'MP+fence.wg.mixed-data|gfx1030|cu': 'P1:r0=1; P1:r1=1; P1:r2=0;',
  'MP+fence.wg.mixed-data|gfx1100|cu': 'P1:r0=1; P1:r1=1; P1:r2=0;',
  'MP+fence.wg.mixed-data|gfx1200|cu': 'P1:r0=1; P1:r1=1; P1:r2=0;',
  'MP+rel+acq.wg.lds-data|gfx1030|cu': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq.wg.lds-data|gfx1100|cu': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq.wg.lds-data|gfx1200|cu': 'P1:r0=1; P1:r1=0;',
  // Intel Xe: a system-scope release and acquire are gpu-scope fences (barrier.cl CONVERT_SCOPE_SPIRV_TO_VISA:
  // "TODO: CrossDevice should be mapped to LSC_FS_SYSTEM_RELEASE or LSC_FS_SYSTEM_ACQUIRE"), which reach
  // the GPU's coherence point and not memory shared by the GPUs ("gpus: All GPUs in the system").
  'MP+rel+acq.sys.diff-agent|dg2|cu': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq.sys.diff-agent|pvc|cu': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq.sys.diff-agent|lnl|cu': 'P1:r0=1; P1:r1=0;',
  'AV-Prop4.vis-outside-writer|dg2|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'AV-Prop4.vis-outside-writer|pvc|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'AV-Prop4.vis-outside-writer|lnl|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  // Intel Xe: an atomic fences only its own memory (atomic_fence_impl.h FENCE_PRE_OP(Scope, Semantics,
  // isGlobal)): a global release does not wait for the thread's SLM store ("all previous accesses by this
  // thread to this dataport"), where the model's release orders both address spaces.
  'MP+rel+acq.wg.lds-data|dg2|cu': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq.wg.lds-data|pvc|cu': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq.wg.lds-data|lnl|cu': 'P1:r0=1; P1:r1=0;',
  // GFX12 under the AMDGPUUsage reading (write-through L0 and GL1; docs/hardware.md, "GFX12 L0: two
  // readings"): the documents' code is unsound where GFX10–11's is, and for the same reasons — a
  // workgroup-scope store of another wave still queued in the CU (ISA2.hrf, AV-Prop5), the CU-mode rows
  // without waits (MP+bar+fence.wg …).
  'AV-Prop5.av-vis-chain|gfx1200|cu|amdgpuusage': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf.atomic|gfx1200|cu|amdgpuusage': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf|gfx1200|cu|amdgpuusage': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'LB+rlx.agent|gfx1200|cu|amdgpuusage': 'P0:r0=1; P1:r1=1;',
  'MP+bar+fence.wg-one-as.mixed-data|gfx1200|cu|amdgpuusage': 'P1:r0=0; P1:r1=1;',
  'MP+bar+fence.wg.avvis|gfx1200|cu|amdgpuusage': 'P1:r0=0;',
  'MP+bar+fence.wg|gfx1200|cu|amdgpuusage': 'P1:r0=0;',
  'MP+fence.wg.mixed-data|gfx1200|cu|amdgpuusage': 'P1:r0=1; P1:r1=1; P1:r2=0;',
  'MP+rel+acq.wg.lds-data|gfx1200|cu|amdgpuusage': 'P1:r0=1; P1:r1=0;',
  'LB+rlx.agent|gfx1200|wgp|amdgpuusage': 'P0:r0=1; P1:r1=1;',
  // A workgroup-scope release RMW on an LDS flag, with global data: in CU mode (GFX10–12) the row waits for
  // LDS only, so the global store may still be queued in the CU when the other wave, past the flag, loads
  // the data (MP+bar+fence.wg's finding, with an LDS RMW); on Intel Xe an atomic fences only its own memory
  // (the finding of MP+rel+acq.wg.lds-data). llc-22's code is sound.
  'MP+acq_rel-rmw+acq-rmw.wg.lds|dg2|cu': 'P1:r1=1; P1:r2=0; P0:r0=0;',
  'MP+acq_rel-rmw+acq-rmw.wg.lds|gfx1030|cu': 'P1:r1=1; P1:r2=0; P0:r0=0;',
  'MP+acq_rel-rmw+acq-rmw.wg.lds|gfx1100|cu': 'P1:r1=1; P1:r2=0; P0:r0=0;',
  'MP+acq_rel-rmw+acq-rmw.wg.lds|gfx1200|cu': 'P1:r1=1; P1:r2=0; P0:r0=0;',
  'MP+acq_rel-rmw+acq-rmw.wg.lds|gfx1200|cu|amdgpuusage': 'P1:r1=1; P1:r2=0; P0:r0=0;',
  'MP+acq_rel-rmw+acq-rmw.wg.lds|lnl|cu': 'P1:r1=1; P1:r2=0; P0:r0=0;',
  'MP+acq_rel-rmw+acq-rmw.wg.lds|pvc|cu': 'P1:r1=1; P1:r2=0; P0:r0=0;',
  'MP+rel-rmw+acq_rel-rmw.wg.lds|dg2|cu': 'P1:r0=1; P1:r1=0; P0:u=0;',
  'MP+rel-rmw+acq_rel-rmw.wg.lds|gfx1030|cu': 'P1:r0=1; P1:r1=0; P0:u=0;',
  'MP+rel-rmw+acq_rel-rmw.wg.lds|gfx1100|cu': 'P1:r0=1; P1:r1=0; P0:u=0;',
  'MP+rel-rmw+acq_rel-rmw.wg.lds|gfx1200|cu': 'P1:r0=1; P1:r1=0; P0:u=0;',
  'MP+rel-rmw+acq_rel-rmw.wg.lds|gfx1200|cu|amdgpuusage': 'P1:r0=1; P1:r1=0; P0:u=0;',
  'MP+rel-rmw+acq_rel-rmw.wg.lds|lnl|cu': 'P1:r0=1; P1:r1=0; P0:u=0;',
  'MP+rel-rmw+acq_rel-rmw.wg.lds|pvc|cu': 'P1:r0=1; P1:r1=0; P0:u=0;',
  // Intel Xe: an agent-scope global release does not wait for the thread's SLM store.
  'MP+rel+acq.agent.lds-data|dg2|cu': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq.agent.lds-data|lnl|cu': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq.agent.lds-data|pvc|cu': 'P1:r0=1; P1:r1=0;',
};

export const LLC_UNSOUND: Readonly<Record<string, string>> = {
  ...LB_RLX_PINNED,
  // As the documents' code where llc-22 keeps their workgroup-scope release (GFX6, GFX9, GFX9.4; on GFX12
  // under the seed's reading, the missing global_wb); GFX7 (flat stores, drained by lgkmcnt) and GFX10–11 CU mode (llc-22 drains the
  // counters: cu-mode-waits) are sound.
  'ISA2+rel+acq.hrf|gfx600|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf|gfx900|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf|gfx90a|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf|gfx942|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf|gfx950|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf|gfx1200|cu|seed': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf|gfx1200|wgp|seed': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf.atomic|gfx600|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf.atomic|gfx900|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf.atomic|gfx90a|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf.atomic|gfx942|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf.atomic|gfx950|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  // llc-22 emits nothing for a workgroup-one-as fence on BackOffBarrier targets (GFX90A on): no
  // lgkmcnt/dscnt wait, but "the LDS operations performed by different waves of a work-group can be
  // reordered relative to each other" — P0's LDS store is still queued when P1's LDS load is performed
  // (docs/hardware.md, "Findings"). GFX6–9 llc-22 waits before s_barrier and is sound.
  'MP+bar+fence.wg-one-as.mixed-data|gfx90a|cu': 'P1:r0=1; P1:r1=0;',
  'MP+bar+fence.wg-one-as.mixed-data|gfx942|cu': 'P1:r0=1; P1:r1=0;',
  'MP+bar+fence.wg-one-as.mixed-data|gfx950|cu': 'P1:r0=1; P1:r1=0;',
  'MP+bar+fence.wg-one-as.mixed-data|gfx1030|cu': 'P1:r0=1; P1:r1=0;',
  'MP+bar+fence.wg-one-as.mixed-data|gfx1030|wgp': 'P1:r0=1; P1:r1=0;',
  'MP+bar+fence.wg-one-as.mixed-data|gfx1100|cu': 'P1:r0=1; P1:r1=0;',
  'MP+bar+fence.wg-one-as.mixed-data|gfx1100|wgp': 'P1:r0=1; P1:r1=0;',
  'MP+bar+fence.wg-one-as.mixed-data|gfx1200|cu|seed': 'P1:r0=1; P1:r1=0;',
  'MP+bar+fence.wg-one-as.mixed-data|gfx1200|wgp|seed': 'P1:r0=1; P1:r1=0;',
  'MP+bar+fence.wg-one-as.mixed-data|gfx1250|cu': 'P1:r0=1; P1:r1=0;',
  // As the documents' code in CU mode (GFX10–12); GFX12 WGP mode: the missing global_wb (below).
  'MP+fence.wg.mixed-data|gfx1030|cu': 'P1:r0=1; P1:r1=1; P1:r2=0;',
  'MP+fence.wg.mixed-data|gfx1100|cu': 'P1:r0=1; P1:r1=1; P1:r2=0;',
  'MP+fence.wg.mixed-data|gfx1200|cu|seed': 'P1:r0=1; P1:r1=1; P1:r2=0;',
  'MP+fence.wg.mixed-data|gfx1200|wgp|seed': 'P1:r0=1; P1:r1=0; P1:r2=1;',
  'MP+rel+acq.wg.lds-data|gfx1030|cu': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq.wg.lds-data|gfx1100|cu': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq.wg.lds-data|gfx1200|cu|seed': 'P1:r0=1; P1:r1=0;',
  // GFX12: llc-22 emits global_wb only at system scope; a plain store (SCOPE_CU) is acknowledged from
  // the L0 ("Writes can happen in this cache and the transaction is acknowledged from this level of
  // cache"), so a release without global_wb publishes nothing — under the seed's reading (`--hw-text seed`;
  // docs/hardware.md, "GFX12 L0: two readings"). In WGP mode the workgroup-scope releases too.
  'ISA2+rel+acq.agent|gfx1200|cu|seed': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.agent|gfx1200|wgp|seed': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf-rev|gfx1200|cu|seed': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf-rev|gfx1200|wgp|seed': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'Lock+cas.agent|gfx1200|cu|seed': 'P1:ok=1; P1:r1=0; P1:c=0;',
  'Lock+cas.agent|gfx1200|wgp|seed': 'P1:ok=1; P1:r1=0; P1:c=0;',
  'MP+bar+fence.wg|gfx1200|wgp|seed': 'P1:r0=0;',
  'MP+fence.agent.sync-global|gfx1200|cu|seed': 'P1:r0=1; P1:r1=0;',
  'MP+fence.agent.sync-global|gfx1200|wgp|seed': 'P1:r0=1; P1:r1=0;',
  'MP+fence.rel+acq.agent|gfx1200|cu|seed': 'P1:r0=1; P1:r1=0;',
  'MP+fence.rel+acq.agent|gfx1200|wgp|seed': 'P1:r0=1; P1:r1=0;',
  'MP+fence.rel+fence.acq.agent|gfx1200|cu|seed': 'P1:r0=1; P1:r1=0;',
  'MP+fence.rel+fence.acq.agent|gfx1200|wgp|seed': 'P1:r0=1; P1:r1=0;',
  'MP+fence.wg-one-as.mixed-data|gfx1200|wgp|seed': 'P1:r0=1; P1:r1=0; P1:r2=1;',
  'MP+rel+acq.agent|gfx1200|cu|seed': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq.agent|gfx1200|wgp|seed': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq.agent+wg-data|gfx1200|cu|seed': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq.agent+wg-data|gfx1200|wgp|seed': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq.agent-one-as|gfx1200|cu|seed': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq.agent-one-as|gfx1200|wgp|seed': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq.agent.generic|gfx1200|cu|seed': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq.agent.generic|gfx1200|wgp|seed': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq.cluster|gfx1200|cu|seed': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq.cluster|gfx1200|wgp|seed': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq.wg|gfx1200|wgp|seed': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq.wg-one-as.global-data+lds|gfx1200|wgp|seed': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq_rel-rmw.chain.agent|gfx1200|cu|seed': 'P2:r1=1; P2:r2=0; P1:r0=1;',
  'MP+rel+acq_rel-rmw.chain.agent|gfx1200|wgp|seed': 'P2:r1=1; P2:r2=0; P1:r0=1;',
  'MP+rel+fence.acq.agent|gfx1200|cu|seed': 'P1:r0=1; P1:r1=0;',
  'MP+rel+fence.acq.agent|gfx1200|wgp|seed': 'P1:r0=1; P1:r1=0;',
  'MP+rel+rmw+acq.agent|gfx1200|cu|seed': 'P2:r1=1; P2:r2=0; P1:r0=1;',
  'MP+rel+rmw+acq.agent|gfx1200|wgp|seed': 'P2:r1=1; P2:r2=0; P1:r0=1;',
  'MP+rel.agent+acq.wg|gfx1200|wgp|seed': 'P1:r0=1; P1:r1=0;',
  'MP+rel.wg+acq.agent|gfx1200|wgp|seed': 'P1:r0=1; P1:r1=0;',
  'MP+rmw-before-rel+acq-rmw.agent|gfx1200|cu|seed': 'P1:r0=10; P1:r1=0; P0:r0=0;',
  'MP+rmw-before-rel+acq-rmw.agent|gfx1200|wgp|seed': 'P1:r0=10; P1:r1=0; P0:r0=0;',
  'MP+sc+sc.agent|gfx1200|cu|seed': 'P1:r0=1; P1:r1=0;',
  'MP+sc+sc.agent|gfx1200|wgp|seed': 'P1:r0=1; P1:r1=0;',
  'RMW-lo.write-clause-only|gfx1200|cu|seed': 'P1:r0=1; P1:r1=0;',
  'RMW-lo.write-clause-only|gfx1200|wgp|seed': 'P1:r0=1; P1:r1=0;',
  'S+rel+acq.agent.plain|gfx1200|cu|seed': 'P1:r0=1; @x=2;',
  'S+rel+acq.agent.plain|gfx1200|wgp|seed': 'P1:r0=1; @x=2;',
  // GFX12.5: llc-22 omits the s_wait_loadcnt after an agent-scope global_inv and the waits before
  // global_wb that the AMDGPUUsage rows have and LLVM's legalizer now inserts (gfx1250-cache-waits): a later
  // load overtakes the invalidate ("it may get reorded with following load instructions"), a write-back
  // leaves a store still in flight (docs/hardware.md, "GFX12.5 invalidate and write-back").
  'AV-Prop4.vis-outside-writer|gfx1250|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.agent|gfx1250|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf-rev|gfx1250|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf|gfx1250|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'Lock+cas.agent|gfx1250|cu': 'P1:ok=1; P1:r1=0; P1:c=0;',
  'MP+fence.agent.sync-global|gfx1250|cu': 'P1:r0=1; P1:r1=0;',
  'MP+fence.rel+acq.agent|gfx1250|cu': 'P1:r0=1; P1:r1=0;',
  'MP+fence.rel+fence.acq.agent|gfx1250|cu': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq.agent+wg-data|gfx1250|cu': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq.agent-one-as|gfx1250|cu': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq.agent.generic|gfx1250|cu': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq.agent|gfx1250|cu': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq.sys.diff-agent|gfx1250|cu': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq_rel-rmw.chain.agent|gfx1250|cu': 'P2:r1=1; P2:r2=0; P1:r0=1;',
  'MP+rel+fence.acq.agent|gfx1250|cu': 'P1:r0=1; P1:r1=0;',
  'MP+rel+rmw+acq.agent|gfx1250|cu': 'P2:r1=1; P2:r2=0; P1:r0=1;',
  'MP+rmw-before-rel+acq-rmw.agent|gfx1250|cu': 'P1:r0=10; P1:r1=0; P0:r0=0;',
  'MP+sc+sc.agent|gfx1250|cu': 'P1:r0=1; P1:r1=0;',
  'RMW-lo.write-clause-only|gfx1250|cu': 'P1:r0=1; P1:r1=0;',
  'S+rel+acq.agent.plain|gfx1250|cu': 'P1:r0=1; @x=2;',
  // GFX12 under the AMDGPUUsage reading, llc-22's default (docs/hardware.md, "GFX12 L0: two readings"):
  // what remains once the missing global_wb writes nothing back anyway — the CU-mode and one-as findings
  // above — and no-thin-air under the seed reading too.
  'LB+rlx.agent|gfx1200|cu|seed': 'P0:r0=1; P1:r1=1;',
  'LB+rlx.agent|gfx1200|wgp|seed': 'P0:r0=1; P1:r1=1;',
  'MP+bar+fence.wg-one-as.mixed-data|gfx1200|cu': 'P1:r0=1; P1:r1=0;',
  'MP+bar+fence.wg-one-as.mixed-data|gfx1200|wgp': 'P1:r0=1; P1:r1=0;',
  'MP+fence.wg.mixed-data|gfx1200|cu': 'P1:r0=1; P1:r1=1; P1:r2=0;',
  'MP+rel+acq.wg.lds-data|gfx1200|cu': 'P1:r0=1; P1:r1=0;',
  // GFX12.5 (llc-22): the missing waits around global_inv and global_wb, on the tests added this wave.
  'MP+acq_rel-rmw+acq.agent.generic|gfx1250|cu': 'P1:r1=1; P1:r2=0; P0:r0=0;',
  'MP+acq_rel-rmw+acq.agent|gfx1250|cu': 'P1:r1=1; P1:r2=0; P0:r0=0;',
  'MP+fence.acq_rel.agent|gfx1250|cu': 'P1:r0=1; P1:r1=0;',
  'MP+fence.sc.agent|gfx1250|cu': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq-rmw-noret.agent.fill|gfx1250|cu': '@y=2; P1:r2=0; P1:r1=0;',
  'MP+rel+acq.agent.same-wg-readers|gfx1250|cu': 'P1:r0=1; P1:r1=0; P2:r2=0; P2:r3=0;',
  'MP+rel+acq_rel-rmw.agent|gfx1250|cu': 'P1:r0=1; P1:r1=0;',
  'MP+rel-rmw+acq-rmw.agent.generic|gfx1250|cu': 'P1:r0=1; P1:r1=0; P0:u=0;',
  'MP+rel-rmw+acq.agent|gfx1250|cu': 'P1:r0=1; P1:r1=0; P0:u=0;',
  // GFX12 under the seed's reading (llc-22): the missing global_wb, on the tests added this wave.
  'MP+acq_rel-rmw+acq-rmw.wg.generic|gfx1200|wgp|seed': 'P1:r1=1; P1:r2=0; P0:r0=0;',
  'MP+acq_rel-rmw+acq-rmw.wg.lds|gfx1200|wgp|seed': 'P1:r1=1; P1:r2=0; P0:r0=0;',
  'MP+acq_rel-rmw+acq.agent.generic|gfx1200|cu|seed': 'P1:r1=1; P1:r2=0; P0:r0=0;',
  'MP+acq_rel-rmw+acq.agent.generic|gfx1200|wgp|seed': 'P1:r1=1; P1:r2=0; P0:r0=0;',
  'MP+acq_rel-rmw+acq.agent|gfx1200|cu|seed': 'P1:r1=1; P1:r2=0; P0:r0=0;',
  'MP+acq_rel-rmw+acq.agent|gfx1200|wgp|seed': 'P1:r1=1; P1:r2=0; P0:r0=0;',
  'MP+fence.acq_rel.agent|gfx1200|cu|seed': 'P1:r0=1; P1:r1=0;',
  'MP+fence.acq_rel.agent|gfx1200|wgp|seed': 'P1:r0=1; P1:r1=0;',
  'MP+fence.sc.agent|gfx1200|cu|seed': 'P1:r0=1; P1:r1=0;',
  'MP+fence.sc.agent|gfx1200|wgp|seed': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq-rmw-noret.agent.fill|gfx1200|cu|seed': '@y=2; P1:r2=0; P1:r1=0;',
  'MP+rel+acq-rmw-noret.agent.fill|gfx1200|wgp|seed': '@y=2; P1:r2=0; P1:r1=0;',
  'MP+rel+acq-rmw.cluster|gfx1200|cu|seed': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq-rmw.cluster|gfx1200|wgp|seed': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq.agent.same-wg-readers|gfx1200|cu|seed': 'P1:r0=1; P1:r1=0; P2:r2=0; P2:r3=0;',
  'MP+rel+acq.agent.same-wg-readers|gfx1200|wgp|seed': 'P1:r0=0; P1:r1=0; P2:r2=1; P2:r3=0;',
  'MP+rel+acq.cluster.generic|gfx1200|cu|seed': 'P1:r0=0; P1:r1=0; P2:r2=1; P2:r3=0;',
  'MP+rel+acq.cluster.generic|gfx1200|wgp|seed': 'P1:r0=0; P1:r1=0; P2:r2=1; P2:r3=0;',
  'MP+rel+acq.wg.generic|gfx1200|wgp|seed': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq_rel-rmw.agent|gfx1200|cu|seed': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq_rel-rmw.agent|gfx1200|wgp|seed': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq_rel-rmw.wg|gfx1200|wgp|seed': 'P1:r0=1; P1:r1=0;',
  'MP+rel-rmw+acq-rmw.agent.generic|gfx1200|cu|seed': 'P1:r0=1; P1:r1=0; P0:u=0;',
  'MP+rel-rmw+acq-rmw.agent.generic|gfx1200|wgp|seed': 'P1:r0=1; P1:r1=0; P0:u=0;',
  'MP+rel-rmw+acq-rmw.wg|gfx1200|wgp|seed': 'P1:r0=1; P1:r1=0; P0:u=0;',
  'MP+rel-rmw+acq.agent|gfx1200|cu|seed': 'P1:r0=1; P1:r1=0; P0:u=0;',
  'MP+rel-rmw+acq.agent|gfx1200|wgp|seed': 'P1:r0=1; P1:r1=0; P0:u=0;',
  'MP+rel-rmw+acq_rel-rmw.wg.lds|gfx1200|wgp|seed': 'P1:r0=1; P1:r1=0; P0:u=0;',
};

/**
 * The sound verdicts on the documents' code that rest on an assumption: without it the machine reaches
 * an outcome the model forbids (docs/assumptions.md).
 */
export const DOC_ASSUMED: Readonly<Record<string, readonly AssumptionId[]>> = {
  'ISA2+rel+acq.hrf-rev|gfx1030|cu': ['cu-in-order-types'],
  'ISA2+rel+acq.hrf-rev|gfx1100|cu': ['cu-in-order-types'],
  'ISA2+rel+acq.hrf-rev|gfx1200|cu|amdgpuusage': ['cu-in-order-types'],
  'MP+acq_rel-rmw+acq-rmw.wg.generic|gfx1030|cu': ['cu-in-order-types'],
  'MP+acq_rel-rmw+acq-rmw.wg.generic|gfx1100|cu': ['cu-in-order-types'],
  'MP+acq_rel-rmw+acq-rmw.wg.generic|gfx1200|cu|amdgpuusage': ['cu-in-order-types'],
  'MP+rel-rmw+acq-rmw.wg|gfx1030|cu': ['cu-in-order-types'],
  'MP+rel-rmw+acq-rmw.wg|gfx1100|cu': ['cu-in-order-types'],
  'MP+rel-rmw+acq-rmw.wg|gfx1200|cu|amdgpuusage': ['cu-in-order-types'],
  'SB+sc.mixed.same-wg|gfx1030|cu': ['cu-in-order-types'],
  'SB+sc.mixed.same-wg|gfx1100|cu': ['cu-in-order-types'],
  'SB+sc.mixed.same-wg|gfx1200|cu|amdgpuusage': ['cu-in-order-types'],
  'SB+sc.wg|gfx1030|cu': ['cu-in-order-types'],
  'SB+sc.wg|gfx1100|cu': ['cu-in-order-types'],
  'SB+sc.wg|gfx1200|cu|amdgpuusage': ['cu-in-order-types'],
  'WRC+rel+acq.wg|gfx1030|cu': ['cu-in-order-types'],
  'WRC+rel+acq.wg|gfx1100|cu': ['cu-in-order-types'],
  'WRC+rel+acq.wg|gfx1200|cu|amdgpuusage': ['cu-in-order-types'],
  'MP+rel+acq-rmw-noret.agent.fill|gfx1030|cu': ['fill-at-read'],
  'MP+rel+acq-rmw-noret.agent.fill|gfx1030|wgp': ['fill-at-read'],
  'MP+rel+acq-rmw-noret.agent.fill|gfx1100|cu': ['fill-at-read'],
  'MP+rel+acq-rmw-noret.agent.fill|gfx1100|wgp': ['fill-at-read'],
  'MP+rel+acq-rmw-noret.agent.fill|gfx1250|cu': ['fill-at-read'],
  'MP+rel+acq.agent.same-wg-readers|dg2|cu': ['fill-at-read'],
  'MP+rel+acq.agent.same-wg-readers|gfx1030|cu': ['fill-at-read'],
  'MP+rel+acq.agent.same-wg-readers|gfx1030|wgp': ['fill-at-read'],
  'MP+rel+acq.agent.same-wg-readers|gfx1100|cu': ['fill-at-read'],
  'MP+rel+acq.agent.same-wg-readers|gfx1100|wgp': ['fill-at-read'],
  'MP+rel+acq.agent.same-wg-readers|gfx1200|cu|amdgpuusage': ['fill-at-read'],
  'MP+rel+acq.agent.same-wg-readers|gfx1200|wgp': ['fill-at-read'],
  'MP+rel+acq.agent.same-wg-readers|gfx1200|wgp|amdgpuusage': ['fill-at-read'],
  'MP+rel+acq.agent.same-wg-readers|gfx1250|cu': ['fill-at-read'],
  'MP+rel+acq.agent.same-wg-readers|gfx600|cu': ['fill-at-read'],
  'MP+rel+acq.agent.same-wg-readers|gfx700|cu': ['fill-at-read'],
  'MP+rel+acq.agent.same-wg-readers|gfx900|cu': ['fill-at-read'],
  'MP+rel+acq.agent.same-wg-readers|gfx90a|cu': ['fill-at-read'],
  'MP+rel+acq.agent.same-wg-readers|gfx90a|tgsplit': ['fill-at-read'],
  'MP+rel+acq.agent.same-wg-readers|gfx942|cu': ['fill-at-read'],
  'MP+rel+acq.agent.same-wg-readers|gfx942|tgsplit': ['fill-at-read'],
  'MP+rel+acq.agent.same-wg-readers|gfx950|cu': ['fill-at-read'],
  'MP+rel+acq.agent.same-wg-readers|lnl|cu': ['fill-at-read'],
  'MP+rel+acq.agent.same-wg-readers|pvc|cu': ['fill-at-read'],
  'AV-Prop4.vis-outside-writer|gfx1030|cu': ['l2-system-coherent'],
  'AV-Prop4.vis-outside-writer|gfx1030|wgp': ['l2-system-coherent'],
  'AV-Prop4.vis-outside-writer|gfx1100|cu': ['l2-system-coherent'],
  'AV-Prop4.vis-outside-writer|gfx1100|wgp': ['l2-system-coherent'],
  'AV-Prop4.vis-outside-writer|gfx600|cu': ['l2-system-coherent'],
  'AV-Prop4.vis-outside-writer|gfx700|cu': ['l2-system-coherent'],
  'AV-Prop4.vis-outside-writer|gfx900|cu': ['l2-system-coherent'],
  'MP+rel+acq.sys.diff-agent|gfx1030|cu': ['l2-system-coherent'],
  'MP+rel+acq.sys.diff-agent|gfx1030|wgp': ['l2-system-coherent'],
  'MP+rel+acq.sys.diff-agent|gfx1100|cu': ['l2-system-coherent'],
  'MP+rel+acq.sys.diff-agent|gfx1100|wgp': ['l2-system-coherent'],
  'MP+rel+acq.sys.diff-agent|gfx600|cu': ['l2-system-coherent'],
  'MP+rel+acq.sys.diff-agent|gfx700|cu': ['l2-system-coherent'],
  'MP+rel+acq.sys.diff-agent|gfx900|cu': ['l2-system-coherent'],
  'MP+rel+acq.agent.lds.atomic|gfx1030|cu': ['lds-in-order'],
  'MP+rel+acq.agent.lds.atomic|gfx1030|wgp': ['lds-in-order'],
  'MP+rel+acq.agent.lds.atomic|gfx1100|cu': ['lds-in-order'],
  'MP+rel+acq.agent.lds.atomic|gfx1100|wgp': ['lds-in-order'],
  'MP+rel+acq.agent.lds.atomic|gfx600|cu': ['lds-in-order'],
  'MP+rel+acq.agent.lds.atomic|gfx700|cu': ['lds-in-order'],
  'MP+rel+acq.agent.lds.atomic|gfx900|cu': ['lds-in-order'],
  'MP+rel+acq.agent.lds.atomic|gfx90a|cu': ['lds-in-order'],
  'MP+rel+acq.agent.lds.atomic|gfx942|cu': ['lds-in-order'],
  'MP+rel+acq.agent.lds.atomic|gfx950|cu': ['lds-in-order'],
  'MP+rel+acq.wg.lds|gfx1030|cu': ['lds-in-order'],
  'MP+rel+acq.wg.lds|gfx1030|wgp': ['lds-in-order'],
  'MP+rel+acq.wg.lds|gfx1100|cu': ['lds-in-order'],
  'MP+rel+acq.wg.lds|gfx1100|wgp': ['lds-in-order'],
  'MP+rel+acq.wg.lds|gfx600|cu': ['lds-in-order'],
  'MP+rel+acq.wg.lds|gfx700|cu': ['lds-in-order'],
  'MP+rel+acq.wg.lds|gfx900|cu': ['lds-in-order'],
  'MP+rel+acq.wg.lds|gfx90a|cu': ['lds-in-order'],
  'MP+rel+acq.wg.lds|gfx942|cu': ['lds-in-order'],
  'MP+rel+acq.wg.lds|gfx950|cu': ['lds-in-order'],
  'MP+rmw-chain.wg.lds|gfx1030|cu': ['lds-in-order'],
  'MP+rmw-chain.wg.lds|gfx1030|wgp': ['lds-in-order'],
  'MP+rmw-chain.wg.lds|gfx1100|cu': ['lds-in-order'],
  'MP+rmw-chain.wg.lds|gfx1100|wgp': ['lds-in-order'],
  'MP+rmw-chain.wg.lds|gfx600|cu': ['lds-in-order'],
  'MP+rmw-chain.wg.lds|gfx700|cu': ['lds-in-order'],
  'MP+rmw-chain.wg.lds|gfx900|cu': ['lds-in-order'],
  'MP+rmw-chain.wg.lds|gfx90a|cu': ['lds-in-order'],
  'MP+rmw-chain.wg.lds|gfx942|cu': ['lds-in-order'],
  'MP+rmw-chain.wg.lds|gfx950|cu': ['lds-in-order'],
  'SB+sc.wg.lds|gfx1030|cu': ['lds-in-order'],
  'SB+sc.wg.lds|gfx1030|wgp': ['lds-in-order'],
  'SB+sc.wg.lds|gfx1100|cu': ['lds-in-order'],
  'SB+sc.wg.lds|gfx1100|wgp': ['lds-in-order'],
  'SB+sc.wg.lds|gfx600|cu': ['lds-in-order'],
  'SB+sc.wg.lds|gfx700|cu': ['lds-in-order'],
  'SB+sc.wg.lds|gfx900|cu': ['lds-in-order'],
  'SB+sc.wg.lds|gfx90a|cu': ['lds-in-order'],
  'SB+sc.wg.lds|gfx942|cu': ['lds-in-order'],
  'SB+sc.wg.lds|gfx950|cu': ['lds-in-order'],
  'LB+acq+rel.wg.same-wg|gfx1030|cu': ['cu-in-order-types'],
  'LB+acq+rel.wg.same-wg|gfx1100|cu': ['cu-in-order-types'],
  'LB+acq+rel.wg.same-wg|gfx1200|cu|amdgpuusage': ['cu-in-order-types'],
  'S+rel+acq.wg.same-wg|gfx1030|cu': ['cu-in-order-types'],
  'S+rel+acq.wg.same-wg|gfx1100|cu': ['cu-in-order-types'],
  'S+rel+acq.wg.same-wg|gfx1200|cu|amdgpuusage': ['cu-in-order-types'],
  'ISA2+rel+acq.hrf-rev|gfx1200|cu': ['cu-in-order-types'],
  'LB+acq+rel.wg.same-wg|gfx1200|cu': ['cu-in-order-types'],
  'MP+acq_rel-rmw+acq-rmw.wg.generic|gfx1200|cu': ['cu-in-order-types'],
  'MP+rel+acq.agent.same-wg-readers|gfx1200|cu': ['fill-at-read'],
  'MP+rel-rmw+acq-rmw.wg|gfx1200|cu': ['cu-in-order-types'],
  'S+rel+acq.wg.same-wg|gfx1200|cu': ['cu-in-order-types'],
  'SB+sc.mixed.same-wg|gfx1200|cu': ['cu-in-order-types'],
  'SB+sc.wg|gfx1200|cu': ['cu-in-order-types'],
  'WRC+rel+acq.wg|gfx1200|cu': ['cu-in-order-types'],
};

/** The same for llc-22's code. */
export const LLC_ASSUMED: Readonly<Record<string, readonly AssumptionId[]>> = {
  'MP+rel+acq.agent.same-wg-readers|gfx1030|cu': ['fill-at-read'],
  'MP+rel+acq.agent.same-wg-readers|gfx1030|wgp': ['fill-at-read'],
  'MP+rel+acq.agent.same-wg-readers|gfx1100|cu': ['fill-at-read'],
  'MP+rel+acq.agent.same-wg-readers|gfx1100|wgp': ['fill-at-read'],
  'MP+rel+acq.agent.same-wg-readers|gfx1200|cu': ['fill-at-read'],
  'MP+rel+acq.agent.same-wg-readers|gfx1200|wgp': ['fill-at-read'],
  'MP+rel+acq.agent.same-wg-readers|gfx600|cu': ['fill-at-read'],
  'MP+rel+acq.agent.same-wg-readers|gfx700|cu': ['fill-at-read'],
  'MP+rel+acq.agent.same-wg-readers|gfx900|cu': ['fill-at-read'],
  'MP+rel+acq.agent.same-wg-readers|gfx90a|cu': ['fill-at-read'],
  'MP+rel+acq.agent.same-wg-readers|gfx90a|tgsplit': ['fill-at-read'],
  'MP+rel+acq.agent.same-wg-readers|gfx942|cu': ['fill-at-read'],
  'MP+rel+acq.agent.same-wg-readers|gfx942|tgsplit': ['fill-at-read'],
  'MP+rel+acq.agent.same-wg-readers|gfx950|cu': ['fill-at-read'],
  'AV-Prop4.vis-outside-writer|gfx1030|cu': ['l2-system-coherent'],
  'AV-Prop4.vis-outside-writer|gfx1030|wgp': ['l2-system-coherent'],
  'AV-Prop4.vis-outside-writer|gfx1100|cu': ['l2-system-coherent'],
  'AV-Prop4.vis-outside-writer|gfx1100|wgp': ['l2-system-coherent'],
  'AV-Prop4.vis-outside-writer|gfx600|cu': ['l2-system-coherent'],
  'AV-Prop4.vis-outside-writer|gfx700|cu': ['l2-system-coherent'],
  'AV-Prop4.vis-outside-writer|gfx900|cu': ['l2-system-coherent'],
  'MP+rel+acq.sys.diff-agent|gfx1030|cu': ['l2-system-coherent'],
  'MP+rel+acq.sys.diff-agent|gfx1030|wgp': ['l2-system-coherent'],
  'MP+rel+acq.sys.diff-agent|gfx1100|cu': ['l2-system-coherent'],
  'MP+rel+acq.sys.diff-agent|gfx1100|wgp': ['l2-system-coherent'],
  'MP+rel+acq.sys.diff-agent|gfx600|cu': ['l2-system-coherent'],
  'MP+rel+acq.sys.diff-agent|gfx700|cu': ['l2-system-coherent'],
  'MP+rel+acq.sys.diff-agent|gfx900|cu': ['l2-system-coherent'],
  'S+rel+acq.wg.same-wg|gfx1030|cu': ['cu-in-order-types'],
  'S+rel+acq.wg.same-wg|gfx1100|cu': ['cu-in-order-types'],
  'S+rel+acq.wg.same-wg|gfx1200|cu': ['cu-in-order-types'],
  'S+rel+acq.wg.same-wg|gfx1200|cu|seed': ['cu-in-order-types'],
};
