/**
 * Writes docs/targets/*.md from the lowering tables and the recorded llc-22 divergences, and
 * docs/assumptions.md from the machines' assumptions and the pinned findings, so the docs cannot drift
 * from the code (src/lower/docs.test.ts and src/check/docs.test.ts fail when they do).
 * Usage: npx tsx scripts/gen-target-docs.ts
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assumptionsDoc } from '../src/check/docs.ts';
import { targetDocs } from '../src/lower/docs.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const baseline = readFileSync(join(root, 'src/lower/baselines/llc-divergences.txt'), 'utf8');
const docs = { ...targetDocs(baseline), 'docs/assumptions.md': assumptionsDoc() };
for (const [rel, text] of Object.entries(docs)) {
  const p = join(root, rel);
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, text);
  console.log(`wrote ${rel}`);
}
