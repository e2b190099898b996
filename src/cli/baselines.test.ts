import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatReport } from '../enumerate/report.ts';
import { DEFAULT_RUN, runTestSync } from '../enumerate/verdict.ts';
import { parse } from '../syntax/parser.ts';
import { CATALOGUE_DIR } from './demo.ts';
import { litmusFilesIn } from './io.ts';

/**
 * Golden baselines: the `gpumm run` report of every catalogue test, without timings, in
 * `src/cli/baselines/`. After reading the diff, accept changes with `npm run baseline:accept`.
 */
describe('catalogue baselines', () => {
  for (const file of litmusFilesIn(CATALOGUE_DIR)) {
    it(basename(file), async () => {
      const { test } = parse(readFileSync(file, 'utf8'), `litmus/${basename(file)}`);
      expect(test).not.toBeNull();
      const report = runTestSync(test!, { ...DEFAULT_RUN, explain: true });
      await expect(formatReport(report, { timing: false })).toMatchFileSnapshot(
        join(import.meta.dirname, 'baselines', `${basename(file, '.litmus')}.txt`),
      );
    });
  }
});
