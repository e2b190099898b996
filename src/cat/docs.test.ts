import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dev, ld, makeTest, st, threads } from '../events/build.ts';
import { buildSkeleton } from '../events/skeleton.ts';
import { buildVulkanPrimitives, VULKAN_PRIMITIVE_NAMES } from '../vulkan/cat-primitives.ts';
import { parseDat3m } from '../vulkan/dat3m.ts';
import { buildVkSkeleton } from '../vulkan/events.ts';
import { variantsOf } from '../vulkan/paths.ts';
import { HERD_ONLY_KEYWORDS } from './lexer.ts';
import { prelude } from './prelude.ts';
import { buildPrimitives, LACKING, PRIMITIVE_NAMES } from './primitives.ts';

const DOC = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'cat.md'), 'utf8');

describe('docs/cat.md', () => {
  it('lists every primitive a cat model sees, and only those', () => {
    const sk = buildSkeleton(
      makeTest({
        locs: { x: 0 },
        threads: threads([[st('x', 1)], [ld('r', 'x')]], [dev(0, 0, 0, 0), dev(1, 0, 0, 0)]),
      }),
    );
    const names = [...buildPrimitives(sk).prims.values.keys()].sort();
    expect(names).toEqual([...PRIMITIVE_NAMES].sort());
    const missing = PRIMITIVE_NAMES.filter((n) => !DOC.includes(`\`${n}\``));
    expect(missing).toEqual([]);
  });

  it("lists herd7's standard names gpumm gives, and the herd7 keywords it does not read", () => {
    const names = prelude().instrs.flatMap((i) => (i.kind === 'let' ? i.bindings.map((b) => b.name) : []));
    expect(names.length).toBeGreaterThan(10);
    expect(names.filter((n) => !DOC.includes(`\`${n}`))).toEqual([]);
    const unread = HERD_ONLY_KEYWORDS.filter((k) => !['yield', 'compat', 'do', 'from'].includes(k));
    const inCode = (k: string) => new RegExp(`\`[^\`]*\\b${k}\\b[^\`]*\``).test(DOC);
    expect(unread.filter((k) => !inCode(k))).toEqual([]);
  });

  it('names what gpumm lacks', () => {
    const missing = [...LACKING.keys()].filter((n) => !DOC.includes(`\`${n}\``));
    expect(missing).toEqual([]);
  });

  it('lists every primitive a cat model sees of a Vulkan test, and only those', () => {
    const t = parseDat3m(
      'VULKAN t\n{ x=0; }\n P0@sg 0, wg 0, qf 0 | P1@sg 1, wg 0, qf 0 ;\n st.sc0 x, 1 | ld.sc0 r0, x ;\nexists (x == 0)\n',
      't.litmus',
    ).test!;
    const sk = buildVkSkeleton(t, variantsOf(t).variants[0]!);
    const names = [...buildVulkanPrimitives(sk).prims.values.keys()].sort();
    expect(names).toEqual([...VULKAN_PRIMITIVE_NAMES].sort());
    const section = DOC.slice(DOC.indexOf('## Vulkan tests'));
    const missing = VULKAN_PRIMITIVE_NAMES.filter((n) => !section.includes(`\`${n}\``));
    expect(missing).toEqual([]);
  });
});
