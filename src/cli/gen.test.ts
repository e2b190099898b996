import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gpumm } from './testing.ts';

describe('gpumm gen', () => {
  it('--count and --list: the default vocabulary makes 600 tests, each name once', () => {
    const c = gpumm('gen', '--count');
    expect(c).toMatchObject({ status: 0, stdout: '600\n' });
    const l = gpumm('gen', '--list', '--orders', 'rlx', '--scopes', 'agent', '--placements', 'wgs');
    expect(l.status).toBe(0);
    expect(l.stdout.trim().split('\n')).toEqual([
      'MP+rlx-rlx.ag+rlx-rlx.ag+w01',
      'LB+rlx-rlx.ag+rlx-rlx.ag+w01',
      'S+rlx-rlx.ag+rlx-rlx.ag+w01',
      'SB+rlx-rlx.ag+rlx-rlx.ag+w01',
      'R+rlx-rlx.ag+rlx-rlx.ag+w01',
      '2+2W+rlx-rlx.ag+rlx-rlx.ag+w01',
    ]);
  });

  it('--out: one file per test and the index @all; gpumm run reads them all', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'gpumm-gen-')), 'tests');
    const r = gpumm(
      'gen',
      '--out',
      dir,
      '--size',
      '5',
      '--orders',
      'rlx',
      '--scopes',
      'agent',
      '--placements',
      'wgs',
    );
    expect(r.status).toBe(0);
    const index = readFileSync(join(dir, '@all'), 'utf8').trim().split('\n');
    expect(index[0]).toMatch(/^# gpumm gen size=5 /);
    const files = index.slice(1);
    expect(files).toHaveLength(18);
    expect(readdirSync(dir).sort()).toEqual(['@all', ...files].sort());
    const run = gpumm('run', ...files.map((f) => join(dir, f)));
    expect(run.stderr).toBe('');
    expect(run.stdout.match(/^Test /gm)).toHaveLength(18);
  });

  it('--lang vulkan: the translation in Dartagnan syntax, which the Vulkan model runs', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'gpumm-gen-')), 'vk');
    const r = gpumm(
      'gen',
      '--out',
      dir,
      '--lang',
      'vulkan',
      '--orders',
      'rlx,acq,rel',
      '--scopes',
      'agent',
      '--placements',
      'wgs',
    );
    expect(r.status).toBe(0);
    const mp = readFileSync(join(dir, 'MP+rlx-rel.ag+acq-rlx.ag+w01.litmus'), 'utf8');
    expect(mp).toMatch(/^VULKAN /);
    const run = gpumm(
      'run',
      join(dir, 'MP+rlx-rel.ag+acq-rlx.ag+w01.litmus'),
      join(dir, 'MP+rlx-rlx.ag+rlx-rlx.ag+w01.litmus'),
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/MP\+rlx-rel[^\n]*\n(?:[^\n]*\n)*?No\b/);
  });

  it('bad vocabulary, no output mode, or too many tests: a diagnostic on the option, exit 2, nothing written', () => {
    const bad = gpumm('gen', '--count', '--fences', 'sc.shared');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/error CL1003: 'sc\.shared' is not a valid fences value/);
    expect(bad.stderr).toMatch(/hint: fences among/);
    expect(gpumm('gen').status).toBe(2);
    expect(gpumm('gen', '--count', '--list').status).toBe(2);
    const dir = join(mkdtempSync(join(tmpdir(), 'gpumm-gen-')), 'big');
    const big = gpumm('gen', '--out', dir, '--max', '100');
    expect(big.status).toBe(2);
    expect(big.stderr).toMatch(/more than 100 tests/);
    expect(() => readdirSync(dir)).toThrow();
  });
});
