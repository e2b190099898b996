/**
 * File access for the CLI, turning every failure into a diagnostic rather than a stack trace.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Span, Test } from '../core/types.ts';
import { type Diagnostic, diag, hasErrors } from '../syntax/diagnostics.ts';
import { parse } from '../syntax/parser.ts';
import type { AnyTest } from '../vulkan/ast.ts';
import { parseAnyTest, type Syntax } from '../vulkan/detect.ts';
import { DEFAULT_ERROR_LIMIT, type DiagnosticPrinter, diagnosticPrinter } from './format.ts';

export function fileSpan(file: string): Span {
  return { file, offset: 0, line: 1, col: 1, len: 0 };
}

/** Reads a litmus file; a missing or unreadable file becomes a diagnostic. */
export function readSource(file: string): { text: string } | { diagnostic: Diagnostic } {
  try {
    if (statSync(file).isDirectory()) {
      return { diagnostic: diag('CL1002', fileSpan(file), { file }) };
    }
    return { text: readFileSync(file, 'utf8') };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EACCES'
          ? 'permission denied'
          : `cannot be read (${code ?? 'error'})`;
    return { diagnostic: diag('CL1001', fileSpan(file), { file, why }) };
  }
}

/** The `.litmus` files under a folder, sorted, searched recursively. */
export function litmusFilesIn(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.litmus')) out.push(p);
    }
  };
  walk(dir);
  return out;
}

/** A litmus file that read and parsed without errors. */
export interface LoadedTest {
  file: string;
  text: string;
  test: Test;
}

/** A printer of diagnostics to stderr that stops after `limit` errors (0: never). */
export function stderrPrinter(limit = DEFAULT_ERROR_LIMIT): DiagnosticPrinter {
  return diagnosticPrinter(limit, (text) => process.stderr.write(text));
}

/**
 * Reads every file and parses it with `parseFile`, giving each file's diagnostics (warnings
 * included) to `printer`. `ok` is false when some file could not be read or has errors; the caller
 * then exits 2 before writing anything (nothing half-written).
 */
function loadWith<P extends { test: unknown; diagnostics: Diagnostic[] }, L>(
  files: readonly string[],
  printer: DiagnosticPrinter,
  parseFile: (text: string, file: string) => P,
  keep: (file: string, text: string, parsed: P & { test: NonNullable<P['test']> }) => L,
): { loaded: L[]; ok: boolean } {
  const loaded: L[] = [];
  let ok = true;
  for (const file of files) {
    const src = readSource(file);
    if ('diagnostic' in src) {
      printer.print([src.diagnostic]);
      ok = false;
      continue;
    }
    const parsed = parseFile(src.text, file);
    printer.print(parsed.diagnostics, src.text);
    if (!parsed.test || hasErrors(parsed.diagnostics)) {
      ok = false;
      continue;
    }
    loaded.push(keep(file, src.text, parsed as P & { test: NonNullable<P['test']> }));
  }
  return { loaded, ok };
}

/** Reads and parses every file in gpumm's own language (see `loadWith`). */
export function loadTests(
  files: readonly string[],
  printer: DiagnosticPrinter,
): { loaded: LoadedTest[]; ok: boolean } {
  return loadWith(files, printer, parse, (file, text, p) => ({ file, text, test: p.test }));
}

/** A test file of any syntax gpumm reads that read and parsed without errors. */
export interface LoadedAnyTest {
  file: string;
  text: string;
  test: AnyTest;
  syntax: Syntax;
}

/**
 * As `loadTests`, for every syntax gpumm reads: gpumm's own (AMDGPU), Dartagnan's Vulkan syntax
 * and the Khronos `.test` format, chosen by extension and content (src/vulkan/detect.ts).
 */
export function loadAnyTests(
  files: readonly string[],
  printer: DiagnosticPrinter,
): { loaded: LoadedAnyTest[]; ok: boolean } {
  return loadWith(files, printer, parseAnyTest, (file, text, p) => ({
    file,
    text,
    test: p.test,
    syntax: p.syntax,
  }));
}
