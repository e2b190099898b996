import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assumptionsDoc } from './docs.ts';

const ROOT = join(import.meta.dirname, '..', '..');

describe('docs/assumptions.md', () => {
  it('is current (regenerate: npx tsx scripts/gen-target-docs.ts)', () => {
    expect(readFileSync(join(ROOT, 'docs/assumptions.md'), 'utf8')).toBe(assumptionsDoc());
  });
});
