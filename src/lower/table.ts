/**
 * The common shape of a code-sequence table: a list of rows, each matching the spec row's first four
 * columns (instruction, ordering, sync scope, address space) and building the row's machine code
 * for the remaining conditions (volatile, nontemporal, with/without return, OpenCL, CU/WGP mode).
 */

import type { Ordering, RmwOp } from '../core/types.ts';
import type { IsaInstr, MemOp } from './isa.ts';
import type { Processor } from './targets.ts';
import type { Cell, Lang, RowScope, WaveMode } from './types.ts';

/** Instruction column of a table row (`cmpxchg` uses the `atomicrmw` rows). */
export type RowInstr = 'load' | 'store' | 'rmw' | 'fence';

/** Address-space column of a row; `none` for fences. */
export type RowSpace = 'global' | 'generic' | 'local' | 'private' | 'constant' | 'none';

/** A cell after the general rules, ready for row lookup. */
export interface RowKey {
  instr: RowInstr;
  ordering: Ordering;
  scope: RowScope;
  space: RowSpace;
  volatile: boolean;
  nontemporal: boolean;
  returns: boolean;
  /**
   * The read-modify-write a `rmw` key performs, where the IR says (`cmpxchg` for a cmpxchg); absent for
   * a table cell, which stands for every operation. The AMDGPU tables do not depend on it; the Intel
   * table names the LSC atomic by it.
   */
  atomic?: RmwOp | 'cmpxchg';
}

/** Conditions the machine-code column depends on. */
export interface RowEnv {
  proc: Processor;
  mode: WaveMode;
  lang: Lang;
  /** TgSplit execution mode (only ever true on targets with the `tgsplit` feature). */
  tgsplit: boolean;
}

/** What a row produced: its sequence and the other rows it referred to ("Same as …"). */
export interface Built {
  seq: IsaInstr[];
  rows: string[];
}

export interface TableRow {
  /** The row as the spec's columns read, e.g. `load atomic acquire agent/system global`. */
  row: string;
  instr: readonly RowInstr[];
  orderings: readonly Ordering[];
  scopes: readonly RowScope[];
  spaces: readonly RowSpace[];
  build: (k: RowKey, env: RowEnv, lookup: (k: RowKey) => Built) => IsaInstr[] | Built;
}

/** Scope lists as the tables group them. */
export const ST_WF: readonly RowScope[] = ['singlethread', 'wavefront'];
export const ST_WF_WG: readonly RowScope[] = ['singlethread', 'wavefront', 'workgroup'];
export const WG: readonly RowScope[] = ['workgroup'];
export const AG_SYS: readonly RowScope[] = ['agent', 'system'];
export const ANY_SCOPE: readonly RowScope[] = ['singlethread', 'wavefront', 'workgroup', 'agent', 'system'];
/** GFX125x groupings, which add `cluster`. */
export const CL: readonly RowScope[] = ['cluster'];
export const WG_CL: readonly RowScope[] = ['workgroup', 'cluster'];
export const ANY_SCOPE_CL: readonly RowScope[] = [
  'singlethread',
  'wavefront',
  'workgroup',
  'cluster',
  'agent',
  'system',
];

/**
 * The single ordering a cmpxchg is lowered with: acquire-ness from either ordering, release-ness from
 * success, seq_cst if either is (what LLVM's AMDGPU memory legalizer does).
 */
export function mergedCmpxchgOrdering(success: Ordering, failure: Ordering): Ordering {
  if (success === 'seq_cst' || failure === 'seq_cst') return 'seq_cst';
  const acq = success === 'acquire' || success === 'acq_rel' || failure === 'acquire';
  const rel = success === 'release' || success === 'acq_rel';
  if (acq && rel) return 'acq_rel';
  if (acq) return 'acquire';
  if (rel) return 'release';
  return success;
}

/**
 * The ordering a cell is looked up with — a cmpxchg's merged ordering, `unordered` as non-atomic —
 * and the rule rows that say so, in each vendor's words.
 */
export function lookupOrdering(
  cell: Pick<Cell, 'instr' | 'ordering' | 'failure'>,
  rules: { cmpxchg: string; unordered: string },
): { ordering: Ordering; pre: string[] } {
  const pre: string[] = [];
  let ordering = cell.ordering;
  if (cell.instr === 'cmpxchg') {
    ordering = mergedCmpxchgOrdering(cell.ordering, cell.failure);
    pre.push(rules.cmpxchg);
  }
  if (ordering === 'unordered') {
    ordering = 'notatomic';
    pre.push(rules.unordered);
  }
  return { ordering, pre };
}

/** The memory operation an instruction column performs. */
export function memOp(i: RowInstr): MemOp {
  return i === 'load' ? 'load' : i === 'store' ? 'store' : 'atomic';
}

/** Finds the row for a key and builds it, following "Same as …" references. Throws on a gap (a bug). */
export function makeLookup(table: readonly TableRow[], env: RowEnv, family: string): (k: RowKey) => Built {
  const lookup = (k: RowKey): Built => {
    const row = table.find(
      (r) =>
        r.instr.includes(k.instr) &&
        r.orderings.includes(k.ordering) &&
        r.scopes.includes(k.scope) &&
        r.spaces.includes(k.space),
    );
    if (!row) {
      throw new Error(`${family} table has no row for ${k.instr} ${k.ordering} ${k.scope} ${k.space}`);
    }
    const out = row.build(k, env, lookup);
    const cite = `${family} table, "${row.row}"`;
    if (Array.isArray(out)) return { seq: out, rows: [cite] };
    return { seq: out.seq, rows: [cite, ...out.rows] };
  };
  return lookup;
}

/**
 * "Same as corresponding <ordering> row, except must generate all instructions even for OpenCL":
 * the referenced row of `table` built with HSA rules.
 */
export function sameAsHsa(
  table: readonly TableRow[],
  family: string,
  k: RowKey,
  ordering: Ordering,
  env: RowEnv,
  lookup: (k: RowKey) => Built,
): Built {
  const key: RowKey = { ...k, ordering };
  const row = table.find(
    (r) =>
      r.instr.includes(key.instr) &&
      r.orderings.includes(ordering) &&
      r.scopes.includes(key.scope) &&
      r.spaces.includes(key.space),
  );
  if (!row) return lookup(key);
  const out = row.build(key, { ...env, lang: 'hsa' }, lookup);
  const cite = `${family} table, "${row.row}"`;
  return Array.isArray(out) ? { seq: out, rows: [cite] } : { seq: out.seq, rows: [cite, ...out.rows] };
}
