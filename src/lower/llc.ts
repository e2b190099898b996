/**
 * Differential testing against LLVM's AMDGPU backend (llc-22): generate one kernel per table cell,
 * compile a whole module per target and mode in one llc run, pull out the instructions between the
 * markers, and compare them with gpumm's sequence in a normal form (see llc-ir.ts). llc is a test and
 * `--compare-llc` tool only, never a runtime dependency of gpumm.
 */

import { spawn, spawnSync } from 'node:child_process';
import type { BarrierInstr, Instr, Span, Test } from '../core/types.ts';
import { classify } from './causes.ts';
import { baseCells, expandCell, syncAsText } from './grid.ts';
import { formatSeq } from './isa.ts';
import {
  barrierKernel,
  cellKernel,
  LLC_AV_FAILS,
  MODULE_TAIL,
  namedBarrierDecls,
  normaliseAsm,
  normaliseIsa,
  splitFunctions,
  waveBarrierKernel,
} from './llc-ir.ts';
import { cellOf, lowerCell, lowerInstr, lowerTest, mergedCmpxchgOrdering } from './lower.ts';
import { PROCESSORS, type Processor } from './targets.ts';
import type { Cell, Lang, LowerCtx, WaveMode } from './types.ts';

const NO_SPAN: Span = { file: '', offset: 0, line: 0, col: 0, len: 0 };

/** Finds a usable llc: the given path, `$GPUMM_LLC`, or `llc-22` on PATH. */
export function findLlc(path?: string): { path: string; version: string } | { reason: string } {
  const p = path ?? process.env.GPUMM_LLC ?? 'llc-22';
  const r = spawnSync(p, ['--version'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) {
    return { reason: `${p} not found or not runnable (install LLVM 22: apt-get install -y llvm-22)` };
  }
  if (!/amdgcn/.test(r.stdout)) return { reason: `${p} has no AMDGPU backend` };
  const version = /LLVM version (\S+)/.exec(r.stdout)?.[1] ?? 'unknown';
  return { path: p, version };
}

/**
 * Runs llc on a module; resolves to its assembly. `timeoutMs`: llc is killed after it (0: never);
 * `abort`: llc is killed when it aborts (the client of `gpumm serve` went away).
 */
export function runLlc(
  llc: string,
  module: string,
  cpu: string,
  mode: WaveMode | null,
  tgsplit = false,
  timeoutMs = 0,
  abort?: AbortSignal,
): Promise<string> {
  const args = ['-mtriple=amdgcn-amd-amdhsa', `-mcpu=${cpu}`, '-O0', '-o', '-'];
  if (mode === 'cu') args.push('-mattr=+cumode');
  if (tgsplit) args.push('-mattr=+tgsplit');
  return new Promise((resolve, reject) => {
    if (abort?.aborted) {
      reject(new Error('llc was not run: the request was abandoned'));
      return;
    }
    const child = spawn(llc, args, { stdio: ['pipe', 'pipe', 'pipe'], timeout: timeoutMs, signal: abort });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else if (abort?.aborted) reject(new Error(`llc -mcpu=${cpu} was stopped: the request was abandoned`));
      else if (signal !== null && timeoutMs > 0)
        reject(new Error(`llc -mcpu=${cpu} took over ${timeoutMs} ms`));
      else
        reject(new Error(`llc -mcpu=${cpu} failed: ${Buffer.concat(err).toString('utf8').slice(0, 2000)}`));
    });
    child.stdin.end(module);
  });
}

/** Runs jobs with at most `n` at a time. */
export async function pool<T>(jobs: (() => Promise<T>)[], n: number): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, jobs.length) }, worker));
  return results;
}

/** One cell where gpumm (following the document) and llc-22 differ. */
export interface Divergence {
  /** Processor names (and `/cu`, `/wgp`) where this exact difference occurs. */
  targets: string[];
  cell: string;
  doc: string[];
  llc: string[];
  rows: string[];
}

