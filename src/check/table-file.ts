/**
 * `gpumm check --table FILE`: a code-sequence table in the form `gpumm lower --table --json` writes it
 * (GridJsonSchema), edited by hand, as the code the machines run — how a compiler engineer checks a
 * proposed legalizer change before writing it, and how hand weakenings are run (docs/tables.md).
 *
 * The `asm` lines of a cell are the code: each is read as llc-22's output is (llc-ir.ts `normaliseAsm`,
 * llc-code.ts `isaOfNormal`; Intel Xe vISA by isa-xe.ts `parseXe`), and the typed `isa` beside them is
 * ignored. A cell's `key` says which IR instructions it is the code of; the other fields of a cell spell
 * the key out and may be left out, but where given they must agree with it. Every problem of the file
 * is a located diagnostic; nothing of a bad file is used.
 *
 * An IR instruction takes the code of the file's cell for its own key, or failing that for a key that
 * folds it (`scope[-one-as]`, `[*]`): a file may unfold a folded cell to give one variant other code.
 * A test instruction with no cell in the file makes its checks `unsupported`, naming the key: the file
 * is the whole table, and code from elsewhere would make a verdict about a table that is not the file.
 *
 * No Node APIs here.
 */

import * as z from 'zod';
import { type DiagnosticCode, diag, type SourceDiagnostic } from '../core/diagnostics.ts';
import { type JsonNode, nodeAt, readJson, spanMaker } from '../core/json-located.ts';
import { nearestNames } from '../core/nearest.ts';
import type { Span, Test } from '../core/types.ts';
import { avCells, baseCells, blockOf, expandCell, type GridBlockKey, gridColumns } from '../lower/grid.ts';
import { LSC_OF_RMW } from '../lower/intel.ts';
import { type Counter, type IsaInstr, vmem } from '../lower/isa.ts';
import { type LscInstr, parseXe } from '../lower/isa-xe.ts';
import {
  type GridCellFields,
  GridJsonSchema,
  gridCellFields,
  gridColumnsJson,
  gridHead,
  LowerDiagnosticSchema,
} from '../lower/json.ts';
import { normaliseAsm } from '../lower/llc-ir.ts';
import { avCell, cellOf, lowerTest } from '../lower/lower.ts';
import { findTarget, nearestTargetNames, type Target } from '../lower/targets.ts';
import { type Cell, isLowered, isTableCell, type LowerCtx } from '../lower/types.ts';
import type { CodeOrWhy } from '../sim/program.ts';
import { isaOfNormal } from './llc-code.ts';

const GridCell = GridJsonSchema.shape.cells.element;

/**
 * What `gpumm check --table` reads of a table file: `gpumm lower --table --json`'s form with every
 * field that only spells out a key or label optional, and of each result only `asm` (its code) or
 * `diagnostic` (no code in that column). `isa`, `rows`, `warnings`, `rejected` are not read.
 */
export const TableFileSchema = z.object({
  target: z.string(),
  processor: z.string().optional(),
  generation: z.string().optional(),
  table: z.string().nullable().optional(),
  columns: z.array(GridJsonSchema.shape.columns.element.partial().extend({ label: z.string() })),
  cells: z.array(
    GridCell.partial().extend({
      key: z.string(),
      results: z.array(
        z.object({ asm: z.array(z.string()).optional(), diagnostic: LowerDiagnosticSchema.optional() }),
      ),
    }),
  ),
});

/** One cell's code in one column: its machine code, or the diagnostic code of a cell that has none. */
export type TableCode = { seq: IsaInstr[] } | { none: string };

/** A table file that read without errors. */
export interface TableFile {
  file: string;
  target: Target;
  /** Column labels (`cu/hsa`, `tgsplit/opencl`, `opencl` …), in the file's order. */
  columns: string[];
  /** Per key, per column (in `columns` order), the code. */
  cells: Map<string, TableCode[]>;
}

/**
 * The keys a file may give a cell's code under, most specific first: the cell's own, then folded over
 * `-one-as` (`scope[-one-as]`), then over the volatile/nontemporal flags (`[*]`), then both — as
 * `gpumm lower --table` folds a block whose variants lower alike.
 */
