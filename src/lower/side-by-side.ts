/**
 * One test lowered for several targets at once — AMDGPU and Intel Xe side by side — as data, as
 * terminal text (one column per target under each IR instruction) and as JSON. `gpumm lower --target
 * gfx942,pvc FILE` prints it; the web explorer can show the same data. No Node APIs here.
 */

import type { Instr, Test } from '../core/types.ts';
import { printInstr } from '../syntax/printer.ts';
import { formatSeq } from './isa.ts';
import type { SideBySideJson } from './json.ts';
import { loweredJsonOf } from './json.ts';
import { lowerTest } from './lower.ts';
import type { LowerCtx, LowerResult } from './types.ts';

/** One IR instruction and its lowering on each target, in target order. */
export interface SideBySideInstr {
  instr: Instr;
  results: LowerResult[];
}

export interface SideBySide {
  contexts: LowerCtx[];
  threads: { thread: string; instrs: SideBySideInstr[] }[];
}

/** Lowers every thread of a test for each context. */
export function lowerSideBySide(test: Test, contexts: readonly LowerCtx[]): SideBySide {
  const per = contexts.map((ctx) => lowerTest(test, ctx));
  return {
    contexts: [...contexts],
    threads: test.threads.map((t, ti) => ({
      thread: t.name,
      instrs: t.body.map((instr, ii) => ({ instr, results: per.map((p) => p[ti]!.instrs[ii]!.result) })),
    })),
  };
}

/** `gfx1200 (GFX12, dGPU, WGP mode, HSA)`, `pvc (Xe-HPC, dGPU, OpenCL/SPIR-V)`: a run's target and settings. */
export function describeCtx(ctx: LowerCtx): string {
  const p = ctx.target.processor;
  if (p.vendor === 'Intel') return `${ctx.target.name} (${p.generation}, ${ctx.target.gpu}, OpenCL/SPIR-V)`;
  const mode = p.features.wgpMode
    ? `, ${ctx.mode.toUpperCase()} mode`
    : p.features.tgsplit && ctx.tgsplit
      ? ', TgSplit mode'
      : '';
  return `${ctx.target.name} (${p.generation}, ${ctx.target.gpu}${mode}, ${ctx.lang === 'hsa' ? 'HSA' : 'OpenCL'})`;
}

/**
 * The machine-code lines of one result, as the single-target listing prints them: one per instruction
 * (a multi-line wait or a generic dispatch on several lines), `(nothing)` for an instruction that
 * lowers to no code by a rule, nothing for one outside the tables (arithmetic), `(no code: LWxxxx)`.
 */
export function codeLines(r: LowerResult): string[] {
  if ('diagnostic' in r) return [`(no code: ${r.diagnostic.code})`];
  const asm = formatSeq(r.seq).flatMap((l) => l.split('; '));
  if (asm.length === 0 && r.rows.length > 0) return ['(nothing)'];
  return asm;
}

/**
 * Text of a side-by-side lowering: per thread a header with the target names, then each IR instruction
 * followed by its code, one column per target (` | ` between columns, widths fitted to the whole test).
 * With `explain`, each target's rows (and `notes`, e.g. llc-22's recorded divergences) follow, prefixed
 * by the target name.
 */
export function renderSideBySide(
  sbs: SideBySide,
  explain: boolean,
  notes: (target: number, instr: Instr) => string[] = () => [],
): string {
  const names = sbs.contexts.map((c) => c.target.name);
  const widths = names.map((n) => n.length);
  for (const t of sbs.threads)
    for (const i of t.instrs)
      i.results.forEach((r, k) => {
        for (const l of codeLines(r)) widths[k] = Math.max(widths[k]!, l.length);
      });
  const row = (cells: string[]): string =>
    `      ${cells.map((c, k) => (k === cells.length - 1 ? c : c.padEnd(widths[k]!))).join(' | ')}`.trimEnd();
  const out: string[] = [];
  for (const t of sbs.threads) {
    out.push(`${t.thread}:`, row(names));
    for (const { instr, results } of t.instrs) {
      out.push(`  ${printInstr(instr)}`);
      const lines = results.map(codeLines);
      const n = Math.max(...lines.map((l) => l.length));
      for (let j = 0; j < n; j++) out.push(row(lines.map((l) => l[j] ?? '')));
      if (!explain) continue;
      results.forEach((r, k) => {
        const rows = 'diagnostic' in r ? [r.diagnostic.message] : r.rows;
        for (const x of [...rows, ...notes(k, instr)]) out.push(`      ; ${names[k]}: ${x}`);
      });
    }
  }
  return `${out.join('\n')}\n`;
}

/** JSON form of a side-by-side lowering (schema: `SideBySideJsonSchema` in json.ts). */
export function sideBySideJson(sbs: SideBySide): SideBySideJson {
  return {
    targets: sbs.contexts.map((ctx) => {
      const p = ctx.target.processor;
      return {
        target: ctx.target.name,
        processor: p.name,
        vendor: p.vendor,
        generation: p.generation,
        mode: p.features.wgpMode ? ctx.mode : null,
        tgsplit: p.features.tgsplit ? ctx.tgsplit === true : null,
        lang: p.vendor === 'Intel' ? 'opencl' : ctx.lang,
      };
    }),
    threads: sbs.threads.map((t) => ({
      thread: t.thread,
      instrs: t.instrs.map(({ instr, results }) => ({
        ir: printInstr(instr),
        span: instr.span,
        results: results.map(loweredJsonOf),
      })),
    })),
  };
}
