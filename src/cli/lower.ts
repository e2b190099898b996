/**
 * `gpumm lower FILE --target gfx1200 [--wgp|--cu] [--opencl] [--explain] [--json]`: per thread,
 * each IR instruction followed by the machine code it lowers to (and with `--explain`, the spec rows
 * it came from). `--target gfx942,pvc` (any list, AMDGPU and Intel Xe) puts each target's code side by
 * side under each instruction. `gpumm lower --table --target X` prints the target's whole table as a
 * grid, from the same data the lowering uses. `--compare-llc [path]` also runs llc-22 and prints the
 * difference (AMDGPU only).
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Command, Option } from 'commander';
import { hasErrors } from '../core/diagnostics.ts';
import type { Instr, Test } from '../core/types.ts';
import { causeById } from '../lower/causes.ts';
import {
  type DivergenceGroup,
  findDivergence,
  parseDivergenceBaseline,
  seqDiff,
} from '../lower/divergences.ts';
import { renderGrid } from '../lower/grid.ts';
import { formatSeq } from '../lower/isa.ts';
import {
  gridJsonText,
  type LowerJson,
  LowerJsonSchema,
  loweredJsonOf,
  SideBySideJsonSchema,
} from '../lower/json.ts';
import {
  barrierLabel,
  cellLabel,
  compareWithLlc,
  findLlc,
  type LlcComparison,
  runName,
} from '../lower/llc.ts';
import { cellOf, type LoweredThread, lowerTest } from '../lower/lower.ts';
import { describeCtx, lowerSideBySide, renderSideBySide, sideBySideJson } from '../lower/side-by-side.ts';
import { DEFAULT_TARGET, findTarget, nearestTargetNames, type Target } from '../lower/targets.ts';
import { type LowerCtx, type LowerDiagnostic, type LowerResult, lowerDiag } from '../lower/types.ts';
import { parseAnyTest } from '../run/syntaxes.ts';
import { printInstr } from '../syntax/printer.ts';
import { formatDiagnostics, jsonText } from './format.ts';
import { readSource, stderrPrinter } from './io.ts';
import { CliExit, commandLineSpan, commandLineText, errorLimitOption } from './shared.ts';

interface LowerOptions {
  target?: string;
  wgp?: boolean;
  cu?: boolean;
  tgsplit?: boolean;
  opencl?: boolean;
  explain?: boolean;
  json?: boolean;
  table?: boolean;
  compareLlc?: string | boolean;
  errorLimit: number;
  /** Vulkan tests: Device scope as AMDGPU system (default) or agent scope. */
  deviceScope?: 'system' | 'agent';
}

/** Prints a lowering diagnostic and exits 2; one about the command line quotes it, as every command's do. */
export function fail(d: LowerDiagnostic, source?: string): never {
  const text = d.span === undefined || d.span.file === '<command-line>' ? commandLineText() : source;
  process.stderr.write(`${formatDiagnostics([d], text)}\n`);
  throw new CliExit(2);
}

/** Looks a `--target` name up, or exits 2 with LW2001 and the nearest known names. */
function targetNamed(name: string): Target {
  const target: Target | null = findTarget(name);
  if (!target) {
    fail(
      lowerDiag('LW2001', [name, nearestTargetNames(name).join(', ')], commandLineSpan(name), 'targets.ts'),
    );
  }
  return target;
}

/** Resolves the options into a lowering context for one target, or exits 2 with a diagnostic. */
export function contextFromOptions(opts: Omit<LowerOptions, 'errorLimit'>): LowerCtx {
  const name = opts.target ?? DEFAULT_TARGET;
  if (name.includes(',')) {
    fail(
      lowerDiag(
        'LW2009',
        ['--target with several targets', 'this command', 'give one target; gpumm lower compares several'],
        commandLineSpan(name),
        '',
      ),
    );
  }
  const target = targetNamed(name);
  bothModesFail(opts);
  if ((opts.wgp || opts.cu) && !target.processor.features.wgpMode) modeFlagFails(opts, [target]);
  if (opts.tgsplit && !target.processor.features.tgsplit) tgsplitFails([target]);
  return ctxFor(target, opts);
}

/** The lowering context of a target under the options (modes it lacks left at their defaults). */
function ctxFor(target: Target, opts: Omit<LowerOptions, 'errorLimit'>): LowerCtx {
  const intel = target.processor.vendor === 'Intel';
  return {
    target,
    mode: opts.cu ? 'cu' : 'wgp',
    // Intel's lowering follows the OpenCL/SPIR-V built-ins whatever the language.
    lang: intel || opts.opencl ? 'opencl' : 'hsa',
    tgsplit: opts.tgsplit === true && target.processor.features.tgsplit,
  };
}

