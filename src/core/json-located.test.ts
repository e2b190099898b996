import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nodeAt, readJson, spanMaker } from './json-located.ts';

/** The error of `text` as `line:col what`. */
function errorOf(text: string): string {
  const r = readJson(text);
  if (!('error' in r)) throw new Error('read without error');
  const s = spanMaker(text, 'f.json')(r.error.offset, r.error.offset + r.error.len);
  return `${s.line}:${s.col} ${r.error.what}`;
}

describe('readJson', () => {
  it('reads what JSON.parse reads, with the place of every value', () => {
    const text = '{\n  "a": [1, -2.5e3, true, null],\n  "b": { "c": "x\\u0041\\n" }\n}\n';
    const r = readJson(text);
    if ('error' in r) throw new Error(r.error.what);
    expect(r.value).toEqual(JSON.parse(text));
    const span = spanMaker(text, 'f.json');
    const at = (path: PropertyKey[]) => {
      const node = nodeAt(r.root, path);
      const s = span(node.from, node.to);
      return `${s.line}:${s.col}+${s.len}`;
    };
    expect(at(['a', 1])).toBe('2:12+6');
    expect(at(['b', 'c'])).toBe('3:15+11');
    // A missing member: the object it belongs in.
    expect(at(['b', 'missing'])).toBe('3:8+20');
  });

  it('syntax errors: line and column of the first, what was expected and found', () => {
    expect(errorOf('{\n  "a": 1,\n  "b" 2\n}')).toBe("3:7 expected ':' after the key, found '2'");
    expect(errorOf('[1, 2,]')).toBe("1:7 expected a value, found ']'");
    expect(errorOf('{"a": 1')).toBe("1:8 expected ',' or '}', found the end of the file");
    expect(errorOf('{"a": "x\ny"}')).toMatch(/^1:9 a control character in a string/);
    expect(errorOf('"abc')).toBe('1:1 unterminated string');
    expect(errorOf('["\\x"]')).toBe("1:3 unknown escape '\\x'");
    expect(errorOf('[01]')).toBe("1:3 expected ',' or ']', found '1'");
    expect(errorOf('{} x')).toBe("1:4 expected the end of the file after the value, found 'x'");
    expect(errorOf('')).toBe('1:1 expected a value, found the end of the file');
  });

  it('a key given twice in one object is an error at the second (JSON.parse would keep the last)', () => {
    expect(errorOf('{\n  "a": 1,\n  "a": 2\n}')).toBe('3:3 the key "a" is given twice in this object');
  });

  it('nesting is bounded, a byte-order mark skipped, __proto__ an own member', () => {
    expect(errorOf('['.repeat(MAX_JSON_DEPTH + 1))).toMatch(/nested more than 256 deep/);
    expect(readJson('\ufeff[1]')).toMatchObject({ value: [1] });
    const r = readJson('{"__proto__": 1}');
    expect('value' in r && Object.keys(r.value as object)).toEqual(['__proto__']);
  });
});
