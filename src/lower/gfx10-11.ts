/**
 * GFX10–GFX11 code sequences (beyond the seeds): LLVM `llvm/docs/AMDGPUUsage.rst` at commit
 * 001388cf (llvm/llvm-project), section "Memory Model GFX10-GFX11", table "AMDHSA Memory Model Code
 * Sequences GFX10-GFX11", in CU and WGP wavefront execution mode. Each row cites the row it
 * implements; "VM" below is `vmcnt(0)` for atomics with return and `vscnt(0)` without ("Use vmcnt(0)
 * if atomic with return and vscnt(0) if atomic with no-return").
 *
 * The rows every family words alike (local, private, singlethread/wavefront, the seq_cst "Same as"
 * rows) come from amd-rows.ts; what GFX10–11 differs in is written here: the `vscnt` counter of
 * stores, the CU/WGP mode clauses ("If CU wavefront execution mode, omit"), `glc=1` at workgroup
 * scope in WGP mode, `buffer_gl1_inv; buffer_gl0_inv` to acquire, no write-back to release, and
 * `dlc=1`, which GFX10 and GFX11 place differently (the `volatileOrNontemporal` hook and the
 * agent/system loads).
 */

import type { Family } from './amd-rows.ts';
import { encoding, row, sharedRows, waitcnt } from './amd-rows.ts';
import type { Counter, IsaInstr } from './isa.ts';
import { glInv, lds, vmem, wait } from './isa.ts';
import type { RowEnv, RowKey, TableRow } from './table.ts';
import { AG_SYS, ANY_SCOPE, memOp, WG } from './table.ts';

const cu = (env: RowEnv): boolean => env.mode === 'cu';
const ocl = (env: RowEnv): boolean => env.lang === 'opencl';
const gfx10 = (env: RowEnv): boolean => env.proc.generation === 'GFX10';

/** The row's memory instruction with its bits; returning atomics carry `glc=1`. */
function op(k: RowKey, bits: { glc?: boolean; slc?: boolean; dlc?: boolean } = {}): IsaInstr {
  const o = memOp(k.instr);
  const returns = o === 'atomic' && k.returns;
  if (k.space === 'local') return lds(o, returns);
  return vmem(o, encoding(k.space), { ...bits, glc: (bits.glc ?? false) || returns, returns });
}

/**
 * "load none none …" — volatile: 1. … glc=1 dlc=1 2. s_waitcnt vmcnt(0); nontemporal: … slc=1 dlc=1
 * (GFX10: omit dlc=1). "store none none …" — volatile: 1. … dlc=1 (GFX10: omit dlc=1) 2. s_waitcnt
 * vscnt(0); nontemporal: … glc=1 slc=1 dlc=1 (GFX10: omit dlc=1).
 */
function volatileOrNontemporal(k: RowKey, env: RowEnv): IsaInstr[] {
  const dlc = !gfx10(env);
  if (k.instr === 'load') {
    return k.volatile ? [op(k, { glc: true, dlc: true }), wait('vmcnt')] : [op(k, { slc: true, dlc })];
  }
  return k.volatile ? [op(k, { dlc }), wait('vscnt')] : [op(k, { glc: true, slc: true, dlc })];
}

/** GFX10–11 as the shared rows (amd-rows.ts) see it. */
const F: Family = {
  name: 'GFX10-11',
  anyScope: ANY_SCOPE,
  op: (k) => op(k),
  table: () => GFX10_11_TABLE,
  volatileOrNontemporal,
};
const s = sharedRows(F);

/** `vmcnt(0)` for atomics with return, `vscnt(0)` without. */
const VM = (k: RowKey): Counter => (k.returns ? 'vmcnt' : 'vscnt');
const GL1_GL0: IsaInstr[] = [glInv(1), glInv(0)];