function listed(targets: readonly Target[]): string {
  return targets.map((t) => `${t.name} (${t.processor.generation})`).join(', ');
}

/** `--cu` and `--wgp` together: exits 2. */
function bothModesFail(opts: Omit<LowerOptions, 'errorLimit'>): void {
  if (!opts.wgp || !opts.cu) return;
  fail(
    lowerDiag(
      'LW2009',
      ['--cu', 'a run that also says --wgp', 'give one of --cu and --wgp'],
      commandLineSpan('--cu'),
      '',
    ),
  );
}

function modeFlagFails(opts: Omit<LowerOptions, 'errorLimit'>, targets: readonly Target[]): never {
  const flag = opts.wgp ? '--wgp' : '--cu';
  const intel = targets.every((t) => t.processor.vendor === 'Intel');
  fail(
    lowerDiag(
      'LW2009',
      [
        flag,
        listed(targets),
        intel
          ? 'Intel Xe targets have no CU/WGP wavefront modes'
          : 'CU/WGP wavefront modes exist on GFX10 to GFX12 (GFX12.5 has one mode)',
      ],
      commandLineSpan(flag),
      'gfx12-memory-model.rst, "Wavefronts can be executed in WGP or CU wavefront execution mode"',
    ),
  );
}

function tgsplitFails(targets: readonly Target[]): never {
  fail(
    lowerDiag(
      'LW2009',
      ['--tgsplit', listed(targets), 'TgSplit execution mode exists on gfx90a, gfx942 and gfx950'],
      commandLineSpan('--tgsplit'),
      'AMDGPUUsage (f5c8b0a9) "Memory Model GFX90A"/"Memory Model GFX942": "tgsplit execution mode"',
    ),
  );
}

/**
 * The contexts of `--target A,B,…` (one, as `contextFromOptions`, for a single name). With several
 * targets a mode flag applies to the targets that have the mode, and is an error only when none has it.
 */
export function contextsFromOptions(opts: Omit<LowerOptions, 'errorLimit'>): LowerCtx[] {
  const names = (opts.target ?? DEFAULT_TARGET).split(',').map((n) => n.trim());
  if (names.includes(''))
    fail(lowerDiag('LW2016', [opts.target ?? ''], commandLineSpan(opts.target ?? ''), 'targets.ts'));
  if (names.length === 1) return [contextFromOptions(opts)];
  // Aliases of one processor are one target (its columns would be the same): compared by processor.
  const seen = new Map<Target['processor'], string>();
  const targets: Target[] = [];
  for (const name of names) {
    const target = targetNamed(name);
    const first = seen.get(target.processor);
    if (first !== undefined) {
      const as = first === target.name ? `"${first}" twice` : `"${first}" and "${target.name}"`;
      fail(
        lowerDiag('LW2015', [target.processor.name, as], commandLineSpan(opts.target ?? ''), 'targets.ts'),
      );
    }
    seen.set(target.processor, target.name);
    targets.push(target);
  }
  bothModesFail(opts);
  if ((opts.wgp || opts.cu) && !targets.some((t) => t.processor.features.wgpMode))
    modeFlagFails(opts, targets);
  if (opts.tgsplit && !targets.some((t) => t.processor.features.tgsplit)) tgsplitFails(targets);
  return targets.map((t) => ctxFor(t, opts));
}

/**
 * With `--explain`: what llc-22 emits instead for an instruction on this run, and why, from the
 * differential test's record (src/lower/baselines/llc-divergences.txt); nothing when llc-22 agrees.
 */
export function llcNotes(groups: readonly DivergenceGroup[], ctx: LowerCtx): (instr: Instr) => string[] {
  const p = ctx.target.processor;
  const run = runName({
    proc: p,
    lang: ctx.lang,
    mode: p.features.wgpMode ? ctx.mode : null,
    tgsplit: p.features.tgsplit && ctx.tgsplit === true,
  });
  return (instr) => {
    if ('avNone' in instr && instr.avNone) return []; // not a cell of the differential test
    const cell = cellOf(instr);
    const label =
      cell !== null
        ? cellLabel(cell)
        : instr.kind === 'barrier' && instr.object === null
          ? barrierLabel(instr)
          : null;
    if (label === null) return [];
    const g = findDivergence(groups, run, label);
    if (g === null) return [];
    return [
      `llc-22 -O0 emits instead: ${g.llc.join('; ') || '(nothing)'}`,
      ...g.causes.flatMap((id) =>
        id === 'unexplained'
          ? ['why: not explained']
          : [`why (${id}): ${causeById(id).what}`, `where: ${causeById(id).where}`],
      ),
    ];
  };
}

