/**
 * Tokens of a Vulkan litmus file in Dartagnan's herd-like syntax (docs/vulkan-litmus.md). Unlike
 * gpumm's own syntax this one is not line-oriented (descriptions span lines, rows end at `;`), so the
 * whole text after the header line is one token stream; a lexical error is reported and the
 * character skipped, so every error of a file is reported at once.
 * No Node APIs here: the web page imports this file.
 */

import { diag, type SourceDiagnostic } from '../core/diagnostics.ts';
import { isControlChar } from '../core/escape.ts';
import type { Span } from '../core/types.ts';

export type VkTokKind = 'word' | 'int' | 'string' | 'punct' | 'op' | 'eof';

export interface VkTok {
  kind: VkTokKind;
  /** The text as written (a string's content without its quotes). */
  text: string;
  span: Span;
}

const WORD_START = /[A-Za-z_]/;
const WORD_CHAR = /[A-Za-z0-9_.]/;
const DIGIT = /[0-9]/;
const PUNCT = '{}()[];,|:=@~&';
const OPS = ['/\\', '\\/', '==', '!=', '<=', '>='] as const;

/** Positions in a text: offset → 1-based line and column. */
export class Positions {
  private readonly starts: number[] = [0];

  constructor(
    readonly text: string,
    readonly file: string,
  ) {
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.starts.push(i + 1);
  }

  span(offset: number, len: number): Span {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { file: this.file, offset, line: lo + 1, col: offset - this.starts[lo]! + 1, len };
  }

  /** The text of the line holding `offset`, without its terminator. */
  lineText(offset: number): string {
    const s = this.span(offset, 0);
    const from = this.starts[s.line - 1]!;
    const to = s.line < this.starts.length ? this.starts[s.line]! - 1 : this.text.length;
    return this.text.slice(from, to).replace(/\r$/, '');
  }

  /** Offset of the end of the line holding `offset`. */
  lineEnd(offset: number): number {
    const s = this.span(offset, 0);
    return s.line < this.starts.length ? this.starts[s.line]! - 1 : this.text.length;
  }
}

/** Lexes `text[from…]`. */
export function lexVulkan(
  pos: Positions,
  from: number,
): { tokens: VkTok[]; diagnostics: SourceDiagnostic[] } {
  const text = pos.text;
  const tokens: VkTok[] = [];
  const diagnostics: SourceDiagnostic[] = [];
  let i = from;
  const push = (kind: VkTokKind, start: number, end: number, t = text.slice(start, end)) =>
    tokens.push({ kind, text: t, span: pos.span(start, end - start) });
  while (i < text.length) {
    const c = text[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    if (c === '(' && text[i + 1] === '*') {
      // herd7's comments nest.
      const start = i;
      let depth = 0;
      while (i < text.length) {
        if (text[i] === '(' && text[i + 1] === '*') {
          depth++;
          i += 2;
        } else if (text[i] === '*' && text[i + 1] === ')') {
          depth--;
          i += 2;
          if (depth === 0) break;
        } else i++;
      }
      if (depth > 0) diagnostics.push(diag('VK1003', pos.span(start, 2)));
      continue;
    }
    if (c === '"') {
      const start = i;
      i++;
      while (i < text.length && text[i] !== '"') i++;
      if (i >= text.length) {
        diagnostics.push(diag('VK1001', pos.span(start, 1)));
        break;
      }
      const body = text.slice(start + 1, i);
      i++;
      // A control character (newlines and tabs aside) never reaches the output.
      let bad = -1;
      for (let k = start + 1; k < i - 1 && bad < 0; k++) {
        const code = text.charCodeAt(k);
        if (code !== 10 && code !== 13 && code !== 9 && isControlChar(code)) bad = k;
      }
      if (bad >= 0) {
        diagnostics.push(diag('VK1002', pos.span(bad, 1), { char: text[bad]! }));
        continue;
      }
      push('string', start, i, body.replace(/\r\n/g, '\n'));
      continue;
    }
    if (WORD_START.test(c)) {
      const start = i;
      while (i < text.length && WORD_CHAR.test(text[i]!)) i++;
      push('word', start, i);
      // gpumm's `expect: race-free` line: the parser reads the rest of the line as text, up to a
      // comment.
      const colon = /^[ \t]*:/.exec(text.slice(i, i + 16));
      if (text.slice(start, i) === 'expect' && colon) {
        push('punct', i + colon[0].length - 1, i + colon[0].length);
        i += colon[0].length;
        while (i < text.length && text[i] !== '\n' && !text.startsWith('(*', i) && !text.startsWith('//', i))
          i++;
      }
      continue;
    }
    if (DIGIT.test(c) || (c === '-' && DIGIT.test(text[i + 1] ?? ''))) {
      const start = i;
      i++;
      while (i < text.length && DIGIT.test(text[i]!)) i++;
      push('int', start, i);
      continue;
    }
    const op = OPS.find((o) => text.startsWith(o, i));
    if (op) {
      push('op', i, i + op.length);
      i += op.length;
      continue;
    }
    if (c === '<' || c === '>') {
      push('op', i, i + 1);
      i++;
      continue;
    }
    if (PUNCT.includes(c)) {
      push('punct', i, i + 1);
      i++;
      continue;
    }
    const cp = text.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    diagnostics.push(diag('VK1002', pos.span(i, ch.length), { char: ch }));
    i += ch.length;
  }
  // At the length itself: the parsers' results move it inside the file (`insideFile`).
  tokens.push({ kind: 'eof', text: '', span: pos.span(text.length, 0) });
  return { tokens, diagnostics };
}

/** How a token is named in a message. */
export function describeTok(t: VkTok | undefined): string {
  if (!t || t.kind === 'eof') return 'the end of the file';
  if (t.kind === 'string') return 'a string';
  return `'${t.text}'`;
}

/**
 * Diagnostics whose span starts at or runs past the end of `text` (the end of a file without a line
 * break, a truncated last line) moved to the file's last non-blank character, as the litmus front
 * end shows the end of a file: every span a front end reports lies inside its file.
 */
export function insideFile<D extends SourceDiagnostic>(ds: D[], text: string): D[] {
  if (text.length === 0) return ds;
  let end = text.length;
  while (end > 1 && /\s/.test(text[end - 1]!)) end--;
  const last = end - 1;
  return ds.map((d) => {
    const s = d.span;
    if (s.offset < text.length && s.offset + s.len <= text.length) return d;
    const lineStart = text.lastIndexOf('\n', last - 1) + 1;
    let line = 1;
    for (let i = text.indexOf('\n'); i >= 0 && i < last; i = text.indexOf('\n', i + 1)) line++;
    return { ...d, span: { ...s, offset: last, len: 0, line, col: last - lineStart + 1 } };
  });
}
