/**
 * GFX12 code sequences: spec/gfx12-memory-model.rst (LLVM PR #98599 with its four patches, seeds/000),
 * tables "AMDHSA Memory Model Code Sequences GFX12 - Instruction Scopes" and "AMDHSA Memory Model
 * Code Sequences GFX12", in CU and WGP wavefront execution mode. Each row cites the spec row it
 * implements.
 *
 * Where a row is literally inconsistent the reading chosen is written beside it and in
 * docs/targets/gfx12.md ("Readings of ambiguous rows").
 *
 * The rows every family words alike (local, private, singlethread/wavefront, the seq_cst "Same as"
 * rows) come from amd-rows.ts; what GFX12 differs in is written here: one `s_wait_<counter>` per
 * counter (`loadcnt`, `storecnt`, `dscnt`, …), the `scope:` operand from the Instruction Scopes
 * table, `th:` hints (`op12`, `volatileOrNontemporal12`, which GFX12.5 shares), `global_wb` to
 * release and `global_inv` to acquire, and the CU/WGP mode clauses.
 */

import type { Scope } from '../core/types.ts';
import type { Family } from './amd-rows.ts';
import { encoding, row, sharedRows, waits } from './amd-rows.ts';
import type { CacheScope, Counter, IsaInstr } from './isa.ts';
import { globalInv, globalWb, lds, vmem, wait } from './isa.ts';
import type { RowEnv, RowKey, TableRow } from './table.ts';
import { AG_SYS, ANY_SCOPE, memOp, WG } from './table.ts';

/**
 * spec: GFX12 "Instruction Scopes" table — system/agent/workgroup/wavefront/singlethread (and their
 * `-one-as` forms, which map identically) to the `scope:` operand in CU and WGP mode.
 */
export function instructionScope(scope: Scope, env: RowEnv): CacheScope | null {
  switch (scope) {
    case 'system':
      return 'SCOPE_SYS'; // spec: GFX12 Instruction Scopes, "system" / "system-one-as" / none
    case 'agent':
    case 'cluster':
      return 'SCOPE_DEV'; // spec: GFX12 Instruction Scopes, "agent" / "agent-one-as"
    case 'workgroup':
      return env.mode === 'wgp' ? 'SCOPE_SE' : null; // spec: GFX12 Instruction Scopes, "workgroup"
    default:
      return null; // spec: GFX12 Instruction Scopes, "wavefront", "singlethread": none
  }
}

const wgp = (env: RowEnv): boolean => env.mode === 'wgp';
const hsa = (env: RowEnv): boolean => env.lang === 'hsa';

/**
 * A GFX12 or GFX12.5 row's memory instruction with its `scope:` operand (null: none). Returning
 * atomics carry `th:TH_ATOMIC_RETURN` (the acquire/acq_rel rows say so; the other rows need it to
 * return a value at all).
 */
export function op12(k: RowKey, scope: CacheScope | null): IsaInstr {
  const o = memOp(k.instr);
  const returns = o === 'atomic' && k.returns;
  if (k.space === 'local') return lds(o, returns);
  return vmem(o, encoding(k.space), { returns, th: returns ? 'TH_ATOMIC_RETURN' : null, scope });
}

/** The row's memory instruction; `applyScopes`: the row says "Apply Instruction Scopes table". */
function op(k: RowKey, env: RowEnv, applyScopes: boolean): IsaInstr {
  return op12(k, applyScopes ? instructionScope(k.scope, env) : null);
}

/**
 * "load none none …" — volatile: 1. … scope:SCOPE_SYS 2. s_wait_loadcnt 0x0; nontemporal: …
 * th:TH_LOAD_NT. "store none none …" — volatile: 1. … scope:SCOPE_SYS 2. s_wait_storecnt 0x0;
 * nontemporal: … th:TH_STORE_NT. GFX12.5 says the same.
 */
export function volatileOrNontemporal12(k: RowKey): IsaInstr[] {
  const load = k.instr === 'load';
  const o = load ? 'load' : 'store';
  if (k.volatile)
    return [vmem(o, encoding(k.space), { scope: 'SCOPE_SYS' }), wait(load ? 'loadcnt' : 'storecnt')];
  return [vmem(o, encoding(k.space), { th: load ? 'TH_LOAD_NT' : 'TH_STORE_NT' })];
}

