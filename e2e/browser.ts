/**
 * What the browser tests share: Debian's Chromium (installed by scripts/setup.mjs) driven by
 * playwright-core, and `gpumm serve` started on a free port.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';

export const ROOT = join(import.meta.dirname, '..');
/** Screenshots of the tests (read them: they show what a user sees). */
export const ARTIFACTS = join(ROOT, 'e2e', 'artifacts');

/** Chromium's path, or why there is none (the browser tests then skip, saying so). */
export function findChromium(): { path: string } | { reason: string } {
  for (const name of ['chromium', 'chromium-browser']) {
    const r = spawnSync('which', [name], { encoding: 'utf8' });
    if (r.status === 0 && r.stdout.trim()) return { path: r.stdout.trim() };
  }
  return {
    reason:
      'no chromium on PATH (scripts/setup.mjs installs Debian’s chromium when run as root with apt-get)',
  };
}

export async function launch(path: string): Promise<Browser> {
  return chromium.launch({ executablePath: path, headless: true, args: ['--no-sandbox'] });
}

/** A running `gpumm serve`: its URL and its process. */
export interface Served {
  url: string;
  proc: ChildProcess;
  stderr: () => string;
  stop(): Promise<number | null>;
}

/** Starts `gpumm serve --port 0 …` and waits for the URL it prints. */
export function serve(args: string[] = []): Promise<Served> {
  const proc = spawn(process.execPath, [join(ROOT, 'bin', 'gpumm.js'), 'serve', '--port', '0', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  proc.stderr!.on('data', (b: Buffer) => {
    err += b.toString();
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gpumm serve did not start: ${err}`)), 60_000);
    proc.on('exit', (code) => reject(new Error(`gpumm serve exited ${code}: ${err}`)));
    proc.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /^(http:\/\/\S+\/)\n/m.exec(out);
      if (!m) return;
      clearTimeout(timer);
      resolve({
        url: m[1]!,
        proc,
        stderr: () => err,
        stop: () =>
          new Promise((done) => {
            if (proc.exitCode !== null) return done(proc.exitCode);
            proc.once('exit', (code) => done(code));
            proc.kill('SIGINT');
          }),
      });
    });
  });
}

export function artifact(name: string): string {
  mkdirSync(ARTIFACTS, { recursive: true });
  return join(ARTIFACTS, name);
}
