import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbitraryTest } from './arbitrary.ts';
import { hasErrors } from './diagnostics.ts';
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

/** Mutations of a source text: what a hurried edit or a bad paste does to a file. */
const mutation = fc.oneof(
  fc.record({ kind: fc.constant('deleteLine' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('duplicateLine' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('swapLines' as const), at: fc.nat(), to: fc.nat() }),
  fc.record({ kind: fc.constant('deleteToken' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('duplicateToken' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('garble' as const),
    at: fc.nat(),
    ch: fc.constantFrom(...'{}()[],;:=@%!"~/\\<>*#$^&|x0-9 \t\n'.split('')),
  }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
);

type Mutation = typeof mutation extends fc.Arbitrary<infer M> ? M : never;

function mutate(text: string, m: Mutation): string {
  const lines = text.split('\n');
  const li = m.at % Math.max(1, lines.length);
  switch (m.kind) {
    case 'deleteLine':
      lines.splice(li, 1);
      return lines.join('\n');
    case 'duplicateLine':
      lines.splice(li, 0, lines[li] ?? '');
      return lines.join('\n');
    case 'swapLines': {
      const lj = m.to % Math.max(1, lines.length);
      [lines[li], lines[lj]] = [lines[lj] ?? '', lines[li] ?? ''];
      return lines.join('\n');
    }
    case 'deleteToken':
    case 'duplicateToken': {
      const toks = [...text.matchAll(/\S+/g)];
      const t = toks[m.at % Math.max(1, toks.length)];
      if (!t) return text;
      const end = t.index + t[0].length;
      return m.kind === 'deleteToken'
        ? text.slice(0, t.index) + text.slice(end)
        : `${text.slice(0, end)} ${t[0]}${text.slice(end)}`;
    }
    case 'garble': {
      const at = m.at % Math.max(1, text.length);
      return text.slice(0, at) + m.ch + text.slice(at + 1);
    }
    case 'truncate':
      return text.slice(0, m.at % Math.max(1, text.length));
  }
}

describe('robustness', () => {
  it('catalogue files under random mutations: never throws, always a test or an error, spans inside the file', () => {
    expect(files.length).toBeGreaterThan(0);
    fc.assert(
      fc.property(fc.nat(files.length - 1), fc.array(mutation, { minLength: 1, maxLength: 4 }), (fi, ms) => {
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
      }),
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