export function keysOf(c: Cell): GridBlockKey[] {
  if (!isTableCell(c)) return [blockOf(c)];
  const plainAs: Cell = { ...c, syncscope: { ...c.syncscope, oneAs: false } };
  const out = [blockOf(c)];
  const oneAs = c.ordering !== 'notatomic';
  const flags = c.instr !== 'fence';
  if (oneAs) out.push(blockOf(plainAs, { oneAs: true, flags: false }));
  if (flags) out.push(blockOf({ ...c, volatile: false, nontemporal: false }, { oneAs: false, flags: true }));
  if (oneAs && flags)
    out.push(blockOf({ ...plainAs, volatile: false, nontemporal: false }, { oneAs: true, flags: true }));
  return out;
}

let knownKeys: Map<string, GridCellFields> | null = null;

/** Every key a table may have (each cell of the grid under each folding), with what it says. */
function keyIndex(): Map<string, GridCellFields> {
  if (knownKeys) return knownKeys;
  const m = new Map<string, GridCellFields>();
  const add = (c: Cell): void => {
    for (const b of keysOf(c)) if (!m.has(b.key)) m.set(b.key, gridCellFields(b));
  };
  for (const b of baseCells()) for (const c of expandCell(b)) add(c);
  for (const c of avCells()) add(c);
  knownKeys = m;
  return m;
}

/**
 * The column of a table a check's context runs: its wavefront mode, TgSplit mode and language — on
 * Intel Xe the one column, whatever the language (the lowering follows the OpenCL built-ins: gridColumns).
 */
export function columnLabel(ctx: LowerCtx): string {
  const cols = gridColumns(ctx.target);
  if (ctx.target.processor.vendor === 'Intel') return cols[0]!.label;
  const f = ctx.target.processor.features;
  const tgsplit = f.tgsplit && ctx.tgsplit === true;
  return cols.find(
    (c) => c.lang === ctx.lang && c.tgsplit === tgsplit && (!f.wgpMode || c.mode === ctx.mode),
  )!.label;
}

/** What a cell's lines need besides their text: whether its atomics return, and a constant load. */
interface LineCtx {
  returns: boolean;
  constantLoad: boolean;
}

/**
 * One AMDGPU line: the tables' spelling (`global_load glc=1`, `ds_load`, `buffer_inv sc0=1 sc1=1`) or
 * llc-22's (`global_load_dword v0, v1, s[0:1] glc`, `s_wait_loadcnt_dscnt 0x0`), as typed
 * instructions; or why it is not understood.
 */
function amdLine(line: string, cx: LineCtx): IsaInstr[] | string {
  if (line.trim() === '') return 'an empty line: delete it';
  const [mn = '', ...ops] = line.trim().split(/\s+/);
  let normal: string[];
  const joined = /^s_wait_([a-z]+(?:_[a-z]+)+)$/.exec(mn);
  if (joined)
    // llc-22 merges waits (`s_wait_loadcnt_dscnt 0x0`); one wait per counter is the same wait.
    normal = joined[1]!.split('_').map((c) => [`s_wait_${c}`, ...ops].join(' '));
  else if (mn.startsWith('s_wait'))
    // Straight to the reader, which checks every counter: normaliseAsm would drop one it does not know.
    normal = [[mn, ...ops].join(' ')];
  else {
    // The tables' spellings to llc-22's: a modifier `glc=1` is `glc` (`=0`: not given), an LDS
    // mnemonic without a data size is its 32-bit form.
    const words = ops.filter((w) => !/=0$/.test(w)).map((w) => w.replace(/=1$/, ''));
    const m = /^ds_(load|store|atomic)$/.test(mn) ? `${mn}_b32` : mn;
    normal = normaliseAsm([[m, ...words].join(' ')]);
    if (normal.length === 0) return 'an instruction that orders no memory (register work): leave it out';
  }
  const wide = /_(dwordx4|b128)$/.exec(mn)?.[1] as 'dwordx4' | 'b128' | undefined;
  const out: IsaInstr[] = [];
  for (const n of normal) {
    const i = isaOfNormal(n, n.startsWith('flat_'));
    if (typeof i === 'string') return i;
    if (i === null) {
      // A scalar load: llc-22's code for a constant load (scalar-constant-load), run as a vector load.
      if (!cx.constantLoad) return 'a scalar load reads no memory of the test here';
      out.push(vmem('load', 'global'));
      continue;
    }
    if (i.kind === 'vmem') {
      // The text of an atomic does not always say whether it returns (the cell does: `(ret)`).
      out.push({ ...i, wide: wide ?? null, returns: i.op === 'atomic' ? cx.returns : i.returns });
    } else if (i.kind === 'lds' && i.op === 'atomic') out.push({ ...i, returns: cx.returns });
    else out.push(i);
  }
  return out;
}

