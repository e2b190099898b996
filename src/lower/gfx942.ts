/**
 * GFX942 code sequences (beyond the seeds): LLVM `llvm/docs/AMDGPUUsage.rst` at commit f5c8b0a9
 * (llvm/llvm-project), section "Memory Model GFX942", table "AMDHSA Memory Model Code Sequences
 * GFX942", with and without TgSplit execution mode. Each row cites the row it implements as
 * `AMDGPUUsage (f5c8b0a9) GFX942 table, "<row>"`. gfx950 uses this table too: an inference (no
 * "Memory Model GFX950" section exists; see docs/targets/README.md).
 *
 * Conventions as in gfx90a.ts: "lgkm/vmcnt(0)" is `lgkmcnt(0)` when not in TgSplit mode and
 * `vmcnt(0)` in TgSplit mode; the "If OpenCL and address space is …" omissions of the fence rows never
 * apply (fences carry no address space); the TgSplit note of the atomic local rows is LW2012.
 * Scope bits: `sc0=1` workgroup, `sc1=1` agent, `sc0=1 sc1=1` system on loads and stores; atomics
 * use `sc0=1` for "returns the pre-op value" (Memory Model GFX942 text) and `sc1=1` for system scope.
 */

import type { Counter, IsaInstr, ScBits, VmemEncoding } from './isa.ts';
import { bufferInv, lds, vmem, wait, wbl2 } from './isa.ts';
import type { Built, RowEnv, RowKey, RowSpace, TableRow } from './table.ts';
import { AG_SYS, ANY_SCOPE, memOp, ST_WF, ST_WF_WG, sameAsHsa, WG } from './table.ts';

const FAMILY = 'GFX942';

function encoding(space: RowSpace): VmemEncoding {
  return space === 'generic' ? 'flat' : space === 'private' ? 'scratch' : 'global';
}

const tg = (env: RowEnv): boolean => env.tgsplit;
const ocl = (env: RowEnv): boolean => env.lang === 'opencl';

/** The row's memory instruction with its bits; returning atomics carry `sc0=1`. */
function op(k: RowKey, bits: { sc0?: boolean; sc1?: boolean; nt?: boolean } = {}): IsaInstr {
  const o = memOp(k.instr);
  const returns = o === 'atomic' && k.returns;
  if (k.space === 'local') return lds(o, returns);
  return vmem(o, encoding(k.space), { ...bits, sc0: (bits.sc0 ?? false) || returns, returns });
}

/** The load/store scope bits of a row: workgroup `sc0=1`, agent `sc1=1`, system `sc0=1 sc1=1`. */
function scopeBits(k: RowKey): { sc0: boolean; sc1: boolean } {
  return {
    sc0: k.scope === 'workgroup' || k.scope === 'system',
    sc1: k.scope === 'agent' || k.scope === 'system',
  };
}

/** One `s_waitcnt` on the counters that survive the row's omissions (nothing when none do). */
function waitcnt(counters: Counter[], drop: Counter[] = []): IsaInstr[] {
  const cs = counters.filter((c) => !drop.includes(c));
  return cs.length === 0 ? [] : [wait(...cs)];
}

/** "s_waitcnt lgkm/vmcnt(0)": lgkmcnt(0) unless TgSplit, vmcnt(0) in TgSplit. */
function lgkmOrVm(env: RowEnv, oclOmitsLgkm: boolean): IsaInstr[] {
  if (tg(env)) return [wait('vmcnt')];
  return oclOmitsLgkm && ocl(env) ? [] : [wait('lgkmcnt')];
}

/** "s_waitcnt lgkmcnt(0) & vmcnt(0)" with "If TgSplit execution mode, omit lgkmcnt(0)". */
function lgkmAndVm(env: RowEnv, oclOmitsLgkm: boolean): IsaInstr[] {
  return waitcnt(['vmcnt', 'lgkmcnt'], tg(env) || (oclOmitsLgkm && ocl(env)) ? ['lgkmcnt'] : []);
}

/** Step "buffer_inv sc0=1 — If not TgSplit execution mode, omit." */
function tgInv(env: RowEnv): IsaInstr[] {
  return tg(env) ? [bufferInv('sc0')] : [];
}

