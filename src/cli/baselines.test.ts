import { readFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatReport } from '../enumerate/report.ts';
import { DEFAULT_RUN, modelDiagnostics, runTestSync } from '../enumerate/verdict.ts';
import { parse } from '../syntax/parser.ts';
import { CATALOGUE_DIR } from './demo.ts';
import { litmusFilesIn } from './io.ts';

/**
 * Golden baselines: the `gpumm run` report of every catalogue test, without timings, in
 * `src/cli/baselines/` (one folder: catalogue test names are unique). After reading the diff, accept changes with `npm run baseline:accept`.
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
      await expect(text).toMatchFileSnapshot(
        join(import.meta.dirname, 'baselines', `${basename(file, '.litmus')}.txt`),
      );
    });
  }
});
