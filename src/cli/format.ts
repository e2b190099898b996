/**
 * Turns diagnostics into text for a terminal: `file:line:col: error LT2005: message`, the source
 * line with a caret under the span, and the hint.
 *
 * Whatever comes from the input is escaped before it reaches the terminal (a hostile file must not
 * recolour or rewrite the screen), long source lines are shown as a window around the caret, and
 * `diagnosticPrinter` stops after an error limit, as compilers do.
 */

import { clipQuote, type Diagnostic, fileSpan } from '../core/diagnostics.ts';
import { escapeOf, escapeText } from '../core/escape.ts';
import type { Span } from '../core/types.ts';

export { escapeText, jsonText, outputText } from '../core/escape.ts';

/** Columns of source shown under a diagnostic; a longer line is cut to a window around the caret. */
export const SOURCE_WINDOW = 100;
/** Tab stops of the echoed source line (clang's -ftabstop default), so the caret lines up. */
const TAB_STOP = 8;

/** One shown piece of a source line: the text shown, its width in columns, its offset in the line. */
interface Cell {
  shown: string;
  from: number;
  col: number;
  width: number;
}

/** The line as shown: tabs expanded, controls escaped; `cells` maps line offsets to columns. */
function cellsOf(text: string): { cells: Cell[]; width: number } {
  const cells: Cell[] = [];
  let col = 0;
  let i = 0;
  while (i < text.length) {
    const cp = text.codePointAt(i)!;
    const units = cp > 0xffff ? 2 : 1;
    let shown: string;
    if (cp === 0x09) shown = ' '.repeat(TAB_STOP - (col % TAB_STOP));
    else shown = escapeOf(cp) ?? text.slice(i, i + units);
    // A code point counts one column, an escape or an expanded tab as many as it has characters.
    const width = escapeOf(cp) !== null || cp === 0x09 ? shown.length : 1;
    cells.push({ shown, from: i, col, width });
    col += width;
    i += units;
  }
  return { cells, width: col };
}

/** The column at which line offset `at` is shown (past the end: one past the last column). */
function columnAt(cells: readonly Cell[], width: number, at: number): number {
  let lo = 0;
  let hi = cells.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cells[mid]!.from < at) lo = mid + 1;
    else hi = mid;
  }
  return lo < cells.length ? cells[lo]!.col : width;
}

/** Where the span's line starts: found from its offset and column, or by counting lines. */
function lineStartOf(source: string, span: Span): number | null {
  const start = span.offset - (span.col - 1);
  if (start >= 0 && start <= source.length && (start === 0 || source[start - 1] === '\n')) return start;
  let at = 0;
  for (let l = 1; l < span.line; l++) {
    const nl = source.indexOf('\n', at);
    if (nl < 0) return null;
    at = nl + 1;
  }
  return at;
}

/**
 * The source line and caret under a span, escaped and cut to SOURCE_WINDOW columns around the
 * caret; null when the line is blank or missing. Only the part of the line near the span is read,
 * so a megabyte-long line costs no more than a short one.
 */