const LEGACY_COUNTERS: readonly Counter[] = ['vmcnt', 'expcnt', 'lgkmcnt'];

/**
 * Appends an instruction. One wait on `s_waitcnt` counters and others is printed as an `s_waitcnt`
 * line and a line for each other counter (isa.ts `formatIsa`: `s_waitcnt vmcnt(0)`,
 * `s_waitcnt_vscnt null, 0x0`), so such lines right after an `s_waitcnt` are read back into its
 * wait (waits with nothing issued between them are one wait anyway: llc-ir.ts, "runs of waits").
 */
function pushMerged(seq: IsaInstr[], i: IsaInstr): void {
  const last = seq[seq.length - 1];
  const legacy = (c: Counter): boolean => LEGACY_COUNTERS.includes(c);
  if (i.kind !== 'wait' || last?.kind !== 'wait' || !last.counters.some(legacy) || i.counters.some(legacy)) {
    seq.push(i);
    return;
  }
  const counters = [...last.counters, ...i.counters.filter((c) => !last.counters.includes(c))];
  const count = (w: typeof i, c: Counter): number => w.counts?.[w.counters.indexOf(c)] ?? 0;
  const counts = counters.map((c) => (last.counters.includes(c) ? count(last, c) : count(i, c)));
  seq[seq.length - 1] = counts.some((n) => n > 0)
    ? { kind: 'wait', counters, counts }
    : { kind: 'wait', counters };
}

/** `i` with `f` applied to each LSC atomic in it (in a generic access: in each branch). */
function mapXeAtomics(i: IsaInstr, f: (a: LscInstr) => LscInstr): IsaInstr {
  if (i.kind === 'lsc' && i.op === 'atomic') return f(i);
  if (i.kind === 'xe_generic')
    return {
      ...i,
      branches: i.branches.map((b) => ({
        spaces: b.spaces,
        seq: b.seq.map((l) => (l.kind === 'lsc' && l.op === 'atomic' ? f(l) : l)),
      })),
    };
  return i;
}

/**
 * A cell's lines as machine code, or the lines not understood (index and why). Intel Xe: a generic
 * access is written one branch a line (`local: lsc_load.slm`, `private, global: lsc_load.ugm`), as
 * `gpumm lower --table --json` splits it; consecutive branch lines are one instruction until an
 * address space repeats.
 */
export function readCellLines(
  lines: readonly string[],
  intel: boolean,
  cx: LineCtx,
): { seq: IsaInstr[] } | { bad: { index: number; why: string }[] } {
  const seq: IsaInstr[] = [];
  const bad: { index: number; why: string }[] = [];
  for (const [index, line] of lines.entries()) {
    if (!intel) {
      const r = amdLine(line, cx);
      if (typeof r === 'string') bad.push({ index, why: r });
      else for (const i of r) pushMerged(seq, i);
      continue;
    }
    const r = parseXe(line);
    if (typeof r === 'string') {
      bad.push({ index, why: r });
      continue;
    }
    // The text of an atomic does not say whether it returns (the cell does).
    const i = mapXeAtomics(r, (a) => ({ ...a, returns: cx.returns }));
    const last = seq[seq.length - 1];
    const lastIsBranch = index > 0 && last?.kind === 'xe_generic' && /^[a-z, ]+:/.test(lines[index - 1]!);
    if (i.kind === 'xe_generic' && lastIsBranch && last?.kind === 'xe_generic') {
      const seen = new Set(last.branches.flatMap((b) => b.spaces));
      if (!i.branches.some((b) => b.spaces.some((s) => seen.has(s)))) {
        seq[seq.length - 1] = { ...last, branches: [...last.branches, ...i.branches] };
        continue;
      }
    }
    seq.push(i);
  }
  return bad.length > 0 ? { bad } : { seq };
}

/** A path of the JSON as diagnostics show it: `cells[3].results[0].asm[1]`. */
function pathText(path: readonly PropertyKey[]): string {
  return (
    path.map((p, k) => (typeof p === 'number' ? `[${p}]` : k === 0 ? String(p) : `.${String(p)}`)).join('') ||
    'the file'
  );
}

