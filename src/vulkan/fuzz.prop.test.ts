/**
 * The Vulkan front ends under fuzzed input, with the litmus front end's promises (src/cli/fuzz.ts):
 * reading a Dartagnan or Khronos file never throws, a test comes back exactly when there is no
 * error, every span lies inside the file with its line and column matching its offset, the caret
 * sits under the text, messages stay short and escaped, the error limit holds. Inputs: the corpus's
 * and the catalogue's Vulkan tests, mutated.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type FrontEnd, frontEndViolations } from '../cli/fuzz.ts';
import { hasErrors } from '../core/diagnostics.ts';
import { hostileMutation, mutate } from '../syntax/mutate.ts';
import { parseDat3m } from './dat3m.ts';
import { parseKhronos } from './khronos.ts';

const ROOT = join(import.meta.dirname, '..', '..');

function filesIn(dir: string, ending: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...filesIn(p, ending));
    else if (e.name.endsWith(ending)) out.push(readFileSync(p, 'utf8'));
  }
  return out;
}

const DAT3M = [
  ...filesIn(join(ROOT, 'corpus', 'vulkan-dat3m'), '.litmus'),
  ...filesIn(join(ROOT, 'litmus-vulkan'), '.litmus'),
];
const KHRONOS = filesIn(join(ROOT, 'litmus-vulkan'), '.test');

/** A front end whose test comes back exactly when it reports no error. */
function frontEnd(file: string, parse: typeof parseDat3m): FrontEnd {
  return {
    file,
    read(text, f) {
      const r = parse(text, f);
      const ok = (r.test === null) === hasErrors(r.diagnostics);
      return { diagnostics: r.diagnostics, problems: ok ? [] : ['a test was returned together with errors'] };
    },
  };
}

const FRONT_ENDS = [
  { name: "Dartagnan's syntax", files: DAT3M, fe: frontEnd('fuzz.litmus', parseDat3m) },
  { name: 'the Khronos format', files: KHRONOS, fe: frontEnd('fuzz.test', parseKhronos) },
];

describe('the Vulkan front ends under fuzzed input', () => {
  for (const { name, files, fe } of FRONT_ENDS)
    it(`${name}: mutated files never throw, keep their spans inside, print nothing raw, keep the error limit`, () => {
      expect(files.length).toBeGreaterThan(5);
      fc.assert(
        fc.property(
          fc.nat(files.length - 1),
          fc.array(hostileMutation(), { minLength: 1, maxLength: 4 }),
          fc.constantFrom(0, 1, 20),
          (fi, ms, limit) => {
            const text = ms.reduce(mutate, files[fi]!);
            expect(frontEndViolations(text, limit, fe)).toEqual([]);
          },
        ),
        { numRuns: 200 },
      );
    });

  it('the inputs that crashed it before (issue 27)', () => {
    const mp = DAT3M[0]!;
    const inputs = [
      '',
      'VULKAN t\n{ x=0; }\n st.sc0 x, 1 | ld.sc0 r0, x ;\n P0@sg 0, wg 0, qf 0 | P1@sg 0, wg 1, qf 0 ;\nexists (P1:r0 == 2)\n',
      mp.replace(/^exists\s*$/m, `exists ${'('.repeat(4000)}`),
      `VULKAN t\n{ x=0; }\n P0@sg 0, wg 0, qf 0 ;\n${' st.sc0 x, 1 ;\n'.repeat(3000)}exists (x == 1)\n`,
    ];
    for (const text of inputs) expect(frontEndViolations(text, 20, FRONT_ENDS[0]!.fe)).toEqual([]);
    // The end of a file without a line break was a span past its last character; so was the empty
    // token after a trailing dot.
    expect(frontEndViolations('VULKAN t', 20, FRONT_ENDS[0]!.fe)).toEqual([]);
    for (const text of ['NEWTHREAD\nst.', 'NEWTHREAD\nst..sc0 x = 1\n'])
      expect(frontEndViolations(text, 20, FRONT_ENDS[1]!.fe)).toEqual([]);
  });
});
