/**
 * GFX125x code sequences (gfx1250, gfx1251): LLVM `llvm/docs/AMDGPUUsage.rst` at commit 07379fed
 * (sailfishos-mirror/llvm-project; the section is absent from the stored llvm/llvm-project copies),
 * section "Memory Model GFX125x", tables "AMDHSA Memory Model Code Sequences GFX125x - Instruction
 * Scopes" and "AMDHSA Memory Model Code Sequences GFX125x". The section calls itself incomplete
 * (no nv-bit sequences, no globally accessed scratch atomics, multicast, barriers or cooperative
 * atomics); those are not tabulated here either.
 *
 * Unlike GFX12 there is one wavefront execution mode, a `cluster` scope (`SCOPE_SE`), and
 * `s_wait_xcnt 0x0` before flat/global atomic stores and read-modify-writes. Each row cites the spec
 * row it implements; readings of inconsistent rows are written beside them and in
 * docs/targets/gfx1250.md ("Readings of ambiguous rows").
 *
 * The rows every family words alike come from amd-rows.ts (its `s_wait_xcnt` is the
 * `atomicWriteWaits` hook there), the memory instructions and the volatile/nontemporal accesses are
 * GFX12's (gfx12.ts `op12`, `volatileOrNontemporal12`); what is written here is what GFX12.5 says
 * otherwise: its own Instruction Scopes, the cluster rows, the waits around `global_wb`, and the
 * three-counter release group.
 */

import type { Scope } from '../core/types.ts';
import type { Family } from './amd-rows.ts';
import { row, sharedRows, waits } from './amd-rows.ts';
import { op12, volatileOrNontemporal12 } from './gfx12.ts';
import type { CacheScope, Counter, IsaInstr } from './isa.ts';
import { globalInv, globalWb, wait } from './isa.ts';
import type { RowEnv, RowKey, TableRow } from './table.ts';
import { AG_SYS, ANY_SCOPE_CL, WG } from './table.ts';

/**
 * spec: GFX125x "Instruction Scopes" table — none, one-as, system → SCOPE_SYS, agent → SCOPE_DEV,
 * cluster → SCOPE_SE, workgroup/wavefront/singlethread → SCOPE_CU, which "is the default … omitted
 * when instructions are emitted in textual form" (null here). `-one-as` forms map identically.
 */
export function instructionScope125(scope: Scope): CacheScope | null {
  switch (scope) {
    case 'system':
      return 'SCOPE_SYS';
    case 'agent':
      return 'SCOPE_DEV';
    case 'cluster':
      return 'SCOPE_SE';
    default:
      return null;
  }
}

const hsa = (env: RowEnv): boolean => env.lang === 'hsa';

/** The row's memory instruction (as GFX12's); `applyScopes`: the row says "Apply … Instruction Scopes table". */
function op(k: RowKey, applyScopes: boolean): IsaInstr {
  return op12(k, applyScopes ? instructionScope125(k.scope) : null);
}

/**
 * `s_wait_xcnt 0x0` before an atomic store or read-modify-write: "Only needed for flat and global
 * operations" (every row that lists it). LDS operations have none; gpumm encodes global accesses as
 * `global_*`, never `buffer_*`, so every global and generic one has it.
 */
function xcnt(k: RowKey): IsaInstr[] {
  return k.space === 'global' || k.space === 'generic' ? [wait('xcnt')] : [];
}

/** GFX12.5 as the shared rows (amd-rows.ts) see it. */
const F: Family = {
  name: 'GFX125x',
  anyScope: ANY_SCOPE_CL,
  op: (k) => op(k, false),
  table: () => GFX1250_TABLE,
  atomicWriteWaits: xcnt,
  volatileOrNontemporal: volatileOrNontemporal12,
};
const s = sharedRows(F);

const DS: readonly Counter[] = ['dscnt'];
/** The release wait group: store, load, ds. */
const SLD: readonly Counter[] = ['storecnt', 'loadcnt', 'dscnt'];
/** The wait group before `global_wb` at agent/system scope: load, store. */
const LS: readonly Counter[] = ['loadcnt', 'storecnt'];

/** The wait after a returning (loadcnt) or non-returning (storecnt) atomic. */
const after = (k: RowKey): Counter => (k.returns ? 'loadcnt' : 'storecnt');

/**
 * The agent/system release prefix: 1. s_wait_loadcnt, s_wait_storecnt; 2. global_wb (Apply);
 * 3. s_wait_storecnt, s_wait_loadcnt, s_wait_dscnt, minus what OpenCL omits.
 */
