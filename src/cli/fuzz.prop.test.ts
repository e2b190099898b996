import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileMutation, mutate } from '../syntax/mutate.ts';
import { frontEndViolations } from './fuzz.ts';
import { litmusFilesIn } from './io.ts';

const CATALOGUE = litmusFilesIn(join(import.meta.dirname, '..', '..', 'litmus')).map((f) =>
  readFileSync(f, 'utf8'),
);

describe('front end under fuzzed input (the longer run: npx tsx bench/fuzz.ts)', () => {
  it('mutated catalogue files: no throw, spans inside and consistent, caret under the text, short escaped messages, error limit kept', () => {
    expect(CATALOGUE.length).toBeGreaterThan(100);
    fc.assert(
      fc.property(
        fc.nat(CATALOGUE.length - 1),
        fc.array(hostileMutation(), { minLength: 1, maxLength: 4 }),
        fc.constantFrom(0, 1, 3, 20),
        (fi, ms, limit) => {
          const text = ms.reduce(mutate, CATALOGUE[fi]!);
          expect(frontEndViolations(text, limit)).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the inputs that crashed or flooded the terminal before (issue 13, item 8)', () => {
    const mp = CATALOGUE.find((t) => t.startsWith('AMDGPU MP'))!;
    const inputs = [
      '',
      'x',
      '\n',
      'AMDGPU t\r',
      'AMDGPU t\nP0 {\n  store i32 1, ptr @x\n}\nexists (',
      mp.replace(/^exists (.*)$/m, (_m, c: string) => `exists ${'('.repeat(1300)}${c}${')'.repeat(1300)}`),
      mp.replace(/^exists (.*)$/m, (_m, c: string) => `exists ${'~'.repeat(20000)}(${c})`),
      `${'$\n'.repeat(130_000)}${mp}`,
      mp.replace(/^}/m, `${'  store i32 1, ptr @nope\n'.repeat(130_000)}}`),
      `AMDGPU t\n@${'x'.repeat(1_000_000)} = foo\n`,
      'AMDGPU t\n@x\x1b[31m = global i32 0\nP0 {\n  store i32 1, ptr @a\x1b]0;pwned\x07\n  \ud800 \x9b \u202e\t\x1b[2J\n}\n',
    ];
    for (const text of inputs) expect(frontEndViolations(text)).toEqual([]);
  });
});