/** Text of a lowered test: each IR instruction, then its machine code indented under it. */
export function renderLowered(
  threads: LoweredThread[],
  explain: boolean,
  notes: (instr: Instr) => string[] = () => [],
): string {
  const out: string[] = [];
  for (const t of threads) {
    out.push(`${t.thread}:`);
    for (const { instr, result } of t.instrs) {
      out.push(`  ${printInstr(instr)}`);
      if ('diagnostic' in result) {
        out.push(`      ; no code sequence (${result.diagnostic.code}: ${result.diagnostic.message})`);
        continue;
      }
      const asm = formatSeq(result.seq).flatMap((l) => l.split('; '));
      if (asm.length === 0 && result.rows.length > 0) out.push('      (nothing)');
      for (const l of asm) out.push(`      ${l}`);
      if (explain) {
        for (const r of result.rows) out.push(`      ; ${r}`);
        for (const n of notes(instr)) out.push(`      ; ${n}`);
      }
    }
  }
  return `${out.join('\n')}\n`;
}

/** JSON form of a lowered test (schema: `LowerJsonSchema` in src/lower/json.ts). */
export function loweredJson(threads: LoweredThread[], ctx: LowerCtx): LowerJson {
  return {
    target: ctx.target.name,
    processor: ctx.target.processor.name,
    mode: ctx.target.processor.features.wgpMode ? ctx.mode : null,
    tgsplit: ctx.target.processor.features.tgsplit ? ctx.tgsplit === true : null,
    lang: ctx.target.processor.vendor === 'Intel' ? 'opencl' : ctx.lang,
    threads: threads.map((t) => ({
      thread: t.thread,
      instrs: t.instrs.map(({ instr, result }) => ({
        ir: printInstr(instr),
        span: instr.span,
        ...loweredJsonOf(result),
      })),
    })),
  };
}

/** Text of `--compare-llc`: each instruction, both normalised sequences, and what differs. */
export function renderComparison(cmp: readonly LlcComparison[]): string {
  const out: string[] = [];
  let thread = '';
  for (const c of cmp) {
    if (c.thread !== thread) {
      thread = c.thread;
      out.push(`${thread}:`);
    }
    out.push(`  ${printInstr(c.instr)}`);
    if (c.llc === null && c.note === null) continue; // nothing to compare (not a memory instruction)
    out.push(`      gpumm: ${c.doc.join('; ') || '(nothing)'}`);
    out.push(`      llc:   ${c.llc === null ? `(${c.note})` : c.llc.join('; ') || '(nothing)'}`);
    if (c.llc !== null && !c.same) {
      // Hunks of a longest common subsequence: a repeated or moved instruction is shown as such.
      for (const h of seqDiff(c.doc, c.llc))
        out.push(`      differs: gpumm ${h.doc.join('; ') || '—'}  →  llc ${h.llc.join('; ') || '—'}`);
      for (const id of c.causes)
        out.push(
          ...(id === 'unexplained'
            ? ['      why: no recorded cause explains it']
            : [`      why (${id}): ${causeById(id).what}`, `      where: ${causeById(id).where}`]),
        );
    }
  }
  return `${out.join('\n')}\n`;
}

/** The diagnostics of one result: its error or warning, or the warnings of its lowering. */
function problemsOf(r: LowerResult): LowerDiagnostic[] {
  return 'diagnostic' in r ? [r.diagnostic] : (r.warnings ?? []);
}