function releaseAgent(k: RowKey, openclDrop: readonly Counter[], env: RowEnv): IsaInstr[] {
  return [...waits(LS), globalWb(instructionScope125(k.scope)), ...waits(SLD, hsa(env) ? [] : openclDrop)];
}

/** The GFX125x table, in the spec's order. */
export const GFX1250_TABLE: readonly TableRow[] = [
  // ---- Non-Atomic --------------------------------------------------------------------------
  // spec: GFX125x table, "load none none global/generic/private/constant" — !volatile & !nontemporal:
  // buffer/global/flat_load; !volatile & nontemporal: … th:TH_LOAD_NT; volatile: 1. …
  // scope:SCOPE_SYS 2. s_wait_loadcnt 0x0.
  s.nonAtomic('load'),
  s.loadLocal,
  // spec: GFX125x table, "store none none global/generic/private/constant" — !volatile &
  // !nontemporal: buffer/global/flat_store; !volatile & nontemporal: … th:TH_STORE_NT; volatile:
  // 1. … scope:SCOPE_SYS 2. s_wait_storecnt 0x0. (Constant stores are rejected before lookup.)
  s.nonAtomic('store'),
  s.storeLocal,
  // ---- Monotonic Atomic --------------------------------------------------------------------
  // spec: GFX125x table, "load atomic monotonic singlethread/…/cluster/agent/system global/generic" —
  // buffer/global/flat_load, Apply Instruction Scopes.
  row('load atomic monotonic singlethread/wavefront/workgroup/cluster/agent/system global/generic', (k) => [
    op(k, true),
  ]),
  s.monotonicLocal('load'),
  // spec: GFX125x table, "store atomic monotonic singlethread/…/system global/generic" —
  // 1. s_wait_xcnt 0x0; 2. buffer/global/flat_store, Apply Instruction Scopes.
  row('store atomic monotonic singlethread/wavefront/workgroup/cluster/agent/system global/generic', (k) => [
    ...xcnt(k),
    op(k, true),
  ]),
  s.monotonicLocal('store'),
  // spec: GFX125x table, "atomicrmw monotonic singlethread/…/system global/generic" —
  // 1. s_wait_xcnt 0x0; 2. buffer/global/flat_atomic, Apply Instruction Scopes.
  row('atomicrmw monotonic singlethread/wavefront/workgroup/cluster/agent/system global/generic', (k) => [
    ...xcnt(k),
    op(k, true),
  ]),
  s.monotonicLocal('rmw'),
  // ---- Acquire Atomic ------------------------------------------------------------------------
  s.singlethread('load', 'acquire'),
  // spec: GFX125x table, "load atomic acquire workgroup global" — 1. buffer/global_load, Apply;
  // 2. s_wait_loadcnt 0x0.
  row('load atomic acquire workgroup global', (k) => [op(k, true), wait('loadcnt')]),
  // spec: GFX125x table, "load atomic acquire workgroup local" — 1. ds_load; 2. s_wait_dscnt 0x0
  // (OpenCL: omit).
  row('load atomic acquire workgroup local', (k, env) => [
    op(k, false),
    ...(hsa(env) ? [wait('dscnt')] : []),
  ]),
  // spec: GFX125x table, "load atomic acquire workgroup generic" — 1. flat_load, Apply;
  // 2. s_wait_loadcnt 0x0, s_wait_dscnt 0x0 (OpenCL: omit dscnt).
  row('load atomic acquire workgroup generic', (k, env) => [
    op(k, true),
    ...waits(['loadcnt', 'dscnt'], hsa(env) ? [] : DS),
  ]),
  // spec: GFX125x table, "load atomic acquire cluster global" — 1. buffer/global_load, Apply;
  // 2. s_wait_loadcnt 0x0; 3. global_inv, Apply. (No step 4: the agent/system row's trailing
  // s_wait_loadcnt is not listed for cluster.)
  row('load atomic acquire cluster global', (k) => [
    op(k, true),
    wait('loadcnt'),
    globalInv(instructionScope125(k.scope)),
  ]),
  // spec: GFX125x table, "load atomic acquire agent/system global" — 1. buffer/global_load, Apply;
  // 2. s_wait_loadcnt 0x0; 3. global_inv, Apply; 4. s_wait_loadcnt 0x0 "must happen after
  // global_inv and before subsequent memory operations".
  row('load atomic acquire agent/system global', (k) => [
    op(k, true),
    wait('loadcnt'),
    globalInv(instructionScope125(k.scope)),
    wait('loadcnt'),
  ]),
  // spec: GFX125x table, "load atomic acquire cluster generic" — 1. flat_load, Apply;
  // 2. s_wait_loadcnt 0x0, s_wait_dscnt 0x0 (OpenCL: omit dscnt); 3. global_inv, Apply.
  row('load atomic acquire cluster generic', (k, env) => [
    op(k, true),
    ...waits(['loadcnt', 'dscnt'], hsa(env) ? [] : DS),
    globalInv(instructionScope125(k.scope)),
  ]),
  // spec: GFX125x table, "load atomic acquire agent/system generic" — 1. flat_load, Apply;
  // 2. s_wait_loadcnt 0x0, s_wait_dscnt 0x0 (OpenCL: omit dscnt); 3. global_inv, Apply;
  // 4. s_wait_loadcnt 0x0.
  row('load atomic acquire agent/system generic', (k, env) => [
    op(k, true),
    ...waits(['loadcnt', 'dscnt'], hsa(env) ? [] : DS),
    globalInv(instructionScope125(k.scope)),
    wait('loadcnt'),
  ]),
  s.singlethread('rmw', 'acquire'),
  // spec: GFX125x table, "atomicrmw acquire workgroup global" — 1. s_wait_xcnt 0x0;
  // 2. buffer/global_atomic, Apply, with return th:TH_ATOMIC_RETURN; 3. with return
  // s_wait_loadcnt 0x0 / without s_wait_storecnt 0x0.
  row('atomicrmw acquire workgroup global', (k) => [...xcnt(k), op(k, true), wait(after(k))]),
  // spec: GFX125x table, "atomicrmw acquire workgroup local" — 1. ds_atomic; 2. s_wait_dscnt 0x0
  // (OpenCL: omit).
  row('atomicrmw acquire workgroup local', (k, env) => [op(k, false), ...(hsa(env) ? [wait('dscnt')] : [])]),
  // spec: GFX125x table, "atomicrmw acquire workgroup generic" — 1. s_wait_xcnt 0x0; 2. flat_atomic,
  // Apply, with return th:TH_ATOMIC_RETURN; 3. with return s_wait_loadcnt, s_wait_dscnt / without
  // s_wait_storecnt, s_wait_dscnt (OpenCL: omit dscnt).
  row('atomicrmw acquire workgroup generic', (k, env) => [
    ...xcnt(k),
    op(k, true),
    ...waits([after(k), 'dscnt'], hsa(env) ? [] : DS),
  ]),
  // spec: GFX125x table, "atomicrmw acquire cluster global" — 1. s_wait_xcnt 0x0;
  // 2. buffer/global_atomic, Apply, th:TH_ATOMIC_RETURN if returning; 3. with return
  // s_wait_loadcnt / without s_wait_storecnt; 4. global_inv, Apply.
  row('atomicrmw acquire cluster global', (k) => [
    ...xcnt(k),
    op(k, true),
    wait(after(k)),
    globalInv(instructionScope125(k.scope)),
  ]),
  // spec: GFX125x table, "atomicrmw acquire agent/system global" — 1. s_wait_xcnt 0x0;
  // 2. buffer/global_atomic, Apply; 3. with return s_wait_loadcnt / without s_wait_storecnt;
  // 4. global_inv, Apply; 5. s_wait_loadcnt 0x0 (after global_inv, before later memory operations;
  // the row's text drops "must happen after", the other rows have it).
  row('atomicrmw acquire agent/system global', (k) => [
    ...xcnt(k),
    op(k, true),
    wait(after(k)),
    globalInv(instructionScope125(k.scope)),
    wait('loadcnt'),
  ]),
  // spec: GFX125x table, "atomicrmw acquire cluster generic" — 1. s_wait_xcnt 0x0; 2. flat_atomic,
  // Apply; 3. with return s_wait_loadcnt, s_wait_dscnt / without s_wait_storecnt, s_wait_dscnt
  // (OpenCL: omit dscnt); 4. global_inv, Apply.
  row('atomicrmw acquire cluster generic', (k, env) => [
    ...xcnt(k),
    op(k, true),
    ...waits([after(k), 'dscnt'], hsa(env) ? [] : DS),
    globalInv(instructionScope125(k.scope)),
  ]),
  // spec: GFX125x table, "atomicrmw acquire agent/system generic" — 1. s_wait_xcnt 0x0;
  // 2. flat_atomic, Apply; 3. with return s_wait_loadcnt, s_wait_dscnt / without s_wait_storecnt,
  // s_wait_dscnt (OpenCL: omit dscnt); 4. global_inv, Apply; 5. s_wait_loadcnt 0x0.
  row('atomicrmw acquire agent/system generic', (k, env) => [
    ...xcnt(k),
    op(k, true),
    ...waits([after(k), 'dscnt'], hsa(env) ? [] : DS),
    globalInv(instructionScope125(k.scope)),
    wait('loadcnt'),
  ]),
  s.fenceNone('acquire'),
  // spec: GFX125x table, "fence acquire workgroup none" — 1. s_wait_storecnt, s_wait_loadcnt,
  // s_wait_dscnt ("If OpenCL, omit s_wait_dscnt 0x0"; "If OpenCL and address space is local, omit
  // all": an LLVM fence has no address space, so only the first applies).
  row('fence acquire workgroup none', (_k, env) => waits(SLD, hsa(env) ? [] : DS)),
  // spec: GFX125x table, "fence acquire cluster none" — 1. s_wait_storecnt, s_wait_loadcnt,
  // s_wait_dscnt (OpenCL: omit dscnt); 2. global_inv, Apply.
  row('fence acquire cluster none', (k, env) => [
    ...waits(SLD, hsa(env) ? [] : DS),
    globalInv(instructionScope125(k.scope)),
  ]),
  // spec: GFX125x table, "fence acquire agent/system none" — 1. s_wait_storecnt, s_wait_loadcnt,
  // s_wait_dscnt (OpenCL: omit dscnt); 2. global_inv, Apply; 3. s_wait_loadcnt 0x0.
  row('fence acquire agent/system none', (k, env) => [
    ...waits(SLD, hsa(env) ? [] : DS),
    globalInv(instructionScope125(k.scope)),
    wait('loadcnt'),
  ]),
  // ---- Release Atomic ------------------------------------------------------------------------
  s.singlethread('store', 'release'),
  // spec: GFX125x table, "store atomic release workgroup/cluster global/generic" — 1. s_wait_storecnt,
  // s_wait_loadcnt, s_wait_dscnt (OpenCL: omit dscnt); 2. s_wait_xcnt 0x0; 3. buffer/global/flat_store,
  // Apply. (No global_wb, even at cluster scope.)
  row('store atomic release workgroup/cluster global/generic', (k, env) => [
    ...waits(SLD, hsa(env) ? [] : DS),
    ...xcnt(k),
    op(k, true),
  ]),
  // spec: GFX125x table, "store atomic release workgroup local" — 1. s_wait_storecnt, s_wait_loadcnt,
  // s_wait_dscnt ("If OpenCL, omit."); 2. ds_store.
  row('store atomic release workgroup local', (k, env) => [...(hsa(env) ? waits(SLD) : []), op(k, false)]),
  // spec: GFX125x table, "store atomic release agent/system global/generic" — 1. s_wait_loadcnt,
  // s_wait_storecnt; 2. global_wb, Apply; 3. s_wait_storecnt, s_wait_loadcnt, s_wait_dscnt (OpenCL:
  // omit dscnt); 4. s_wait_xcnt 0x0; 5. buffer/global/flat_store, Apply.
  row('store atomic release agent/system global/generic', (k, env) => [
    ...releaseAgent(k, DS, env),
    ...xcnt(k),
    op(k, true),
  ]),
  s.singlethread('rmw', 'release'),
  // spec: GFX125x table, "atomicrmw release workgroup/cluster global/generic" — 1. s_wait_storecnt,
  // s_wait_loadcnt, s_wait_dscnt (OpenCL: omit dscnt); 2. s_wait_xcnt 0x0; 3.
  // buffer/global/flat_atomic, Apply.
  row('atomicrmw release workgroup/cluster global/generic', (k, env) => [
    ...waits(SLD, hsa(env) ? [] : DS),
    ...xcnt(k),
    op(k, true),
  ]),
  // spec: GFX125x table, "atomicrmw release workgroup local" — 1. s_wait_storecnt, s_wait_loadcnt,
  // s_wait_dscnt ("If OpenCL, omit all."); 2. ds_atomic.
  row('atomicrmw release workgroup local', (k, env) => [...(hsa(env) ? waits(SLD) : []), op(k, false)]),
  // spec: GFX125x table, "atomicrmw release agent/system global/generic" — 1. s_wait_loadcnt,
  // s_wait_storecnt; 2. global_wb, Apply; 3. s_wait_storecnt, s_wait_loadcnt, s_wait_dscnt
  // (OpenCL: omit dscnt); 4. s_wait_xcnt 0x0; 5. buffer/global/flat_atomic, Apply.
  row('atomicrmw release agent/system global/generic', (k, env) => [
    ...releaseAgent(k, DS, env),
    ...xcnt(k),
    op(k, true),
  ]),
  s.fenceNone('release'),
  // spec: GFX125x table, "fence release workgroup/cluster none" — 1. s_wait_storecnt,
  // s_wait_loadcnt, s_wait_dscnt (OpenCL: omit dscnt; "OpenCL and address space is local": needs a
  // fence address space, which LLVM fences do not have).
  row('fence release workgroup/cluster none', (_k, env) => waits(SLD, hsa(env) ? [] : DS)),
  // spec: GFX125x table, "fence release agent/system none" — 1. s_wait_loadcnt, s_wait_storecnt;
  // 2. global_wb, Apply; 3. s_wait_storecnt, s_wait_loadcnt, s_wait_dscnt / OpenCL: s_wait_storecnt,
  // s_wait_loadcnt.
  row('fence release agent/system none', (k, env) => releaseAgent(k, DS, env)),
  // ---- Acquire-Release Atomic ----------------------------------------------------------------
  s.singlethread('rmw', 'acq_rel'),
  // spec: GFX125x table, "atomicrmw acq_rel workgroup/cluster global" — 1. s_wait_storecnt,
  // s_wait_loadcnt, s_wait_dscnt (OpenCL: omit dscnt); 2. s_wait_xcnt 0x0; 3. buffer/global_atomic,
  // Apply, th:TH_ATOMIC_RETURN if returning; 4. with return s_wait_loadcnt / without
  // s_wait_storecnt. Reading: the row spans workgroup and cluster but has no global_inv, while
  // every acquire cluster row ends with `global_inv scope:SCOPE_SE` ("following loads will not
  // see stale global data"). Read literally, a cluster acq_rel atomic would acquire less than a
  // cluster acquire atomic; gpumm adds the acquire cluster row's global_inv at cluster scope
  // (docs/targets/gfx1250.md, "Readings").
  row('atomicrmw acq_rel workgroup/cluster global', (k, env) => [
    ...waits(SLD, hsa(env) ? [] : DS),
    ...xcnt(k),
    op(k, true),
    wait(after(k)),
    ...clusterInv(k),
  ]),
  // spec: GFX125x table, "atomicrmw acq_rel workgroup local" — 1. s_wait_storecnt, s_wait_loadcnt,
  // s_wait_dscnt ("If OpenCL, omit."); 2. ds_atomic; 3. s_wait_dscnt 0x0 (OpenCL: omit).
  row('atomicrmw acq_rel workgroup local', (k, env) => [
    ...(hsa(env) ? waits(SLD) : []),
    op(k, false),
    ...(hsa(env) ? [wait('dscnt')] : []),
  ]),
  // spec: GFX125x table, "atomicrmw acq_rel workgroup/cluster generic" — 1. s_wait_storecnt,
  // s_wait_loadcnt, s_wait_dscnt ("If OpenCL, omit s_wait_loadcnt 0x0"); 2. s_wait_xcnt 0x0;
  // 3. flat_atomic, Apply, th:TH_ATOMIC_RETURN if returning; 4. without return s_wait_dscnt,
  // s_wait_storecnt / with return s_wait_loadcnt, s_wait_dscnt (OpenCL: omit dscnt).
  // Readings: step 1's OpenCL clause is read as omitting dscnt, as in every other release group of
  // the table (omitting loadcnt would let OpenCL acq_rel release less than OpenCL release); and the
  // cluster scope gets the acquire cluster row's global_inv, as for the global row.
  row('atomicrmw acq_rel workgroup/cluster generic', (k, env) => [
    ...waits(SLD, hsa(env) ? [] : DS),
    ...xcnt(k),
    op(k, true),
    ...waits(k.returns ? ['loadcnt', 'dscnt'] : ['dscnt', 'storecnt'], hsa(env) ? [] : DS),
    ...clusterInv(k),
  ]),
  // spec: GFX125x table, "atomicrmw acq_rel agent/system global" — 1. s_wait_loadcnt,
  // s_wait_storecnt; 2. global_wb, Apply; 3. s_wait_storecnt, s_wait_loadcnt, s_wait_dscnt (OpenCL:
  // omit dscnt); 4. s_wait_xcnt 0x0; "6." buffer/global_atomic, Apply; "6." with return
  // s_wait_loadcnt / without s_wait_storecnt; 7. global_inv, Apply; 8. s_wait_loadcnt 0x0. (The
  // row numbers two steps 6.)
  row('atomicrmw acq_rel agent/system global', (k, env) => [
    ...releaseAgent(k, DS, env),
    ...xcnt(k),
    op(k, true),
    wait(after(k)),
    globalInv(instructionScope125(k.scope)),
    wait('loadcnt'),
  ]),
  // spec: GFX125x table, "atomicrmw acq_rel agent/system generic" — 1. s_wait_loadcnt,
  // s_wait_storecnt; 2. global_wb, Apply; 3. s_wait_storecnt, s_wait_loadcnt, s_wait_dscnt (OpenCL:
  // omit dscnt); 4. s_wait_xcnt 0x0; 5. flat_atomic, Apply; 6. with return s_wait_loadcnt,
  // s_wait_dscnt / without s_wait_storecnt, s_wait_dscnt (OpenCL: omit dscnt); 7. global_inv,
  // Apply; 8. s_wait_loadcnt 0x0.
  row('atomicrmw acq_rel agent/system generic', (k, env) => [
    ...releaseAgent(k, DS, env),
    ...xcnt(k),
    op(k, true),
    ...waits([after(k), 'dscnt'], hsa(env) ? [] : DS),
    globalInv(instructionScope125(k.scope)),
    wait('loadcnt'),
  ]),
  s.fenceNone('acq_rel'),
  // spec: GFX125x table, "fence acq_rel workgroup/cluster none" — 1. s_wait_storecnt,
  // s_wait_loadcnt, s_wait_dscnt ("If OpenCL and address space is not generic, omit
  // s_wait_dscnt": an LLVM fence has no address space, so it fences generic and keeps dscnt).
  // Reading: cluster scope gets the acquire cluster fence's global_inv, as for the atomicrmw rows.
  row('fence acq_rel workgroup/cluster none', (k) => [...waits(SLD), ...clusterInv(k)]),
  // spec: GFX125x table, "fence acq_rel agent/system none" — 1. s_wait_loadcnt, s_wait_storecnt;
  // 2. global_wb, Apply; 3. s_wait_storecnt, s_wait_loadcnt, s_wait_dscnt (OpenCL and not generic:
  // omit dscnt; kept, as for the workgroup fence); 4. global_inv, Apply; 5. s_wait_loadcnt 0x0.
  row('fence acq_rel agent/system none', (k, env) => [
    ...releaseAgent(k, [], env),
    globalInv(instructionScope125(k.scope)),
    wait('loadcnt'),
  ]),
  // ---- Sequential Consistent Atomic ----------------------------------------------------------
  s.seqCstLoadSinglethread,
  // spec: GFX125x table, "load atomic seq_cst workgroup global/generic" — 1. s_wait_storecnt,
  // s_wait_loadcnt, s_wait_dscnt (OpenCL: omit dscnt); 2. same as load atomic acquire, all
  // instructions even for OpenCL.
  s.seqCstLoad(WG, ['global', 'generic'], (_k, env) => waits(SLD, hsa(env) ? [] : DS)),
  // spec: GFX125x table, "load atomic seq_cst workgroup local" — 1. s_wait_storecnt, s_wait_loadcnt,
  // s_wait_dscnt ("If OpenCL, omit all."); 2. same as load atomic acquire, all instructions even
  // for OpenCL.
  s.seqCstLoad(WG, ['local'], (_k, env) => (hsa(env) ? waits(SLD) : [])),
  // spec: GFX125x table, "load atomic seq_cst cluster/agent/system global/generic" —
  // 1. s_wait_storecnt, s_wait_loadcnt, s_wait_dscnt (OpenCL: omit dscnt); 2. same as load atomic
  // acquire, all instructions even for OpenCL.
  s.seqCstLoad(['cluster', ...AG_SYS], ['global', 'generic'], (_k, env) => waits(SLD, hsa(env) ? [] : DS)),
  ...s.seqCstAnyScope,
];

/** The acquire cluster rows' `global_inv scope:SCOPE_SE`, for the acq_rel rows shared with workgroup. */
function clusterInv(k: RowKey): IsaInstr[] {
  return k.scope === 'cluster' ? [globalInv(instructionScope125(k.scope))] : [];
}
