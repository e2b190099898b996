import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatReport } from '../enumerate/report.ts';
import { DEFAULT_RUN, modelDiagnostics, runTestSync } from '../enumerate/verdict.ts';
import { parse } from '../syntax/parser.ts';
import { CATALOGUE_DIR } from './demo.ts';
import { litmusFilesIn } from './io.ts';

/**
 * Golden baselines: the `gpumm run` report of every catalogue test, without timings, in
 * `src/cli/baselines/` (one folder: catalogue test names are unique). After reading the diff, accept changes with
 * `npm run baseline:accept`, which also writes the baseline of a new test (a missing one fails otherwise).
 */
describe('catalogue baselines', () => {
  for (const file of litmusFilesIn(CATALOGUE_DIR)) {
    it(basename(file), async () => {
      const { test } = parse(readFileSync(file, 'utf8'), relative(dirname(CATALOGUE_DIR), file));
      expect(test).not.toBeNull();
      // A test the model cannot decide (some barrier operations) has its diagnostics as baseline.
      const md = modelDiagnostics(test!);
      const text =
        md.length > 0
          ? md.map((d) => `${d.code} ${d.message}`).join('\n') + '\n'
          : formatReport(runTestSync(test!, { ...DEFAULT_RUN, explain: true }), { timing: false });
      const baseline = join(import.meta.dirname, 'baselines', `${basename(file, '.litmus')}.txt`);
      // A missing baseline is a failure, not a file to write: only `npm run baseline:accept` writes one,
      // after someone has read it.
      expect(
        existsSync(baseline) || process.env.GPUMM_ACCEPT_BASELINES === '1',
        `no baseline ${relative(process.cwd(), baseline)}: read the report, then npm run baseline:accept`,
      ).toBe(true);
      await expect(text).toMatchFileSnapshot(baseline);
    });
  }
});
