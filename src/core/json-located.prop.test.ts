import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readJson } from './json-located.ts';

/** JSON.parse's verdict on a text: its value, or that it throws. */
function native(text: string): { value: unknown } | 'error' {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return 'error';
  }
}

describe('readJson against JSON.parse', () => {
  it('any JSON text, compact or indented, reads to the same value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 0, max: 4 }), (v, indent) => {
        const text = JSON.stringify(v, null, indent);
        const r = readJson(text);
        expect('value' in r && r.value).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it('a text with one character changed: an error exactly where JSON.parse throws (or a repeated key)', () => {
    fc.assert(
      fc.property(fc.json(), fc.nat(), fc.constantFrom(...'{}[]",:0-1e.\\ tnx\n'), (text, at, ch) => {
        const k = text.length === 0 ? 0 : at % text.length;
        const t = text.slice(0, k) + ch + text.slice(k + 1);
        const mine = readJson(t);
        const theirs = native(t);
        if ('error' in mine) {
          if (theirs !== 'error') expect(mine.error.what).toMatch(/is given twice/);
        } else expect(theirs).toEqual({ value: mine.value });
      }),
      { numRuns: 1000 },
    );
  });
});
