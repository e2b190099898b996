/**
 * Lowering entry points: one IR instruction (or one table cell) to its machine code for a target,
 * with the spec rows it came from, or a diagnostic. Pure functions; no Node APIs.
 *
 * The general rules that apply before a table row is looked up come from the text around the
 * tables (spec: amdgpu-usage-2018.rst "Memory Model"; LLVM LangRef for which orderings an
 * instruction may carry). Each rule adds its own `rule:` entry to `rows`.
 */

import type { Instr, Ordering, Scope, Span, SyncAs, Test } from '../core/types.ts';
import { lowerBarrier } from './barriers.ts';
import { GFX6_9_TABLE } from './gfx6-9.ts';
import { GFX10_11_TABLE } from './gfx10-11.ts';
import { GFX12_TABLE } from './gfx12.ts';
import { GFX90A_TABLE } from './gfx90a.ts';
import { GFX942_TABLE } from './gfx942.ts';
import { GFX1250_TABLE } from './gfx1250.ts';
import { lowerXeCell, R_XE_WAVE_BARRIER, XE_TABLE, XE_TABLE_NAME, xeWarnings } from './intel.ts';
import type { Counter, IsaInstr, WideSuffix } from './isa.ts';
import type { RowEnv, RowKey, RowSpace, TableRow } from './table.ts';
import { lookupOrdering, makeLookup } from './table.ts';
import type { TableFamily } from './targets.ts';
import type { AvCell, Cell, LowerCtx, LowerResult, RowScope } from './types.ts';
import { isTableCell, lowerDiag } from './types.ts';

/** Orderings LLVM IR allows per instruction (LangRef: load, store, atomicrmw, cmpxchg, fence). */
export const VALID_ORDERINGS: Record<Cell['instr'], readonly Ordering[]> = {
  load: ['notatomic', 'unordered', 'monotonic', 'acquire', 'seq_cst'],
  store: ['notatomic', 'unordered', 'monotonic', 'release', 'seq_cst'],
  rmw: ['monotonic', 'acquire', 'release', 'acq_rel', 'seq_cst'],
  cmpxchg: ['monotonic', 'acquire', 'release', 'acq_rel', 'seq_cst'],
  fence: ['acquire', 'release', 'acq_rel', 'seq_cst'],
  // amdgpu-memory-model.rst: the intrinsics perform "a non-atomic" store-available / load-visible.
  avload: ['notatomic'],
  avstore: ['notatomic'],
};

/** cmpxchg failure orderings LangRef allows. */
export const VALID_FAILURE: readonly Ordering[] = ['monotonic', 'acquire', 'seq_cst'];

/** The IR names of the av intrinsics (amdgpu-memory-model.rst, "store-available", "load-visible"). */
export const AV_INTRINSIC = {
  avload: '@llvm.amdgcn.av.global.load.b128',
  avstore: '@llvm.amdgcn.av.global.store.b128',
} as const;

const INSTR_TEXT: Record<Cell['instr'], string> = {
  load: 'load',
  store: 'store',
  rmw: 'atomicrmw',
  cmpxchg: 'cmpxchg',
  fence: 'fence',
  avload: AV_INTRINSIC.avload,
  avstore: AV_INTRINSIC.avstore,
};

const R_UNORDERED = 'rule: unordered load/store is "Same as non-atomic" (table rows "… atomic unordered")';
const R_PRIVATE = 'rule: private accesses "are treated as non-atomic" (Memory Model text)';
const R_CONSTANT = 'rule: constant accesses "are treated as non-atomic" (Memory Model text)';
const R_LDS_SCOPE = 'rule: LDS scope wider than workgroup "is treated as work-group" (Memory Model text)';
const R_CLUSTER = 'rule: cluster scope is agent scope on targets without workgroup clusters';
const R_SCRATCH_FLAT =
  'rule: scratch atomics of 32 bits or less are "converted into an atomic in the generic (flat) address space" (Memory Model GFX125x text)';
