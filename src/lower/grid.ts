/**
 * The full cross-product of a target's table — instruction × ordering × syncscope (with `-one-as`)
 * × address space × flags × mode × language — and its text form, which is both the golden baseline
 * and what `gpumm lower --table` prints. Cells whose machine code does not depend on a dimension are
 * folded (`*` for volatile/nontemporal, `scope[-one-as]`), so the grid reads like the spec table.
 */

import {
  ADDRESS_SPACES,
  type AddressSpace,
  ORDERINGS,
  type Ordering,
  SCOPES,
  type Scope,
  type SyncAs,
} from '../core/types.ts';
import { formatSeq } from './isa.ts';
import { AV_INTRINSIC, avCell, lowerCell, VALID_FAILURE, VALID_ORDERINGS } from './lower.ts';
import type { Target } from './targets.ts';
import type { AvCell, Cell, Lang, LowerCtx, LowerResult, WaveMode } from './types.ts';

/** One column of the grid: a wavefront mode (or TgSplit execution mode) and a language. */
export interface GridColumn {
  mode: WaveMode;
  tgsplit: boolean;
  lang: Lang;
  label: string;
}

/**
 * The columns a target's table distinguishes: CU/WGP only where the target has WGP mode, TgSplit on
 * and off where the target has TgSplit mode.
 */
export function gridColumns(target: Target): GridColumn[] {
  // Intel Xe: one column. Its lowering follows the OpenCL/SPIR-V built-ins whatever the language, and
  // it has no wavefront or TgSplit modes.
  if (target.processor.vendor === 'Intel')
    return [{ mode: 'cu', tgsplit: false, lang: 'opencl', label: 'opencl' }];
  const f = target.processor.features;
  const modes: { mode: WaveMode; tgsplit: boolean; label: string | null }[] = f.wgpMode
    ? [
        { mode: 'cu', tgsplit: false, label: 'cu' },
        { mode: 'wgp', tgsplit: false, label: 'wgp' },
      ]
    : f.tgsplit
      ? [
          { mode: 'cu', tgsplit: false, label: null },
          { mode: 'cu', tgsplit: true, label: 'tgsplit' },
        ]
      : [{ mode: 'cu', tgsplit: false, label: null }];
  const cols: GridColumn[] = [];
  for (const m of modes) {
    for (const lang of ['hsa', 'opencl'] as const) {
      cols.push({
        mode: m.mode,
        tgsplit: m.tgsplit,
        lang,
        label: m.label === null ? lang : `${m.label}/${lang}`,
      });
    }
  }
  return cols;
}

/** Instruction variants of the grid. */
export const GRID_INSTRS = [
  { instr: 'load', returns: true, label: 'load' },
  { instr: 'store', returns: false, label: 'store' },
  { instr: 'rmw', returns: true, label: 'atomicrmw (ret)' },
  { instr: 'rmw', returns: false, label: 'atomicrmw (noret)' },
  { instr: 'cmpxchg', returns: true, label: 'cmpxchg (ret)' },
  { instr: 'cmpxchg', returns: false, label: 'cmpxchg (noret)' },
  { instr: 'fence', returns: false, label: 'fence' },
] as const;

/** A base cell: everything except the flags and `-one-as`, which the grid folds. */
export interface BaseCell {
  instr: Cell['instr'];
  label: string;
  returns: boolean;
  ordering: Ordering;
  failure: Ordering;
  scope: Scope;
  space: AddressSpace | null;
  /** A fence's `amdgpu-synchronize-as` address spaces (empty: no tag). */
  syncAs: readonly SyncAs[];
}

/**
 * The `amdgpu-synchronize-as` variants of a fence cell: no tag, `global`, `local` (both tags order
 * what no tag orders, but in TgSplit mode and for `-one-as`; `lower.test.ts` checks them).
 */
export const FENCE_SYNC_AS: readonly (readonly SyncAs[])[] = [[], ['global'], ['local']];

