/**
 * GFX6–GFX9 code sequences: spec/amdgpu-usage-2018.rst, section "Memory Model", table "AMDHSA
 * Memory Model Code Sequences GFX6-GFX9" (LLVM docs blob 42131f8d, 2018). Each row below cites the
 * spec row it implements; the row text reads like the spec's first four columns.
 *
 * The 2018 document has no `-one-as` scopes, no nontemporal rows and no volatile rows for atomics:
 * those flags therefore do not change GFX6–9 code here (docs/targets/divergences.md lists what
 * llc-22 does instead).
 *
 * The local, singlethread/wavefront and workgroup local release rows come from amd-rows.ts, as in
 * the later tables; what GFX6–9 differs in is written here: `buffer_` encodings on GFX6–8 (no
 * `global_`/`scratch_`; GFX6 no `flat_`), plain accesses as rows of their own, one `s_waitcnt` on
 * `vmcnt`/`lgkmcnt` with "If OpenCL, omit", `buffer_wbinvl1_vol` to acquire and nothing to release,
 * and seq_cst rows that refer to the acquire/release rows without the "even for OpenCL" clause.
 */

import type { Family } from './amd-rows.ts';
import { row, sharedRows } from './amd-rows.ts';
import type { Counter, IsaInstr, VmemEncoding } from './isa.ts';
import { lds, vmem, wait, wbinvl1Vol } from './isa.ts';
import type { RowEnv, RowKey, RowSpace, TableRow } from './table.ts';
import { ANY_SCOPE, memOp } from './table.ts';

/** Encoding a GFX6–9 processor uses for an address space ("buffer/global/flat"). */
function encoding(space: RowSpace, env: RowEnv): VmemEncoding {
  const g9 = env.proc.features.globalInsts;
  switch (space) {
    // spec: "Private address space uses buffer_load/store using the scratch V# (GFX6-8), or
    // scratch_load/store (GFX9)."
    case 'private':
      return g9 ? 'scratch' : 'buffer';
    case 'generic':
      return 'flat';
    default:
      // spec: "buffer/global_load" — buffer on GFX6–8, global on GFX9.
      return g9 ? 'global' : 'buffer';
  }
}

/** The row's memory instruction; `glc` is the row's `glc=1`. Returning atomics always carry glc. */
function op(k: RowKey, env: RowEnv, glc = false): IsaInstr {
  const o = memOp(k.instr);
  const returns = o === 'atomic' && k.returns;
  if (k.space === 'local') return lds(o, returns);
  return vmem(o, encoding(k.space, env), { glc: glc || returns, returns });
}

/** `s_waitcnt` on the listed counters, dropping `lgkmcnt(0)` when the row says "If OpenCL, omit lgkmcnt(0)". */
function waitcnt(env: RowEnv, counters: Counter[], openclOmitsLgkm: boolean): IsaInstr[] {
  const cs = env.lang === 'opencl' && openclOmitsLgkm ? counters.filter((c) => c !== 'lgkmcnt') : counters;
  return cs.length === 0 ? [] : [wait(...cs)];
}

const hsa = (env: RowEnv): boolean => env.lang === 'hsa';

/** GFX6–9 as the shared rows (amd-rows.ts) see it. */
const F: Family = {
  name: 'GFX6-9',
  anyScope: ANY_SCOPE,
  op: (k, env) => op(k, env),
  table: () => GFX6_9_TABLE,
};
const s = sharedRows(F);

