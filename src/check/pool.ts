/**
 * Running many checks on a piscina worker pool (`gpumm check --workers n`, bench/check-catalogue.ts).
 * Node-only. Each job is one test's code on one target and mode; results come back in job order.
 */

import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { CheckResult } from './check.ts';
import type { CheckJob } from './worker.ts';

const ENTRY = fileURLToPath(new URL('./check-worker-entry.mjs', import.meta.url));

/** A pool of threads running checks until `close`. */
export interface CheckPool {
  run: (job: CheckJob) => Promise<CheckResult>;
  close: () => Promise<void>;
}

/** A pool of `workers` threads. */
export function checkPool(workers: number): CheckPool {
  const pool = new Piscina({ filename: ENTRY, minThreads: workers, maxThreads: workers });
  return {
    run: (job) => pool.run(job) as Promise<CheckResult>,
    close: () => pool.destroy(),
  };
}