/** Every base cell with a valid ordering, in table order. Plain accesses get the single scope `system`. */
export function baseCells(): BaseCell[] {
  const out: BaseCell[] = [];
  for (const gi of GRID_INSTRS) {
    for (const ordering of ORDERINGS) {
      if (!VALID_ORDERINGS[gi.instr].includes(ordering)) continue;
      const failures: Ordering[] = gi.instr === 'cmpxchg' ? [...VALID_FAILURE] : ['monotonic'];
      for (const failure of failures) {
        const scopes: Scope[] = ordering === 'notatomic' ? ['system'] : [...SCOPES];
        for (const scope of scopes) {
          const spaces: (AddressSpace | null)[] = gi.instr === 'fence' ? [null] : [...ADDRESS_SPACES];
          for (const space of spaces) {
            for (const syncAs of gi.instr === 'fence' ? FENCE_SYNC_AS : [[]]) {
              out.push({
                instr: gi.instr,
                label: gi.label,
                returns: gi.returns,
                ordering,
                failure,
                scope,
                space,
                syncAs,
              });
            }
          }
        }
      }
    }
  }
  return out;
}

/** The concrete cells of a base cell: volatile × nontemporal × (`-one-as` unless plain). */
export function expandCell(b: BaseCell): Cell[] {
  const cells: Cell[] = [];
  const oneAsValues = b.ordering === 'notatomic' ? [false] : [false, true];
  const flagValues = b.instr === 'fence' ? [false] : [false, true];
  for (const oneAs of oneAsValues) {
    for (const volatile of flagValues) {
      for (const nontemporal of flagValues) {
        cells.push({
          instr: b.instr,
          ordering: b.ordering,
          failure: b.failure,
          syncscope: { scope: b.scope, oneAs },
          space: b.space,
          volatile,
          nontemporal,
          returns: b.returns,
          ...(b.syncAs.length > 0 ? { syncAs: b.syncAs } : {}),
        });
      }
    }
  }
  return cells;
}

/**
 * The av intrinsics' cells: each intrinsic at each scope, the one operand that changes its code (the
 * pointer is global, the access non-atomic; `-one-as` is not a scope the intrinsics take).
 */
export function avCells(): AvCell[] {
  return (['avload', 'avstore'] as const).flatMap((instr) => SCOPES.map((scope) => avCell(instr, scope)));
}

/** Text of one result: the sequence joined by `; `, `(nothing)`, or `error LWxxxx: message`. */
export function resultText(r: LowerResult): string {
  if ('diagnostic' in r) return `error ${r.diagnostic.code}: ${r.diagnostic.message}`;
  return r.seq.length === 0 ? '(nothing)' : formatSeq(r.seq).join('; ');
}

function cellKey(c: Cell, label: string): string {
  const scope =
    c.ordering === 'notatomic' ? 'none' : c.syncscope.scope + (c.syncscope.oneAs ? '-one-as' : '');
  const ord = c.ordering === 'notatomic' ? 'none' : c.ordering;
  const order = c.instr === 'cmpxchg' ? `${ord} ${c.failure}` : ord;
  const flags = [c.volatile ? 'volatile' : '', c.nontemporal ? 'nontemporal' : ''].filter(Boolean).join(',');
  return `${label} ${order} ${scope} ${c.space ?? '-'}${flags ? ` [${flags}]` : ''}${syncAsText(c)}`;
}

/** ` !synchronize-as:global` … for a fence cell with `amdgpu-synchronize-as` tags, else ''. */
export function syncAsText(c: Pick<Cell, 'syncAs'>): string {
  return c.syncAs !== undefined && c.syncAs.length > 0 ? ` !synchronize-as:${c.syncAs.join(',')}` : '';
}

/** Lowers one cell in every column. */
function lowerColumns(c: Cell, target: Target, cols: GridColumn[]): LowerResult[] {
  return cols.map((col) => {
    const ctx: LowerCtx = { target, mode: col.mode, lang: col.lang, tgsplit: col.tgsplit };
    return lowerCell(c, ctx);
  });
}

