/**
 * Runs Dartagnan's Vulkan suite (corpus/vulkan-dat3m/) under gpumm's Vulkan model and writes the
 * results table of docs/conformance.md, between its markers (src/vulkan/conformance.test.ts fails
 * when the table and the model disagree).
 * Usage: npx tsx scripts/vulkan-conformance.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { corpusExpectations, corpusTests } from '../src/cli/vulkan-corpus.ts';
import {
  type ConformanceRow,
  conformanceRow,
  conformanceTable,
  withTable,
} from '../src/vulkan/conformance.ts';

const doc = join(import.meta.dirname, '..', 'docs', 'conformance.md');
const expected = corpusExpectations();
const rows: ConformanceRow[] = [];
for (const { test, text } of corpusTests()) {
  const r = conformanceRow(test, text, expected);
  if ('diagnostics' in r) throw new Error(`${test}: ${r.diagnostics.map((d) => d.code).join(', ')}`);
  rows.push(r.row);
}
writeFileSync(doc, withTable(readFileSync(doc, 'utf8'), conformanceTable(rows)));
console.log(`wrote docs/conformance.md (${rows.length} tests)`);
