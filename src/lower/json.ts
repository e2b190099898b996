/**
 * JSON forms of lowering output, with their zod schemas: the ISA instructions, lowering diagnostics,
 * and the whole table of a target (`gpumm lower --table --json`). The CLI parses what it prints
 * with these schemas, and tests parse the printed text with them. No Node APIs here.
 */

import * as z from 'zod';
import { ADDRESS_SPACES, ORDERINGS, SCOPES, SYNC_AS } from '../core/types.ts';
import { type GridBlockKey, type GridColumn, gridBlocks } from './grid.ts';
import { CACHE_SCOPES, COUNTERS, formatSeq } from './isa.ts';
import { LSC_ATOMIC_OPS, LSC_FENCE_OPS, LSC_SCOPES, LSC_SFIDS, XE_GENERIC_SPACES } from './isa-xe.ts';
import type { Target } from './targets.ts';
import { isTableCell, type LowerResult } from './types.ts';

const Counter = z.enum(COUNTERS);
const MemOp = z.enum(['load', 'store', 'atomic']);
const CacheScope = z.enum(CACHE_SCOPES);
const ScBits = z.enum(['sc0', 'sc1', 'sc0 sc1']);

const LscInstrSchema = z.object({
  kind: z.literal('lsc'),
  op: MemOp,
  sfid: z.enum(['ugm', 'slm']),
  atomic: z.enum(LSC_ATOMIC_OPS).nullable(),
  returns: z.boolean(),
});
const LscFenceInstrSchema = z.object({
  kind: z.literal('lsc_fence'),
  sfid: z.enum(LSC_SFIDS),
  op: z.enum(LSC_FENCE_OPS),
  scope: z.enum(LSC_SCOPES),
});

/** One machine instruction (`IsaInstr` in isa.ts; the Intel Xe kinds in isa-xe.ts). */
export const IsaInstrSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('vmem'),
    op: MemOp,
    enc: z.enum(['buffer', 'global', 'flat', 'scratch']),
    /** The data-size suffix of a 128-bit access (the av intrinsics); null: a table cell's 32 bits. */
    wide: z.enum(['dwordx4', 'b128']).nullable(),
    returns: z.boolean(),
    glc: z.boolean(),
    slc: z.boolean(),
    dlc: z.boolean(),
    sc0: z.boolean(),
    sc1: z.boolean(),
    nt: z.boolean(),
    th: z.enum(['TH_LOAD_NT', 'TH_STORE_NT', 'TH_ATOMIC_RETURN']).nullable(),
    scope: CacheScope.nullable(),
  }),
  z.object({ kind: z.literal('lds'), op: MemOp, returns: z.boolean() }),
  z.object({ kind: z.literal('wait'), counters: z.array(Counter) }),
  z.object({
    kind: z.literal('inv'),
    mnemonic: z.enum([
      'buffer_wbinvl1_vol',
      'buffer_invl2',
      'buffer_inv',
      'buffer_gl0_inv',
      'buffer_gl1_inv',
      'global_inv',
    ]),
    scope: CacheScope.nullable(),
    sc: ScBits.nullable(),
  }),
  z.object({
    kind: z.literal('wb'),
    mnemonic: z.enum(['global_wb', 'buffer_wbl2']),
    scope: CacheScope.nullable(),
    sc: ScBits.nullable(),
  }),
  z.object({
    kind: z.literal('barrier'),
    mnemonic: z.enum([
      's_barrier',
      's_barrier_signal',
      's_barrier_signal_isfirst',
      's_barrier_wait',
      's_barrier_init',
      's_barrier_join',
      's_barrier_leave',
    ]),
    id: z.number().int().nullable(),
    viaM0: z.boolean().optional(),
  }),
  z.object({ kind: z.literal('setm0'), value: z.number().int() }),
  LscInstrSchema,
  LscFenceInstrSchema,
  z.object({
    kind: z.literal('xe_barrier'),
    mnemonic: z.enum(['barrier', 'sbarrier.signal', 'sbarrier.wait']),
  }),
  z.object({
    kind: z.literal('xe_generic'),
    branches: z.array(
      z.object({
        spaces: z.array(z.enum(XE_GENERIC_SPACES)),
        seq: z.array(z.discriminatedUnion('kind', [LscInstrSchema, LscFenceInstrSchema])),
      }),
    ),
  }),
]);