/** The GFX6–GFX9 table, in the spec's order. */
export const GFX6_9_TABLE: readonly TableRow[] = [
  // ---- Non-Atomic --------------------------------------------------------------------------
  {
    // spec: GFX6-9 table, "load none none global/generic" — non-volatile: buffer/global/flat_load;
    // volatile: buffer/global/flat_load glc=1.
    row: 'load none none global/generic',
    instr: ['load'],
    orderings: ['notatomic'],
    scopes: ANY_SCOPE,
    spaces: ['global', 'generic'],
    build: (k, env) => [op(k, env, k.volatile)],
  },
  s.loadLocal,
  {
    // spec: GFX6-9 table, "store none none global/generic" — buffer/global/flat_store.
    row: 'store none none global/generic',
    instr: ['store'],
    orderings: ['notatomic'],
    scopes: ANY_SCOPE,
    spaces: ['global', 'generic'],
    build: (k, env) => [op(k, env)],
  },
  s.storeLocal,
  {
    // spec: Memory Model text, "Private address space uses buffer_load/store ... (GFX6-8), or
    // scratch_load/store (GFX9) ... all accesses are treated as non-atomic." An atomicrmw becomes the
    // plain load and store it stands for.
    row: 'private (Memory Model text: treated as non-atomic)',
    instr: ['load', 'store', 'rmw'],
    orderings: ['notatomic'],
    scopes: ANY_SCOPE,
    spaces: ['private'],
    build: (k, env) =>
      k.instr === 'rmw'
        ? [vmem('load', encoding('private', env)), vmem('store', encoding('private', env))]
        : [vmem(memOp(k.instr), encoding('private', env))],
  },
  {
    // spec: Memory Model text, "Constant address space uses buffer/global_load instructions ...
    // all access are treated as non-atomic."
    row: 'constant (Memory Model text: loads only, treated as non-atomic)',
    instr: ['load'],
    orderings: ['notatomic'],
    scopes: ANY_SCOPE,
    spaces: ['constant'],
    build: (_k, env) => [vmem('load', encoding('constant', env))],
  },
  // ---- Monotonic Atomic (unordered loads/stores are "Same as non-atomic", see lower.ts) ----
  // spec: GFX6-9 table, "load atomic monotonic singlethread/wavefront/workgroup global/generic" —
  // buffer/global/flat_load.
  row('load atomic monotonic singlethread/wavefront/workgroup global/generic', (k, env) => [op(k, env)]),
  s.monotonicLocal('load'),
  // spec: GFX6-9 table, "load atomic monotonic agent/system global/generic" — buffer/global/flat_load glc=1.
  row('load atomic monotonic agent/system global/generic', (k, env) => [op(k, env, true)]),
  // spec: GFX6-9 table, "store atomic monotonic singlethread/.../system global/generic" —
  // buffer/global/flat_store.
  row('store atomic monotonic singlethread/wavefront/workgroup/agent/system global/generic', (k, env) => [
    op(k, env),
  ]),
  s.monotonicLocal('store'),
  // spec: GFX6-9 table, "atomicrmw monotonic singlethread/.../system global/generic" — buffer/global/flat_atomic.
  row('atomicrmw monotonic singlethread/wavefront/workgroup/agent/system global/generic', (k, env) => [
    op(k, env),
  ]),
  s.monotonicLocal('rmw'),
  // ---- Acquire Atomic ------------------------------------------------------------------------
  s.singlethread('load', 'acquire'),
  // spec: GFX6-9 table, "load atomic acquire workgroup global" — buffer/global_load.
  row('load atomic acquire workgroup global', (k, env) => [op(k, env)]),
  // spec: GFX6-9 table, "load atomic acquire workgroup local/generic" — 1. ds/flat_load;
  // 2. s_waitcnt lgkmcnt(0) ("If OpenCL, omit waitcnt").
  row('load atomic acquire workgroup local/generic', (k, env) => [
    op(k, env),
    ...(hsa(env) ? [wait('lgkmcnt')] : []),
  ]),
  // spec: GFX6-9 table, "load atomic acquire agent/system global" — 1. buffer/global_load glc=1;
  // 2. s_waitcnt vmcnt(0); 3. buffer_wbinvl1_vol.
  row('load atomic acquire agent/system global', (k, env) => [op(k, env, true), wait('vmcnt'), wbinvl1Vol()]),
  // spec: GFX6-9 table, "load atomic acquire agent/system generic" — 1. flat_load glc=1;
  // 2. s_waitcnt vmcnt(0) & lgkmcnt(0) ("If OpenCL omit lgkmcnt(0)"); 3. buffer_wbinvl1_vol.
  row('load atomic acquire agent/system generic', (k, env) => [
    op(k, env, true),
    ...waitcnt(env, ['vmcnt', 'lgkmcnt'], true),
    wbinvl1Vol(),
  ]),
  s.singlethread('rmw', 'acquire'),
  // spec: GFX6-9 table, "atomicrmw acquire workgroup global" — buffer/global_atomic.
  row('atomicrmw acquire workgroup global', (k, env) => [op(k, env)]),
  // spec: GFX6-9 table, "atomicrmw acquire workgroup local/generic" — 1. ds/flat_atomic;
  // 2. waitcnt lgkmcnt(0) ("If OpenCL, omit waitcnt").
  row('atomicrmw acquire workgroup local/generic', (k, env) => [
    op(k, env),
    ...(hsa(env) ? [wait('lgkmcnt')] : []),
  ]),
  // spec: GFX6-9 table, "atomicrmw acquire agent/system global" — 1. buffer/global_atomic;
  // 2. s_waitcnt vmcnt(0); 3. buffer_wbinvl1_vol.
  row('atomicrmw acquire agent/system global', (k, env) => [op(k, env), wait('vmcnt'), wbinvl1Vol()]),
  // spec: GFX6-9 table, "atomicrmw acquire agent/system generic" — 1. flat_atomic;
  // 2. s_waitcnt vmcnt(0) & lgkmcnt(0) ("If OpenCL, omit lgkmcnt(0)"); 3. buffer_wbinvl1_vol.
  row('atomicrmw acquire agent/system generic', (k, env) => [
    op(k, env),
    ...waitcnt(env, ['vmcnt', 'lgkmcnt'], true),
    wbinvl1Vol(),
  ]),
  s.fenceNone('acquire'),
  // spec: GFX6-9 table, "fence acquire workgroup none" — 1. s_waitcnt lgkmcnt(0) ("If OpenCL and
  // address space is not generic, omit waitcnt. However, since LLVM currently has no address space
  // on the fence need to conservatively always generate").
  row('fence acquire workgroup none', () => [wait('lgkmcnt')]),
  // spec: GFX6-9 table, "fence acquire agent/system none" — 1. s_waitcnt vmcnt(0) & lgkmcnt(0)
  // (always generated, see previous fence); 2. buffer_wbinvl1_vol.
  row('fence acquire agent/system none', () => [wait('vmcnt', 'lgkmcnt'), wbinvl1Vol()]),
  // ---- Release Atomic ------------------------------------------------------------------------
  s.singlethread('store', 'release'),
  // spec: GFX6-9 table, "store atomic release workgroup global/generic" — 1. s_waitcnt lgkmcnt(0)
  // ("If OpenCL, omit waitcnt"); 2. buffer/global/flat_store.
  row('store atomic release workgroup global/generic', (k, env) => [
    ...(hsa(env) ? [wait('lgkmcnt')] : []),
    op(k, env),
  ]),
  s.localRelease('store'),
  // spec: GFX6-9 table, "store atomic release agent/system global/generic" — 1. s_waitcnt vmcnt(0) &
  // lgkmcnt(0) ("If OpenCL, omit lgkmcnt(0)"); 2. buffer/global/ds/flat_store.
  row('store atomic release agent/system global/generic', (k, env) => [
    ...waitcnt(env, ['vmcnt', 'lgkmcnt'], true),
    op(k, env),
  ]),
  s.singlethread('rmw', 'release'),
  // spec: GFX6-9 table, "atomicrmw release workgroup global/generic" — 1. s_waitcnt lgkmcnt(0)
  // ("If OpenCL, omit waitcnt"); 2. buffer/global/flat_atomic.
  row('atomicrmw release workgroup global/generic', (k, env) => [
    ...(hsa(env) ? [wait('lgkmcnt')] : []),
    op(k, env),
  ]),
  s.localRelease('rmw'),
  // spec: GFX6-9 table, "atomicrmw release agent/system global/generic" — 1. s_waitcnt vmcnt(0) &
  // lgkmcnt(0) ("If OpenCL, omit lgkmcnt(0)"); 2. buffer/global/ds/flat_atomic.
  row('atomicrmw release agent/system global/generic', (k, env) => [
    ...waitcnt(env, ['vmcnt', 'lgkmcnt'], true),
    op(k, env),
  ]),
  s.fenceNone('release'),
  // spec: GFX6-9 table, "fence release workgroup none" — 1. s_waitcnt lgkmcnt(0) (always generated:
  // LLVM fences carry no address space).
  row('fence release workgroup none', () => [wait('lgkmcnt')]),
  // spec: GFX6-9 table, "fence release agent/system none" — 1. s_waitcnt vmcnt(0) & lgkmcnt(0)
  // (always generated).
  row('fence release agent/system none', () => [wait('vmcnt', 'lgkmcnt')]),
  // ---- Acquire-Release Atomic ----------------------------------------------------------------
  s.singlethread('rmw', 'acq_rel'),
  // spec: GFX6-9 table, "atomicrmw acq_rel workgroup global" — 1. s_waitcnt lgkmcnt(0) ("If OpenCL,
  // omit waitcnt"); 2. buffer/global_atomic.
  row('atomicrmw acq_rel workgroup global', (k, env) => [...(hsa(env) ? [wait('lgkmcnt')] : []), op(k, env)]),
  // spec: GFX6-9 table, "atomicrmw acq_rel workgroup local" — 1. ds_atomic; 2. s_waitcnt lgkmcnt(0)
  // ("If OpenCL, omit waitcnt").
  row('atomicrmw acq_rel workgroup local', (k, env) => [op(k, env), ...(hsa(env) ? [wait('lgkmcnt')] : [])]),
  // spec: GFX6-9 table, "atomicrmw acq_rel workgroup generic" — 1. s_waitcnt lgkmcnt(0) ("If OpenCL,
  // omit"); 2. flat_atomic; 3. s_waitcnt lgkmcnt(0) ("If OpenCL, omit").
  row('atomicrmw acq_rel workgroup generic', (k, env) =>
    hsa(env) ? [wait('lgkmcnt'), op(k, env), wait('lgkmcnt')] : [op(k, env)],
  ),
  // spec: GFX6-9 table, "atomicrmw acq_rel agent/system global" — 1. s_waitcnt vmcnt(0) & lgkmcnt(0)
  // ("If OpenCL, omit lgkmcnt(0)"); 2. buffer/global_atomic; 3. s_waitcnt vmcnt(0);
  // 4. buffer_wbinvl1_vol.
  row('atomicrmw acq_rel agent/system global', (k, env) => [
    ...waitcnt(env, ['vmcnt', 'lgkmcnt'], true),
    op(k, env),
    wait('vmcnt'),
    wbinvl1Vol(),
  ]),
  // spec: GFX6-9 table, "atomicrmw acq_rel agent/system generic" — 1. s_waitcnt vmcnt(0) &
  // lgkmcnt(0) ("If OpenCL, omit lgkmcnt(0)"); 2. flat_atomic; 3. s_waitcnt vmcnt(0) & lgkmcnt(0)
  // ("If OpenCL, omit lgkmcnt(0)"); 4. buffer_wbinvl1_vol.
  row('atomicrmw acq_rel agent/system generic', (k, env) => [
    ...waitcnt(env, ['vmcnt', 'lgkmcnt'], true),
    op(k, env),
    ...waitcnt(env, ['vmcnt', 'lgkmcnt'], true),
    wbinvl1Vol(),
  ]),
  s.fenceNone('acq_rel'),
  // spec: GFX6-9 table, "fence acq_rel workgroup none" — 1. s_waitcnt lgkmcnt(0) (always generated).
  row('fence acq_rel workgroup none', () => [wait('lgkmcnt')]),
  // spec: GFX6-9 table, "fence acq_rel agent/system none" — 1. s_waitcnt vmcnt(0) & lgkmcnt(0)
  // (always generated); 2. buffer_wbinvl1_vol.
  row('fence acq_rel agent/system none', () => [wait('vmcnt', 'lgkmcnt'), wbinvl1Vol()]),
  // ---- Sequential Consistent Atomic ----------------------------------------------------------
  // spec: GFX6-9 table, "load atomic seq_cst singlethread/wavefront/workgroup global/local/generic" —
  // "Same as corresponding load atomic acquire".
  row('load atomic seq_cst singlethread/wavefront/workgroup global/local/generic', (k, _env, lookup) =>
    lookup({ ...k, ordering: 'acquire' }),
  ),
  // spec: GFX6-9 table, "load atomic seq_cst agent/system global/local/generic" — 1. s_waitcnt
  // vmcnt(0); 2. "Following instructions same as corresponding load atomic acquire". The row lists
  // local; the acquire row it refers to is the workgroup one (LDS scopes wider than workgroup act as
  // workgroup).
  row('load atomic seq_cst agent/system global/local/generic', (k, _env, lookup) => {
    const acq = lookup({ ...k, ordering: 'acquire', scope: k.space === 'local' ? 'workgroup' : k.scope });
    return { seq: [wait('vmcnt'), ...acq.seq], rows: acq.rows };
  }),
  // spec: GFX6-9 table, "store atomic seq_cst <any scope> global/local/generic" — "Same as
  // corresponding store atomic release".
  row(
    'store atomic seq_cst singlethread/wavefront/workgroup/agent/system global/local/generic',
    (k, _env, lookup) => lookup({ ...k, ordering: 'release' }),
  ),
  // spec: GFX6-9 table, "atomicrmw seq_cst <any scope> global/local/generic" — "Same as corresponding
  // atomicrmw acq_rel".
  row(
    'atomicrmw seq_cst singlethread/wavefront/workgroup/agent/system global/local/generic',
    (k, _env, lookup) => lookup({ ...k, ordering: 'acq_rel' }),
  ),
  // spec: GFX6-9 table, "fence seq_cst <any scope> none" — "Same as corresponding fence acq_rel".
  row('fence seq_cst singlethread/wavefront/workgroup/agent/system none', (k, _env, lookup) =>
    lookup({ ...k, ordering: 'acq_rel' }),
  ),
];