/** Groups equal texts across columns: `hsa, opencl: …`, or `all: …` when every column agrees. */
function columnLines(texts: string[], cols: GridColumn[]): string[] {
  if (texts.every((t) => t === texts[0])) return [`  all: ${texts[0]}`];
  const seen = new Map<string, string[]>();
  texts.forEach((t, i) => {
    const l = seen.get(t) ?? [];
    l.push(cols[i]!.label);
    seen.set(t, l);
  });
  return [...seen.entries()].map(([t, labels]) => `  ${labels.join(', ')}: ${t}`);
}

/**
 * One block of the grid: a cell, folded where `-one-as` (`oneAs: null`) or the volatile/nontemporal
 * flags (`volatile`/`nontemporal: null`) change nothing, with its result in every column and the
 * spec rows (of the first column) it came from.
 */
export interface GridBlock {
  /** The cell as the text grid prints it, e.g. `load acquire agent[-one-as] global [*]`. */
  key: string;
  instr: Cell['instr'];
  returns: boolean;
  ordering: Ordering;
  /** cmpxchg failure ordering; `monotonic` for the other instructions. */
  failure: Ordering;
  scope: Scope;
  oneAs: boolean | null;
  space: AddressSpace | null;
  volatile: boolean | null;
  nontemporal: boolean | null;
  /** A fence's `amdgpu-synchronize-as` address spaces (empty: no tag). */
  syncAs: readonly SyncAs[];
  /** One result per column, in `gridColumns` order. */
  results: LowerResult[];
  rows: string[];
}

/** What names a block and what its name says: a `GridBlock` without its results. */
export type GridBlockKey = Omit<GridBlock, 'results' | 'rows'>;

/**
 * The block of a concrete cell: its key, with `-one-as` folded into `scope[-one-as]` (`oneAs: null`)
 * and the volatile/nontemporal flags into `[*]` (`volatile`, `nontemporal: null`) when `fold` says so.
 * Folding only changes the name: the cell itself (its plain, non-volatile twin) is the one described.
 */
export function blockOf(c: Cell, fold: { oneAs: boolean; flags: boolean } = NO_FOLD): GridBlockKey {
  const base = {
    instr: c.instr,
    returns: c.returns,
    ordering: c.ordering,
    failure: c.failure,
    scope: c.syncscope.scope,
    space: c.space,
    syncAs: c.syncAs ?? [],
  };
  if (c.instr === 'avload' || c.instr === 'avstore')
    return {
      ...base,
      key: `${AV_INTRINSIC[c.instr]} ${c.syncscope.scope} global`,
      oneAs: false,
      volatile: false,
      nontemporal: false,
    };
  const label = GRID_INSTRS.find((g) => g.instr === c.instr && g.returns === c.returns)!.label;
  let key = cellKey(c, label);
  if (fold.oneAs) key = key.replace(` ${c.syncscope.scope} `, ` ${c.syncscope.scope}[-one-as] `);
  if (fold.flags) key += ' [*]';
  return {
    ...base,
    key,
    oneAs: c.ordering === 'notatomic' ? false : fold.oneAs ? null : c.syncscope.oneAs,
    volatile: fold.flags ? null : c.volatile,
    nontemporal: fold.flags ? null : c.nontemporal,
  };
}

const NO_FOLD = { oneAs: false, flags: false };

/** An ordering LLVM IR rejects for an instruction, whatever the scope and address space. */
export interface GridRejected {
  key: string;
  instr: Cell['instr'];
  ordering: Ordering;
  failure: Ordering;
  result: LowerResult;
}

