import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatReport } from '../enumerate/report.ts';
import { DEFAULT_RUN, modelDiagnostics, runTestSync } from '../enumerate/verdict.ts';
import { parse } from '../syntax/parser.ts';
import { litmusFilesIn } from './io.ts';

/**
 * Barrier tests that use GFX12 / GFX12.5 operations (split barriers, `signal.isfirst`, named
 * barriers). They live in `bench/barriers/` rather than `litmus/` because the catalogue must lower
 * on GFX6–GFX12 (src/cli/lower-catalogue.test.ts), which these operations do not. Every `expect:`
 * line must hold, and the report is a golden baseline in `src/cli/baselines/barriers/`.
 */
const DIR = join(import.meta.dirname, '..', '..', 'bench', 'barriers');

describe('barrier tests (bench/barriers)', () => {
  for (const file of litmusFilesIn(DIR)) {
    it(basename(file), async () => {
      const { test } = parse(readFileSync(file, 'utf8'), `bench/barriers/${basename(file)}`);
      expect(test).not.toBeNull();
      expect(modelDiagnostics(test!)).toEqual([]);
      const report = runTestSync(test!, { ...DEFAULT_RUN, explain: true });
      expect(report.expectations.filter((e) => !e.ok)).toEqual([]);
      expect(report.expectations.length).toBeGreaterThan(0);
      await expect(formatReport(report, { timing: false })).toMatchFileSnapshot(
        join(import.meta.dirname, 'baselines', 'barriers', `${basename(file, '.litmus')}.txt`),
      );
    });
  }
});