const R_WAVE_BARRIER =
  'rule: llvm.amdgcn.wave.barrier accesses no memory and has no machine instruction (LLVM IntrinsicsAMDGPU.td: IntrNoMem)';
const R_SYNC_AS =
  'rule: amdgpu-synchronize-as names the only address spaces the fence orders (LLVM SIMemoryLegalizer.cpp, getAtomicFenceInfo)';
const R_CMPXCHG = 'rule: cmpxchg uses the atomicrmw rows with its merged success/failure ordering';

export { mergedCmpxchgOrdering } from './table.ts';

/** The table cell an IR memory instruction occupies; null for instructions outside the tables. */
export function cellOf(instr: Instr): Cell | null {
  switch (instr.kind) {
    case 'load':
    case 'store':
    case 'rmw':
      return {
        instr: instr.kind,
        ordering: instr.ordering,
        failure: 'monotonic',
        syncscope: instr.syncscope,
        space: instr.ptr.space,
        volatile: instr.volatile,
        nontemporal: instr.nontemporal,
        returns: instr.kind === 'load' || (instr.kind === 'rmw' && instr.dst !== null),
        ...(instr.kind === 'rmw' ? { rmwOp: instr.op } : {}),
      };
    case 'cmpxchg':
      return {
        instr: 'cmpxchg',
        ordering: instr.success,
        failure: instr.failure,
        syncscope: instr.syncscope,
        space: instr.ptr.space,
        volatile: instr.volatile,
        nontemporal: instr.nontemporal,
        returns: instr.dst !== null,
      };
    case 'fence':
      return {
        instr: 'fence',
        ordering: instr.ordering,
        failure: 'monotonic',
        syncscope: instr.syncscope,
        space: null,
        volatile: false,
        nontemporal: false,
        returns: false,
        ...(instr.syncAs.length > 0 ? { syncAs: instr.syncAs } : {}),
      };
    default:
      return null;
  }
}

/** The cell of an av intrinsic: non-atomic, global, its scope argument as the syncscope. */
export function avCell(instr: 'avload' | 'avstore', scope: Scope): AvCell {
  return {
    instr,
    ordering: 'notatomic',
    failure: 'monotonic',
    syncscope: { scope, oneAs: false },
    space: 'global',
    volatile: false,
    nontemporal: false,
    returns: instr === 'avload',
  };
}

/** The code-sequence table of a family and the name its rows are cited with. */
export const FAMILY_TABLES: Record<TableFamily, { table: readonly TableRow[]; name: string }> = {
  'gfx6-9': { table: GFX6_9_TABLE, name: 'GFX6-9' },
  gfx90a: { table: GFX90A_TABLE, name: 'GFX90A' },
  gfx942: { table: GFX942_TABLE, name: 'GFX942' },
  'gfx10-11': { table: GFX10_11_TABLE, name: 'GFX10-11' },
  gfx12: { table: GFX12_TABLE, name: 'GFX12' },
  gfx1250: { table: GFX1250_TABLE, name: 'GFX125x' },
  xe: { table: XE_TABLE, name: XE_TABLE_NAME },
};