/** Agent/system acquire invalidate: `buffer_inv sc1=1` (agent), `buffer_inv sc0=1 sc1=1` (system). */
function acqInv(k: RowKey): IsaInstr[] {
  const sc: ScBits = k.scope === 'system' ? 'sc0 sc1' : 'sc1';
  return [bufferInv(sc)];
}

/** Agent/system release write-back: `buffer_wbl2 sc1=1` (agent), `buffer_wbl2 sc0=1 sc1=1` (system). */
function relWb(k: RowKey): IsaInstr[] {
  return [wbl2(k.scope === 'system' ? 'sc0 sc1' : 'sc1')];
}

const sys = (k: RowKey): boolean => k.scope === 'system';

function asHsa(k: RowKey, ordering: RowKey['ordering'], env: RowEnv, lookup: (k: RowKey) => Built): Built {
  return sameAsHsa(GFX942_TABLE, FAMILY, k, ordering, env, lookup);
}

/** The GFX942 table, in the document's order. */
export const GFX942_TABLE: readonly TableRow[] = [
  // ---- Non-Atomic --------------------------------------------------------------------------
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "load none none global/generic/private/constant" —
    // !volatile & !nontemporal: buffer/global/flat_load; !volatile & nontemporal: … nt=1; volatile:
    // 1. … sc0=1 sc1=1 2. s_waitcnt vmcnt(0).
    row: 'load none none global/generic/private/constant',
    instr: ['load'],
    orderings: ['notatomic'],
    scopes: ANY_SCOPE,
    spaces: ['global', 'generic', 'private', 'constant'],
    build: (k) => {
      if (k.volatile) return [op(k, { sc0: true, sc1: true }), wait('vmcnt')];
      if (k.nontemporal) return [op(k, { nt: true })];
      return [op(k)];
    },
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "load none none local" — ds_load.
    row: 'load none none local',
    instr: ['load'],
    orderings: ['notatomic'],
    scopes: ANY_SCOPE,
    spaces: ['local'],
    build: (k) => [op(k)],
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "store none none global/generic/private/constant" —
    // !volatile & !nontemporal: GFX942 buffer/global/flat_store; !volatile & nontemporal: GFX942 …
    // nt=1; volatile: 1. … sc0=1 sc1=1 2. s_waitcnt vmcnt(0).
    row: 'store none none global/generic/private/constant',
    instr: ['store'],
    orderings: ['notatomic'],
    scopes: ANY_SCOPE,
    spaces: ['global', 'generic', 'private'],
    build: (k) => {
      if (k.volatile) return [op(k, { sc0: true, sc1: true }), wait('vmcnt')];
      if (k.nontemporal) return [op(k, { nt: true })];
      return [op(k)];
    },
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "store none none local" — ds_store.
    row: 'store none none local',
    instr: ['store'],
    orderings: ['notatomic'],
    scopes: ANY_SCOPE,
    spaces: ['local'],
    build: (k) => [op(k)],
  },
  {
    // AMDGPUUsage (f5c8b0a9) Memory Model text, private: "all accesses are treated as non-atomic": an
    // atomicrmw is its plain load and store, each lowered by the non-atomic private rows.
    row: 'atomicrmw private (Memory Model text: treated as non-atomic)',
    instr: ['rmw'],
    orderings: ['notatomic'],
    scopes: ANY_SCOPE,
    spaces: ['private'],
    build: (k, _env, lookup) => {
      const ld = lookup({ ...k, instr: 'load' });
      const st = lookup({ ...k, instr: 'store' });
      return { seq: [...ld.seq, ...st.seq], rows: [...ld.rows, ...st.rows] };
    },
  },
  // ---- Monotonic Atomic --------------------------------------------------------------------
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "load atomic monotonic singlethread/wavefront global/generic"
    // — buffer/global/flat_load; "… workgroup …" — … sc0=1; "… agent …" — … sc1=1; "… system …" —
    // … sc0=1 sc1=1.
    row: 'load atomic monotonic singlethread/wavefront/workgroup/agent/system global/generic',
    instr: ['load'],
    orderings: ['monotonic'],
    scopes: ANY_SCOPE,
    spaces: ['global', 'generic'],
    build: (k) => [op(k, scopeBits(k))],
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "load atomic monotonic singlethread/wavefront/workgroup
    // local" — ds_load.
    row: 'load atomic monotonic singlethread/wavefront/workgroup local',
    instr: ['load'],
    orderings: ['monotonic'],
    scopes: ST_WF_WG,
    spaces: ['local'],
    build: (k) => [op(k)],
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "store atomic monotonic singlethread/wavefront
    // global/generic" — buffer/global/flat_store; "… workgroup …" — … sc0=1; "… agent …" — … sc1=1;
    // "… system …" — … sc0=1 sc1=1.
    row: 'store atomic monotonic singlethread/wavefront/workgroup/agent/system global/generic',
    instr: ['store'],
    orderings: ['monotonic'],
    scopes: ANY_SCOPE,
    spaces: ['global', 'generic'],
    build: (k) => [op(k, scopeBits(k))],
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "store atomic monotonic singlethread/wavefront/workgroup
    // local" — ds_store.
    row: 'store atomic monotonic singlethread/wavefront/workgroup local',
    instr: ['store'],
    orderings: ['monotonic'],
    scopes: ST_WF_WG,
    spaces: ['local'],
    build: (k) => [op(k)],
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "atomicrmw monotonic singlethread/wavefront/workgroup/agent
    // global/generic" — buffer/global/flat_atomic; "… system global/generic" — … sc1=1.
    row: 'atomicrmw monotonic singlethread/wavefront/workgroup/agent/system global/generic',
    instr: ['rmw'],
    orderings: ['monotonic'],
    scopes: ANY_SCOPE,
    spaces: ['global', 'generic'],
    build: (k) => [op(k, { sc1: sys(k) })],
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "atomicrmw monotonic singlethread/wavefront/workgroup local"
    // — ds_atomic.
    row: 'atomicrmw monotonic singlethread/wavefront/workgroup local',
    instr: ['rmw'],
    orderings: ['monotonic'],
    scopes: ST_WF_WG,
    spaces: ['local'],
    build: (k) => [op(k)],
  },
  // ---- Acquire Atomic ------------------------------------------------------------------------
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "load atomic acquire singlethread/wavefront
    // global/local/generic" — buffer/global/ds/flat_load.
    row: 'load atomic acquire singlethread/wavefront global/local/generic',
    instr: ['load'],
    orderings: ['acquire'],
    scopes: ST_WF,
    spaces: ['global', 'local', 'generic'],
    build: (k) => [op(k)],
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "load atomic acquire workgroup global" — 1. buffer/global_load
    // sc0=1; 2. s_waitcnt vmcnt(0) (not TgSplit: omit); 3. buffer_inv sc0=1 (not TgSplit: omit).
    row: 'load atomic acquire workgroup global',
    instr: ['load'],
    orderings: ['acquire'],
    scopes: WG,
    spaces: ['global'],
    build: (k, env) => [op(k, { sc0: true }), ...(tg(env) ? [wait('vmcnt'), bufferInv('sc0')] : [])],
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "load atomic acquire workgroup local" — 1. ds_load;
    // 2. s_waitcnt lgkmcnt(0) (OpenCL: omit).
    row: 'load atomic acquire workgroup local',
    instr: ['load'],
    orderings: ['acquire'],
    scopes: WG,
    spaces: ['local'],
    build: (k, env) => [op(k), ...(ocl(env) ? [] : [wait('lgkmcnt')])],
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "load atomic acquire workgroup generic" — 1. flat_load sc0=1;
    // 2. s_waitcnt lgkm/vmcnt(0) (OpenCL: omit lgkmcnt(0)); 3. buffer_inv sc0=1 (not TgSplit: omit).
    row: 'load atomic acquire workgroup generic',
    instr: ['load'],
    orderings: ['acquire'],
    scopes: WG,
    spaces: ['generic'],
    build: (k, env) => [op(k, { sc0: true }), ...lgkmOrVm(env, true), ...tgInv(env)],
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "load atomic acquire agent global" — 1. buffer/global_load
    // sc1=1; 2. s_waitcnt vmcnt(0); 3. buffer_inv sc1=1. "… system global" — 1. … sc0=1 sc1=1;
    // 2. s_waitcnt vmcnt(0); 3. buffer_inv sc0=1 sc1=1.
    row: 'load atomic acquire agent/system global',
    instr: ['load'],
    orderings: ['acquire'],
    scopes: AG_SYS,
    spaces: ['global'],
    build: (k) => [op(k, scopeBits(k)), wait('vmcnt'), ...acqInv(k)],
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "load atomic acquire agent generic" — 1. flat_load sc1=1;
    // 2. s_waitcnt vmcnt(0) & lgkmcnt(0) (TgSplit: omit lgkmcnt(0); OpenCL: omit lgkmcnt(0));
    // 3. buffer_inv sc1=1. "… system generic" — sc0=1 sc1=1 on the load and the buffer_inv.
    row: 'load atomic acquire agent/system generic',
    instr: ['load'],
    orderings: ['acquire'],
    scopes: AG_SYS,
    spaces: ['generic'],
    build: (k, env) => [op(k, scopeBits(k)), ...lgkmAndVm(env, true), ...acqInv(k)],
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "atomicrmw acquire singlethread/wavefront global/generic" —
    // buffer/global/flat_atomic; "… local" — ds_atomic.
    row: 'atomicrmw acquire singlethread/wavefront global/local/generic',
    instr: ['rmw'],
    orderings: ['acquire'],
    scopes: ST_WF,
    spaces: ['global', 'local', 'generic'],
    build: (k) => [op(k)],
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "atomicrmw acquire workgroup global" — 1. buffer/global_atomic;
    // 2. s_waitcnt vmcnt(0) (not TgSplit: omit); 3. buffer_inv sc0=1 (not TgSplit: omit).
    row: 'atomicrmw acquire workgroup global',
    instr: ['rmw'],
    orderings: ['acquire'],
    scopes: WG,
    spaces: ['global'],
    build: (k, env) => [op(k), ...(tg(env) ? [wait('vmcnt'), bufferInv('sc0')] : [])],
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "atomicrmw acquire workgroup local" — 1. ds_atomic;
    // 2. s_waitcnt lgkmcnt(0) (OpenCL: omit).
    row: 'atomicrmw acquire workgroup local',
    instr: ['rmw'],
    orderings: ['acquire'],
    scopes: WG,
    spaces: ['local'],
    build: (k, env) => [op(k), ...(ocl(env) ? [] : [wait('lgkmcnt')])],
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "atomicrmw acquire workgroup generic" — 1. flat_atomic;
    // 2. s_waitcnt lgkm/vmcnt(0) (OpenCL: omit lgkmcnt(0)); 3. buffer_inv sc0=1 (not TgSplit: omit).
    row: 'atomicrmw acquire workgroup generic',
    instr: ['rmw'],
    orderings: ['acquire'],
    scopes: WG,
    spaces: ['generic'],
    build: (k, env) => [op(k), ...lgkmOrVm(env, true), ...tgInv(env)],
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "atomicrmw acquire agent global" — 1. buffer/global_atomic;
    // 2. s_waitcnt vmcnt(0); 3. buffer_inv sc1=1. "… system global" — 1. buffer/global_atomic sc1=1;
    // 2. s_waitcnt vmcnt(0); 3. buffer_inv sc0=1 sc1=1.
    row: 'atomicrmw acquire agent/system global',
    instr: ['rmw'],
    orderings: ['acquire'],
    scopes: AG_SYS,
    spaces: ['global'],
    build: (k) => [op(k, { sc1: sys(k) }), wait('vmcnt'), ...acqInv(k)],
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "atomicrmw acquire agent generic" — 1. flat_atomic;
    // 2. s_waitcnt vmcnt(0) & lgkmcnt(0) (TgSplit: omit lgkmcnt(0); OpenCL: omit lgkmcnt(0));
    // 3. buffer_inv sc1=1. "… system generic" — 1. flat_atomic sc1=1; …; 3. buffer_inv sc0=1 sc1=1.
    row: 'atomicrmw acquire agent/system generic',
    instr: ['rmw'],
    orderings: ['acquire'],
    scopes: AG_SYS,
    spaces: ['generic'],
    build: (k, env) => [op(k, { sc1: sys(k) }), ...lgkmAndVm(env, true), ...acqInv(k)],
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "fence acquire singlethread/wavefront none" — none.
    row: 'fence acquire singlethread/wavefront none',
    instr: ['fence'],
    orderings: ['acquire'],
    scopes: ST_WF,
    spaces: ['none'],
    build: () => [],
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "fence acquire workgroup none" — 1. s_waitcnt lgkm/vmcnt(0)
    // (OpenCL omissions need a fence address space: always generated); 3. buffer_inv sc0=1 (not
    // TgSplit: omit).
    row: 'fence acquire workgroup none',
    instr: ['fence'],
    orderings: ['acquire'],
    scopes: WG,
    spaces: ['none'],
    build: (_k, env) => [...lgkmOrVm(env, false), ...tgInv(env)],
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "fence acquire agent none" — 1. s_waitcnt lgkmcnt(0) &
    // vmcnt(0) (TgSplit: omit lgkmcnt(0)); 2. buffer_inv sc1=1. "fence acquire system none" — … 2.
    // buffer_inv sc0=1 sc1=1.
    row: 'fence acquire agent/system none',
    instr: ['fence'],
    orderings: ['acquire'],
    scopes: AG_SYS,
    spaces: ['none'],
    build: (k, env) => [...lgkmAndVm(env, false), ...acqInv(k)],
  },
  // ---- Release Atomic ------------------------------------------------------------------------
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "store atomic release singlethread/wavefront global/generic"
    // — GFX942 buffer/global/flat_store; "… local" — ds_store.
    row: 'store atomic release singlethread/wavefront global/local/generic',
    instr: ['store'],
    orderings: ['release'],
    scopes: ST_WF,
    spaces: ['global', 'local', 'generic'],
    build: (k) => [op(k)],
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "store atomic release workgroup global/generic" —
    // 1. s_waitcnt lgkm/vmcnt(0) (OpenCL: omit lgkmcnt(0)); 2. GFX942 buffer/global/flat_store sc0=1.
    row: 'store atomic release workgroup global/generic',
    instr: ['store'],
    orderings: ['release'],
    scopes: WG,
    spaces: ['global', 'generic'],
    build: (k, env) => [...lgkmOrVm(env, true), op(k, { sc0: true })],
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "store atomic release workgroup local" — ds_store.
    row: 'store atomic release workgroup local',
    instr: ['store'],
    orderings: ['release'],
    scopes: WG,
    spaces: ['local'],
    build: (k) => [op(k)],
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "store atomic release agent global/generic" — 1. buffer_wbl2
    // sc1=1; 2. s_waitcnt lgkmcnt(0) & vmcnt(0) (TgSplit: omit lgkmcnt(0); "If OpenCL and address
    // space is not generic, omit lgkmcnt(0)"); 3. GFX942 buffer/global/flat_store sc1=1. "… system
    // global/generic" — 1. buffer_wbl2 sc0=1 sc1=1; 2. the same wait; 3. … sc0=1 sc1=1.
    row: 'store atomic release agent/system global/generic',
    instr: ['store'],
    orderings: ['release'],
    scopes: AG_SYS,
    spaces: ['global', 'generic'],
    build: (k, env) => [...relWb(k), ...lgkmAndVm(env, k.space !== 'generic'), op(k, scopeBits(k))],
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "atomicrmw release singlethread/wavefront global/generic" —
    // buffer/global/flat_atomic; "… local" — ds_atomic.
    row: 'atomicrmw release singlethread/wavefront global/local/generic',
    instr: ['rmw'],
    orderings: ['release'],
    scopes: ST_WF,
    spaces: ['global', 'local', 'generic'],
    build: (k) => [op(k)],
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "atomicrmw release workgroup global/generic" — 1. s_waitcnt
    // lgkm/vmcnt(0) (OpenCL: omit lgkmcnt(0)); 2. buffer/global/flat_atomic sc0=1 (transcribed as
    // written, although sc0 on an atomic means "return the pre-op value": see docs/targets/README.md).
    row: 'atomicrmw release workgroup global/generic',
    instr: ['rmw'],
    orderings: ['release'],
    scopes: WG,
    spaces: ['global', 'generic'],
    build: (k, env) => [...lgkmOrVm(env, true), op(k, { sc0: true })],
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "atomicrmw release workgroup local" — ds_atomic.
    row: 'atomicrmw release workgroup local',
    instr: ['rmw'],
    orderings: ['release'],
    scopes: WG,
    spaces: ['local'],
    build: (k) => [op(k)],
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "atomicrmw release agent global/generic" — 1. buffer_wbl2
    // sc1=1; 2. s_waitcnt lgkmcnt(0) & vmcnt(0) (TgSplit: omit lgkmcnt(0); OpenCL: omit lgkmcnt(0));
    // 3. buffer/global/flat_atomic sc1=1. "… system global/generic" — 1. buffer_wbl2 sc0=1 sc1=1;
    // 2. the same wait; 3. buffer/global/flat_atomic sc0=1 sc1=1 (sc0 as written).
    row: 'atomicrmw release agent/system global/generic',
    instr: ['rmw'],
    orderings: ['release'],
    scopes: AG_SYS,
    spaces: ['global', 'generic'],
    build: (k, env) => [...relWb(k), ...lgkmAndVm(env, true), op(k, scopeBits(k))],
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "fence release singlethread/wavefront none" — none.
    row: 'fence release singlethread/wavefront none',
    instr: ['fence'],
    orderings: ['release'],
    scopes: ST_WF,
    spaces: ['none'],
    build: () => [],
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "fence release workgroup none" — 1. s_waitcnt lgkm/vmcnt(0)
    // (OpenCL omissions need a fence address space: always generated).
    row: 'fence release workgroup none',
    instr: ['fence'],
    orderings: ['release'],
    scopes: WG,
    spaces: ['none'],
    build: (_k, env) => lgkmOrVm(env, false),
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "fence release agent none" — 1. buffer_wbl2 sc1=1 ("If
    // OpenCL and address space is local, omit": needs a fence address space); 2. s_waitcnt lgkmcnt(0) &
    // vmcnt(0) (TgSplit: omit lgkmcnt(0)). "fence release system none" — 1. buffer_wbl2 sc0=1 sc1=1;
    // 2. the same wait.
    row: 'fence release agent/system none',
    instr: ['fence'],
    orderings: ['release'],
    scopes: AG_SYS,
    spaces: ['none'],
    build: (k, env) => [...relWb(k), ...lgkmAndVm(env, false)],
  },
  // ---- Acquire-Release Atomic ----------------------------------------------------------------
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "atomicrmw acq_rel singlethread/wavefront global/generic" —
    // buffer/global/flat_atomic; "… local" — ds_atomic.
    row: 'atomicrmw acq_rel singlethread/wavefront global/local/generic',
    instr: ['rmw'],
    orderings: ['acq_rel'],
    scopes: ST_WF,
    spaces: ['global', 'local', 'generic'],
    build: (k) => [op(k)],
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "atomicrmw acq_rel workgroup global" — 1. s_waitcnt
    // lgkm/vmcnt(0) (OpenCL: omit lgkmcnt(0)); 2. buffer/global_atomic; 3. s_waitcnt vmcnt(0) (not
    // TgSplit: omit); 4. buffer_inv sc0=1 (not TgSplit: omit).
    row: 'atomicrmw acq_rel workgroup global',
    instr: ['rmw'],
    orderings: ['acq_rel'],
    scopes: WG,
    spaces: ['global'],
    build: (k, env) => [...lgkmOrVm(env, true), op(k), ...(tg(env) ? [wait('vmcnt'), bufferInv('sc0')] : [])],
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "atomicrmw acq_rel workgroup local" — 1. ds_atomic;
    // 2. s_waitcnt lgkmcnt(0) (OpenCL: omit).
    row: 'atomicrmw acq_rel workgroup local',
    instr: ['rmw'],
    orderings: ['acq_rel'],
    scopes: WG,
    spaces: ['local'],
    build: (k, env) => [op(k), ...(ocl(env) ? [] : [wait('lgkmcnt')])],
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "atomicrmw acq_rel workgroup generic" — 1. s_waitcnt
    // lgkm/vmcnt(0) (OpenCL: omit lgkmcnt(0)); 2. flat_atomic; 3. s_waitcnt lgkmcnt(0) & vmcnt(0) (not
    // TgSplit: omit vmcnt(0); OpenCL: omit lgkmcnt(0)); 3. buffer_inv sc0=1 (not TgSplit: omit).
    row: 'atomicrmw acq_rel workgroup generic',
    instr: ['rmw'],
    orderings: ['acq_rel'],
    scopes: WG,
    spaces: ['generic'],
    build: (k, env) => [
      ...lgkmOrVm(env, true),
      op(k),
      ...waitcnt(
        ['vmcnt', 'lgkmcnt'],
        [...(tg(env) ? [] : ['vmcnt' as const]), ...(ocl(env) ? ['lgkmcnt' as const] : [])],
      ),
      ...tgInv(env),
    ],
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "atomicrmw acq_rel agent global" — 1. buffer_wbl2 sc1=1;
    // 2. s_waitcnt lgkmcnt(0) & vmcnt(0) (TgSplit: omit lgkmcnt(0); OpenCL: omit lgkmcnt(0));
    // 3. buffer/global_atomic; 4. s_waitcnt vmcnt(0); 5. buffer_inv sc1=1. "… system global" —
    // buffer_wbl2 sc0=1 sc1=1; …; buffer/global_atomic sc1=1; …; buffer_inv sc0=1 sc1=1.
    row: 'atomicrmw acq_rel agent/system global',
    instr: ['rmw'],
    orderings: ['acq_rel'],
    scopes: AG_SYS,
    spaces: ['global'],
    build: (k, env) => [
      ...relWb(k),
      ...lgkmAndVm(env, true),
      op(k, { sc1: sys(k) }),
      wait('vmcnt'),
      ...acqInv(k),
    ],
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "atomicrmw acq_rel agent generic" — 1. buffer_wbl2 sc1=1;
    // 2. s_waitcnt lgkmcnt(0) & vmcnt(0) (TgSplit: omit lgkmcnt(0); OpenCL: omit lgkmcnt(0));
    // 3. flat_atomic; 4. s_waitcnt vmcnt(0) & lgkmcnt(0) (same omissions); 5. buffer_inv sc1=1.
    // "… system generic" — sc0=1 sc1=1 write-back and invalidate, flat_atomic sc1=1.
    row: 'atomicrmw acq_rel agent/system generic',
    instr: ['rmw'],
    orderings: ['acq_rel'],
    scopes: AG_SYS,
    spaces: ['generic'],
    build: (k, env) => [
      ...relWb(k),
      ...lgkmAndVm(env, true),
      op(k, { sc1: sys(k) }),
      ...lgkmAndVm(env, true),
      ...acqInv(k),
    ],
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "fence acq_rel singlethread/wavefront none" — none.
    row: 'fence acq_rel singlethread/wavefront none',
    instr: ['fence'],
    orderings: ['acq_rel'],
    scopes: ST_WF,
    spaces: ['none'],
    build: () => [],
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "fence acq_rel workgroup none" — 1. s_waitcnt lgkm/vmcnt(0)
    // (always generated: no fence address space); 2. buffer_inv sc0=1 (not TgSplit: omit).
    row: 'fence acq_rel workgroup none',
    instr: ['fence'],
    orderings: ['acq_rel'],
    scopes: WG,
    spaces: ['none'],
    build: (_k, env) => [...lgkmOrVm(env, false), ...tgInv(env)],
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "fence acq_rel agent none" — 1. buffer_wbl2 sc1=1;
    // 2. s_waitcnt lgkmcnt(0) & vmcnt(0) (TgSplit: omit lgkmcnt(0)); 3. buffer_inv sc1=1. "fence
    // acq_rel system none" — buffer_wbl2 sc0=1 sc1=1; the same wait; buffer_inv sc0=1 sc1=1.
    row: 'fence acq_rel agent/system none',
    instr: ['fence'],
    orderings: ['acq_rel'],
    scopes: AG_SYS,
    spaces: ['none'],
    build: (k, env) => [...relWb(k), ...lgkmAndVm(env, false), ...acqInv(k)],
  },
  // ---- Sequential Consistent Atomic ----------------------------------------------------------
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "load atomic seq_cst singlethread/wavefront
    // global/local/generic" — "Same as corresponding load atomic acquire, except must generate all
    // instructions even for OpenCL."
    row: 'load atomic seq_cst singlethread/wavefront global/local/generic',
    instr: ['load'],
    orderings: ['seq_cst'],
    scopes: ST_WF,
    spaces: ['global', 'local', 'generic'],
    build: (k, env, lookup) => asHsa(k, 'acquire', env, lookup),
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "load atomic seq_cst workgroup global/generic" —
    // 1. s_waitcnt lgkm/vmcnt(0); 2. same as load atomic acquire, all instructions even for OpenCL.
    row: 'load atomic seq_cst workgroup global/generic',
    instr: ['load'],
    orderings: ['seq_cst'],
    scopes: WG,
    spaces: ['global', 'generic'],
    build: (k, env, lookup) => {
      const acq = asHsa(k, 'acquire', env, lookup);
      return { seq: [...lgkmOrVm(env, false), ...acq.seq], rows: acq.rows };
    },
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "load atomic seq_cst workgroup local" — same as load atomic
    // acquire, all instructions even for OpenCL.
    row: 'load atomic seq_cst workgroup local',
    instr: ['load'],
    orderings: ['seq_cst'],
    scopes: WG,
    spaces: ['local'],
    build: (k, env, lookup) => asHsa(k, 'acquire', env, lookup),
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "load atomic seq_cst agent/system global/generic" —
    // 1. s_waitcnt lgkmcnt(0) & vmcnt(0) (TgSplit: omit lgkmcnt(0)); 2. same as load atomic acquire,
    // all instructions even for OpenCL.
    row: 'load atomic seq_cst agent/system global/generic',
    instr: ['load'],
    orderings: ['seq_cst'],
    scopes: AG_SYS,
    spaces: ['global', 'generic'],
    build: (k, env, lookup) => {
      const acq = asHsa(k, 'acquire', env, lookup);
      return { seq: [...lgkmAndVm(env, false), ...acq.seq], rows: acq.rows };
    },
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "store atomic seq_cst <any scope> global/local/generic" —
    // "Same as corresponding store atomic release, except must generate all instructions even for
    // OpenCL."
    row: 'store atomic seq_cst singlethread/wavefront/workgroup/agent/system global/local/generic',
    instr: ['store'],
    orderings: ['seq_cst'],
    scopes: ANY_SCOPE,
    spaces: ['global', 'local', 'generic'],
    build: (k, env, lookup) => asHsa(k, 'release', env, lookup),
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "atomicrmw seq_cst <any scope> global/local/generic" —
    // "Same as corresponding atomicrmw acq_rel, except must generate all instructions even for OpenCL."
    row: 'atomicrmw seq_cst singlethread/wavefront/workgroup/agent/system global/local/generic',
    instr: ['rmw'],
    orderings: ['seq_cst'],
    scopes: ANY_SCOPE,
    spaces: ['global', 'local', 'generic'],
    build: (k, env, lookup) => asHsa(k, 'acq_rel', env, lookup),
  },
  {
    // AMDGPUUsage (f5c8b0a9) GFX942 table, "fence seq_cst <any scope> none" — "Same as corresponding
    // fence acq_rel, except must generate all instructions even for OpenCL."
    row: 'fence seq_cst singlethread/wavefront/workgroup/agent/system none',
    instr: ['fence'],
    orderings: ['seq_cst'],
    scopes: ANY_SCOPE,
    spaces: ['none'],
    build: (k, env, lookup) => asHsa(k, 'acq_rel', env, lookup),
  },
];