/** A key naming a cell, as the grid prints it. */
export function cellLabel(c: Cell): string {
  const scope =
    c.ordering === 'notatomic' ? 'none' : c.syncscope.scope + (c.syncscope.oneAs ? '-one-as' : '');
  const instr =
    c.instr === 'rmw'
      ? `atomicrmw(${c.returns ? 'ret' : 'noret'})`
      : c.instr === 'cmpxchg'
        ? `cmpxchg(${c.returns ? 'ret' : 'noret'})`
        : c.instr;
  const ord = c.ordering === 'notatomic' ? 'none' : c.ordering;
  const order = c.instr === 'cmpxchg' ? `${ord}/${c.failure}` : ord;
  const flags = [c.volatile ? 'volatile' : '', c.nontemporal ? 'nontemporal' : ''].filter(Boolean).join(',');
  return `${instr} ${order} ${scope} ${c.space ?? '-'}${flags ? ` [${flags}]` : ''}${syncAsText(c)}`;
}

/** Cells llc-22 refuses to compile (known from its error messages), with the error. */
export function llcRejects(c: Cell): string | null {
  if (c.space === 'constant' && c.ordering !== 'notatomic') return 'Unsupported atomic address space';
  return null;
}

/**
 * Barrier operations llc-22 cannot compile for a processor: on GFX6–11 (no split or named barriers)
 * every barrier intrinsic but `s.barrier` crashes llc-22 (segmentation fault; llc.test.ts checks it).
 */
export function llcBarrierFails(op: BarrierInstr['op'], proc: Processor): string | null {
  if (proc.barriers === 'gfx6-11' && op !== 'barrier')
    return 'crashes (no split or named barriers before GFX12)';
  return null;
}

export interface Run {
  proc: Processor;
  /** OpenCL runs compile each cell as `openclCell` gives it (see there). */
  lang: Lang;
  mode: WaveMode | null;
  /** TgSplit execution mode (`-mattr=+tgsplit`). */
  tgsplit: boolean;
}

/**
 * Target runs of the differential test: every processor llc-22 knows, both wavefront modes where they
 * exist, TgSplit on and off where it exists, each with HSA and OpenCL rules.
 */
export function differentialRuns(): Run[] {
  const runs: Run[] = [];
  for (const p of PROCESSORS) {
    if (!p.llc) continue;
    const modes: Pick<Run, 'mode' | 'tgsplit'>[] = p.features.wgpMode
      ? [
          { mode: 'cu', tgsplit: false },
          { mode: 'wgp', tgsplit: false },
        ]
      : p.features.tgsplit
        ? [
            { mode: null, tgsplit: false },
            { mode: null, tgsplit: true },
          ]
        : [{ mode: null, tgsplit: false }];
    for (const m of modes) for (const lang of ['hsa', 'opencl'] as const) runs.push({ proc: p, ...m, lang });
  }
  return runs;
}

/** Name of a run in the divergence baseline: `gfx1200/cu`, `gfx942/tgsplit`, `gfx900/opencl`. */
export function runName(run: Run): string {
  const base =
    run.mode !== null
      ? `${run.proc.name}/${run.mode}`
      : run.tgsplit
        ? `${run.proc.name}/tgsplit`
        : run.proc.name;
  return run.lang === 'opencl' ? `${base}/opencl` : base;
}

/**
 * The IR an OpenCL cell is compiled as. llc-22 has no switch for the documents' "If OpenCL" clauses
 * (the triple environment `amdgcn-amd-amdhsa-opencl` gives the same code as `amdgcn-amd-amdhsa`); what
 * it honours is the `-one-as` syncscopes, which "only synchronize with operations in the same address
 * space" (AMDGPUUsage "Memory Scopes") — the OpenCL rule of one order per address space. So an OpenCL
 * cell uses the `-one-as` form of its scope, except seq_cst, which "must generate all instructions
 * even for OpenCL" and keeps its scope as written (docs/targets/divergences.md).
 */
export function openclCell(c: Cell): Cell {
  const ordering = c.instr === 'cmpxchg' ? mergedCmpxchgOrdering(c.ordering, c.failure) : c.ordering;
  if (ordering === 'seq_cst' || ordering === 'notatomic') return c;
  return { ...c, syncscope: { scope: c.syncscope.scope, oneAs: true } };
}

