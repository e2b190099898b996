/**
 * Dartagnan's Vulkan suite as copied into the repository (corpus/vulkan-dat3m/): its test files and
 * expected verdicts, for the conformance test, scripts/vulkan-conformance.ts and bench/vulkan.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Bit, parseExpectations } from '../vulkan/conformance.ts';

export const VULKAN_CORPUS = join(import.meta.dirname, '..', '..', 'corpus', 'vulkan-dat3m');

export interface CorpusTest {
  /** The path below the corpus folder, as the CSV files name it (`Manual/MP-avvis.litmus`). */
  test: string;
  text: string;
}

/** Every `.litmus` file of the suite's folders, in name order. */
export function corpusTests(dir = VULKAN_CORPUS): CorpusTest[] {
  const out: CorpusTest[] = [];
  for (const sub of readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort())
    for (const f of readdirSync(join(dir, sub))
      .filter((f) => f.endsWith('.litmus'))
      .sort())
      out.push({ test: `${sub}/${f}`, text: readFileSync(join(dir, sub, f), 'utf8') });
  return out;
}

/** The suite's expected verdicts. */
export function corpusExpectations(dir = VULKAN_CORPUS): {
  condition: Map<string, Bit>;
  raceFree: Map<string, Bit>;
} {
  return {
    condition: parseExpectations(readFileSync(join(dir, 'expected-condition.csv'), 'utf8')),
    raceFree: parseExpectations(readFileSync(join(dir, 'expected-race-free.csv'), 'utf8')),
  };
}
