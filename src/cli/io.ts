/**
 * File access for the CLI, turning every failure into a diagnostic rather than a stack trace.
 */
import { closeSync, fstatSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { diag, fileSpan, hasErrors, type SourceDiagnostic } from '../core/diagnostics.ts';
import type { Span, Test } from '../core/types.ts';
import { parseAnyTest, type Syntax } from '../run/syntaxes.ts';
import { parse } from '../syntax/parser.ts';
import type { AnyTest } from '../vulkan/ast.ts';
import { DEFAULT_ERROR_LIMIT, type DiagnosticPrinter, diagnosticPrinter } from './format.ts';

/** Why a file operation failed, in words: those given for its error code, else `what (CODE)`. */
export function failureWhy(e: unknown, words: Readonly<Record<string, string>>, what: string): string {
  const code = (e as NodeJS.ErrnoException).code ?? 'error';
  return words[code] ?? `${what} (${code})`;
}

/** What a file read by gpumm holds: a litmus test, a cat model or a code-sequence table (`check --table`). */
export type FileKind = 'litmus' | 'cat' | 'table';

/**
 * Index of the first byte of `bytes` that is not part of a well-formed UTF-8 sequence (RFC 3629:
 * no overlong forms, no surrogates, nothing above U+10FFFF), or -1 when every byte is.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const c = bytes[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    // The length of the sequence, and the range its second byte must be in (RFC 3629, section 4).
    let n: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) n = 2;
    else if (c >= 0xe0 && c <= 0xef) {
      n = 3;
      if (c === 0xe0) lo = 0xa0;
      if (c === 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      n = 4;
      if (c === 0xf0) lo = 0x90;
      if (c === 0xf4) hi = 0x8f;
    } else return i;
    if (i + n > bytes.length) return i;
    const second = bytes[i + 1]!;
    if (second < lo || second > hi) return i;
    for (let k = 2; k < n; k++) {
      const b = bytes[i + k]!;
      if (b < 0x80 || b > 0xbf) return i;
    }
    i += n;
  }
  return -1;
}

const MIB = 1024 * 1024;
/** Default largest input file, in MiB (`GPUMM_MAX_INPUT` raises it). */
export const DEFAULT_MAX_INPUT_MIB = 16;

/** The largest input file read, in bytes: `GPUMM_MAX_INPUT` MiB, else DEFAULT_MAX_INPUT_MIB. */
export function maxInputBytes(): number {
  const v = Number(process.env.GPUMM_MAX_INPUT);
  return (Number.isFinite(v) && v > 0 ? v : DEFAULT_MAX_INPUT_MIB) * MIB;
}

/**
 * The bytes of `file`, or null when it has more than `limit`: read in pieces, so `/dev/zero` or a
 * 2 GB file is refused after `limit` bytes, not read whole (a file's size is looked at first).
 */
export function readAtMost(file: string, limit: number): Buffer | null {
  const fd = openSync(file, 'r');
  try {
    const st = fstatSync(fd);
    if (st.isFile() && st.size > limit) return null;
    const parts: Buffer[] = [];
    let total = 0;
    for (;;) {
      const piece = Buffer.allocUnsafe(Math.min(1 << 20, limit + 1 - total));
      const n = readSync(fd, piece, 0, piece.length, null);
      if (n === 0) break;
      parts.push(piece.subarray(0, n));
      total += n;
      if (total > limit) return null;
    }
    return Buffer.concat(parts, total);
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads a file as UTF-8 text. A missing, unreadable or directory path, or bytes that are not UTF-8
 * (a binary file, a Latin-1 one), become a diagnostic and a short reason (`why`, for a message about
 * another file, such as an include); for the last, `text` is the file decoded with replacement
 * characters, for the line the diagnostic quotes.
 */
export function readSource(
  file: string,
  kind: FileKind = 'litmus',
): { text: string } | { diagnostic: SourceDiagnostic; why: string; text?: string } {
  let bytes: Buffer;
  try {
    if (statSync(file).isDirectory()) {
      return { diagnostic: diag('CL1002', fileSpan(file), { file, kind }), why: 'it is a directory' };
    }
    const max = maxInputBytes();
    const read = readAtMost(file, max);
    if (read === null) {
      const limit = `${max / MIB} MiB`;
      return {
        diagnostic: diag('CL1008', fileSpan(file), { file, limit }),
        why: `it is larger than ${limit}`,
      };
    }
    bytes = read;
  } catch (e) {
    const why = failureWhy(e, { ENOENT: 'no such file', EACCES: 'permission denied' }, 'cannot be read');
    return { diagnostic: diag('CL1001', fileSpan(file), { file, why, kind }), why };
  }
  const text = bytes.toString('utf8');
  const bad = firstInvalidUtf8(bytes);
  if (bad < 0) return { text };
  // The place of the bad byte in the decoded text: the valid prefix decodes the same either way.
  const before = bytes.subarray(0, bad).toString('utf8');
  const lineStart = before.lastIndexOf('\n') + 1;
  const span: Span = {
    file,
    offset: before.length,
    line: (before.match(/\n/g)?.length ?? 0) + 1,
    col: before.length - lineStart + 1,
    len: 1,
  };
  const byte = `0x${bytes[bad]!.toString(16).padStart(2, '0')}`;
  return {
    diagnostic: diag('CL1005', span, { file, byte, kind }),
    why: `it is not UTF-8 text (byte ${byte} at ${span.line}:${span.col})`,
    text,
  };
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
function loadWith<P extends { test: unknown; diagnostics: SourceDiagnostic[] }, L>(
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
      printer.print([src.diagnostic], src.text);
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
 * and the Khronos `.test` format, chosen by extension and content (src/run/syntaxes.ts).
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
