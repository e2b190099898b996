/**
 * The piscina task of `gpumm campaign --workers n` (src/campaign/run.ts): one whole test, model and
 * every check, to its results line. Jobs and lines are plain data.
 */

import { campaignTest, type TestJob } from './run.ts';
import type { TestLine } from './schema.ts';

export default async function task(job: TestJob): Promise<TestLine> {
  // Nothing interrupts a test on a worker: Ctrl-C and the watchdog stop the thread itself.
  const line = await campaignTest(job);
  if (line === null) throw new Error(`test ${job.test.name} was interrupted on a worker`);
  return line;
}