/** GFX12 as the shared rows (amd-rows.ts) see it. */
const F: Family = {
  name: 'GFX12',
  anyScope: ANY_SCOPE,
  op: (k, env) => op(k, env, false),
  table: () => GFX12_TABLE,
  volatileOrNontemporal: volatileOrNontemporal12,
};
const s = sharedRows(F);

/** The five-wait list of the release rows: bvh, sample, store, load, ds. */
const ALL: readonly Counter[] = ['bvhcnt', 'samplecnt', 'storecnt', 'loadcnt', 'dscnt'];

/**
 * "s_wait_bvhcnt … s_wait_dscnt / CU wavefront execution mode: s_wait_dscnt 0x0" with the row's
 * OpenCL rule: `openclDrop` lists what OpenCL omits.
 */
function releaseWaits(env: RowEnv, openclDrop: readonly Counter[]): IsaInstr[] {
  const list: readonly Counter[] = wgp(env) ? ALL : ['dscnt'];
  return waits(list, hsa(env) ? [] : openclDrop);
}

const DS: readonly Counter[] = ['dscnt'];
const ALL_C: readonly Counter[] = ALL;

/** The GFX12 table, in the spec's order. */
export const GFX12_TABLE: readonly TableRow[] = [
  // ---- Non-Atomic --------------------------------------------------------------------------
  // spec: GFX12 table, "load none none global/generic/private/constant" — !volatile & !nontemporal:
  // buffer/global/flat_load; !volatile & nontemporal: … th:TH_LOAD_NT; volatile: 1. … scope:SCOPE_SYS
  // 2. s_wait_loadcnt 0x0.
  s.nonAtomic('load'),
  s.loadLocal,
  // spec: GFX12 table, "store none none global/generic/private/constant" — !volatile & !nontemporal:
  // buffer/global/flat_store; !volatile & nontemporal: … th:TH_STORE_NT; volatile: 1. …
  // scope:SCOPE_SYS 2. s_wait_storecnt 0x0. (Constant stores are rejected before lookup.)
  s.nonAtomic('store'),
  s.storeLocal,
  s.rmwPrivate,
  // ---- Monotonic Atomic --------------------------------------------------------------------
  // spec: GFX12 table, "load atomic monotonic singlethread/…/system global/generic" —
  // buffer/global/flat_load, Apply Instruction Scopes.
  row('load atomic monotonic singlethread/wavefront/workgroup/agent/system global/generic', (k, env) => [
    op(k, env, true),
  ]),
  s.monotonicLocal('load'),
  // spec: GFX12 table, "store atomic monotonic singlethread/…/system global/generic" —
  // buffer/global/flat_store, Apply Instruction Scopes.
  row('store atomic monotonic singlethread/wavefront/workgroup/agent/system global/generic', (k, env) => [
    op(k, env, true),
  ]),
  s.monotonicLocal('store'),
  // spec: GFX12 table, "atomicrmw monotonic singlethread/…/system global/generic" —
  // buffer/global/flat_atomic, Apply Instruction Scopes.
  row('atomicrmw monotonic singlethread/wavefront/workgroup/agent/system global/generic', (k, env) => [
    op(k, env, true),
  ]),
  s.monotonicLocal('rmw'),
  // ---- Acquire Atomic ------------------------------------------------------------------------
  s.singlethread('load', 'acquire'),
  // spec: GFX12 table, "load atomic acquire workgroup global" — 1. buffer/global_load scope:SCOPE_SE,
  // Apply Instruction Scopes (read: the scopes table decides, so CU mode has no scope operand);
  // 2. s_wait_loadcnt 0x0 (CU mode: omit); 3. global_inv scope:SCOPE_SE (CU mode: omit).
  row('load atomic acquire workgroup global', (k, env) => [
    op(k, env, true),
    ...(wgp(env) ? [wait('loadcnt'), globalInv('SCOPE_SE')] : []),
  ]),
  // spec: GFX12 table, "load atomic acquire workgroup local" — 1. ds_load; 2. s_wait_dscnt 0x0
  // (OpenCL: omit); 3. global_inv scope:SCOPE_SE (OpenCL or CU mode: omit).
  row('load atomic acquire workgroup local', (k, env) => [
    op(k, env, false),
    ...(hsa(env) ? [wait('dscnt')] : []),
    ...(hsa(env) && wgp(env) ? [globalInv('SCOPE_SE')] : []),
  ]),
  // spec: GFX12 table, "load atomic acquire workgroup generic" — 1. flat_load, Apply Instruction
  // Scopes; 2. s_wait_loadcnt 0x0, s_wait_dscnt 0x0 / CU mode: s_wait_dscnt 0x0 (OpenCL: omit
  // dscnt); 3. global_inv scope:SCOPE_SE (CU mode: omit).
  row('load atomic acquire workgroup generic', (k, env) => [
    op(k, env, true),
    ...waits(wgp(env) ? ['loadcnt', 'dscnt'] : DS, hsa(env) ? [] : DS),
    ...(wgp(env) ? [globalInv('SCOPE_SE')] : []),
  ]),
  // spec: GFX12 table, "load atomic acquire agent/system global" — 1. buffer/global_load, Apply
  // Instruction Scopes; 2. s_wait_loadcnt 0x0; 3. global_inv, Apply Instruction Scopes.
  row('load atomic acquire agent/system global', (k, env) => [
    op(k, env, true),
    wait('loadcnt'),
    globalInv(instructionScope(k.scope, env)),
  ]),
  // spec: GFX12 table, "load atomic acquire agent/system generic" — 1. flat_load, Apply Instruction
  // Scopes; 2. s_wait_loadcnt 0x0, s_wait_dscnt 0x0 (OpenCL: omit dscnt); 3. global_inv, Apply.
  row('load atomic acquire agent/system generic', (k, env) => [
    op(k, env, true),
    ...waits(['loadcnt', 'dscnt'], hsa(env) ? [] : DS),
    globalInv(instructionScope(k.scope, env)),
  ]),
  s.singlethread('rmw', 'acquire'),
  // spec: GFX12 table, "atomicrmw acquire workgroup global" — 1. buffer/global_atomic, Apply, with
  // return th:TH_ATOMIC_RETURN; 2. with return s_wait_loadcnt 0x0 / without s_wait_storecnt 0x0
  // (CU mode: omit); 3. global_inv scope:SCOPE_SE (CU mode: omit).
  row('atomicrmw acquire workgroup global', (k, env) => [
    op(k, env, true),
    ...(wgp(env) ? [wait(k.returns ? 'loadcnt' : 'storecnt'), globalInv('SCOPE_SE')] : []),
  ]),
  // spec: GFX12 table, "atomicrmw acquire workgroup local" — 1. ds_atomic; 2. s_wait_dscnt 0x0
  // (OpenCL: omit); 3. global_inv scope:SCOPE_SE (OpenCL: omit; CU mode: omit).
  row('atomicrmw acquire workgroup local', (k, env) => [
    op(k, env, false),
    ...(hsa(env) ? [wait('dscnt')] : []),
    ...(hsa(env) && wgp(env) ? [globalInv('SCOPE_SE')] : []),
  ]),
  // spec: GFX12 table, "atomicrmw acquire workgroup generic" — 1. flat_atomic, Apply, with return
  // th:TH_ATOMIC_RETURN; 2. with return: s_wait_loadcnt, s_wait_dscnt / without: s_wait_storecnt,
  // s_wait_dscnt ("If CU mode, omit all for atomics without return, and only emit s_wait_dscnt for
  // atomics with return"; OpenCL: omit dscnt); 3. global_inv scope:SCOPE_SE (CU mode: omit).
  row('atomicrmw acquire workgroup generic', (k, env) => {
    const w: Counter[] = wgp(env)
      ? [k.returns ? 'loadcnt' : 'storecnt', 'dscnt']
      : k.returns
        ? ['dscnt']
        : [];
    return [op(k, env, true), ...waits(w, hsa(env) ? [] : DS), ...(wgp(env) ? [globalInv('SCOPE_SE')] : [])];
  }),
  // spec: GFX12 table, "atomicrmw acquire agent/system global" — 1. buffer/global_atomic, Apply, with
  // return th:TH_ATOMIC_RETURN; 2. with return s_wait_loadcnt / without s_wait_storecnt;
  // 3. global_inv, Apply.
  row('atomicrmw acquire agent/system global', (k, env) => [
    op(k, env, true),
    wait(k.returns ? 'loadcnt' : 'storecnt'),
    globalInv(instructionScope(k.scope, env)),
  ]),
  // spec: GFX12 table, "atomicrmw acquire agent/system generic" — 1. flat_atomic, Apply, with return
  // th:TH_ATOMIC_RETURN; 2. with return s_wait_loadcnt, s_wait_dscnt / without s_wait_storecnt,
  // s_wait_dscnt (OpenCL: omit dscnt); 3. global_inv, Apply.
  row('atomicrmw acquire agent/system generic', (k, env) => [
    op(k, env, true),
    ...waits([k.returns ? 'loadcnt' : 'storecnt', 'dscnt'], hsa(env) ? [] : DS),
    globalInv(instructionScope(k.scope, env)),
  ]),
  s.fenceNone('acquire'),
  // spec: GFX12 table, "fence acquire workgroup none" — 1. s_wait_bvhcnt, samplecnt, storecnt,
  // loadcnt, dscnt / CU mode: s_wait_dscnt (OpenCL: omit dscnt); 2. global_inv scope:SCOPE_SE
  // (CU mode: omit).
  row('fence acquire workgroup none', (_k, env) => [
    ...releaseWaits(env, DS),
    ...(wgp(env) ? [globalInv('SCOPE_SE')] : []),
  ]),
  // spec: GFX12 table, "fence acquire agent/system none" — 1. s_wait_bvhcnt, samplecnt, storecnt,
  // loadcnt, dscnt (OpenCL: omit dscnt); 2. global_inv, Apply Instruction Scopes.
  row('fence acquire agent/system none', (k, env) => [
    ...waits(ALL_C, hsa(env) ? [] : DS),
    globalInv(instructionScope(k.scope, env)),
  ]),
  // ---- Release Atomic ------------------------------------------------------------------------
  s.singlethread('store', 'release'),
  // spec: GFX12 table, "store atomic release workgroup global" — 1. global_wb scope:SCOPE_SE (CU mode:
  // omit); 2. s_wait_bvhcnt … dscnt / CU mode: s_wait_dscnt (OpenCL: omit dscnt); 3.
  // buffer/global/flat_store, Apply. The row lists only global, but step 3 names flat_store: generic
  // uses this row too (there is no other).
  row(
    'store atomic release workgroup global',
    (k, env) => [...(wgp(env) ? [globalWb('SCOPE_SE')] : []), ...releaseWaits(env, DS), op(k, env, true)],
    ['global', 'generic'],
  ),
  // spec: GFX12 table, "store atomic release workgroup local" — 1. global_wb scope:SCOPE_SE (CU mode
  // or OpenCL: omit); 2. s_wait_bvhcnt … dscnt / CU mode: s_wait_dscnt ("If OpenCL, omit.");
  // 3. ds_store.
  row('store atomic release workgroup local', (k, env) => [
    ...(wgp(env) && hsa(env) ? [globalWb('SCOPE_SE')] : []),
    ...releaseWaits(env, ALL_C),
    op(k, env, false),
  ]),
  // spec: GFX12 table, "store atomic release agent/system global/generic" — 1. global_wb, Apply;
  // 2. s_wait_bvhcnt … dscnt (OpenCL: omit dscnt); 3. buffer/global/flat_store, Apply.
  row('store atomic release agent/system global/generic', (k, env) => [
    globalWb(instructionScope(k.scope, env)),
    ...waits(ALL_C, hsa(env) ? [] : DS),
    op(k, env, true),
  ]),
  s.singlethread('rmw', 'release'),
  // spec: GFX12 table, "atomicrmw release workgroup global/generic" — 1. global_wb scope:SCOPE_SE (CU
  // mode: omit); 2. s_wait_bvhcnt … dscnt / CU mode: s_wait_dscnt (OpenCL: omit dscnt; OpenCL and
  // CU mode: omit all); 3. buffer/global/flat_atomic, Apply.
  row('atomicrmw release workgroup global/generic', (k, env) => [
    ...(wgp(env) ? [globalWb('SCOPE_SE')] : []),
    ...releaseWaits(env, DS),
    op(k, env, true),
  ]),
  // spec: GFX12 table, "atomicrmw release workgroup local" — 1. global_wb scope:SCOPE_SE (CU mode or
  // OpenCL: omit); 2. s_wait_bvhcnt … dscnt / CU mode: s_wait_dscnt ("If OpenCL, omit all.");
  // 3. ds_atomic.
  row('atomicrmw release workgroup local', (k, env) => [
    ...(wgp(env) && hsa(env) ? [globalWb('SCOPE_SE')] : []),
    ...releaseWaits(env, ALL_C),
    op(k, env, false),
  ]),
  // spec: GFX12 table, "atomicrmw release agent/system global/generic" — 1. global_wb scope: (Apply
  // Instruction Scopes); 2. s_wait_bvhcnt … dscnt (OpenCL: omit dscnt); 3. buffer/global/flat_atomic,
  // Apply.
  row('atomicrmw release agent/system global/generic', (k, env) => [
    globalWb(instructionScope(k.scope, env)),
    ...waits(ALL_C, hsa(env) ? [] : DS),
    op(k, env, true),
  ]),
  s.fenceNone('release'),
  // spec: GFX12 table, "fence release workgroup none" — 1. global_wb scope:SCOPE_SE (CU mode: omit);
  // 2. s_wait_bvhcnt … dscnt / CU mode: s_wait_dscnt (OpenCL: omit dscnt).
  row('fence release workgroup none', (_k, env) => [
    ...(wgp(env) ? [globalWb('SCOPE_SE')] : []),
    ...releaseWaits(env, DS),
  ]),
  // spec: GFX12 table, "fence release agent/system none" — 1. global_wb, Apply; 2. s_wait_bvhcnt …
  // dscnt / OpenCL: bvhcnt, samplecnt, storecnt, loadcnt.
  row('fence release agent/system none', (k, env) => [
    globalWb(instructionScope(k.scope, env)),
    ...waits(ALL_C, hsa(env) ? [] : DS),
  ]),
  // ---- Acquire-Release Atomic ----------------------------------------------------------------
  s.singlethread('rmw', 'acq_rel'),
  // spec: GFX12 table, "atomicrmw acq_rel workgroup global" — 1. global_wb scope:SCOPE_SE (CU mode:
  // omit); 2. s_wait_bvhcnt … dscnt / CU mode: s_wait_dscnt (OpenCL: omit dscnt); 3.
  // buffer/global_atomic, Apply, with return th:TH_ATOMIC_RETURN; 4. with return s_wait_loadcnt /
  // without s_wait_storecnt (CU mode: omit); 5. global_inv scope:SCOPE_SE (CU mode: omit).
  row('atomicrmw acq_rel workgroup global', (k, env) => [
    ...(wgp(env) ? [globalWb('SCOPE_SE')] : []),
    ...releaseWaits(env, DS),
    op(k, env, true),
    ...(wgp(env) ? [wait(k.returns ? 'loadcnt' : 'storecnt'), globalInv('SCOPE_SE')] : []),
  ]),
  // spec: GFX12 table, "atomicrmw acq_rel workgroup local" — 1. global_wb scope:SCOPE_SE (CU mode or
  // OpenCL: omit); 2. s_wait_bvhcnt … dscnt / CU mode: s_wait_dscnt ("If OpenCL, omit."); 3.
  // ds_atomic; 4. s_wait_dscnt 0x0 (OpenCL: omit); 5. global_inv scope:SCOPE_SE (CU mode: omit;
  // OpenCL: omit).
  row('atomicrmw acq_rel workgroup local', (k, env) => [
    ...(wgp(env) && hsa(env) ? [globalWb('SCOPE_SE')] : []),
    ...releaseWaits(env, ALL_C),
    op(k, env, false),
    ...(hsa(env) ? [wait('dscnt')] : []),
    ...(wgp(env) && hsa(env) ? [globalInv('SCOPE_SE')] : []),
  ]),
  // spec: GFX12 table, "atomicrmw acq_rel workgroup generic" — 1. global_wb scope:SCOPE_SE ("If CU
  // wavefront execution mode or OpenCL, omit"); 2. s_wait_bvhcnt … dscnt / CU mode: s_wait_dscnt
  // ("If OpenCL, omit s_wait_loadcnt 0x0"); 3. flat_atomic, Apply, with return th:TH_ATOMIC_RETURN;
  // 4. without return: s_wait_dscnt, s_wait_storecnt / with return: s_wait_loadcnt, s_wait_dscnt /
  // CU mode: s_wait_dscnt (OpenCL: omit dscnt); 5. global_inv scope:SCOPE_SE (CU mode: omit).
  // Reading: the two OpenCL clauses of steps 1–2 are the local row's and a typo for dscnt; read
  // literally, OpenCL acq_rel would omit the global_wb and loadcnt wait that release emits (weaker
  // than release). gpumm uses the global/generic release rows' rules: CU mode omits global_wb,
  // OpenCL omits dscnt (docs/targets/gfx12.md, "Readings").
  row('atomicrmw acq_rel workgroup generic', (k, env) => {
    const after: Counter[] = wgp(env)
      ? k.returns
        ? ['loadcnt', 'dscnt']
        : ['dscnt', 'storecnt']
      : ['dscnt'];
    return [
      ...(wgp(env) ? [globalWb('SCOPE_SE')] : []),
      ...releaseWaits(env, DS),
      op(k, env, true),
      ...waits(after, hsa(env) ? [] : DS),
      ...(wgp(env) ? [globalInv('SCOPE_SE')] : []),
    ];
  }),
  // spec: GFX12 table, "atomicrmw acq_rel agent/system global" — 1. global_wb, Apply; 2.
  // s_wait_bvhcnt … dscnt (OpenCL: omit dscnt); 3. buffer/global_atomic, Apply, with return
  // th:TH_ATOMIC_RETURN; 4. with return s_wait_loadcnt / without s_wait_storecnt; 5. global_inv, Apply.
  row('atomicrmw acq_rel agent/system global', (k, env) => [
    globalWb(instructionScope(k.scope, env)),
    ...waits(ALL_C, hsa(env) ? [] : DS),
    op(k, env, true),
    wait(k.returns ? 'loadcnt' : 'storecnt'),
    globalInv(instructionScope(k.scope, env)),
  ]),
  // spec: GFX12 table, "atomicrmw acq_rel agent/system generic" — 1. global_wb, Apply; 2.
  // s_wait_bvhcnt … dscnt (OpenCL: omit dscnt); 3. flat_atomic, Apply, with return
  // th:TH_ATOMIC_RETURN; 4. with return s_wait_loadcnt, s_wait_dscnt / without s_wait_storecnt,
  // s_wait_dscnt (OpenCL: omit dscnt); 5. global_inv, Apply.
  row('atomicrmw acq_rel agent/system generic', (k, env) => [
    globalWb(instructionScope(k.scope, env)),
    ...waits(ALL_C, hsa(env) ? [] : DS),
    op(k, env, true),
    ...waits([k.returns ? 'loadcnt' : 'storecnt', 'dscnt'], hsa(env) ? [] : DS),
    globalInv(instructionScope(k.scope, env)),
  ]),
  s.fenceNone('acq_rel'),
  // spec: GFX12 table, "fence acq_rel workgroup none" — 1. global_wb scope:SCOPE_SE (CU mode: omit);
  // 2. s_wait_bvhcnt … dscnt / CU mode: s_wait_dscnt ("If OpenCL and address space is not generic,
  // omit s_wait_dscnt": an LLVM fence has no address space, so it fences both and keeps dscnt);
  // 3. global_inv scope:SCOPE_SE (CU mode: omit).
  row('fence acq_rel workgroup none', (_k, env) => [
    ...(wgp(env) ? [globalWb('SCOPE_SE')] : []),
    ...releaseWaits(env, []),
    ...(wgp(env) ? [globalInv('SCOPE_SE')] : []),
  ]),
  // spec: GFX12 table, "fence acq_rel agent/system none" — 1. global_wb, Apply; 2. s_wait_bvhcnt …
  // dscnt (OpenCL and not generic: omit dscnt; kept, as for the workgroup fence); 3. global_inv
  // scope: (Apply Instruction Scopes).
  row('fence acq_rel agent/system none', (k, env) => [
    globalWb(instructionScope(k.scope, env)),
    ...waits(ALL_C),
    globalInv(instructionScope(k.scope, env)),
  ]),
  // ---- Sequential Consistent Atomic ----------------------------------------------------------
  s.seqCstLoadSinglethread,
  // spec: GFX12 table, "load atomic seq_cst workgroup global/generic" — 1. s_wait_bvhcnt … dscnt /
  // CU mode: s_wait_dscnt (OpenCL: omit dscnt); 2. "Following instructions same as corresponding
  // load atomic acquire, except must generate all instructions even for OpenCL."
  s.seqCstLoad(WG, ['global', 'generic'], (_k, env) => releaseWaits(env, DS)),
  // spec: GFX12 table, "load atomic seq_cst workgroup local" — 1. s_wait_bvhcnt … dscnt / CU mode:
  // s_wait_dscnt ("If OpenCL, omit all."); 2. same as load atomic acquire, all instructions even for
  // OpenCL.
  s.seqCstLoad(WG, ['local'], (_k, env) => releaseWaits(env, ALL_C)),
  // spec: GFX12 table, "load atomic seq_cst agent/system global/generic" — 1. s_wait_bvhcnt … dscnt
  // (OpenCL: omit dscnt); 2. same as load atomic acquire, all instructions even for OpenCL.
  s.seqCstLoad(AG_SYS, ['global', 'generic'], (_k, env) => waits(ALL_C, hsa(env) ? [] : DS)),
  ...s.seqCstAnyScope,
];