/** "s_waitcnt lgkmcnt(0) & vmcnt(0) & vscnt(0)" with "If CU mode, omit vmcnt(0) and vscnt(0)". */
function allWaits(env: RowEnv, openclOmitsLgkm: boolean): IsaInstr[] {
  const drop: Counter[] = [];
  if (cu(env)) drop.push('vmcnt', 'vscnt');
  if (openclOmitsLgkm && ocl(env)) drop.push('lgkmcnt');
  return waitcnt(['vmcnt', 'lgkmcnt', 'vscnt'], drop);
}

/** "s_waitcnt vmcnt(0) & vscnt(0)" of the local release rows: CU mode or OpenCL omit. */
function vmVsWaits(env: RowEnv): IsaInstr[] {
  return cu(env) || ocl(env) ? [] : [wait('vmcnt', 'vscnt')];
}

/** The GFX10–GFX11 table, in the document's order. */
export const GFX10_11_TABLE: readonly TableRow[] = [
  // ---- Non-Atomic --------------------------------------------------------------------------
  // spec: GFX10-11 table, "load none none global/generic/private/constant" — !volatile & !nontemporal:
  // buffer/global/flat_load; !volatile & nontemporal: … slc=1 dlc=1 (GFX10: omit dlc=1); volatile:
  // 1. … glc=1 dlc=1 2. s_waitcnt vmcnt(0).
  s.nonAtomic('load'),
  s.loadLocal,
  // spec: GFX10-11 table, "store none none global/generic/private/constant" — !volatile &
  // !nontemporal: buffer/global/flat_store; !volatile & nontemporal: … glc=1 slc=1 dlc=1 (GFX10: omit
  // dlc=1); volatile: 1. … dlc=1 (GFX10: omit dlc=1) 2. s_waitcnt vscnt(0).
  s.nonAtomic('store'),
  s.storeLocal,
  s.rmwPrivate,
  // ---- Monotonic Atomic --------------------------------------------------------------------
  // spec: GFX10-11 table, "load atomic monotonic singlethread/wavefront global/generic" —
  // buffer/global/flat_load.
  row('load atomic monotonic singlethread/wavefront global/generic', (k) => [op(k)]),
  // spec: GFX10-11 table, "load atomic monotonic workgroup global/generic" — buffer/global/flat_load
  // glc=1 (CU mode: omit glc=1).
  row('load atomic monotonic workgroup global/generic', (k, env) => [op(k, { glc: !cu(env) })]),
  s.monotonicLocal('load'),
  // spec: GFX10-11 table, "load atomic monotonic agent/system global/generic" — buffer/global/flat_load
  // glc=1 dlc=1 (GFX11: omit dlc=1).
  row('load atomic monotonic agent/system global/generic', (k, env) => [
    op(k, { glc: true, dlc: gfx10(env) }),
  ]),
  // spec: GFX10-11 table, "store atomic monotonic <any scope> global/generic" — buffer/global/flat_store.
  row('store atomic monotonic singlethread/wavefront/workgroup/agent/system global/generic', (k) => [op(k)]),
  s.monotonicLocal('store'),
  // spec: GFX10-11 table, "atomicrmw monotonic <any scope> global/generic" — buffer/global/flat_atomic.
  row('atomicrmw monotonic singlethread/wavefront/workgroup/agent/system global/generic', (k) => [op(k)]),
  s.monotonicLocal('rmw'),
  // ---- Acquire Atomic ------------------------------------------------------------------------
  s.singlethread('load', 'acquire'),
  // spec: GFX10-11 table, "load atomic acquire workgroup global" — 1. buffer/global_load glc=1 (CU
  // mode: omit glc=1); 2. s_waitcnt vmcnt(0) (CU mode: omit); 3. buffer_gl0_inv (CU mode: omit).
  row('load atomic acquire workgroup global', (k, env) =>
    cu(env) ? [op(k)] : [op(k, { glc: true }), wait('vmcnt'), glInv(0)],
  ),
  // spec: GFX10-11 table, "load atomic acquire workgroup local" — 1. ds_load; 2. s_waitcnt lgkmcnt(0)
  // (OpenCL: omit); 3. buffer_gl0_inv (CU mode: omit; OpenCL: omit).
  row('load atomic acquire workgroup local', (k, env) => [
    op(k),
    ...(ocl(env) ? [] : [wait('lgkmcnt')]),
    ...(cu(env) || ocl(env) ? [] : [glInv(0)]),
  ]),
  // spec: GFX10-11 table, "load atomic acquire workgroup generic" — 1. flat_load glc=1 (CU mode: omit
  // glc=1); 2. s_waitcnt lgkmcnt(0) & vmcnt(0) (CU mode: omit vmcnt(0); OpenCL: omit lgkmcnt(0));
  // 3. buffer_gl0_inv (CU mode: omit).
  row('load atomic acquire workgroup generic', (k, env) => [
    op(k, { glc: !cu(env) }),
    ...waitcnt(
      ['vmcnt', 'lgkmcnt'],
      [...(cu(env) ? ['vmcnt' as const] : []), ...(ocl(env) ? ['lgkmcnt' as const] : [])],
    ),
    ...(cu(env) ? [] : [glInv(0)]),
  ]),
  // spec: GFX10-11 table, "load atomic acquire agent/system global" — 1. buffer/global_load glc=1
  // dlc=1 (GFX11: omit dlc=1); 2. s_waitcnt vmcnt(0); 3. buffer_gl1_inv; buffer_gl0_inv.
  row('load atomic acquire agent/system global', (k, env) => [
    op(k, { glc: true, dlc: gfx10(env) }),
    wait('vmcnt'),
    ...GL1_GL0,
  ]),
  // spec: GFX10-11 table, "load atomic acquire agent/system generic" — 1. flat_load glc=1 dlc=1
  // (GFX11: omit dlc=1); 2. s_waitcnt vmcnt(0) & lgkmcnt(0) (OpenCL: omit lgkmcnt(0));
  // 3. buffer_gl1_inv; buffer_gl0_inv.
  row('load atomic acquire agent/system generic', (k, env) => [
    op(k, { glc: true, dlc: gfx10(env) }),
    ...waitcnt(['vmcnt', 'lgkmcnt'], ocl(env) ? ['lgkmcnt'] : []),
    ...GL1_GL0,
  ]),
  s.singlethread('rmw', 'acquire'),
  // spec: GFX10-11 table, "atomicrmw acquire workgroup global" — 1. buffer/global_atomic; 2. s_waitcnt
  // vm/vscnt(0) (CU mode: omit); 3. buffer_gl0_inv (CU mode: omit).
  row('atomicrmw acquire workgroup global', (k, env) => [op(k), ...(cu(env) ? [] : [wait(VM(k)), glInv(0)])]),
  // spec: GFX10-11 table, "atomicrmw acquire workgroup local" — 1. ds_atomic; 2. s_waitcnt lgkmcnt(0)
  // (OpenCL: omit); 3. buffer_gl0_inv ("If OpenCL omit"; the row has no CU-mode clause, read as the
  // load row's "If CU wavefront execution mode, omit": otherwise acquire would emit more than
  // acq_rel in CU mode).
  row('atomicrmw acquire workgroup local', (k, env) => [
    op(k),
    ...(ocl(env) ? [] : [wait('lgkmcnt')]),
    ...(cu(env) || ocl(env) ? [] : [glInv(0)]),
  ]),
  // spec: GFX10-11 table, "atomicrmw acquire workgroup generic" — 1. flat_atomic; 2. s_waitcnt
  // lgkmcnt(0) & vm/vscnt(0) (CU mode: omit vm/vscnt(0); OpenCL: omit lgkmcnt(0)); 3. buffer_gl0_inv
  // (CU mode: omit).
  row('atomicrmw acquire workgroup generic', (k, env) => [
    op(k),
    ...waitcnt([VM(k), 'lgkmcnt'], [...(cu(env) ? [VM(k)] : []), ...(ocl(env) ? ['lgkmcnt' as const] : [])]),
    ...(cu(env) ? [] : [glInv(0)]),
  ]),
  // spec: GFX10-11 table, "atomicrmw acquire agent/system global" — 1. buffer/global_atomic;
  // 2. s_waitcnt vm/vscnt(0); 3. buffer_gl1_inv; buffer_gl0_inv.
  row('atomicrmw acquire agent/system global', (k) => [op(k), wait(VM(k)), ...GL1_GL0]),
  // spec: GFX10-11 table, "atomicrmw acquire agent/system generic" — 1. flat_atomic; 2. s_waitcnt
  // vm/vscnt(0) & lgkmcnt(0) (OpenCL: omit lgkmcnt(0)); 3. buffer_gl1_inv; buffer_gl0_inv.
  row('atomicrmw acquire agent/system generic', (k, env) => [
    op(k),
    ...waitcnt([VM(k), 'lgkmcnt'], ocl(env) ? ['lgkmcnt'] : []),
    ...GL1_GL0,
  ]),
  s.fenceNone('acquire'),
  // spec: GFX10-11 table, "fence acquire workgroup none" — 1. s_waitcnt lgkmcnt(0) & vmcnt(0) &
  // vscnt(0) (CU mode: omit vmcnt(0) and vscnt(0); the OpenCL omissions need an address space on the
  // fence: "conservatively always generate"); 3. buffer_gl0_inv (CU mode: omit).
  row('fence acquire workgroup none', (_k, env) => [...allWaits(env, false), ...(cu(env) ? [] : [glInv(0)])]),
  // spec: GFX10-11 table, "fence acquire agent/system none" — 1. s_waitcnt lgkmcnt(0) & vmcnt(0) &
  // vscnt(0) (always generated); 2. buffer_gl1_inv; buffer_gl0_inv.
  row('fence acquire agent/system none', () => [wait('vmcnt', 'lgkmcnt', 'vscnt'), ...GL1_GL0]),
  // ---- Release Atomic ------------------------------------------------------------------------
  s.singlethread('store', 'release'),
  // spec: GFX10-11 table, "store atomic release workgroup global/generic" — 1. s_waitcnt lgkmcnt(0) &
  // vmcnt(0) & vscnt(0) (CU mode: omit vmcnt(0) and vscnt(0); OpenCL: omit lgkmcnt(0));
  // 2. buffer/global/flat_store.
  row('store atomic release workgroup global/generic', (k, env) => [...allWaits(env, true), op(k)]),
  // spec: GFX10-11 table, "store atomic release workgroup local" — 1. s_waitcnt vmcnt(0) & vscnt(0)
  // (CU mode: omit; OpenCL: omit); 2. ds_store.
  row('store atomic release workgroup local', (k, env) => [...vmVsWaits(env), op(k)]),
  // spec: GFX10-11 table, "store atomic release agent/system global/generic" — 1. s_waitcnt
  // lgkmcnt(0) & vmcnt(0) & vscnt(0) ("If OpenCL and address space is not generic, omit
  // lgkmcnt(0)"); 2. buffer/global/flat_store.
  row('store atomic release agent/system global/generic', (k, env) => [
    ...waitcnt(['vmcnt', 'lgkmcnt', 'vscnt'], ocl(env) && k.space !== 'generic' ? ['lgkmcnt'] : []),
    op(k),
  ]),
  s.singlethread('rmw', 'release'),
  // spec: GFX10-11 table, "atomicrmw release workgroup global/generic" — 1. s_waitcnt lgkmcnt(0) &
  // vmcnt(0) & vscnt(0) (CU mode: omit vmcnt(0) and vscnt(0); OpenCL: omit lgkmcnt(0));
  // 2. buffer/global/flat_atomic.
  row('atomicrmw release workgroup global/generic', (k, env) => [...allWaits(env, true), op(k)]),
  // spec: GFX10-11 table, "atomicrmw release workgroup local" — 1. s_waitcnt vmcnt(0) & vscnt(0) (CU
  // mode: omit; OpenCL: omit); 2. ds_atomic.
  row('atomicrmw release workgroup local', (k, env) => [...vmVsWaits(env), op(k)]),
  // spec: GFX10-11 table, "atomicrmw release agent/system global/generic" — 1. s_waitcnt lgkmcnt(0) &
  // vmcnt(0) & vscnt(0) (OpenCL: omit lgkmcnt(0)); 2. buffer/global/flat_atomic.
  row('atomicrmw release agent/system global/generic', (k, env) => [
    ...waitcnt(['vmcnt', 'lgkmcnt', 'vscnt'], ocl(env) ? ['lgkmcnt'] : []),
    op(k),
  ]),
  s.fenceNone('release'),
  // spec: GFX10-11 table, "fence release workgroup none" — 1. s_waitcnt lgkmcnt(0) & vmcnt(0) &
  // vscnt(0) (CU mode: omit vmcnt(0) and vscnt(0); OpenCL omissions need a fence address space:
  // always generated).
  row('fence release workgroup none', (_k, env) => allWaits(env, false)),
  // spec: GFX10-11 table, "fence release agent/system none" — 1. s_waitcnt lgkmcnt(0) & vmcnt(0) &
  // vscnt(0) (always generated).
  row('fence release agent/system none', () => [wait('vmcnt', 'lgkmcnt', 'vscnt')]),
  // ---- Acquire-Release Atomic ----------------------------------------------------------------
  s.singlethread('rmw', 'acq_rel'),
  // spec: GFX10-11 table, "atomicrmw acq_rel workgroup global" — 1. s_waitcnt lgkmcnt(0) & vmcnt(0) &
  // vscnt(0) (CU mode: omit vmcnt(0) and vscnt(0); OpenCL: omit lgkmcnt(0)); 2. buffer/global_atomic;
  // 3. s_waitcnt vm/vscnt(0) (CU mode: omit); 4. buffer_gl0_inv (CU mode: omit).
  row('atomicrmw acq_rel workgroup global', (k, env) => [
    ...allWaits(env, true),
    op(k),
    ...(cu(env) ? [] : [wait(VM(k)), glInv(0)]),
  ]),
  // spec: GFX10-11 table, "atomicrmw acq_rel workgroup local" — 1. s_waitcnt vmcnt(0) & vscnt(0) (CU
  // mode: omit; OpenCL: omit); 2. ds_atomic; 3. s_waitcnt lgkmcnt(0) (OpenCL: omit);
  // 4. buffer_gl0_inv (CU mode: omit; OpenCL: omit).
  row('atomicrmw acq_rel workgroup local', (k, env) => [
    ...vmVsWaits(env),
    op(k),
    ...(ocl(env) ? [] : [wait('lgkmcnt')]),
    ...(cu(env) || ocl(env) ? [] : [glInv(0)]),
  ]),
  // spec: GFX10-11 table, "atomicrmw acq_rel workgroup generic" — 1. s_waitcnt lgkmcnt(0) & vmcnt(0) &
  // vscnt(0) (CU mode: omit vmcnt(0) and vscnt(0); OpenCL: omit lgkmcnt(0)); 2. flat_atomic;
  // 3. s_waitcnt lgkmcnt(0) & vmcnt(0) & vscnt(0) (same omissions); 3. buffer_gl0_inv (CU mode: omit).
  row('atomicrmw acq_rel workgroup generic', (k, env) => [
    ...allWaits(env, true),
    op(k),
    ...allWaits(env, true),
    ...(cu(env) ? [] : [glInv(0)]),
  ]),
  // spec: GFX10-11 table, "atomicrmw acq_rel agent/system global" — 1. s_waitcnt lgkmcnt(0) & vmcnt(0)
  // & vscnt(0) (OpenCL: omit lgkmcnt(0)); 2. buffer/global_atomic; 3. s_waitcnt vm/vscnt(0);
  // 4. buffer_gl1_inv; buffer_gl0_inv.
  row('atomicrmw acq_rel agent/system global', (k, env) => [
    ...waitcnt(['vmcnt', 'lgkmcnt', 'vscnt'], ocl(env) ? ['lgkmcnt'] : []),
    op(k),
    wait(VM(k)),
    ...GL1_GL0,
  ]),
  // spec: GFX10-11 table, "atomicrmw acq_rel agent/system generic" — 1. s_waitcnt lgkmcnt(0) &
  // vmcnt(0) & vscnt(0) (OpenCL: omit lgkmcnt(0)); 2. flat_atomic; 3. s_waitcnt vm/vscnt(0) &
  // lgkmcnt(0) (OpenCL: omit lgkmcnt(0)); 4. buffer_gl1_inv; buffer_gl0_inv.
  row('atomicrmw acq_rel agent/system generic', (k, env) => [
    ...waitcnt(['vmcnt', 'lgkmcnt', 'vscnt'], ocl(env) ? ['lgkmcnt'] : []),
    op(k),
    ...waitcnt([VM(k), 'lgkmcnt'], ocl(env) ? ['lgkmcnt'] : []),
    ...GL1_GL0,
  ]),
  s.fenceNone('acq_rel'),
  // spec: GFX10-11 table, "fence acq_rel workgroup none" — 1. s_waitcnt lgkmcnt(0) & vmcnt(0) &
  // vscnt(0) (CU mode: omit vmcnt(0) and vscnt(0); always generated otherwise); 3. buffer_gl0_inv (CU
  // mode: omit).
  row('fence acq_rel workgroup none', (_k, env) => [...allWaits(env, false), ...(cu(env) ? [] : [glInv(0)])]),
  // spec: GFX10-11 table, "fence acq_rel agent/system none" — 1. s_waitcnt lgkmcnt(0) & vmcnt(0) &
  // vscnt(0) (always generated); 2. buffer_gl1_inv; buffer_gl0_inv.
  row('fence acq_rel agent/system none', () => [wait('vmcnt', 'lgkmcnt', 'vscnt'), ...GL1_GL0]),
  // ---- Sequential Consistent Atomic ----------------------------------------------------------
  s.seqCstLoadSinglethread,
  // spec: GFX10-11 table, "load atomic seq_cst workgroup global/generic" — 1. s_waitcnt lgkmcnt(0) &
  // vmcnt(0) & vscnt(0) (CU mode: omit vmcnt(0) and vscnt(0)); 2. same as load atomic acquire, all
  // instructions even for OpenCL.
  s.seqCstLoad(WG, ['global', 'generic'], (_k, env) => allWaits(env, false)),
  // spec: GFX10-11 table, "load atomic seq_cst workgroup local" — 1. s_waitcnt vmcnt(0) & vscnt(0) (CU
  // mode: omit); 2. same as load atomic acquire, all instructions even for OpenCL.
  s.seqCstLoad(WG, ['local'], (_k, env) => (cu(env) ? [] : [wait('vmcnt', 'vscnt')])),
  // spec: GFX10-11 table, "load atomic seq_cst agent/system global/generic" — 1. s_waitcnt lgkmcnt(0)
  // & vmcnt(0) & vscnt(0); 2. same as load atomic acquire, all instructions even for OpenCL.
  s.seqCstLoad(AG_SYS, ['global', 'generic'], () => [wait('vmcnt', 'lgkmcnt', 'vscnt')]),
  ...s.seqCstAnyScope,
];
