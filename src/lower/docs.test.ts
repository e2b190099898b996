import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { targetDocs } from './docs.ts';

const ROOT = join(import.meta.dirname, '..', '..');

describe('docs/targets', () => {
  const baseline = readFileSync(join(ROOT, 'src/lower/baselines/llc-divergences.txt'), 'utf8');
  it.each(Object.entries(targetDocs(baseline)))(
    '%s is current (regenerate: npx tsx scripts/gen-target-docs.ts)',
    (rel, text) => {
      expect(readFileSync(join(ROOT, rel), 'utf8')).toBe(text);
    },
  );
});
