import { spawnSync } from 'node:child_process';
import { existsSync, openSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATALOGUE, gpumm, ROOT, tmpFile } from './testing.ts';

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

  it("a misspelt command or option gets commander's suggestion on the diagnostic's line", () => {
    const cmd = gpumm('rnu', 'litmus/MP+rel+acq.agent.litmus');
    expect(cmd.status).toBe(2);
    expect(cmd.stderr).toContain("error CL1003: unknown command 'rnu'; did you mean run?\n");
    const opt = gpumm('run', '--max-stats', '3', 'litmus/MP+rel+acq.agent.litmus');
    expect(opt.status).toBe(2);
    expect(opt.stderr).toContain("error CL1003: unknown option '--max-stats'; did you mean --max-states?\n");
    for (const r of [cmd, opt]) expect(r.stderr).not.toContain('\\x0a');
  });

  it('loads only the command it runs, and every command for the help and a misspelt name', () => {
    // Each command's module is loaded on demand (src/cli/main.ts): the help still lists them all.
    const help = gpumm('--help');
    expect(help.status).toBe(0);
    for (const c of ['parse', 'convert', 'run', 'demo', 'lower', 'compare', 'check', 'mutate', 'serve'])
      expect(help.stdout).toMatch(new RegExp(`\\n  ${c} `));
    expect(gpumm('help', 'lower').stdout).toMatch(/^Usage: gpumm lower/);
    expect(gpumm('lower', '--help').stdout).toMatch(/^Usage: gpumm lower/);
  });

  it('--error-limit: parse, run and lower stop after n errors (default 20, 0 = all) and count the rest', () => {
    const bad = tmpFile('many.litmus', `AMDGPU many\nP0 {\n${'  store i32 1, ptr @nope\n'.repeat(30)}}\n`);
    const one = tmpFile('one.litmus', 'x');
    const errorsIn = (s: string) => s.match(/: error LT\d{4}: /g)?.length ?? 0;
    const byDefault = gpumm('parse', bad);
    expect(byDefault.status).toBe(2);
    expect(byDefault.stdout).toBe('');
    expect(errorsIn(byDefault.stderr)).toBe(20);
    expect(byDefault.stderr).toMatch(/\ngpumm: 10 more errors not shown \(--error-limit 20; /);
    const all = gpumm('parse', '--error-limit', '0', bad);
    expect(errorsIn(all.stderr)).toBe(30);
    expect(all.stderr).not.toMatch(/not shown/);
    // The limit counts over all files of the command.
    const run = gpumm('run', '--error-limit', '3', one, bad);
    expect(run.status).toBe(2);
    expect(errorsIn(run.stderr)).toBe(3);
    expect(run.stderr).toMatch(/gpumm: 30 more errors not shown/);
    const lower = gpumm('lower', '-t', 'gfx1200', '--error-limit', '1', bad);
    expect(lower.status).toBe(2);
    expect(errorsIn(lower.stderr)).toBe(1);
    const wrong = gpumm('parse', '--error-limit', '-1', bad);
    expect(wrong.status).toBe(2);
    // The caret under the bad value: parse --error-limit -1 …
    expect(wrong.stderr).toMatch(/<command-line>:1:21: error CL1003: .*--error-limit/);
  });

  it('a file that is not UTF-8 (binary, Latin-1) is one diagnostic at its first bad byte, exit 2, for every command', () => {
    const f = tmpFile('latin1.litmus', '');
    writeFileSync(
      f,
      Buffer.concat([
        Buffer.from('AMDGPU X\n@x = global i32 0 ; caf'),
        Buffer.from([0xe9, 0xff]),
        Buffer.from('\n'),
      ]),
    );
    for (const cmd of ['parse', 'run', 'lower']) {
      const r = gpumm(cmd, f);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/latin1\.litmus:2:24: error CL1005: .* byte 0xe9 /);
      // One diagnostic, not one "unexpected character" per byte.
      expect(r.stderr.match(/error/g)).toHaveLength(1);
    }
  });

  it("a command-line diagnostic keeps gpumm's sentence whole and cuts only the input it quotes", () => {
    // The message was cut at 120 characters in its middle ("separated by a co… amdgpu,rc11").
    const r = gpumm('compare', '--models', 'amdgpu,rc11,amdgpu-cat', 'litmus/LB+plain.litmus');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(
      "argument 'amdgpu,rc11,amdgpu-cat' is invalid. expected two models separated by a comma, e.g. amdgpu,rc11\n",
    );
    const long = '9'.repeat(400);
    const l = gpumm('run', '--max-states', `${long}x`, 'litmus/LB+plain.litmus');
    expect(l.status).toBe(2);
    expect(l.stderr).toMatch(/argument '9+…9+x' is invalid\. expected a positive integer\n/);
  });

  it("--workers above the machine's cores is refused (CL1003, exit 2), on run and on check", () => {
    const over = String(availableParallelism() + 1);
    for (const cmd of ['run', 'check']) {
      const r = gpumm(cmd, '--workers', over, 'litmus/LB+plain.litmus');
      expect(r.status, cmd).toBe(2);
      expect(r.stderr).toContain(
        `error CL1003: option '--workers <n>' argument '${over}' is invalid. expected at most`,
      );
    }
  });

  it.skipIf(!existsSync('/dev/full'))('a full disk on stdout: CL1007 and exit 74, no stack trace', () => {
    for (const args of [['run'], ['run', '--json'], ['parse']]) {
      const r = spawnSync(
        process.execPath,
        [join(ROOT, 'bin', 'gpumm.js'), ...args, 'litmus/LB+plain.litmus'],
        {
          cwd: ROOT,
          encoding: 'utf8',
          stdio: ['ignore', openSync('/dev/full', 'w'), 'pipe'],
        },
      );
      expect(r.status, args.join(' ')).toBe(74);
      expect(r.stderr).toBe(
        '<stdout>:1:1: error CL1007: cannot write the output: no space left on the device (ENOSPC)\n' +
          '  hint: free space where standard output goes, or send it elsewhere (a file on another disk, a pipe)\n',
      );
    }
  });

  it('a Vulkan test whose name holds C1 controls and bidi overrides: parse, convert and --json print none raw', () => {
    const name = 'CoWW\u009b31m\u202eX\u0085';
    const f = tmpFile(
      'hostile-name.litmus',
      `VULKAN ${name}\n{\nx=0;\n}\n P0@sg 0, wg 0, qf 0 ;\n ld.sc0 r0, x ;\nexists\n(P0:r0 == 0)\n`,
    );
    const raw = /[\u0080-\u009f\u202a-\u202e\u2066-\u2069]/;
    for (const args of [['parse'], ['parse', '--json'], ['convert', '--to', 'khronos'], ['run', '--json']]) {
      const r = gpumm(...args, f);
      expect(r.status, args.join(' ')).toBe(0);
      expect(raw.test(r.stdout), args.join(' ')).toBe(false);
    }
    // Escaped, not lost: the JSON reads back to the name as written.
    expect(JSON.parse(gpumm('parse', '--json', f).stdout).name).toBe(name);
    expect(gpumm('parse', f).stdout.split('\n')[0]).toBe('VULKAN CoWW\\x9b31m\\u{202e}X\\x85');
  });

  it('a hostile file cannot write control sequences to the terminal', () => {
    const f = tmpFile(
      'hostile.litmus',
      'AMDGPU t\nP0 {\n  store i32 1, ptr @a\x1b]0;owned\x07\x1b[2J\u202e\n}\n',
    );
    const r = gpumm('parse', f);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('\\x1b]0;owned\\x07\\x1b[2J\\u{202e}');
    expect(r.stderr).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u202e]/);
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

  it('demo --only matching no test is a diagnostic with the nearest names, exit 2 (it printed "0 tests" and exited 0)', () => {
    const r = gpumm('demo', '--only', 'IRIW+rlx.agnt');
    expect([r.status, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toContain("error CL1003: no catalogue test's name contains 'IRIW+rlx.agnt'");
    expect(r.stderr).toContain('hint: did you mean IRIW+rlx.agent');
  });

  it('demo --only narrows to matching tests', () => {
    const r = gpumm('demo', '--only', 'IRIW');
    expect(r.status).toBe(0);
    // Every column has a header: the last one, ok / FAIL / ?, had none.
    expect(r.stdout).toMatch(/^test +expected +got +executions +time +as expected\n/);
    expect(r.stdout).toMatch(/^IRIW\S* .* ok$/m);
    expect(r.stdout).toMatch(/\n\d+ tests, /);
    expect(r.stdout).not.toMatch(/^MP\+/m);
  });
});