/**
 * Reads a table file (its text, already UTF-8): the table, or every problem found. `want`: the target
 * the command line asked for (null: the file's own).
 */
export function readTableFile(
  text: string,
  file: string,
  want: Target | null,
): { table: TableFile; diagnostics: [] } | { table: null; diagnostics: SourceDiagnostic[] } {
  const spanOf = spanMaker(text, file);
  const json = readJson(text);
  if ('error' in json) {
    const { offset, len, what } = json.error;
    return { table: null, diagnostics: [diag('TBL1001', spanOf(offset, offset + len), { what })] };
  }
  const root = json.root;
  /** The span of the value at `path` (of the object a missing member belongs in: its `{`). */
  const at = (path: readonly PropertyKey[]): Span => {
    const node = nodeAt(root, path);
    const whole = path.length === 0 || nodeAt(root, path.slice(0, -1)) !== node;
    return whole ? spanOf(node.from, node.to) : spanOf(node.from, node.from + 1);
  };
  const parsed = TableFileSchema.safeParse(json.value);
  if (!parsed.success)
    return {
      table: null,
      diagnostics: parsed.error.issues.map((i) =>
        diag('TBL2001', at(i.path), { path: pathText(i.path), what: i.message }),
      ),
    };
  const t = parsed.data;
  const ds: SourceDiagnostic[] = [];
  const raw = json.value as Record<string, unknown>;
  /** Each field given in `obj` that disagrees with what `expected` (the key's meaning) says. */
  const agree = (
    obj: Record<string, unknown>,
    expected: Record<string, unknown>,
    path: readonly PropertyKey[],
    owner: string,
    by: string,
  ): void => {
    for (const [field, want] of Object.entries(expected)) {
      if (!(field in obj) || field === 'key' || field === 'label' || field === 'target') continue;
      const got = JSON.stringify(obj[field]);
      if (got !== JSON.stringify(want))
        ds.push(diag('TBL2004', at([...path, field]), { field, got, want: JSON.stringify(want), owner, by }));
    }
  };
  /** A name given twice: at the second, with the line of the first. */
  const twice = (
    seen: Map<string, JsonNode>,
    name: string,
    path: readonly PropertyKey[],
    what: string,
  ): boolean => {
    const first = seen.get(name);
    if (first === undefined) {
      seen.set(name, nodeAt(root, path));
      return false;
    }
    ds.push(diag('TBL2003', at(path), { what, name, line: String(spanOf(first.from, first.to).line) }));
    return true;
  };

  const target = findTarget(t.target);
  if (target === null || target.processor.table === null)
    return {
      table: null,
      diagnostics: [
        diag(
          'TBL2007',
          at(['target']),
          target === null
            ? {
                name: t.target,
                why: 'is not a processor gpumm knows',
                fix: `nearest known names: ${nearestTargetNames(t.target).join(', ')}`,
              }
            : {
                name: t.target,
                why: 'has no code-sequence table',
                fix: 'gpumm lower --table lists the processors with one',
              },
        ),
      ],
    };
  if (want !== null && (want.processor !== target.processor || want.gpu !== target.gpu))
    ds.push(diag('TBL2008', at(['target']), { file: target.name, option: want.name }));
  agree(raw, gridHead(target), [], `target "${target.name}"`, 'target');

  const known = gridColumnsJson(target, gridColumns(target));
  const labels = new Map<string, JsonNode>();
  t.columns.forEach((c, k) => {
    const path = ['columns', k];
    const col = known.find((x) => x.label === c.label);
    if (col === undefined)
      ds.push(
        diag('TBL2005', at([...path, 'label']), {
          target: target.name,
          label: c.label,
          known: known.map((x) => x.label).join(', '),
        }),
      );
    else if (!twice(labels, c.label, [...path, 'label'], 'column'))
      agree((raw.columns as Record<string, unknown>[])[k]!, col, path, `the label "${c.label}"`, 'label');
  });

  const index = keyIndex();
  const intel = target.processor.vendor === 'Intel';
  const cells = new Map<string, TableCode[]>();
  const keys = new Map<string, JsonNode>();
  const rawCells = raw.cells as Record<string, unknown>[];
  t.cells.forEach((c, k) => {
    const path = ['cells', k];
    const meaning = index.get(c.key);
    if (meaning === undefined) {
      // Only keys of the same instruction are near: a typo in the ordering, scope or space.
      const head = `${c.key.split(' ')[0]} `;
      const near = nearestNames(
        c.key,
        [...index.keys()].filter((x) => x.startsWith(head)),
      );
      ds.push(
        diag('TBL2002', at([...path, 'key']), { key: c.key, near: near.map((x) => `"${x}"`).join(', ') }),
      );
      return;
    }
    if (twice(keys, c.key, [...path, 'key'], 'cell')) return;
    agree(rawCells[k]!, meaning, path, `the key "${c.key}"`, 'key');
    if (c.results.length !== t.columns.length) {
      ds.push(
        diag('TBL2006', at([...path, 'results']), {
          got: String(c.results.length),
          want: String(t.columns.length),
        }),
      );
      return;
    }
    const cx: LineCtx = {
      returns: meaning.returns,
      constantLoad: meaning.instr === 'load' && meaning.space === 'constant',
    };
    const codes: TableCode[] = [];
    c.results.forEach((r, col) => {
      const rpath = [...path, 'results', col];
      if (r.asm === undefined) {
        if (r.diagnostic === undefined)
          ds.push(
            diag('TBL2001', at(rpath), {
              path: pathText(rpath),
              what: 'a result needs "asm" (its machine code) or "diagnostic" (no code in this column)',
            }),
          );
        else codes.push({ none: r.diagnostic.code });
        return;
      }
      const read = readCellLines(r.asm, intel, cx);
      if ('seq' in read) {
        codes.push(read);
        return;
      }
      for (const b of read.bad)
        ds.push(
          diag('TBL3001', at([...rpath, 'asm', b.index]), {
            line: r.asm[b.index]!,
            key: c.key,
            column: t.columns[col]!.label,
            why: b.why,
            ...(intel ? { intel: 'yes' } : {}),
          }),
        );
    });
    cells.set(c.key, codes);
  });
  if (ds.length > 0) return { table: null, diagnostics: ds };
  return { table: { file, target, columns: t.columns.map((c) => c.label), cells }, diagnostics: [] };
}