export function sourceExcerpt(source: string, span: Span): { text: string; caret: string } | null {
  const lineStart = lineStartOf(source, span);
  if (lineStart === null) return null;
  const at = Math.min(Math.max(span.offset, lineStart), source.length);
  // Every code point takes at least one column and at most two code units, so 2 × SOURCE_WINDOW
  // units either side of the span hold every column the window can show.
  const reach = 2 * SOURCE_WINDOW;
  let cutL = Math.max(lineStart, at - reach);
  if (cutL > lineStart && isLowSurrogate(source.charCodeAt(cutL))) cutL--;
  const stop = Math.min(source.length, at + reach);
  let cutR = at;
  while (cutR < stop && source[cutR] !== '\n') cutR++;
  const endsLine = cutR === source.length || source[cutR] === '\n';
  if (endsLine && source[cutR - 1] === '\r' && cutR - 1 >= cutL) cutR--;
  else if (!endsLine && isLowSurrogate(source.charCodeAt(cutR))) cutR++;
  const text = source.slice(cutL, cutR);
  if (text.trim() === '') return null;
  const { cells, width } = cellsOf(text);
  const from = Math.min(at - cutL, text.length);
  const start = columnAt(cells, width, from);
  const end = Math.max(start + 1, columnAt(cells, width, Math.min(text.length, from + span.len)));
  // The window: the whole piece when it fits, else starting a little before the caret.
  let lo = 0;
  let hi = width;
  if (width > SOURCE_WINDOW) {
    lo = Math.max(0, Math.min(start - 20, width - SOURCE_WINDOW));
    hi = lo + SOURCE_WINDOW;
  }
  let shown = '';
  let first = -1;
  let last = lo;
  for (const c of cells) {
    if (c.col < lo || c.col + c.width > hi) continue;
    if (first < 0) first = c.col;
    shown += c.shown;
    last = c.col + c.width;
  }
  if (first < 0) first = lo;
  const left = first > 0 || cutL > lineStart ? '…' : '';
  const right = last < width || !endsLine ? '…' : '';
  const caretFrom = Math.max(first, Math.min(start, last));
  const caretTo = Math.max(caretFrom + 1, Math.min(end, last));
  const caret = ' '.repeat(left.length + caretFrom - first) + '^'.repeat(caretTo - caretFrom);
  return { text: `${left}${shown}${right}`, caret };
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/**
 * Longest message or hint printed. The front end's are short (each quote is cut in `diag`); this
 * bounds the other stages' too, whose messages may quote names from the test.
 */
const MAX_PRINTED = 1000;

/**
 * A diagnostic as the terminal shows it: `file:line:col: severity CODE: message`, the source line
 * with a caret under the span, and the hint. One about no place (a test-wide model diagnostic, a
 * lowering option) points at the start of `file` (the command line when none is given).
 */
export function formatDiagnostic(d: Diagnostic, source?: string, file = '<command-line>'): string {
  const span = d.span ?? fileSpan(file);
  const { line, col } = span;
  const head = escapeText(
    `${clipQuote(span.file, MAX_PRINTED)}:${line}:${col}: ${d.severity} ${d.code}: ${clipQuote(d.message, MAX_PRINTED)}`,
  );
  const lines = [head];
  const excerpt = source === undefined ? null : sourceExcerpt(source, span);
  if (excerpt) {
    const gutter = String(line).padStart(4);
    lines.push(`${gutter} | ${excerpt.text}`);
    lines.push(`${' '.repeat(gutter.length)} | ${excerpt.caret}`);
  }
  if (d.hint) lines.push(`  hint: ${escapeText(clipQuote(d.hint, MAX_PRINTED))}`);
  return lines.join('\n');
}

/** Formats every diagnostic of one file, in order. */
export function formatDiagnostics(ds: readonly Diagnostic[], source?: string, file?: string): string {
  return ds.map((d) => formatDiagnostic(d, source, file)).join('\n');
}

/** clang's default -ferror-limit. */
export const DEFAULT_ERROR_LIMIT = 20;

/** Writes diagnostics of a whole command, stopping after an error limit. */
export interface DiagnosticPrinter {
  /**
   * Writes the diagnostics of one file (with its text, for the caret lines; its name, for those of
   * no place in it) while under the limit.
   */
  print(ds: readonly Diagnostic[], source?: string, file?: string): void;
  /** Says how many diagnostics the limit held back, if any; call once, at the end. */
  finish(): void;
}

/**
 * A printer that writes every diagnostic until `limit` errors have been written (0: no limit),
 * then only counts, like clang's -ferror-limit: 50,000 errors are as useless on a screen as they
 * are slow to print. The count covers the whole command, across files.
 */
export function diagnosticPrinter(limit: number, write: (text: string) => void): DiagnosticPrinter {
  let errors = 0;
  let hiddenErrors = 0;
  let hiddenWarnings = 0;
  return {
    print(ds, source, file) {
      const shown: string[] = [];
      for (const d of ds) {
        if (limit > 0 && errors >= limit) {
          if (d.severity === 'error') hiddenErrors++;
          else hiddenWarnings++;
          continue;
        }
        if (d.severity === 'error') errors++;
        shown.push(formatDiagnostic(d, source, file));
      }
      if (shown.length > 0) write(`${shown.join('\n')}\n`);
    },
    finish() {
      if (hiddenErrors + hiddenWarnings === 0) return;
      const what = [
        hiddenErrors > 0 ? count(hiddenErrors, 'error') : '',
        hiddenWarnings > 0 ? count(hiddenWarnings, 'warning') : '',
      ]
        .filter((s) => s !== '')
        .join(' and ');
      write(`gpumm: ${what} not shown (--error-limit ${limit}; --error-limit 0 shows all)\n`);
    },
  };
}

function count(n: number, noun: string): string {
  return `${n.toLocaleString('en-US')} more ${noun}${n === 1 ? '' : 's'}`;
}
