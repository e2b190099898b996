/**
 * File access for the CLI, turning every failure into a diagnostic rather than a stack trace.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Span } from '../core/types.ts';
import { type Diagnostic, diag } from '../syntax/diagnostics.ts';

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
