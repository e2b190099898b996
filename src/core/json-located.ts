/**
 * JSON read with the place of every value, for files people edit by hand (`gpumm check --table`):
 * a syntax error, and any later complaint about a value, points at its line and column. The grammar
 * is RFC 8259's; a leading byte-order mark is skipped. Two differences from `JSON.parse`, both
 * errors here: a key given twice in one object (`JSON.parse` keeps the last, so an edit of the
 * first would be silently lost), and nesting deeper than `MAX_JSON_DEPTH` (a generated file must
 * not exhaust the stack).
 *
 * No Node APIs here.
 */

import { lineOfOffset, lineStarts } from './lines.ts';
import type { Span } from './types.ts';

/** Where a value lies in the text (`from` … `to`, exclusive), with the places of its members. */
export interface JsonNode {
  from: number;
  to: number;
  /** An object's members. */
  fields?: Map<string, JsonNode>;
  /** An array's elements. */
  items?: JsonNode[];
}

/** The value and where each part of it lies, or the first syntax error. */
export type JsonRead =
  | { value: unknown; root: JsonNode }
  | { error: { offset: number; len: number; what: string } };

/** Deepest nesting of arrays and objects read (as the litmus parser's bracket depth, clang's 256). */
export const MAX_JSON_DEPTH = 256;

class JsonSyntaxError {
  constructor(
    readonly offset: number,
    readonly len: number,
    readonly what: string,
  ) {}
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPES = '"\\/bfnrtu';
const LITERALS = [
  ['true', true],
  ['false', false],
  ['null', null],
] as const;
const PLAIN = /[^"\\\u0000-\u001f]*/y;

/** Reads JSON text; never throws. */
export function readJson(text: string): JsonRead {
  const n = text.length;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const space = (): void => {
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
    }
  };
  const found = (): string =>
    i >= n ? 'the end of the file' : `'${String.fromCodePoint(text.codePointAt(i)!)}'`;
  const fail = (what: string): never => {
    throw new JsonSyntaxError(i, i < n ? 1 : 0, what);
  };
  const expect = (ch: string, what: string): void => {
    if (text[i] !== ch) fail(`expected ${what}, found ${found()}`);
    i++;
  };

  const string = (): string => {
    const from = i++;
    let escaped = false;
    for (;;) {
      // Runs of plain characters at once: a table file is mostly strings.
      PLAIN.lastIndex = i;
      PLAIN.test(text);
      i = PLAIN.lastIndex;
      if (i >= n) throw new JsonSyntaxError(from, 1, 'unterminated string');
      const c = text.charCodeAt(i);
      if (c === 0x22) break;
      if (c < 0x20) fail('a control character in a string (write it as an escape: \\n, \\t, \\u0000)');
      if (c === 0x5c) {
        escaped = true;
        const e = text[i + 1] ?? '';
        if (e === '') throw new JsonSyntaxError(from, 1, 'unterminated string');
        if (!ESCAPES.includes(e)) throw new JsonSyntaxError(i, 2, `unknown escape '\\${e}'`);
        if (e === 'u' && !/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6)))
          throw new JsonSyntaxError(i, 2, '\\u takes four hexadecimal digits');
        i += e === 'u' ? 6 : 2;
        continue;
      }
      i++;
    }
    i++;
    return escaped ? (JSON.parse(text.slice(from, i)) as string) : text.slice(from + 1, i - 1);
  };

  const value = (depth: number): { value: unknown; node: JsonNode } => {
    space();
    const from = i;
    const c = text[i];
    if (c === '{' || c === '[') {
      if (depth >= MAX_JSON_DEPTH) fail(`arrays and objects nested more than ${MAX_JSON_DEPTH} deep`);
      i++;
      space();
      if (c === '[') {
        const out: unknown[] = [];
        const items: JsonNode[] = [];
        if (text[i] !== ']')
          for (;;) {
            const v = value(depth + 1);
            out.push(v.value);
            items.push(v.node);
            space();
            if (text[i] === ',') i++;
            else break;
          }
        expect(']', "',' or ']'");
        return { value: out, node: { from, to: i, items } };
      }
      const out: Record<string, unknown> = {};
      const fields = new Map<string, JsonNode>();
      if (text[i] !== '}')
        for (;;) {
          space();
          const key = i;
          if (text[i] !== '"') fail(`expected a key in double quotes, found ${found()}`);
          const name = string();
          if (fields.has(name)) {
            i = key;
            fail(`the key "${name}" is given twice in this object`);
          }
          space();
          expect(':', "':' after the key");
          const v = value(depth + 1);
          // A member named __proto__ must be an own property, as JSON.parse makes it.
          if (name === '__proto__')
            Object.defineProperty(out, name, {
              value: v.value,
              enumerable: true,
              writable: true,
              configurable: true,
            });
          else out[name] = v.value;
          fields.set(name, v.node);
          space();
          if (text[i] === ',') i++;
          else break;
        }
      expect('}', "',' or '}'");
      return { value: out, node: { from, to: i, fields } };
    }
    if (c === '"') {
      const s = string();
      return { value: s, node: { from, to: i } };
    }
    for (const [word, v] of LITERALS)
      if (text.startsWith(word, i)) {
        i += word.length;
        return { value: v, node: { from, to: i } };
      }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (m === null) fail(`expected a value, found ${found()}`);
    i += m![0].length;
    return { value: Number(m![0]), node: { from, to: i } };
  };

  try {
    const v = value(0);
    space();
    if (i < n) fail(`expected the end of the file after the value, found ${found()}`);
    return { value: v.value, root: v.node };
  } catch (e) {
    if (!(e instanceof JsonSyntaxError)) throw e;
    return { error: { offset: e.offset, len: e.len, what: e.what } };
  }
}

/**
 * The node of the value at `path` (keys and indices from the root), or of its deepest part that
 * exists — the object a missing member belongs in.
 */
export function nodeAt(root: JsonNode, path: readonly PropertyKey[]): JsonNode {
  let node = root;
  for (const step of path) {
    const next = typeof step === 'number' ? node.items?.[step] : node.fields?.get(String(step));
    if (next === undefined) break;
    node = next;
  }
  return node;
}

/** Turns offsets of `text` into spans with lines and columns (UTF-16 units from 1, as everywhere). */
export function spanMaker(text: string, file: string): (from: number, to: number) => Span {
  const starts = lineStarts(text);
  return (from, to) => {
    const line = lineOfOffset(starts, from);
    return { file, offset: from, line: line + 1, col: from - starts[line]! + 1, len: Math.max(0, to - from) };
  };
}
