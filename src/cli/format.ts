/**
 * Turns diagnostics into text for a terminal: `file:line:col: error LT2005: message`, the source
 * line with a caret under the span, and the hint.
 */
import type { Span } from '../core/types.ts';

/**
 * What the formatter needs of a diagnostic. Every stage's diagnostics fit: the litmus front end's
 * (LT…, CL…), the model's (MD…) and the lowering's (LW…).
 */
export interface Printable {
  code: string;
  severity: 'error' | 'warning';
  message: string;
  hint?: string | undefined;
  span: Span;
}

export function formatDiagnostic(d: Printable, source?: string): string {
  const { file, line, col, len } = d.span;
  const head = `${file}:${line}:${col}: ${d.severity} ${d.code}: ${d.message}`;
  const lines = [head];
  if (source !== undefined) {
    const text = source.split(/\r?\n/)[line - 1];
    if (text !== undefined && text.trim() !== '') {
      const gutter = String(line).padStart(4);
      lines.push(`${gutter} | ${text}`);
      const caretLen = Math.max(1, Math.min(len, Math.max(1, text.length - col + 1)));
      lines.push(`${' '.repeat(gutter.length)} | ${' '.repeat(Math.max(0, col - 1))}${'^'.repeat(caretLen)}`);
    }
  }
  if (d.hint) lines.push(`  hint: ${d.hint}`);
  return lines.join('\n');
}

/** Formats every diagnostic of one file, in order. */
export function formatDiagnostics(ds: readonly Printable[], source?: string): string {
  return ds.map((d) => formatDiagnostic(d, source)).join('\n');
}
