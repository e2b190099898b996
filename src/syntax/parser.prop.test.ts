import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasErrors } from '../core/diagnostics.ts';
import { arbitraryTest } from './arbitrary.ts';
import { editMutation, mutate } from './mutate.ts';
import { parse } from './parser.ts';
import { print } from './printer.ts';
import { stripSpans } from './testing.ts';

describe('printer and parser', () => {
  it('round-trip: random well-formed tests print and re-parse to the same AST', () => {
    fc.assert(
      fc.property(arbitraryTest, (t) => {
        const text = print(t);
        const r = parse(text, 'gen.litmus');
        if (r.test === null)
          throw new Error(
            `${r.diagnostics.map((d) => `${d.code} ${d.span.line}:${d.span.col} ${d.message}`).join('\n')}\n${text}`,
          );
        expect(stripSpans(r.test)).toEqual(stripSpans(t));
        expect(print(r.test)).toBe(text);
      }),
      { numRuns: 400 },
    );
  });
});

const CATALOGUE = join(import.meta.dirname, '..', '..', 'litmus');
const files = readdirSync(CATALOGUE)
  .filter((f) => f.endsWith('.litmus'))
  .map((f) => readFileSync(join(CATALOGUE, f), 'utf8'));

describe('robustness', () => {
  it('catalogue files under random mutations: never throws, always a test or an error, spans inside the file', () => {
    expect(files.length).toBeGreaterThan(0);
    fc.assert(
      fc.property(
        fc.nat(files.length - 1),
        fc.array(editMutation, { minLength: 1, maxLength: 4 }),
        (fi, ms) => {
          const text = ms.reduce(mutate, files[fi]!);
          const r = parse(text, 'm.litmus');
          expect(r.test === null).toBe(hasErrors(r.diagnostics));
          const nLines = text.split('\n').length;
          for (const d of r.diagnostics) {
            expect(d.span.line).toBeGreaterThanOrEqual(1);
            expect(d.span.line).toBeLessThanOrEqual(nLines);
            expect(d.span.col).toBeGreaterThanOrEqual(1);
            expect(d.span.offset).toBeLessThanOrEqual(text.length);
            expect(d.message.length).toBeGreaterThan(0);
          }
          // A test that survives mutation is still printable and stable under a second round trip.
          if (r.test) expect(stripSpans(parse(print(r.test), 'm2').test!)).toEqual(stripSpans(r.test));
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('arbitrary byte strings never throw', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (s) => {
        const r = parse(s, 'junk');
        expect(r.test === null).toBe(hasErrors(r.diagnostics));
      }),
      { numRuns: 1000 },
    );
  });
});
