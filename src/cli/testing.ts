/** Helpers for tests of the command line: run `bin/gpumm.js` as a user would, write input files. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The repository's root: commands run there, so relative paths such as `litmus/…` resolve. */
export const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'gpumm.js');

/** The catalogue folder. */
export const CATALOGUE = join(ROOT, 'litmus');

/** Runs `gpumm args…` in a child process: its exit status and both outputs. */
export function gpumm(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd: ROOT, maxBuffer: 1 << 28 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Writes `text` to a new file `name` in a fresh temporary folder and returns its path. */
export function tmpFile(name: string, text: string): string {
  const p = join(mkdtempSync(join(tmpdir(), 'gpumm-')), name);
  writeFileSync(p, text);
  return p;
}
