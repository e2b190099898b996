/**
 * Shapes shared by the lowering tables: the table key (`Cell`), the lowering context, results and
 * diagnostics. Messages live in one table keyed by a stable code; detection never builds prose.
 */

import type { AddressSpace, Ordering, RmwOp, Scope, Span, SyncAs, SyncScope } from '../core/types.ts';
import type { IsaInstr } from './isa.ts';
import type { Target } from './targets.ts';

/** Wavefront execution mode (GFX10+; GFX12 tables distinguish them). */
export type WaveMode = 'cu' | 'wgp';

/** Source-language rules: HSA (one happens-before for all address spaces) or OpenCL. */
export type Lang = 'hsa' | 'opencl';

/** Everything besides the instruction that decides its lowering. */
export interface LowerCtx {
  target: Target;
  /** Ignored by targets without WGP mode. */
  mode: WaveMode;
  lang: Lang;
  /**
   * TgSplit execution mode (GFX90A, GFX942: the waves of a work-group may run on different CUs).
   * Ignored by targets without the `tgsplit` feature; off when absent.
   */
  tgsplit?: boolean;
  /** GFX12.5 named-barrier objects → barrier id `1`…`16`; objects not listed get ids in order of use. */
  namedBarriers?: Readonly<Record<string, number>>;
}

/**
 * Memory instructions the code-sequence tables cover, and the av intrinsics
 * (`@llvm.amdgcn.av.global.load.b128`, `@llvm.amdgcn.av.global.store.b128`), which the tables do not
 * have and which lower by the rule of lower.ts `lowerAvCell` to a table row.
 */
export type CellInstr = 'load' | 'store' | 'rmw' | 'cmpxchg' | 'fence' | 'avload' | 'avstore';

/**
 * One cell of a code-sequence table: everything about a memory instruction that can change its
 * machine code. `space` is null for fences; `failure` only matters for cmpxchg; `returns` only for
 * rmw/cmpxchg (atomic with or without return). An av intrinsic's cell is non-atomic (`notatomic`)
 * and global, with the intrinsic's scope argument as `syncscope` (never `-one-as`).
 */
export interface Cell {
  instr: CellInstr;
  ordering: Ordering;
  failure: Ordering;
  syncscope: SyncScope;
  space: AddressSpace | null;
  volatile: boolean;
  nontemporal: boolean;
  returns: boolean;
  /**
   * A fence's `amdgpu-synchronize-as` address spaces (`FenceInstr.syncAs`); absent or empty when it
   * has no such tag.
   */
  syncAs?: readonly SyncAs[];
  /**
   * An atomicrmw's operation, when the cell comes from an IR instruction (a table cell stands for every
   * operation). Only the Intel lowering depends on it: it names the LSC atomic.
   */
  rmwOp?: RmwOp;
}

/** The instructions the tables have rows for: every `CellInstr` but the av intrinsics. */
export type TableInstr = Exclude<CellInstr, 'avload' | 'avstore'>;

/** A cell of a table's own rows (not an av intrinsic). */
export type TableCell = Cell & { instr: TableInstr };

/** The cell of an av intrinsic (lower.ts `avCell`). */
export type AvCell = Cell & { instr: 'avload' | 'avstore' };

/** Narrowing helper: the cell (or grid block) is a table's, not an av intrinsic's. */
export function isTableCell<C extends Pick<Cell, 'instr'>>(c: C): c is C & { instr: TableInstr } {
  return c.instr !== 'avload' && c.instr !== 'avstore';
}

/** Stable lowering diagnostic codes (see `LOWER_MESSAGES`). */
export type LowerCode =
  | 'LW2001'
  | 'LW2002'
  | 'LW2003'
  | 'LW2004'
  | 'LW2005'
  | 'LW2006'
  | 'LW2007'
  | 'LW2008'
  | 'LW2009'
  | 'LW2010'
  | 'LW2011'
  | 'LW2012'
  | 'LW2013'
  | 'LW2014'
  | 'LW2015'
  | 'LW2016';

/** A problem with the input to lowering (never an internal error). */
export interface LowerDiagnostic {
  code: LowerCode;
  /** `warning`: the input is valid but the tables have no row for it (the rest still lowers). */
  severity: 'error' | 'warning';
  message: string;
  hint?: string;
  span: Span | null;
  /** Spec text that justifies the diagnostic. */
  cite: string;
}

