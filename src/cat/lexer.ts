/**
 * Tokens of a cat model. herd7's lexical conventions: identifiers may contain `-` and `.`
 * (`po-loc`, `rmw.w`), comments are `(* … *)` and nest (or `//` and `#` to the end of the line),
 * strings are double-quoted, `0` is the empty relation. No Node APIs here: the web page imports this file.
 */

import { diag, type SourceDiagnostic } from '../core/diagnostics.ts';
import type { Span } from '../core/types.ts';

export type TokenKind = 'ident' | 'string' | 'tag' | 'zero' | 'underscore' | 'keyword' | 'punct' | 'eof';

export interface Token {
  kind: TokenKind;
  text: string;
  span: Span;
}

/**
 * herd7's other keywords (lib/modelLexer.mll). gpumm does not support what they start; they stay
 * keywords, as in herd7, so the parser names each construct in a diagnostic (CAT2002) instead of
 * reading it as a name.
 */
export const HERD_ONLY_KEYWORDS: readonly string[] = [
  'undefined_unless',
  'procedure',
  'call',
  'fun',
  'match',
  'enum',
  'forall',
  'do',
  'from',
  'when',
  'debug',
  'yield',
  'instructions',
  'default',
  'compat',
  'subset',
];

export const KEYWORDS = new Set([
  'let',
  'rec',
  'and',
  'in',
  'acyclic',
  'irreflexive',
  'empty',
  'as',
  'flag',
  'show',
  'unshow',
  'include',
  'if',
  'then',
  'else',
  'begin',
  'end',
  'try',
  'with',
  ...HERD_ONLY_KEYWORDS,
]);

/**
 * Punctuation, longest first so `^-1` wins over anything shorter. `{ } || ++ ->` are herd7's (set
 * literals, match clauses, set addition, functions): gpumm lexes them to name them in diagnostics.
 */
const PUNCT = [
  '^-1',
  '||',
  '++',
  '->',
  '|',
  '&',
  '\\',
  ';',
  '*',
  '+',
  '?',
  '~',
  '[',
  ']',
  '(',
  ')',
  '{',
  '}',
  '=',
  ',',
];

function isIdentStart(c: string): boolean {
  return /[A-Za-z_]/.test(c);
}

function isIdentChar(c: string): boolean {
  return /[A-Za-z0-9_.-]/.test(c);
}

/** Splits `text` into tokens; problems become diagnostics and the lexer goes on. */
export function lex(text: string, file: string): { tokens: Token[]; diagnostics: SourceDiagnostic[] } {
  const tokens: Token[] = [];
  const diagnostics: SourceDiagnostic[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const span = (start: number, len: number, l = line, ls = lineStart): Span => ({
    file,
    offset: start,
    line: l,
    col: start - ls + 1,
    len,
  });
  const newline = (at: number) => {
    line++;
    lineStart = at + 1;
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === '\n') {
      newline(i);
      i++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      i++;
      continue;
    }
    if (c === '(' && text[i + 1] === '*') {
      const start = span(i, 2);
      let depth = 1;
      i += 2;
      while (i < text.length && depth > 0) {
        if (text[i] === '(' && text[i + 1] === '*') {
          depth++;
          i += 2;
        } else if (text[i] === '*' && text[i + 1] === ')') {
          depth--;
          i += 2;
        } else {
          if (text[i] === '\n') newline(i);
          i++;
        }
      }
      if (depth > 0) diagnostics.push(diag('CAT1002', start));
      continue;
    }
    // herd7's line comments (lib/modelLexer.mll): `//` or `#` to the end of the line.
    if (c === '#' || (c === '/' && text[i + 1] === '/')) {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    // herd7's tags (`'acquire`): values of its enumerations, which gpumm's events do not carry.
    if (c === "'" && isIdentStart(text[i + 1] ?? '')) {
      const start = i;
      i++;
      while (i < text.length && isIdentChar(text[i]!)) i++;
      tokens.push({ kind: 'tag', text: text.slice(start, i), span: span(start, i - start) });
      continue;
    }
    if (c === '"') {
      const start = i;
      i++;
      while (i < text.length && text[i] !== '"' && text[i] !== '\n') i++;
      if (text[i] !== '"') {
        diagnostics.push(diag('CAT1003', span(start, i - start)));
        continue;
      }
      i++;
      tokens.push({ kind: 'string', text: text.slice(start + 1, i - 1), span: span(start, i - start) });
      continue;
    }
    if (isIdentStart(c)) {
      const start = i;
      while (i < text.length && isIdentChar(text[i]!)) i++;
      // A trailing `-` or `.` belongs to no name (`a-` then `b` is never meant): give it back.
      while (i > start + 1 && (text[i - 1] === '-' || text[i - 1] === '.')) i--;
      const word = text.slice(start, i);
      const kind: TokenKind = word === '_' ? 'underscore' : KEYWORDS.has(word) ? 'keyword' : 'ident';
      tokens.push({ kind, text: word, span: span(start, i - start) });
      continue;
    }
    if (c === '0' && !/[0-9]/.test(text[i + 1] ?? '')) {
      tokens.push({ kind: 'zero', text: '0', span: span(i, 1) });
      i++;
      continue;
    }
    const p = PUNCT.find((q) => text.startsWith(q, i));
    if (p) {
      tokens.push({ kind: 'punct', text: p, span: span(i, p.length) });
      i += p.length;
      continue;
    }
    // One character, also outside the basic plane (a surrogate pair is one character, not two).
    const ch = String.fromCodePoint(text.codePointAt(i)!);
    diagnostics.push(diag('CAT1001', span(i, ch.length), { char: ch }));
    i += ch.length;
  }
  tokens.push({ kind: 'eof', text: '', span: eofSpan(text, file) });
  return { tokens, diagnostics };
}

/**
 * Where "end of file" points: the last non-blank character, so the caret sits under text and the
 * span lies inside the file (as the litmus parser's), or the start of a blank file.
 */
function eofSpan(text: string, file: string): Span {
  let at = text.length - 1;
  while (at >= 0 && /\s/.test(text[at]!)) at--;
  if (at < 0) return { file, offset: 0, line: 1, col: 1, len: 0 };
  // A surrogate pair is one character: point at its first half.
  if (at > 0 && /[\udc00-\udfff]/.test(text[at]!) && /[\ud800-\udbff]/.test(text[at - 1]!)) at--;
  let line = 1;
  let start = 0;
  for (let k = text.indexOf('\n'); k >= 0 && k < at; k = text.indexOf('\n', k + 1)) {
    line++;
    start = k + 1;
  }
  return {
    file,
    offset: at,
    line,
    col: at - start + 1,
    len: at + 1 < text.length && text.codePointAt(at)! > 0xffff ? 2 : 1,
  };
}