/** Diagnostics once each (several targets report the same annotation or missing row). */
function dedupe(ds: LowerDiagnostic[]): LowerDiagnostic[] {
  const seen = new Set<string>();
  return ds.filter((d) => {
    const key = `${d.code}|${d.message}|${d.span?.offset ?? -1}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The differential test's record of where llc-22 differs (read once, for `--explain`). */
function recordedDivergences(): DivergenceGroup[] {
  const file = join(import.meta.dirname, '..', '..', 'src', 'lower', 'baselines', 'llc-divergences.txt');
  return parseDivergenceBaseline(readFileSync(file, 'utf8'));
}

/** Registers `gpumm lower`. */
export function registerLower(program: Command): void {
  program
    .command('lower')
    .description(
      'show the machine code (AMDGPU, Intel Xe) each instruction of a litmus test lowers to, for one target or several side by side',
    )
    .argument('[file]', 'litmus file (gpumm, Dartagnan Vulkan or Khronos .test syntax)')
    .option(
      '-t, --target <name>',
      `processor (gfx600 … gfx1251, gfx90a, gfx942, gfx950, aliases such as fiji; Intel dg2, mtl, arl, pvc, lnl, bmg, ptl), or a comma list to compare side by side (gfx942,pvc); default ${DEFAULT_TARGET}`,
    )
    .option('--wgp', 'WGP wavefront execution mode (GFX10–GFX12; the default there)')
    .option('--cu', 'CU wavefront execution mode (GFX10–GFX12)')
    .option('--tgsplit', 'TgSplit execution mode (gfx90a, gfx942, gfx950; off by default)')
    .option('--opencl', 'OpenCL address-space rules instead of HSA')
    .option('--explain', 'print the spec table rows each sequence comes from')
    .option(
      '--json',
      'print JSON (schemas in src/lower/json.ts: LowerJsonSchema; GridJsonSchema with --table)',
    )
    .option('--table', "print the target's whole code-sequence table as a grid")
    .addOption(errorLimitOption())
    .option('--compare-llc [path]', 'also run llc-22 (or the llc at path) and print the difference')
    .addOption(
      new Option(
        '--device-scope <scope>',
        "Vulkan tests: the AMDGPU scope of Vulkan's Device scope (docs/model-vulkan.md)",
      )
        .choices(['system', 'agent'])
        .default('system'),
    )
    .action(async (file0: string | undefined, opts: LowerOptions) => {
      let file = file0;
      // `--compare-llc FILE.litmus`: the option's optional path took the test file. No llc is named
      // `*.litmus`: it is the file, compared with the llc-22 on the PATH.
      if (
        file === undefined &&
        typeof opts.compareLlc === 'string' &&
        /\.(litmus|test)$/.test(opts.compareLlc)
      ) {
        file = opts.compareLlc;
        opts.compareLlc = true;
      }
      // A reader that stops early (`| head`) is not an error.
      process.stdout.on('error', (e: NodeJS.ErrnoException) => {
        if (e.code === 'EPIPE') process.exit(0);
        throw e;
      });
      const ctxs = contextsFromOptions(opts);
      const ctx = ctxs[0]!;
      if (opts.table) {
        if (ctxs.length > 1) {
          fail(
            lowerDiag(
              'LW2009',
              ['--table', 'several targets', 'give one target with --table'],
              commandLineSpan('--table'),
              '',
            ),
          );
        }
        if (file !== undefined) {
          fail(
            lowerDiag(
              'LW2009',
              ['--table', 'a litmus file', 'use either --table or FILE'],
              commandLineSpan(file),
              '',
            ),
          );
        }
        if (ctx.target.processor.table === null) {
          const p = ctx.target.processor;
          fail(
            lowerDiag(
              'LW2005',
              [ctx.target.name, p.generation],
              commandLineSpan(ctx.target.name),
              'docs/targets/README.md',
            ),
          );
        }
        if (opts.tgsplit) {
          fail(
            lowerDiag(
              'LW2009',
              ['--tgsplit', '--table', 'the grid already has TgSplit columns'],
              commandLineSpan('--tgsplit'),
              '',
            ),
          );
        }
        if (opts.json) {
          process.stdout.write(gridJsonText(ctx.target));
        } else process.stdout.write(renderGrid(ctx.target));
        return;
      }
      if (ctxs.length > 1 && opts.compareLlc !== undefined && opts.compareLlc !== false) {
        fail(
          lowerDiag(
            'LW2009',
            ['--compare-llc', 'several targets', 'compare one AMDGPU target with llc-22 at a time'],
            commandLineSpan('--compare-llc'),
            '',
          ),
        );
      }
      if (
        opts.compareLlc !== undefined &&
        opts.compareLlc !== false &&
        ctx.target.processor.vendor === 'Intel'
      ) {
        fail(
          lowerDiag(
            'LW2009',
            [
              '--compare-llc',
              `${ctx.target.name} (Intel ${ctx.target.processor.generation})`,
              "llc-22 has no Intel Xe backend: the Intel lowering follows Intel's graphics compiler (docs/targets/intel.md)",
            ],
            commandLineSpan('--compare-llc'),
            '',
          ),
        );
      }
      if (file === undefined) fail(lowerDiag('LW2011', [], null, ''));
      const src = readSource(file);
      if ('diagnostic' in src) {
        process.stderr.write(`${formatDiagnostics([src.diagnostic], src.text)}\n`);
        throw new CliExit(2);
      }
      const parsed = parseAnyTest(src.text, file);
      const printer = stderrPrinter(opts.errorLimit);
      printer.print(parsed.diagnostics, src.text);
      if (!parsed.test || hasErrors(parsed.diagnostics)) {
        printer.finish();
        throw new CliExit(2);
      }
      // A Vulkan test lowers as its AMDGPU translation (docs/model-vulkan.md).
      const { prepareOrSay } = await import('./models.ts');
      const { inLanguage } = await import('../run/runner.ts');
      const prepared = await prepareOrSay(
        { prepare: (t, o) => inLanguage(t, 'amdgpu', o) },
        parsed.test,
        src.text,
        opts.deviceScope ?? 'system',
      );
      if (!prepared) throw new CliExit(2);
      const test = prepared.test as Test;
      if (ctxs.length > 1) {
        const sbs = lowerSideBySide(test, ctxs);
        const found = dedupe(
          sbs.threads.flatMap((t) => t.instrs.flatMap((i) => i.results.flatMap(problemsOf))),
        );
        printer.print(found, src.text);
        printer.finish();
        if (found.some((d) => d.severity === 'error')) throw new CliExit(2);
        if (opts.json) {
          process.stdout.write(`${jsonText(SideBySideJsonSchema.parse(sideBySideJson(sbs)))}\n`);
          return;
        }
        const groups = opts.explain ? recordedDivergences() : [];
        const notes = ctxs.map((c) =>
          opts.explain && c.target.processor.llc ? llcNotes(groups, c) : () => [],
        );
        process.stdout.write(
          `; ${test.name} lowered for ${ctxs.map(describeCtx).join(' | ')}\n${renderSideBySide(
            sbs,
            opts.explain ?? false,
            (k, instr) => notes[k]!(instr),
          )}`,
        );
        return;
      }
      const threads = lowerTest(test, ctx);
      const found = threads.flatMap((t) => t.instrs.flatMap((i) => problemsOf(i.result)));
      printer.print(found, src.text);
      printer.finish();
      // Nothing half-written: any error means no output at all. Warnings (no table row, an annotation the
      // target gives no meaning) still lower.
      if (found.some((d) => d.severity === 'error')) throw new CliExit(2);
      if (opts.compareLlc !== undefined && opts.compareLlc !== false) {
        const llc = findLlc(typeof opts.compareLlc === 'string' ? opts.compareLlc : undefined);
        if ('reason' in llc) {
          fail(
            lowerDiag(
              'LW2009',
              ['--compare-llc', 'this machine', llc.reason],
              commandLineSpan('--compare-llc'),
              '',
            ),
          );
        }
        if (!ctx.target.processor.llc) {
          fail(
            lowerDiag(
              'LW2009',
              [
                '--compare-llc',
                ctx.target.name,
                'llc-22 does not accept this processor (see docs/targets/README.md)',
              ],
              commandLineSpan('--compare-llc'),
              '',
            ),
          );
        }
        let cmp: LlcComparison[];
        try {
          cmp = await compareWithLlc(test, ctx, llc.path);
        } catch (e) {
          const why = e instanceof Error ? e.message.split('\n')[0]! : String(e);
          fail(
            lowerDiag(
              'LW2009',
              ['--compare-llc', ctx.target.name, why],
              commandLineSpan('--compare-llc'),
              '',
            ),
          );
        }
        if (opts.json) {
          const llcJson = cmp.map(({ instr, ...rest }) => ({ ir: printInstr(instr), ...rest }));
          const out = LowerJsonSchema.parse({ ...loweredJson(threads, ctx), llc: llcJson });
          process.stdout.write(`${jsonText(out)}\n`);
        } else {
          // llc-22 has no OpenCL switch: OpenCL atomics are compiled with -one-as syncscopes (llc.ts, openclCell).
          const how = ctx.lang === 'opencl' ? ' (OpenCL: atomics compiled -one-as, seq_cst as written)' : '';
          process.stdout.write(`; ${describeCtx(ctx)}, compared with llc-22${how}\n${renderComparison(cmp)}`);
        }
        return;
      }
      if (opts.json) {
        process.stdout.write(`${jsonText(LowerJsonSchema.parse(loweredJson(threads, ctx)))}\n`);
      } else
        process.stdout.write(
          `; ${test.name} lowered for ${describeCtx(ctx)}\n${renderLowered(
            threads,
            opts.explain ?? false,
            opts.explain && ctx.target.processor.llc ? llcNotes(recordedDivergences(), ctx) : undefined,
          )}`,
        );
    });
}