/**
 * The cells an OpenCL run compares: atomic ones (plain and unordered accesses lower the same in both
 * languages and carry no syncscope), without volatile/nontemporal (atomic rows ignore them) and without
 * the `-one-as` twin (an OpenCL cell is compiled `-one-as` anyway).
 */
function inOpenclRun(c: Cell): boolean {
  return (
    c.ordering !== 'notatomic' &&
    c.ordering !== 'unordered' &&
    !c.volatile &&
    !c.nontemporal &&
    !c.syncscope.oneAs
  );
}

/** A barrier operation of the differential test, with the named-barrier objects its module declares. */
interface BarrierCase {
  b: Pick<BarrierInstr, 'op' | 'id' | 'object' | 'count'>;
  objects: string[];
}

/**
 * Every barrier intrinsic, and every barrier id kind of seeds/001 "s_barrier IDs GFX12" (cluster trap
 * -4, cluster -3, workgroup trap -2, workgroup -1, NULL 0, named 1 and 16), on every target: the ids a
 * target rejects are compared too (gpumm's diagnostic against what llc-22 emits). Named-barrier objects
 * get ids in declaration order; `join` uses the second of two objects, so the numbering is tested.
 */
export const BARRIER_CASES: readonly BarrierCase[] = [
  { b: { op: 'barrier', id: null, object: null, count: null }, objects: [] },
  ...(['signal', 'signal_isfirst', 'wait'] as const).flatMap((op) =>
    [-4, -3, -2, -1, 0, 1, 16].map((id) => ({ b: { op, id, object: null, count: null }, objects: [] })),
  ),
  { b: { op: 'leave', id: 1, object: null, count: null }, objects: [] },
  { b: { op: 'init', id: null, object: 'nb1', count: 3 }, objects: ['nb1', 'nb2'] },
  { b: { op: 'join', id: null, object: 'nb2', count: null }, objects: ['nb1', 'nb2'] },
  { b: { op: 'signal_var', id: null, object: 'nb1', count: 5 }, objects: ['nb1', 'nb2'] },
];

/** Label of a barrier case: `barrier signal -1`, `barrier init @nb1 3`, `barrier join @nb2`. */
export function barrierLabel(b: Pick<BarrierInstr, 'op' | 'id' | 'object' | 'count'>): string {
  const parts = ['barrier', b.op === 'signal_var' ? 'signal.var' : b.op];
  if (b.object !== null) parts.push(`@${b.object}`);
  else if (b.id !== null && b.op !== 'leave') parts.push(String(b.id));
  if (b.count !== null) parts.push(String(b.count));
  return parts.join(' ');
}