/**
 * What lowering one instruction produced: its machine code, the table rows it came from and, where the
 * input has a part the target gives no meaning (an AMDGPU-only annotation on an Intel target), warnings.
 */
export interface Lowered {
  seq: IsaInstr[];
  rows: string[];
  warnings?: LowerDiagnostic[];
}

/** Result of lowering one instruction: its machine code and the table rows it came from, or a diagnostic. */
export type LowerResult = Lowered | { diagnostic: LowerDiagnostic };

/** Narrowing helper for `LowerResult`. */
export function isLowered(r: LowerResult): r is Lowered {
  return !('diagnostic' in r);
}

/** Message templates keyed by code; `args` fill `{0}`, `{1}` … */
export const LOWER_MESSAGES: Record<LowerCode, { message: string; hint?: string }> = {
  LW2001: { message: 'unknown target "{0}"', hint: 'nearest known names: {1}' },
  LW2002: { message: '{0} cannot have {1} ordering', hint: 'use one of: {2}' },
  LW2003: {
    message: '{0} to the constant address space is not allowed',
    hint: 'the constant address space cannot change during a kernel dispatch; only plain loads are allowed',
  },
  LW2004: {
    message: 'the generic (flat) address space does not exist on {0}',
    hint: 'use a global, local or private pointer, or a GFX7+ target',
  },
  LW2005: {
    message: 'no memory-model code-sequence table for {0} ({1})',
    hint: 'tables exist for GFX6–GFX9 (gfx600…gfx903), GFX90A, GFX942/GFX950, GFX10–11 (gfx1010, gfx1030, gfx1100), GFX12 (gfx1200, gfx1201) and GFX12.5 (gfx1250, gfx1251)',
  },
  LW2006: { message: 'barrier operation "{0}" is not available on {1}', hint: '{2}' },
  LW2007: { message: 'barrier id {0} is not available to {1} on {2}', hint: '{3}' },
  LW2008: {
    message: '{0} has no lowering on {1}',
    hint: "Intel's graphics compiler has no such intrinsic, and the AMDGPU rule (the monotonic atomic access of the scope, 128 bits wide) has no Xe counterpart: Xe's monotonic atomics are LSC atomics, whose data sizes end at 64 bits",
  },
  LW2009: { message: 'option {0} does not apply to {1}', hint: '{2}' },
  LW2010: {
    message: 'cmpxchg failure ordering {0} is not allowed',
    hint: 'use monotonic, acquire or seq_cst',
  },
  LW2012: {
    message: 'the local address space cannot be used in TgSplit execution mode ({0})',
    hint: 'drop --tgsplit, or use a global pointer: in TgSplit mode no LDS is allocated',
  },
  LW2013: {
    message: 'barrier member count {0} does not fit the 7 bits m0[22:16] of {1}',
    hint: 'a named barrier counts at most 127 members',
  },
  LW2014: {
    message: '{0} has no meaning on {1}',
    hint: '{2}',
  },
  LW2015: {
    message: 'processor {0} is listed more than once (as {1})',
    hint: 'list each processor once: an alias (fiji for gfx803, bmg-g21 for bmg) is the same processor and lowers alike; --target gfx942,pvc',
  },
  LW2016: {
    message: 'the --target list "{0}" has an empty name',
    hint: 'separate target names by single commas, with none at either end: --target gfx942,pvc',
  },
  LW2011: {
    message: 'no litmus file given',
    hint: 'gpumm lower FILE --target <name>, or gpumm lower --table --target <name> for the whole table',
  },
};

/** Builds a diagnostic from its code and arguments. */
export function lowerDiag(code: LowerCode, args: string[], span: Span | null, cite: string): LowerDiagnostic {
  const fill = (s: string): string => s.replace(/\{(\d)\}/g, (_, i: string) => args[Number(i)] ?? '');
  const m = LOWER_MESSAGES[code];
  const severity = code === 'LW2008' || code === 'LW2014' ? 'warning' : 'error';
  const d: LowerDiagnostic = { code, severity, message: fill(m.message), span, cite };
  if (m.hint !== undefined) d.hint = fill(m.hint);
  return d;
}

/**
 * The scope a table row is looked up with, after the general rules (cluster→agent on targets without
 * workgroup clusters, LDS→workgroup). Only the GFX125x table has `cluster` rows.
 */
export type RowScope = Scope;