/** Lowers one table cell (see `Cell`) for the context's target. */
export function lowerCell(cell: Cell, ctx: LowerCtx, span: Span | null = null): LowerResult {
  const proc = ctx.target.processor;
  const what = INSTR_TEXT[cell.instr];
  const valid = VALID_ORDERINGS[cell.instr];
  if (!valid.includes(cell.ordering)) {
    return {
      diagnostic: lowerDiag(
        'LW2002',
        [what, cell.ordering, valid.join(', ')],
        span,
        `LLVM LangRef, "${what}" instruction orderings`,
      ),
    };
  }
  if (cell.instr === 'cmpxchg' && !VALID_FAILURE.includes(cell.failure)) {
    return {
      diagnostic: lowerDiag('LW2010', [cell.failure], span, 'LLVM LangRef, "cmpxchg" failure ordering'),
    };
  }
  if (proc.table === null) {
    return {
      diagnostic: lowerDiag('LW2005', [ctx.target.name, proc.generation], span, 'docs/targets/README.md'),
    };
  }
  if (cell.space === 'generic' && !proc.features.flat) {
    return {
      diagnostic: lowerDiag(
        'LW2004',
        [ctx.target.name],
        span,
        'amdgpu-usage-2018.rst "Memory Model": flat instructions are GFX7-9 ("for GFX7-9 flat_load/store/atomic")',
      ),
    };
  }
  if (cell.space === 'constant' && cell.instr !== 'load') {
    return {
      diagnostic: lowerDiag(
        'LW2003',
        [cell.instr === 'store' ? 'a store' : `${/^[aeiou]/.test(what) ? 'an' : 'a'} ${what}`],
        span,
        'amdgpu-usage-2018.rst "Memory Model": constant address space — "it is not legal to perform stores"',
      ),
    };
  }

  if (!isTableCell(cell)) return lowerAvCell(cell, ctx, span);
  // Intel Xe: IGC's rules, not AMDGPU's (src/lower/intel.ts).
  if (proc.vendor === 'Intel') return lowerXeCell(cell, ctx);

  const instr: RowKey['instr'] = cell.instr === 'cmpxchg' ? 'rmw' : cell.instr;
  const looked = lookupOrdering(cell, { cmpxchg: R_CMPXCHG, unordered: R_UNORDERED });
  const pre = looked.pre;
  let ordering = looked.ordering;
  let space = cell.space;
  if (space === 'private' && ordering !== 'notatomic') {
    if (proc.table === 'gfx1250') {
      // Every cell is 32 bits wide; wider scratch atomics are an error on GFX125x, but none is tabulated.
      space = 'generic';
      pre.push(R_SCRATCH_FLAT);
    } else {
      ordering = 'notatomic';
      pre.push(R_PRIVATE);
    }
  }
  if (cell.space === 'constant' && ordering !== 'notatomic') {
    ordering = 'notatomic';
    pre.push(R_CONSTANT);
  }
  let scope: Scope = cell.syncscope.scope;
  if (scope === 'cluster' && !proc.features.clusters) {
    scope = 'agent';
    if (ordering !== 'notatomic') pre.push(R_CLUSTER);
  }
  const wide = scope === 'cluster' || scope === 'agent' || scope === 'system';
  if (space === 'local' && wide && ordering !== 'notatomic') {
    // The GFX6–9 seq_cst load row lists local under agent/system explicitly; it handles LDS itself.
    const explicitRow = proc.table === 'gfx6-9' && instr === 'load' && ordering === 'seq_cst';
    if (!explicitRow) {
      scope = 'workgroup';
      pre.push(R_LDS_SCOPE);
    }
  }
  if (ordering === 'notatomic') scope = 'system';
  const tgsplit = proc.features.tgsplit && ctx.tgsplit === true;
  if (tgsplit && cell.space === 'local' && ordering !== 'notatomic') {
    return {
      diagnostic: lowerDiag(
        'LW2012',
        [ctx.target.name],
        span,
        `AMDGPUUsage (f5c8b0a9) ${FAMILY_TABLES[proc.table].name} table, atomic local rows: "If TgSplit execution mode, local address space cannot be used."`,
      ),
    };
  }

  const key: RowKey = {
    instr,
    ordering,
    scope: scope as RowScope,
    space: (space ?? 'none') as RowSpace,
    volatile: cell.volatile,
    nontemporal: cell.nontemporal,
    returns: cell.returns,
  };
  const env: RowEnv = { proc, mode: proc.features.wgpMode ? ctx.mode : 'cu', lang: ctx.lang, tgsplit };
  const { table, name } = FAMILY_TABLES[proc.table];
  const built = makeLookup(table, env, name)(key);
  if (cell.instr === 'fence' && cell.syncAs !== undefined && cell.syncAs.length > 0) {
    const seq = synchronizeAs(built.seq, cell.syncAs, cell.syncscope.oneAs, tgsplit, proc.table);
    return { seq, rows: [...built.rows, ...pre, R_SYNC_AS] };
  }
  return { seq: built.seq, rows: [...built.rows, ...pre] };
}