/**
 * Per thread, per IR instruction, the table file's code for a test in a check's context; or why the
 * test cannot take it (a missing cell or column, a cell without code there). Instructions outside the
 * tables (barriers, arithmetic) keep gpumm's own lowering, as `gpumm lower --table` has no cells for them.
 */
export function tableCode(test: Test, ctx: LowerCtx, table: TableFile): CodeOrWhy {
  const label = columnLabel(ctx);
  const col = table.columns.indexOf(label);
  if (col < 0) return { error: diag('MC2002', null, { file: table.file, column: label }) };
  const out: IsaInstr[][][] = [];
  for (const th of lowerTest(test, ctx)) {
    const seqs: IsaInstr[][] = [];
    for (const { instr, result } of th.instrs) {
      const at = `${th.thread}: line ${instr.span.line}`;
      const why = (code: DiagnosticCode, args: Record<string, string>) => ({
        error: diag(code, instr.span, { at, ...args }),
      });
      const cell =
        instr.kind === 'avload' || instr.kind === 'avstore' ? avCell(instr.kind, instr.scope) : cellOf(instr);
      if (cell === null) {
        if (!isLowered(result))
          return why('MC2006', { code: result.diagnostic.code, what: result.diagnostic.message });
        seqs.push(result.seq);
        continue;
      }
      const keys = keysOf(cell).map((b) => b.key);
      const key = keys.find((k) => table.cells.has(k));
      if (key === undefined) {
        const index = keyIndex();
        return keys.some((k) => index.has(k))
          ? why('MC2003', {
              file: table.file,
              key: keys[0]!,
              nor:
                keys.length > 1
                  ? ` (nor ${keys
                      .slice(1)
                      .map((k) => `"${k}"`)
                      .join(', ')})`
                  : '',
            })
          : why('MC2004', { key: keys[0]! });
      }
      const code = table.cells.get(key)![col]!;
      if ('none' in code) return why('MC2005', { file: table.file, key, column: label, none: code.none });
      // An atomicrmw cell stands for every operation (`lsc_atomic_<op>`): the instruction's own here.
      const op = instr.kind === 'rmw' ? LSC_OF_RMW[instr.op] : null;
      seqs.push(
        op === null
          ? code.seq
          : code.seq.map((i) => mapXeAtomics(i, (a) => (a.atomic === null ? { ...a, atomic: op } : a))),
      );
    }
    out.push(seqs);
  }
  return out;
}
