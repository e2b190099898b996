import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'gpumm.js');
const CATALOGUE = join(import.meta.dirname, '..', '..', 'litmus');

function gpumm(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    cwd: join(import.meta.dirname, '..', '..'),
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function tmpFile(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'gpumm-'));
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

describe('gpumm CLI', () => {
  it('--help lists the commands', () => {
    const r = gpumm('--help');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/parse/);
    expect(r.stdout).toMatch(/demo/);
  });

  it('parse prints the normalised test and exits 0', () => {
    const r = gpumm('parse', join(CATALOGUE, 'MP+rel+acq.agent.litmus'));
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^AMDGPU MP\+rel\+acq\.agent\n/);
    expect(r.stdout).toContain('P0 @ agent 0, cluster 0, workgroup 0, wavefront 0 {');
  });

  it('parse --json prints the AST', () => {
    const r = gpumm('parse', '--json', join(CATALOGUE, 'MP+rel+acq.agent.litmus'));
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).threads).toHaveLength(2);
  });

  it('bad input: every diagnostic with file:line:col and a hint, exit 2, nothing on stdout, no stack trace', () => {
    const good = join(CATALOGUE, 'MP+rel+acq.agent.litmus');
    const bad = tmpFile('bad.litmus', 'AMDGPU bad\nP0 {\n  store atomic i32 1, ptr @x acquire\n  frob\n}\n');
    const r = gpumm('parse', good, bad);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`${bad}:3:`);
    expect(r.stderr).toContain(`${bad}:4:3: error LT2004`);
    expect(r.stderr).toMatch(/hint: /);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('a missing file, an unknown option and an unknown command are diagnostics with exit 2', () => {
    for (const args of [
      ['parse', 'no/such.litmus'],
      ['parse', '--frobnicate', 'x'],
      ['frobnicate'],
      ['parse'],
    ]) {
      const r = gpumm(...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/:1:\d+: error CL100\d/);
      expect(r.stderr).toMatch(/hint: /);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('demo runs the whole catalogue under the model and every expectation holds', () => {
    const r = gpumm('demo');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^test +expected +got +executions +time/);
    expect(r.stdout).toMatch(/MP\+rel\+acq\.agent +\S+ racy undef +\S+ racy undef +\d+ +[\d.]+ ms +ok/);
    const m = /(\d+) tests, (\d+) as expected, 0 not, 0 undecided/.exec(r.stdout);
    expect(m?.[1]).toBe(m?.[2]);
    expect(Number(m?.[1])).toBeGreaterThanOrEqual(80);
  });

  it('demo --only narrows to matching tests', () => {
    const r = gpumm('demo', '--only', 'IRIW');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/\n\d+ tests, /);
    expect(r.stdout).not.toMatch(/^MP\+/m);
  });
});
