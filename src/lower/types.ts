/**
 * Shapes shared by the lowering tables: the table key (`Cell`), the lowering context, results and
 * diagnostics. Messages live in one table keyed by a stable code; detection never builds prose.
 */

import { type Diagnostic, type DiagnosticCode, diag } from '../core/diagnostics.ts';
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

/** Stable lowering diagnostic codes (their wording: src/core/diagnostics.ts). */
export type LowerCode = Extract<DiagnosticCode, `LW${string}`>;

/**
 * A problem with the input to lowering (never an internal error), citing the spec text that justifies
 * it; `warning`: the input is valid but the tables have no row for it (the rest still lowers).
 */
export type LowerDiagnostic = Diagnostic & { code: LowerCode; cite: string };

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

/** Builds a lowering diagnostic from its code and (positional) arguments. */
export function lowerDiag(code: LowerCode, args: string[], span: Span | null, cite: string): LowerDiagnostic {
  return { ...diag(code, span, Object.fromEntries(args.map((v, i) => [String(i), v]))), code, cite };
}

/**
 * The scope a table row is looked up with, after the general rules (cluster→agent on targets without
 * workgroup clusters, LDS→workgroup). Only the GFX125x table has `cluster` rows.
 */
export type RowScope = Scope;