/** Compares every cell (and the barrier cases) for one target run; returns the differences. */
export async function diffRun(
  llc: string,
  run: Run,
): Promise<{ cells: number; diffs: Omit<Divergence, 'targets'>[] }> {
  const ctx: LowerCtx = {
    target: { name: run.proc.name, processor: run.proc, gpu: run.proc.gpu },
    mode: run.mode ?? 'cu',
    lang: run.lang,
    tgsplit: run.tgsplit,
  };
  const fns: string[] = [];
  const expected = new Map<string, { label: string; doc: string[]; rows: string[] }>();
  const rejectedCells: Omit<Divergence, 'targets'>[] = [];
  let n = 0;
  if (run.proc.table !== null) {
    for (const b of baseCells()) {
      for (const c of expandCell(b)) {
        if (run.lang === 'opencl' && !inOpenclRun(c)) continue;
        const r = lowerCell(c, ctx);
        if ('diagnostic' in r) continue;
        const fn = `c${n++}`;
        const rejected = llcRejects(c);
        if (rejected !== null) {
          // One rejected function fails the whole module: record llc's error instead of running it.
          rejectedCells.push({
            cell: cellLabel(c),
            doc: normaliseIsa(r.seq),
            llc: [`(llc-22 error: ${rejected})`],
            rows: r.rows,
          });
          continue;
        }
        fns.push(cellKernel(run.lang === 'opencl' ? openclCell(c) : c, fn));
        expected.set(fn, { label: cellLabel(c), doc: normaliseIsa(r.seq), rows: r.rows });
      }
    }
  }
  // Barriers do not depend on the language: HSA runs only.
  const objects = new Set<string>();
  for (const { b, objects: objs } of run.lang === 'hsa' ? BARRIER_CASES : []) {
    const instr: Instr = { kind: 'barrier', span: NO_SPAN, ...b, dst: null };
    const named = Object.fromEntries(objs.map((o, i) => [o, i + 1]));
    const r = lowerInstr(instr, { ...ctx, namedBarriers: named });
    const doc = 'diagnostic' in r ? [`(gpumm: ${r.diagnostic.code})`] : normaliseIsa(r.seq);
    const rows = 'diagnostic' in r ? [r.diagnostic.cite] : r.rows;
    const fails = llcBarrierFails(b.op, run.proc);
    if (fails !== null) {
      rejectedCells.push({ cell: barrierLabel(b), doc, llc: [`(llc-22 ${fails})`], rows });
      continue;
    }
    const fn = `b${n++}`;
    const k = barrierKernel(b, fn, objs);
    if (k === null) continue;
    for (const o of objs) objects.add(o);
    fns.push(k);
    expected.set(fn, { label: barrierLabel(b), doc, rows });
  }
  const module = `${namedBarrierDecls([...objects])}${fns.join('\n')}\n${MODULE_TAIL}`;
  const asm = await runLlc(llc, module, run.proc.name, run.mode, run.tgsplit);
  const got = splitFunctions(asm);
  const diffs: Omit<Divergence, 'targets'>[] = [...rejectedCells];
  for (const [fn, e] of expected) {
    const lines = got.get(fn);
    const llcSeq = lines === undefined ? ['(function missing from llc output)'] : normaliseAsm(lines);
    if (llcSeq.join('|') !== e.doc.join('|'))
      diffs.push({ cell: e.label, doc: e.doc, llc: llcSeq, rows: e.rows });
  }
  return { cells: expected.size + rejectedCells.length, diffs };
}

/** Runs the whole differential test: every run, two llc processes at a time, differences grouped. */
export async function differential(
  llc: string,
  concurrency = 2,
): Promise<{ cells: number; divergences: Divergence[] }> {
  const runs = differentialRuns();
  const results = await pool(
    runs.map((run) => () => diffRun(llc, run)),
    concurrency,
  );
  const groups = new Map<string, Divergence>();
  let cells = 0;
  results.forEach((res, i) => {
    const run = runs[i]!;
    cells += res.cells;
    const tname = runName(run);
    for (const d of res.diffs) {
      // The document row is part of the key: families can share a row label, sequences and cell.
      const key = [d.rows[0] ?? '', d.cell, d.doc.join('|'), d.llc.join('|')].join('\u0000');
      const g = groups.get(key);
      if (g) g.targets.push(tname);
      else groups.set(key, { ...d, targets: [tname] });
    }
  });
  const divergences = [...groups.values()].sort(
    (a, b) => a.cell.localeCompare(b.cell) || a.targets[0]!.localeCompare(b.targets[0]!),
  );
  return { cells, divergences };
}

/** One instruction of `--compare-llc`: gpumm's normalised sequence and llc's (null when not compiled). */
export interface LlcComparison {
  thread: string;
  instr: Instr;
  doc: string[];
  llc: string[] | null;
  /** Why llc's sequence is missing, when it is. */
  note: string | null;
  same: boolean;
  /** When they differ: the causes (src/lower/causes.ts) that explain it, or `unexplained`. */
  causes: string[];
}

/** One instruction of a comparison module: its kernel name (null when not compiled) and gpumm's sequence. */
interface ComparisonItem {
  thread: string;
  instr: Instr;
  fn: string | null;
  doc: string[];
  note: string | null;
  /** The table rows gpumm's sequence comes from, and the cell label (for the causes). */
  rows: string[];
  label: string;
}