const SpanSchema = z.object({
  file: z.string(),
  offset: z.number().int(),
  line: z.number().int(),
  col: z.number().int(),
  len: z.number().int(),
});

/** A lowering diagnostic (`LowerDiagnostic` in types.ts). */
export const LowerDiagnosticSchema = z.object({
  code: z.string().regex(/^LW\d{4}$/),
  severity: z.enum(['error', 'warning']),
  message: z.string(),
  hint: z.string().optional(),
  // Absent when the diagnostic is about no place in the test; null in files of gpumm before 2026-11.
  span: SpanSchema.nullable().optional(),
  cite: z.string(),
});

/**
 * A lowered instruction: its machine code (`isa`, spelled in `asm`), spec rows and any warnings (an
 * annotation the target gives no meaning), or a diagnostic.
 */
export const LoweredSchema = z.union([
  z.object({
    isa: z.array(IsaInstrSchema),
    asm: z.array(z.string()),
    rows: z.array(z.string()),
    warnings: z.array(LowerDiagnosticSchema).optional(),
  }),
  z.object({ diagnostic: LowerDiagnosticSchema }),
]);

/** The JSON form of a lowering result. */
export function loweredJsonOf(r: LowerResult): z.infer<typeof LoweredSchema> {
  if ('diagnostic' in r) return { diagnostic: r.diagnostic };
  const out = { isa: r.seq, asm: formatSeq(r.seq).flatMap((l) => l.split('; ')), rows: r.rows };
  return r.warnings !== undefined && r.warnings.length > 0 ? { ...out, warnings: r.warnings } : out;
}

/** A run's settings: wavefront mode and TgSplit mode (null where the target has none), language. */
const RunSettingsSchema = z.object({
  mode: z.enum(['cu', 'wgp']).nullable(),
  tgsplit: z.boolean().nullable(),
  lang: z.enum(['hsa', 'opencl']),
});

/**
 * `gpumm lower --table --json`: the whole table of a target, folded as the text grid is. A cell
 * whose `-one-as` twin lowers identically has `oneAs: null`; one whose volatile/nontemporal variants
 * lower identically has `volatile: null, nontemporal: null`. Plain (non-atomic) cells have
 * `syncscope: null`; the av intrinsics (`avload`, `avstore`: non-atomic) carry their scope argument
 * there. `results[i]` is the cell lowered in `columns[i]`.
 */
export const GridJsonSchema = z.object({
  target: z.string(),
  processor: z.string(),
  generation: z.string(),
  table: z.string().nullable(),
  columns: z.array(z.object({ label: z.string() }).extend(RunSettingsSchema.shape)),
  cells: z.array(
    z.object({
      key: z.string(),
      instr: z.enum(['load', 'store', 'rmw', 'cmpxchg', 'fence', 'avload', 'avstore']),
      returns: z.boolean(),
      ordering: z.enum(ORDERINGS),
      failure: z.enum(ORDERINGS).nullable(),
      syncscope: z.object({ scope: z.enum(SCOPES), oneAs: z.boolean().nullable() }).nullable(),
      space: z.enum(ADDRESS_SPACES).nullable(),
      volatile: z.boolean().nullable(),
      nontemporal: z.boolean().nullable(),
      /** A fence's `amdgpu-synchronize-as` address spaces (empty: no tag). */
      syncAs: z.array(z.enum(SYNC_AS)),
      results: z.array(LoweredSchema),
    }),
  ),
  rejected: z.array(
    z.object({
      key: z.string(),
      instr: z.enum(['load', 'store', 'rmw', 'cmpxchg', 'fence', 'avload', 'avstore']),
      ordering: z.enum(ORDERINGS),
      failure: z.enum(ORDERINGS).nullable(),
      diagnostic: LowerDiagnosticSchema,
    }),
  ),
});

export type GridJson = z.infer<typeof GridJsonSchema>;

/** The fields of `GridJson` that say which target the table is for. */
export function gridHead(target: Target): Pick<GridJson, 'target' | 'processor' | 'generation' | 'table'> {
  return {
    target: target.name,
    processor: target.processor.name,
    generation: target.processor.generation,
    table: target.processor.table,
  };
}

