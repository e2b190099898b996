/**
 * The whole catalogue against the machines of every family, in every mode, with llc-22's code: every
 * test is `sound`, except the pinned findings below, each `UNSOUND` with its forbidden final state and
 * a trace (docs/hardware.md, "Findings on the catalogue", explains each), and the tests the machines
 * cannot run, each for a reason of ALLOWED_UNSUPPORTED. Skipped, with the reason printed,
 * when llc-22 is not installed.
 */

import { findLlc } from '../lower/llc.ts';
import { catalogueSuite, LB_RLX_PINNED } from './testutil.ts';

/** `test|target|mode` → the forbidden state the machine reaches. */
const PINNED: Record<string, string> = {
  ...LB_RLX_PINNED,
  // As the documents' code where llc-22 keeps their workgroup-scope release (GFX6, GFX9, GFX9.4; on GFX12
  // the missing global_wb); GFX7 (flat stores, drained by lgkmcnt) and GFX10–11 CU mode (llc-22 drains the
  // counters: cu-mode-waits) are sound.
  'ISA2+rel+acq.hrf|gfx600|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf|gfx900|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf|gfx90a|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf|gfx942|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf|gfx950|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf|gfx1200|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf|gfx1200|wgp': 'P1:r0=1; P2:r1=1; P2:r2=0;',
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
  'MP+bar+fence.wg-one-as.mixed-data|gfx1200|cu': 'P1:r0=1; P1:r1=0;',
  'MP+bar+fence.wg-one-as.mixed-data|gfx1200|wgp': 'P1:r0=1; P1:r1=0;',
  'MP+bar+fence.wg-one-as.mixed-data|gfx1250|cu': 'P1:r0=1; P1:r1=0;',
  // As the documents' code in CU mode (GFX10–12); GFX12 WGP mode: the missing global_wb (below).
  'MP+fence.wg.mixed-data|gfx1030|cu': 'P1:r0=1; P1:r1=1; P1:r2=0;',
  'MP+fence.wg.mixed-data|gfx1100|cu': 'P1:r0=1; P1:r1=1; P1:r2=0;',
  'MP+fence.wg.mixed-data|gfx1200|cu': 'P1:r0=1; P1:r1=1; P1:r2=0;',
  'MP+fence.wg.mixed-data|gfx1200|wgp': 'P1:r0=1; P1:r1=0; P1:r2=1;',
  'MP+rel+acq.wg.lds-data|gfx1030|cu': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq.wg.lds-data|gfx1100|cu': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq.wg.lds-data|gfx1200|cu': 'P1:r0=1; P1:r1=0;',
  // GFX12: llc-22 emits global_wb only at system scope; a plain store (SCOPE_CU) is acknowledged from
  // the L0 ("Writes can happen in this cache and the transaction is acknowledged from this level of
  // cache"), so a release without global_wb publishes nothing (docs/hardware.md, "--lowering llc on
  // GFX12"). In WGP mode the workgroup-scope releases too.
  'ISA2+rel+acq.agent|gfx1200|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.agent|gfx1200|wgp': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf-rev|gfx1200|cu': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'ISA2+rel+acq.hrf-rev|gfx1200|wgp': 'P1:r0=1; P2:r1=1; P2:r2=0;',
  'Lock+cas.agent|gfx1200|cu': 'P1:ok=1; P1:r1=0; P1:c=0;',
  'Lock+cas.agent|gfx1200|wgp': 'P1:ok=1; P1:r1=0; P1:c=0;',
  'MP+bar+fence.wg|gfx1200|wgp': 'P1:r0=0;',
  'MP+fence.agent.sync-global|gfx1200|cu': 'P1:r0=1; P1:r1=0;',
  'MP+fence.agent.sync-global|gfx1200|wgp': 'P1:r0=1; P1:r1=0;',
  'MP+fence.rel+acq.agent|gfx1200|cu': 'P1:r0=1; P1:r1=0;',
  'MP+fence.rel+acq.agent|gfx1200|wgp': 'P1:r0=1; P1:r1=0;',
  'MP+fence.rel+fence.acq.agent|gfx1200|cu': 'P1:r0=1; P1:r1=0;',
  'MP+fence.rel+fence.acq.agent|gfx1200|wgp': 'P1:r0=1; P1:r1=0;',
  'MP+fence.wg-one-as.mixed-data|gfx1200|wgp': 'P1:r0=1; P1:r1=0; P1:r2=1;',
  'MP+rel+acq.agent|gfx1200|cu': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq.agent|gfx1200|wgp': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq.agent+wg-data|gfx1200|cu': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq.agent+wg-data|gfx1200|wgp': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq.agent-one-as|gfx1200|cu': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq.agent-one-as|gfx1200|wgp': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq.agent.generic|gfx1200|cu': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq.agent.generic|gfx1200|wgp': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq.cluster|gfx1200|cu': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq.cluster|gfx1200|wgp': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq.wg|gfx1200|wgp': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq.wg-one-as.global-data+lds|gfx1200|wgp': 'P1:r0=1; P1:r1=0;',
  'MP+rel+acq_rel-rmw.chain.agent|gfx1200|cu': 'P2:r1=1; P2:r2=0; P1:r0=1;',
  'MP+rel+acq_rel-rmw.chain.agent|gfx1200|wgp': 'P2:r1=1; P2:r2=0; P1:r0=1;',
  'MP+rel+fence.acq.agent|gfx1200|cu': 'P1:r0=1; P1:r1=0;',
  'MP+rel+fence.acq.agent|gfx1200|wgp': 'P1:r0=1; P1:r1=0;',
  'MP+rel+rmw+acq.agent|gfx1200|cu': 'P2:r1=1; P2:r2=0; P1:r0=1;',
  'MP+rel+rmw+acq.agent|gfx1200|wgp': 'P2:r1=1; P2:r2=0; P1:r0=1;',
  'MP+rel.agent+acq.wg|gfx1200|wgp': 'P1:r0=1; P1:r1=0;',
  'MP+rel.wg+acq.agent|gfx1200|wgp': 'P1:r0=1; P1:r1=0;',
  'MP+rmw-before-rel+acq-rmw.agent|gfx1200|cu': 'P1:r0=10; P1:r1=0; P0:r0=0;',
  'MP+rmw-before-rel+acq-rmw.agent|gfx1200|wgp': 'P1:r0=10; P1:r1=0; P0:r0=0;',
  'MP+sc+sc.agent|gfx1200|cu': 'P1:r0=1; P1:r1=0;',
  'MP+sc+sc.agent|gfx1200|wgp': 'P1:r0=1; P1:r1=0;',
  'RMW-lo.write-clause-only|gfx1200|cu': 'P1:r0=1; P1:r1=0;',
  'RMW-lo.write-clause-only|gfx1200|wgp': 'P1:r0=1; P1:r1=0;',
  'S+rel+acq.agent.plain|gfx1200|cu': 'P1:r0=1; @x=2;',
  'S+rel+acq.agent.plain|gfx1200|wgp': 'P1:r0=1; @x=2;',
};

/** Why a test may not be checked (anything else fails the test). */
const ALLOWED_UNSUPPORTED = [
  // Host threads: no code sequences for host code (docs/hardware.md, "Host threads").
  /P\d is a host thread: the documents give no code sequences for host code/,
  // TgSplit execution mode allocates no LDS.
  /is LDS, and in TgSplit execution mode no LDS is allocated/,
  // llc-22 has no code for it: the av intrinsics, barriers it crashes on before GFX12, atomics on
  // constant memory, generic pointers on GFX6; barrier ids llc-22 compiles but the family lacks.
  /llc-22 crashes on the av intrinsics: LLVM 22 does not define them|llc-22 crashes|llc-22 fails: Unsupported atomic address space|llc-22 cannot select a generic access|is not available on this family/,
];

const llc = findLlc();
if ('reason' in llc) console.warn(`skipping the llc-22 catalogue check: ${llc.reason}`);

catalogueSuite('llc', PINNED, ALLOWED_UNSUPPORTED, 'reason' in llc);