const R_AV_LOAD =
  'rule: an av load is the monotonic atomic load of its scope, 128 bits wide ("An atomic operation that results in a read operation is a load-visible operation with scope syncscope", amdgpu-memory-model.rst)';
const R_AV_STORE =
  'rule: an av store is the monotonic atomic store of its scope, 128 bits wide ("An atomic operation that results in a store operation is a store-available operation with scope syncscope", amdgpu-memory-model.rst)';
const R_AV_XCNT =
  'rule: an av store has no s_wait_xcnt: it guards "atomicity during a xnack replay" (Memory Model GFX125x text), and the av store is non-atomic';

/**
 * The data-size suffix of a 128-bit access on a processor: `dwordx4` up to GFX10, `b128` from GFX11
 * (isa.ts `WideSuffix`).
 */
export function wideSuffix(proc: LowerCtx['target']['processor']): WideSuffix {
  return proc.generation === 'GFX11' || proc.generation === 'GFX12' || proc.generation === 'GFX12.5'
    ? 'b128'
    : 'dwordx4';
}

/**
 * An av intrinsic. No code-sequence table has a row for it and llc-22 has no lowering of it, so the
 * meaning the model gives it decides: an atomic monotonic load (store) at scope S is itself a
 * load-visible (store-available) at S, and the intrinsic is that visibility (availability) without
 * single-copy atomicity, on 128 bits. The spec's note says what carries it in the machine code: "the
 * store may be completed at a nearer cache than the one required for that scope. A corresponding
 * load-visible that does not access the same near cache will fail to observe this store" — the cache
 * policy (scope operand, `glc`/`dlc`, `sc` bits) of an access at scope S, which is exactly what the
 * monotonic row of S gives its one memory instruction. So the intrinsic is that row on global memory
 * (after the general rules: cluster is agent scope without clusters), its access widened to 128
 * bits; the GFX12.5 `s_wait_xcnt` the atomic row adds for atomicity is left out. Intel Xe: LW2008.
 */
function lowerAvCell(cell: Cell, ctx: LowerCtx, span: Span | null): LowerResult {
  const proc = ctx.target.processor;
  const load = cell.instr === 'avload';
  const name = load ? AV_INTRINSIC.avload : AV_INTRINSIC.avstore;
  if (proc.vendor === 'Intel')
    return {
      diagnostic: lowerDiag(
        'LW2008',
        [name, ctx.target.name],
        span,
        'amdgpu-memory-model.rst "store-available", "load-visible" (an AMDGPU intrinsic); Intel vISA LSC_UNTYPED.md, DataSize (d8 … d64)',
      ),
    };
  const row = lowerCell(
    {
      ...cell,
      instr: load ? 'load' : 'store',
      ordering: 'monotonic',
      syncscope: { scope: cell.syncscope.scope, oneAs: false },
      space: 'global',
      volatile: false,
      nontemporal: false,
      returns: load,
    },
    ctx,
    span,
  );
  if ('diagnostic' in row) return row;
  const wide = wideSuffix(proc);
  const seq: IsaInstr[] = [];
  let xcnt = false;
  for (const i of row.seq) {
    if (i.kind === 'wait' && i.counters.every((c) => c === 'xcnt')) xcnt = true;
    else seq.push(i.kind === 'vmem' ? { ...i, wide } : i);
  }
  const [first = '', ...rest] = row.rows;
  return {
    seq,
    rows: [`${first}, as ${name}`, ...rest, load ? R_AV_LOAD : R_AV_STORE, ...(xcnt ? [R_AV_XCNT] : [])],
  };
}

