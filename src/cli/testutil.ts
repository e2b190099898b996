/** Helpers for tests of the command line: run the `gpumm` binary as a user would. */

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'gpumm.js');

/** The catalogue folder. */
export const CATALOGUE = join(ROOT, 'litmus');

/** Runs `gpumm args…` from the repository root: its exit status and both outputs. */
export function gpumm(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd: ROOT });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