/** The JSON form of a target's columns (`gridColumns`): a mode the target does not have is null. */
export function gridColumnsJson(target: Target, columns: readonly GridColumn[]): GridJson['columns'] {
  const f = target.processor.features;
  return columns.map((c) => ({
    label: c.label,
    mode: f.wgpMode ? c.mode : null,
    tgsplit: f.tgsplit ? c.tgsplit : null,
    lang: c.lang,
  }));
}

/** One cell of `GridJson` without its results: its key and the fields that spell out what the key says. */
export type GridCellFields = Omit<GridJson['cells'][number], 'results'>;

/** The JSON fields of a block of the grid (a cell, folded or not), without its results. */
export function gridCellFields(b: GridBlockKey): GridCellFields {
  return {
    key: b.key,
    instr: b.instr,
    returns: b.returns,
    ordering: b.ordering,
    failure: b.instr === 'cmpxchg' ? b.failure : null,
    syncscope: b.ordering === 'notatomic' && isTableCell(b) ? null : { scope: b.scope, oneAs: b.oneAs },
    space: b.space,
    volatile: b.volatile,
    nontemporal: b.nontemporal,
    syncAs: [...b.syncAs],
  };
}

/** The JSON form of a target's whole table (validated against `GridJsonSchema` by the caller). */
export function gridJson(target: Target): GridJson {
  const { columns, blocks, rejected } = gridBlocks(target);
  return {
    ...gridHead(target),
    columns: gridColumnsJson(target, columns),
    cells: blocks.map((b) => ({ ...gridCellFields(b), results: b.results.map(loweredJsonOf) })),
    rejected: rejected.flatMap((r) =>
      'diagnostic' in r.result
        ? [
            {
              key: r.key,
              instr: r.instr,
              ordering: r.ordering,
              failure: r.instr === 'cmpxchg' ? r.failure : null,
              diagnostic: r.result.diagnostic,
            },
          ]
        : [],
    ),
  };
}

/**
 * What `gpumm lower --table --json` prints: the table checked against its schema and indented, one
 * field a line, so that `gpumm check --table` can read it back edited by hand (and a diff shows the edit).
 */
export function gridJsonText(target: Target): string {
  return `${JSON.stringify(GridJsonSchema.parse(gridJson(target)), null, 2)}\n`;
}

/** `gpumm lower FILE --json` (with `llc` under `--compare-llc`): each thread's instructions, lowered. */
export const LowerJsonSchema = z.object({
  target: z.string(),
  processor: z.string(),
  mode: z.enum(['cu', 'wgp']).nullable(),
  tgsplit: z.boolean().nullable(),
  lang: z.enum(['hsa', 'opencl']),
  threads: z.array(
    z.object({
      thread: z.string(),
      instrs: z.array(z.object({ ir: z.string(), span: SpanSchema }).and(LoweredSchema)),
    }),
  ),
  llc: z
    .array(
      z.object({
        thread: z.string(),
        ir: z.string(),
        doc: z.array(z.string()),
        llc: z.array(z.string()).nullable(),
        note: z.string().nullable(),
        same: z.boolean(),
        /** Ids of src/lower/causes.ts when llc-22 differs. */
        causes: z.array(z.string()),
      }),
    )
    .optional(),
});

export type LowerJson = z.infer<typeof LowerJsonSchema>;

/**
 * `gpumm lower FILE --target A,B,… --json`: one test lowered for several targets side by side.
 * `results[i]` of an instruction is its lowering on `targets[i]`.
 */
export const SideBySideJsonSchema = z.object({
  targets: z.array(
    z
      .object({
        target: z.string(),
        processor: z.string(),
        vendor: z.enum(['AMD', 'Intel']),
        generation: z.string(),
      })
      .extend(RunSettingsSchema.shape),
  ),
  threads: z.array(
    z.object({
      thread: z.string(),
      instrs: z.array(z.object({ ir: z.string(), span: SpanSchema, results: z.array(LoweredSchema) })),
    }),
  ),
});

export type SideBySideJson = z.infer<typeof SideBySideJsonSchema>;