/** The counter that LDS operations decrement: `lgkmcnt` up to GFX11, `dscnt` from GFX12. */
function ldsCounter(table: TableFamily): Counter {
  return table === 'gfx12' || table === 'gfx1250' ? 'dscnt' : 'lgkmcnt';
}

/**
 * A fence with `amdgpu-synchronize-as` tags. No code-sequence table has a row for it (the documents'
 * fence rows carry no address space: "since LLVM currently has no address space on the fence need
 * to conservatively always generate"), so the row's sequence is narrowed as LLVM's memory legalizer
 * narrows it (SIMemoryLegalizer.cpp, getAtomicFenceInfo: the tags replace the ordering address
 * spaces; the scope's cross-address-space ordering stays): the LDS counter wait stays only when the
 * tags name `local`, the fence is not `-one-as` (LDS is then ordered only against itself, which needs
 * no wait) and LDS exists (not in TgSplit mode, where no LDS is allocated); every other wait counter,
 * invalidate and write-back stays only when the tags name `global`.
 */
function synchronizeAs(
  seq: readonly IsaInstr[],
  syncAs: readonly SyncAs[],
  oneAs: boolean,
  tgsplit: boolean,
  table: TableFamily,
): IsaInstr[] {
  const lds = ldsCounter(table);
  const keepLds = syncAs.includes('local') && !oneAs && !tgsplit;
  const keepGlobal = syncAs.includes('global');
  const out: IsaInstr[] = [];
  for (const i of seq) {
    if (i.kind === 'wait') {
      const counters = i.counters.filter((c) => (c === lds ? keepLds : keepGlobal));
      if (counters.length > 0) out.push({ ...i, counters });
    } else if (i.kind === 'inv' || i.kind === 'wb') {
      if (keepGlobal) out.push(i);
    } else out.push(i);
  }
  return out;
}

/** Lowers one IR instruction. Non-memory instructions lower to nothing. */
export function lowerInstr(instr: Instr, ctx: LowerCtx): LowerResult {
  switch (instr.kind) {
    case 'barrier':
      return lowerBarrier(instr, ctx);
    case 'avload':
    case 'avstore':
      return lowerCell(avCell(instr.kind, instr.scope), ctx, instr.span);
    case 'bin':
    case 'icmp':
    case 'select':
    case 'extract':
      return { seq: [], rows: [] };
    case 'wavebarrier':
      // LLVM emits no instruction for llvm.amdgcn.wave.barrier (its assembly shows `; wave barrier`).
      return {
        seq: [],
        rows: [ctx.target.processor.vendor === 'Intel' ? R_XE_WAVE_BARRIER : R_WAVE_BARRIER],
      };
    default: {
      const cell = cellOf(instr);
      if (cell === null) throw new Error(`no cell for ${instr.kind}`);
      const r = lowerCell(cell, ctx, instr.span);
      if (ctx.target.processor.vendor !== 'Intel' || 'diagnostic' in r) return r;
      const warnings = xeWarnings(instr, ctx);
      return warnings.length > 0 ? { ...r, warnings } : r;
    }
  }
}

/** One lowered instruction of a thread. */
export interface LoweredInstr {
  instr: Instr;
  result: LowerResult;
}

/** A thread's lowering: each IR instruction followed by its machine code. */
export interface LoweredThread {
  thread: string;
  instrs: LoweredInstr[];
}

/**
 * Lowers every thread of a test. Named-barrier objects are numbered 1, 2, … in declaration order
 * unless `ctx.namedBarriers` says otherwise.
 */
export function lowerTest(test: Test, ctx: LowerCtx): LoweredThread[] {
  const named: Record<string, number> = {};
  let next = 1;
  for (const loc of test.locations) if (loc.barrier) named[loc.name] = next++;
  const full: LowerCtx = { ...ctx, namedBarriers: { ...named, ...(ctx.namedBarriers ?? {}) } };
  return test.threads.map((t) => ({
    thread: t.name,
    instrs: t.body.map((instr) => ({ instr, result: lowerInstr(instr, full) })),
  }));
}
