/**
 * Line-oriented lexer for litmus files. A litmus file is a sequence of lines; each line is lexed on
 * its own so that the parser can recover at the next line after an error.
 */

import { diag, type SourceDiagnostic } from '../core/diagnostics.ts';
import { isControlChar } from '../core/escape.ts';
import type { Span } from '../core/types.ts';

export type TokenKind =
  | 'ident' // load, i32, P0, agent, race-free
  | 'global' // @x (text without @)
  | 'local' // %r0 (text without %)
  | 'meta' // !0, !nontemporal (text without !)
  | 'metaOpen' // !{
  | 'metaString' // !"amdgcn-av" (text is the string's content)
  | 'string' // "…" (text is the content)
  | 'int' // 42, -1, 0x10 (text as written)
  | 'punct' // ( ) { } [ ] , = : < > @ * ~ #
  | 'op'; // /\ \/ == != <>

export interface Token {
  kind: TokenKind;
  text: string;
  span: Span;
}

/** One source line: its tokens (comments removed) and where it starts. */
export interface Line {
  /** 1-based line number. */
  line: number;
  /** Offset of the line's first character in the file. */
  offset: number;
  /** The line's text without the line terminator. */
  text: string;
  tokens: Token[];
}

/**
 * Offset of the first control character (tab aside) in `s[from, to)`, or -1. Text that reaches
 * the output as written (the test name, strings) holds none, so `gpumm parse` and `gpumm run`
 * never print one.
 */
function firstControl(s: string, from: number, to: number): number {
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c !== 0x09 && isControlChar(c)) return i;
  }
  return -1;
}

const IDENT_START = /[A-Za-z_]/;
const IDENT_CHAR = /[A-Za-z0-9_.\-$+]/;
const NAME_CHAR = /[A-Za-z0-9_.\-$]/;
const DIGIT = /[0-9]/;
const PUNCT = '(){}[],=:<>@*~#';

/** Splits `text` into lines and lexes each; lexical errors are reported and the rest of the line skipped. */
export function lex(text: string, file: string): { lines: Line[]; diagnostics: SourceDiagnostic[] } {
  const lines: Line[] = [];
  const diagnostics: SourceDiagnostic[] = [];
  let offset = 0;
  let lineNo = 1;
  while (offset <= text.length) {
    let end = text.indexOf('\n', offset);
    if (end < 0) end = text.length;
    let lineText = text.slice(offset, end);
    if (lineText.endsWith('\r')) lineText = lineText.slice(0, -1);
    const tokens = HEADER.test(lineText)
      ? lexHeader(lineText, offset, lineNo, file, diagnostics)
      : lexLine(lineText, offset, lineNo, file, diagnostics);
    lines.push({ line: lineNo, offset, text: lineText, tokens });
    if (end >= text.length) break;
    offset = end + 1;
    lineNo++;
  }
  return { lines, diagnostics };
}

/** `AMDGPU <name>`: the name is free text (herd names such as `2+2W` start with a digit). */
const HEADER = /^\s*AMDGPU\s/;