/**
 * The LLVM module `--compare-llc` gives llc: one kernel per memory instruction or barrier of the
 * test, each keeping the metadata that can change code (`!nontemporal`, `!mmra`).
 */
export function comparisonModule(test: Test, ctx: LowerCtx): { module: string; items: ComparisonItem[] } {
  const fns: string[] = [];
  const items: ComparisonItem[] = [];
  // The named-barrier objects, in declaration order: gpumm numbers them so, and so does llc-22 when
  // every kernel uses all of them (barrierKernel).
  const objects = test.locations.filter((l) => l.barrier).map((l) => l.name);
  const lowered = lowerTest(test, ctx);
  let n = 0;
  for (const t of lowered) {
    for (const { instr, result: r } of t.instrs) {
      const av = instr.kind === 'avload' || instr.kind === 'avstore';
      // An av intrinsic is never compared: its access is shown with its 128-bit suffix, which the
      // comparison form drops.
      const doc = 'diagnostic' in r ? [] : av ? formatSeq(r.seq) : normaliseIsa(r.seq);
      let fn: string | null = null;
      let note: string | null = null;
      const cell = cellOf(instr);
      const rejected = cell === null ? null : llcRejects(cell);
      if ('diagnostic' in r) note = `not compared (${r.diagnostic.code})`;
      else if (rejected !== null) note = `llc-22 error: ${rejected}`;
      else if (av) note = `not compared: llc-22 ${LLC_AV_FAILS}`;
      else if (cell) {
        fn = `i${n++}`;
        const ir = ctx.lang === 'opencl' ? openclCell(cell) : cell;
        fns.push(cellKernel(ir, fn, { avNone: 'avNone' in instr && instr.avNone }));
      } else if (instr.kind === 'wavebarrier') {
        fn = `i${n++}`;
        fns.push(waveBarrierKernel(fn));
      } else if (instr.kind === 'barrier') {
        const k = barrierKernel(instr, `i${n}`, objects);
        if (k !== null) {
          fn = `i${n++}`;
          fns.push(k);
        } else note = 'no intrinsic to compile';
      }
      const rows = 'diagnostic' in r ? [] : r.rows;
      const label =
        cell !== null ? cellLabel(cell) : instr.kind === 'barrier' ? barrierLabel(instr) : instr.kind;
      items.push({ thread: t.thread, instr, fn, doc, note, rows, label });
    }
  }
  return {
    module: fns.length === 0 ? '' : `${namedBarrierDecls(objects)}${fns.join('\n')}\n${MODULE_TAIL}`,
    items,
  };
}

/** Per-instruction comparison of a test's lowering with llc's, for `gpumm lower --compare-llc`. */
export async function compareWithLlc(
  test: Test,
  ctx: LowerCtx,
  llc: string,
  timeoutMs = 0,
  signal?: AbortSignal,
): Promise<LlcComparison[]> {
  const { module, items } = comparisonModule(test, ctx);
  const proc = ctx.target.processor;
  const mode = proc.features.wgpMode ? ctx.mode : null;
  const tgsplit = proc.features.tgsplit && ctx.tgsplit === true;
  const asm = module === '' ? '' : await runLlc(llc, module, proc.name, mode, tgsplit, timeoutMs, signal);
  const got = splitFunctions(asm);
  const run = runName({ proc, lang: ctx.lang, mode, tgsplit });
  return items.map((it) => {
    const lines = it.fn === null ? undefined : got.get(it.fn);
    const llcSeq = lines === undefined ? null : normaliseAsm(lines);
    const same = llcSeq !== null && llcSeq.join('|') === it.doc.join('|');
    const causes =
      llcSeq === null || same
        ? []
        : classify({ row: it.rows[0] ?? '', targets: [run], cells: [it.label], doc: it.doc, llc: llcSeq });
    return { thread: it.thread, instr: it.instr, doc: it.doc, llc: llcSeq, note: it.note, same, causes };
  });
}
