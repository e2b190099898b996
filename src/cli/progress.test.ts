import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type ProgressStream, startProgress, testLine } from './progress.ts';

/** A stream that records what is written, a terminal or not. */
function fakeStream(isTTY: boolean): ProgressStream & { text: () => string } {
  const chunks: string[] = [];
  const s = new Writable({
    write(chunk, _enc, cb) {
      chunks.push(String(chunk));
      cb();
    },
  }) as Writable & { isTTY?: boolean; columns?: number };
  s.isTTY = isTTY;
  s.columns = 120;
  return Object.assign(s, { text: () => chunks.join('') });
}

const P = { fraction: 0.25, states: 1200, executions: 34_000, elapsedMs: 10_000 };

describe('progress on a terminal', () => {
  it('a test line: share done, states, executions and rate, time left from the share', () => {
    expect(testLine('MP', P, '[bar]')).toBe(
      'MP [bar] 25.0% | 1200 states | 34.0k executions, 3400/s | ETA 30.0 s',
    );
    expect(testLine('MP', { ...P, fraction: 0 }, '')).toMatch(/ETA \?$/);
    expect(testLine('A'.repeat(40), P, '')).toMatch(/^A{27}… /);
  });

  it('draws the current test and files done of the total, with logged lines above; erases them at the end', async () => {
    const s = fakeStream(true);
    const p = (await startProgress(s, 2, 0))!;
    expect(p).not.toBeNull();
    p.test('MP+rel+acq');
    p.update(P);
    p.log('a line above the bars\n');
    p.done();
    p.stop();
    const out = s.text();
    expect(out).toContain('files ');
    expect(out).toContain(' 1/2');
    expect(out).toContain('MP+rel+acq ');
    expect(out).toContain('25.0% | 1200 states | 34.0k executions, 3400/s | ETA 30.0 s');
    expect(out).toContain('a line above the bars\n');
    // Erased: the screen below the cursor is cleared last, and the cursor shown again.
    expect(out.endsWith('\x1b[0J')).toBe(true);
    expect(out).toContain('\x1b[?25h');
  });

  it('draws nothing for a run shorter than the delay', async () => {
    const s = fakeStream(true);
    const p = (await startProgress(s, 3, 60_000))!;
    p.test('quick');
    p.update(P);
    p.done();
    p.stop();
    expect(s.text()).toBe('');
  });

  it('is off when the stream is not a terminal (a log, a pipe)', async () => {
    const s = fakeStream(false);
    expect(await startProgress(s, 2, 0)).toBeNull();
    expect(s.text()).toBe('');
  });
});

describe('gpumm run: progress on stderr, never on stdout', () => {
  const root = join(import.meta.dirname, '..', '..');
  // Five threads of different code: over a second of search (1.5 s on a quiet machine, 0.4 s with
  // one load fewer, too close to the bars' delay), long enough for the bars.
  const threads = [
    ['store 1 x', 'store 1 y', 'load x'],
    ['load y', 'store 2 x', 'load x'],
    ['store 2 y', 'load x', 'load y'],
    ['load x', 'store 3 x', 'load y'],
    ['load y', 'store 5 x', 'load x', 'load y'],
  ].map((ops, t) => {
    let r = 0;
    const body = ops.map((op) => {
      const [k, a, b] = op.split(' ');
      return k === 'load'
        ? `  %r${r++} = load atomic i32, ptr addrspace(1) @${a} monotonic, align 4`
        : `  store atomic i32 ${a}, ptr addrspace(1) @${b} monotonic, align 4`;
    });
    return `P${t} @ agent ${t} {\n${body.join('\n')}\n}\n`;
  });
  const file = join(mkdtempSync(join(tmpdir(), 'gpumm-progress-')), 'asym.litmus');
  writeFileSync(
    file,
    `AMDGPU ASYM\n\n@x = addrspace(1) global i32 0\n@y = addrspace(1) global i32 0\n\n${threads.join('')}exists (P0:%r0 == 1)\n`,
  );

  /** Runs gpumm; `tty`: stderr claims to be a terminal (a pipe all the same, so it can be read). */
  function gpumm(tty: boolean, ...args: string[]) {
    const preload = tty
      ? ['--import', 'data:text/javascript,process.stderr.isTTY=true;process.stderr.columns=150']
      : [];
    const r = spawnSync(process.execPath, [...preload, join(root, 'bin', 'gpumm.js'), ...args], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  }
  const bar = /ASYM [░█]+ \d+\.\d% \| [\d.k]+ states \| [\d.kM]+ executions, [\d.kM]+\/s \| ETA /;
  const reports = (json: string) =>
    JSON.parse(json).map((r: { stats: unknown }) => ({ ...r, stats: null })) as unknown[];

  it('a terminal gets the bars on stderr; stdout is the same --json as without them', () => {
    const tty = gpumm(true, 'run', '--json', file);
    const plain = gpumm(false, 'run', '--json', file);
    expect(tty.status).toBe(0);
    expect(tty.stderr).toMatch(bar);
    expect(tty.stdout).not.toContain('\x1b');
    expect(reports(tty.stdout)).toEqual(reports(plain.stdout));
    // Not a terminal: no bars, no escape sequences.
    expect(plain.stderr).not.toMatch(bar);
    expect(plain.stderr).not.toContain('\x1b');
  }, 60_000);

  it('--quiet: nothing on stderr, even on a terminal', () => {
    const r = gpumm(true, 'run', '--quiet', file);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^Test ASYM/);
  }, 60_000);
});
