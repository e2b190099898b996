/**
 * The cat front end under fuzzed input, with the promises of the litmus front end (src/cli/fuzz.ts):
 * reading and compiling a model never throws, every span lies inside the file with its line and
 * column matching its offset, the caret sits under the text, messages stay short, nothing a terminal
 * would act on is printed, and the error limit is honoured. Inputs: gpumm's models, mutated.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type FrontEnd, frontEndViolations } from '../cli/fuzz.ts';
import { dev, ld, makeTest, st, threads } from '../events/build.ts';
import { buildSkeleton } from '../events/skeleton.ts';
import { hostileMutation, mutate } from '../syntax/mutate.ts';
import { compileModel } from './eval.ts';
import { loadModel } from './load.ts';
import { buildPrimitives } from './primitives.ts';

const MODELS = ['amdgpu.cat', 'rc11.cat'].map((f) =>
  readFileSync(join(import.meta.dirname, '..', '..', 'models', f), 'utf8'),
);

const PRIMS = buildPrimitives(
  buildSkeleton(
    makeTest({
      locs: { x: 0 },
      threads: threads([[st('x', 1)], [ld('r', 'x')]], [dev(0, 0, 0, 0), dev(1, 0, 0, 0)]),
    }),
  ),
).prims;

/** A cat model read and, when it parses, compiled against a small test's primitives. */
const CAT_FRONT_END: FrontEnd = {
  file: 'fuzz.cat',
  read(text, file) {
    const r = loadModel(text, file, () => null);
    if (r.diagnostics.length > 0) return { diagnostics: r.diagnostics, problems: [] };
    return { diagnostics: compileModel(r.model, PRIMS, new Set()).diagnostics, problems: [] };
  },
};

describe('cat front end under fuzzed input', () => {
  it('mutated models: no throw, spans inside, caret under the text, short escaped messages, error limit kept', () => {
    fc.assert(
      fc.property(
        fc.nat(MODELS.length - 1),
        fc.array(hostileMutation(), { minLength: 1, maxLength: 4 }),
        fc.constantFrom(0, 1, 20),
        (mi, ms, limit) => {
          const text = ms.reduce(mutate, MODELS[mi]!);
          expect(frontEndViolations(text, limit, CAT_FRONT_END)).toEqual([]);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('inputs that crashed the cat front end before', () => {
    const inputs = [
      '',
      '"',
      '(*',
      `let x = ${'('.repeat(100_000)}po${')'.repeat(100_000)}`,
      `let x = ${'~'.repeat(100_000)}po`,
      `let x = po${' | po'.repeat(100_000)}`,
      'let = \n'.repeat(130_000),
      Array.from({ length: 30_000 }, (_, k) => `let x${k} = nope${k}`).join('\n'),
      'let x\x1b[31m = po\nacyclic \ud800 as \x1b]0;pwned\x07\n',
      `let ${'x'.repeat(1_000_000)} = nope`,
    ];
    for (const text of inputs) expect(frontEndViolations(text, 20, CAT_FRONT_END)).toEqual([]);
  });
});
