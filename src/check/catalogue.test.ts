/**
 * The whole catalogue against the machines of every family, in every mode, with the documents' code: every
 * test is `sound`, except the pinned findings below, each `UNSOUND` with its forbidden final state and
 * a trace (docs/hardware.md, "Findings on the catalogue", explains each), and the tests the machines
 * cannot run, each for a reason of ALLOWED_UNSUPPORTED. The same with llc-22's code is
 * catalogue.llc.test.ts; bench/check-catalogue.ts times both on every target.
 */

import { catalogueSuite, LB_RLX_PINNED } from './testutil.ts';

/** `test|target|mode` → the forbidden state the machine reaches. */
const PINNED: Record<string, string> = {
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
};

/** Why a test may not be checked (anything else fails the test). */
const ALLOWED_UNSUPPORTED = [
  // Host threads: no code sequences for host code (docs/hardware.md, "Host threads").
  /P\d is a host thread: the documents give no code sequences for host code/,
  // TgSplit execution mode allocates no LDS.
  /is LDS, and in TgSplit execution mode no LDS is allocated/,
  // No code for it: the av intrinsics on Intel Xe (LW2008), barrier operations or ids the target does
  // not have (LW2006, LW2007), generic pointers on GFX6 (LW2004), LDS atomics in TgSplit mode (LW2012).
  /LW200[467]|LW2012|LW2008 .* has no lowering on (dg2|pvc|lnl)/,
];

catalogueSuite('doc', PINNED, ALLOWED_UNSUPPORTED);