function lexHeader(s: string, base: number, line: number, file: string, out: SourceDiagnostic[]): Token[] {
  const at = s.indexOf('AMDGPU');
  const toks: Token[] = [
    { kind: 'ident', text: 'AMDGPU', span: { file, offset: base + at, line, col: at + 1, len: 6 } },
  ];
  let rest = s.slice(at + 6);
  const cut = rest.search(/;|\/\//);
  if (cut >= 0) rest = rest.slice(0, cut);
  const name = rest.trim();
  const bad = firstControl(s, at + 6, at + 6 + rest.length);
  if (bad >= 0) {
    out.push(diag('LT1002', { file, offset: base + bad, line, col: bad + 1, len: 1 }, { char: s[bad] }));
    return toks;
  }
  if (name !== '') {
    const col = at + 6 + rest.indexOf(name);
    toks.push({
      kind: 'ident',
      text: name,
      span: { file, offset: base + col, line, col: col + 1, len: name.length },
    });
  }
  return toks;
}

function lexLine(s: string, base: number, line: number, file: string, out: SourceDiagnostic[]): Token[] {
  const toks: Token[] = [];
  const span = (start: number, len: number): Span => ({
    file,
    offset: base + start,
    line,
    col: start + 1,
    len,
  });
  let i = 0;
  /** Reports a control character inside a string (which would reach the output as written). */
  const control = (from: number, to: number): boolean => {
    const bad = firstControl(s, from, to);
    if (bad >= 0) out.push(diag('LT1002', span(bad, 1), { char: s[bad] }));
    return bad >= 0;
  };
  const readWhile = (re: RegExp, from: number): number => {
    let j = from;
    while (j < s.length && re.test(s[j]!)) j++;
    return j;
  };
  while (i < s.length) {
    const c = s[i]!;
    if (c === ' ' || c === '\t') {
      i++;
      continue;
    }
    if (c === ';' || (c === '/' && s[i + 1] === '/')) break; // comment to end of line
    const start = i;
    if (c === '"') {
      const close = s.indexOf('"', i + 1);
      if (close < 0) {
        out.push(diag('LT1001', span(start, s.length - start)));
        return toks;
      }
      if (control(i + 1, close)) return toks;
      toks.push({ kind: 'string', text: s.slice(i + 1, close), span: span(start, close + 1 - start) });
      i = close + 1;
      continue;
    }
    if (IDENT_START.test(c)) {
      const j = readWhile(IDENT_CHAR, i + 1);
      toks.push({ kind: 'ident', text: s.slice(i, j), span: span(start, j - start) });
      i = j;
      continue;
    }
    if (DIGIT.test(c) || (c === '-' && DIGIT.test(s[i + 1] ?? ''))) {
      let j = c === '-' ? i + 1 : i;
      if (s[j] === '0' && (s[j + 1] === 'x' || s[j + 1] === 'X')) j = readWhile(/[0-9a-fA-F]/, j + 2);
      else j = readWhile(DIGIT, j);
      toks.push({ kind: 'int', text: s.slice(i, j), span: span(start, j - start) });
      i = j;
      continue;
    }
    if ((c === '@' || c === '%') && NAME_CHAR.test(s[i + 1] ?? '')) {
      const j = readWhile(NAME_CHAR, i + 1);
      toks.push({
        kind: c === '@' ? 'global' : 'local',
        text: s.slice(i + 1, j),
        span: span(start, j - start),
      });
      i = j;
      continue;
    }
    if (c === '!') {
      const n = s[i + 1];
      if (n === '{') {
        toks.push({ kind: 'metaOpen', text: '!{', span: span(start, 2) });
        i += 2;
        continue;
      }
      if (n === '=') {
        toks.push({ kind: 'op', text: '!=', span: span(start, 2) });
        i += 2;
        continue;
      }
      if (n === '"') {
        const close = s.indexOf('"', i + 2);
        if (close < 0) {
          out.push(diag('LT1001', span(start, s.length - start)));
          return toks;
        }
        if (control(i + 2, close)) return toks;
        toks.push({ kind: 'metaString', text: s.slice(i + 2, close), span: span(start, close + 1 - start) });
        i = close + 1;
        continue;
      }
      if (n !== undefined && NAME_CHAR.test(n)) {
        const j = readWhile(NAME_CHAR, i + 1);
        toks.push({ kind: 'meta', text: s.slice(i + 1, j), span: span(start, j - start) });
        i = j;
        continue;
      }
    }
    const two = s.slice(i, i + 2);
    if (two === '/\\' || two === '\\/' || two === '==' || two === '<>') {
      toks.push({ kind: 'op', text: two, span: span(start, 2) });
      i += 2;
      continue;
    }
    if (PUNCT.includes(c)) {
      toks.push({ kind: 'punct', text: c, span: span(start, 1) });
      i++;
      continue;
    }
    // The whole code point, so that a character outside the BMP is not quoted as half a pair.
    const char = String.fromCodePoint(s.codePointAt(i)!);
    out.push(diag('LT1002', span(start, char.length), { char }));
    return toks; // recover at the next line
  }
  return toks;
}