/** The whole table of a target as data: the folded blocks and the rejected orderings. */
export function gridBlocks(target: Target): {
  columns: GridColumn[];
  blocks: GridBlock[];
  rejected: GridRejected[];
} {
  const cols = gridColumns(target);
  const blocks: GridBlock[] = [];
  for (const b of baseCells()) {
    const cells = expandCell(b);
    const results = cells.map((c) => lowerColumns(c, target, cols));
    const texts = results.map((rs) => rs.map(resultText));
    const sig = (i: number): string => texts[i]!.join('\u0000');
    // Fold -one-as when each flag variant lowers as its plain twin.
    const half = b.ordering === 'notatomic' ? cells.length : cells.length / 2;
    const oneAsSame =
      b.ordering !== 'notatomic' && cells.slice(0, half).every((_, i) => sig(i) === sig(i + half));
    const shown = oneAsSame ? half : cells.length;
    const group = b.instr === 'fence' ? 1 : 4;
    const flagSame = Array.from({ length: shown }, (_, i) => i).every(
      (i) => sig(i) === sig(Math.floor(i / group) * group),
    );
    for (let i = 0; i < shown; i++) {
      if (flagSame && i % group !== 0) continue;
      const first = results[i]![0]!;
      blocks.push({
        ...blockOf(cells[i]!, { oneAs: oneAsSame, flags: flagSame && b.instr !== 'fence' }),
        results: results[i]!,
        rows: 'diagnostic' in first ? [first.diagnostic.cite] : first.rows,
      });
    }
  }
  // The av intrinsics, after the tables' cells: no flags, no -one-as to fold.
  for (const c of avCells()) {
    const results = lowerColumns(c, target, cols);
    const first = results[0]!;
    blocks.push({
      ...blockOf(c),
      results,
      rows: 'diagnostic' in first ? [first.diagnostic.cite] : first.rows,
    });
  }
  const rejected: GridRejected[] = [];
  const reject = (key: string, c: Cell): void => {
    const result = lowerCell(c, { target, mode: 'cu', lang: 'hsa' });
    rejected.push({ key, instr: c.instr, ordering: c.ordering, failure: c.failure, result });
  };
  for (const gi of GRID_INSTRS) {
    if (gi.returns === false && (gi.instr === 'rmw' || gi.instr === 'cmpxchg')) continue;
    for (const ordering of ORDERINGS) {
      if (VALID_ORDERINGS[gi.instr].includes(ordering)) continue;
      reject(`${gi.instr === 'rmw' ? 'atomicrmw' : gi.instr} ${ordering} * *`, {
        instr: gi.instr,
        ordering,
        failure: 'monotonic',
        syncscope: { scope: 'system', oneAs: false },
        space: gi.instr === 'fence' ? null : 'global',
        volatile: false,
        nontemporal: false,
        returns: gi.returns,
      });
    }
  }
  for (const failure of ORDERINGS) {
    if (VALID_FAILURE.includes(failure)) continue;
    reject(`cmpxchg * ${failure} * *`, {
      instr: 'cmpxchg',
      ordering: 'seq_cst',
      failure,
      syncscope: { scope: 'system', oneAs: false },
      space: 'global',
      volatile: false,
      nontemporal: false,
      returns: true,
    });
  }
  return { columns: cols, blocks, rejected };
}

/**
 * The whole table of a target as text: one block per cell (folded where the flags or `-one-as`
 * change nothing), each with the spec rows it came from.
 */
export function renderGrid(target: Target): string {
  const { columns: cols, blocks, rejected } = gridBlocks(target);
  const lines: string[] = [
    `# gpumm lowering grid for ${target.name} (${target.processor.generation}, table ${target.processor.table ?? 'none'})`,
    `# columns: ${cols.map((c) => c.label).join(' | ')}; "[-one-as]": the -one-as scope lowers identically; "[*]": volatile/nontemporal change nothing; "!synchronize-as:AS": a fence with !mmra !{!"amdgpu-synchronize-as", !"AS"}`,
    '',
  ];
  for (const b of blocks) {
    lines.push(b.key);
    lines.push(...columnLines(b.results.map(resultText), cols));
    if (b.rows.length > 0) lines.push(`  rows: ${b.rows.join(' + ')}`);
  }
  // Orderings the instruction cannot carry: one line each, whatever the scope and space.
  lines.push('', '# orderings LLVM IR rejects (any scope, any address space)');
  for (const r of rejected) {
    lines.push(r.key);
    lines.push(`  all: ${resultText(r.result)}`);
  }
  return `${lines.join('\n')}\n`;
}
