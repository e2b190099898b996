import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dev, ld, makeTest, st, threads } from '../events/build.ts';
import { buildSkeleton } from '../events/skeleton.ts';
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

  it('names what gpumm lacks', () => {
    const missing = [...LACKING.keys()].filter((n) => !DOC.includes(`\`${n}\``));
    expect(missing).toEqual([]);
  });
});
