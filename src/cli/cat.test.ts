import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CompareJsonSchema } from './compare-run.ts';
import { RunJsonSchema } from './run.ts';
import { gpumm, tmpFile } from './testing.ts';

describe('gpumm run with cat models', () => {
  it('--model amdgpu-cat gives the fast search report', () => {
    const files = ['litmus/MP+rel+acq.sys.diff-agent.litmus', 'litmus/CoRR.atomic.agent.litmus'];
    const fast = RunJsonSchema.parse(JSON.parse(gpumm('run', '--json', ...files).stdout));
    const r = gpumm('run', '--json', '--model', 'amdgpu-cat', ...files);
    expect(r.status).toBe(0);
    const cat = RunJsonSchema.parse(JSON.parse(r.stdout));
    expect(cat.map((x) => [x.states, x.flags, x.condition])).toEqual(
      fast.map((x) => [x.states, x.flags, x.condition]),
    );
  });

  it('--explain names the cat check that rejects a candidate, with its cycle', () => {
    const r = gpumm('run', '--explain', '--model', 'amdgpu-cat', 'litmus/CoRR.atomic.agent.litmus');
    expect(r.stdout).toMatch(/coherence: cycle: .* → .* → /);
  });

  it('a user model runs with --cat; its mistakes are diagnostics with file:line:col, exit 2', () => {
    const sc = tmpFile('sc.cat', '"SC"\nacyclic po | rf | co | fr as sc\n');
    const ok = gpumm('run', '--cat', sc, 'litmus/CoRR.atomic.agent.litmus');
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain('States 3');
    const bad = tmpFile('bad.cat', '"bad"\nlet a = po ; rff\nacyclic a as x\n');
    const r = gpumm('run', '--cat', bad, 'litmus/CoRR.atomic.agent.litmus');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${bad}:2:14: error CAT3001`);
    expect(r.stderr).toContain('did you mean rf');
    expect(r.stderr).not.toContain("unknown name 'a'");
    const lacking = tmpFile('arm.cat', 'acyclic [X] ; po as x\n');
    const l = gpumm('run', '--cat', lacking, 'litmus/CoRR.atomic.agent.litmus');
    expect(l.status).toBe(2);
    expect(l.stderr).toContain('CAT3006');
  });

  it('--graph and --workers are for the fast search: a diagnostic, exit 2', () => {
    const r = gpumm('run', '--model', 'amdgpu-cat', '--graph', 'dot', 'litmus/LB+plain.litmus');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('CL1003');
    expect(r.stdout).toBe('');
  });

  it('budgets apply: a test stopped by --max-executions is undecided (exit 3)', () => {
    const r = gpumm(
      'run',
      '--model',
      'amdgpu-cat',
      '--max-executions',
      '1',
      'litmus/CoRR.atomic.agent.litmus',
    );
    expect(r.status).toBe(3);
    expect(r.stderr).toContain('undecided (max-executions)');
  });

  it("a model's own flags are printed as herd7 prints them, and listed in --json", () => {
    const m = tmpFile(
      'flags.cat',
      '"f"\nacyclic po | rf | co | fr as sc\nflag ~empty rf & ext as cross\nflag ~empty po & loc as never\n',
    );
    const r = gpumm('run', '--cat', m, 'litmus/MP+rel+acq.agent.litmus');
    // The test's expect: lines are the AMDGPU model's (a race), which this model has no flag for.
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/Positive: 0 Negative: 3\nFlag cross\nCondition /);
    expect(r.stdout).not.toContain('Flag never');
    const j = RunJsonSchema.parse(
      JSON.parse(gpumm('run', '--json', '--cat', m, 'litmus/MP+rel+acq.agent.litmus').stdout),
    );
    expect(j[0]!.modelFlags).toEqual(['cross']);
  });

  it('a mistake in an included file shows the line of that file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gpumm-cat-'));
    writeFileSync(join(dir, 'lib.cat'), '"lib"\nlet com = rf | bogus\n');
    writeFileSync(
      join(dir, 'main.cat'),
      '"main"\n(* the second line of main.cat *)\ninclude "lib.cat"\nacyclic po | com as x\n',
    );
    const r = gpumm('run', '--cat', join(dir, 'main.cat'), 'litmus/CoRR.atomic.agent.litmus');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${join(dir, 'lib.cat')}:2:16: error CAT3001`);
    expect(r.stderr).toContain('   2 | let com = rf | bogus\n');
    expect(r.stdout).toBe('');
  });

  it("herd7's constructs gpumm does not read are named; its standard names and includes work", () => {
    const herdish = tmpFile(
      'herdish.cat',
      '"herd-style"\ninclude "cos.cat"\nlet com = rfe | coe | fre\nacyclic po-loc | rf | co | fr as sc-per-location\n' +
        'acyclic (po \\ (W * R)) | com as tso // SB is allowed\n',
    );
    const ok = gpumm('run', '--cat', herdish, 'litmus/SB+rlx.agent.litmus');
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain('States 4');
    const proc = tmpFile('proc.cat', '"p"\nprocedure sc() =\n  acyclic po as x\nend\ncall sc()\n');
    const r = gpumm('run', '--cat', proc, 'litmus/SB+rlx.agent.litmus');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(":2:1: error CAT2002: herd7's procedure … end is not supported by gpumm");
    expect(r.stderr).toContain(":5:1: error CAT2002: herd7's procedure call is not supported by gpumm");
    expect(r.stdout).toBe('');
  });

  it('a cat file of many errors: --error-limit as for litmus files, no crash on deep nesting', () => {
    const many = tmpFile('many.cat', `"m"\n${'let x = po |\n'.repeat(50)}`);
    const r = gpumm('run', '--cat', many, 'litmus/SB+rlx.agent.litmus');
    expect(r.status).toBe(2);
    expect(r.stderr.match(/error CAT2001/g)?.length).toBe(20);
    expect(r.stderr).toContain('gpumm: 30 more errors not shown (--error-limit 20');
    const all = gpumm('run', '--error-limit', '0', '--cat', many, 'litmus/SB+rlx.agent.litmus');
    expect(all.stderr.match(/error CAT2001/g)?.length).toBe(50);
    const deep = tmpFile('deep.cat', `"d"\nacyclic ${'('.repeat(100_000)}po${')'.repeat(100_000)} as x\n`);
    const d = gpumm('run', '--cat', deep, 'litmus/SB+rlx.agent.litmus');
    expect(d.status).toBe(2);
    expect(d.stderr).toContain('error CAT2003: nested more than 256 levels deep');
    expect(d.stderr).not.toContain('internal error');
  });

  it('includes resolve beside the including file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gpumm-cat-'));
    writeFileSync(join(dir, 'base.cat'), 'let com = rf | co | fr\n');
    writeFileSync(join(dir, 'sc.cat'), 'include "base.cat"\nacyclic po | com as sc\n');
    expect(gpumm('run', '--cat', join(dir, 'sc.cat'), 'litmus/CoRR.atomic.agent.litmus').status).toBe(0);
    writeFileSync(join(dir, 'missing.cat'), 'include "nope.cat"\n');
    const r = gpumm('run', '--cat', join(dir, 'missing.cat'), 'litmus/CoRR.atomic.agent.litmus');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('CAT3004');
  });
});

describe('cat files that cannot be read', () => {
  it('an include naming a folder is a diagnostic at the include, not an internal error (exit 70)', () => {
    const f = tmpFile('dot.cat', '"M"\ninclude "."\n');
    const r = gpumm('run', '--cat', f, 'litmus/MP+rel+acq.agent.litmus');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/dot\.cat:2:9: error CAT3004: cannot include '\.': it is a directory/);
    expect(r.stderr).not.toContain('internal error');
  });

  it('--model and --cat together are refused (--cat won silently)', () => {
    const f = tmpFile('empty.cat', '"empty"\n');
    const r = gpumm('run', '--model', 'rc11', '--cat', f, 'litmus/MP+rel+acq.agent.litmus');
    expect([r.status, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toContain(
      "error CL1003: option '--model <name>' cannot be used with option '--cat <file>'",
    );
  });

  it('a missing cat file gets a hint about cat models, not litmus files', () => {
    const r = gpumm('run', '--cat', 'no-such-model.cat', 'litmus/MP+rel+acq.agent.litmus');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('hint: check the path; cat models end in .cat');
  });
});

describe('gpumm compare', () => {
  it('shows both verdicts and an execution one model allows and the other forbids', () => {
    const r = gpumm(
      'compare',
      '--models',
      'amdgpu,rc11',
      'litmus/LB+plain.litmus',
      'litmus/CoRR.sys.diff-agent.litmus',
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Test LB+plain');
    expect(r.stdout).toMatch(/amdgpu +condition unknown/);
    expect(r.stdout).toMatch(/rc11 +condition fails/);
    expect(r.stdout).toContain('only amdgpu allows: P0:r0=undef; P1:r1=undef;');
    expect(r.stdout).toContain('only rc11 allows: P0:r0=0; P1:r1=0;');
    expect(r.stdout).toContain('reads the initial write of @x = 0');
    expect(r.stdout).toContain('both models reach the same final states');
  });

  it('says which tests the model cannot decide, compares the others and exits 3 (it left them out silently)', () => {
    const nbn = tmpFile(
      'named-by-number.litmus',
      'AMDGPU NBN\n@x = global i32 0\nP0 @ agent 0 {\n  call void @llvm.amdgcn.s.barrier.signal(i32 3)\n}\nexists (@x == 0)\n',
    );
    const r = gpumm('compare', '--models', 'amdgpu,rc11', nbn, 'litmus/LB+plain.litmus');
    expect(r.status).toBe(3);
    expect(r.stderr).toMatch(/named-by-number\.litmus:4:3: error MD004: /);
    expect(r.stdout).toContain('Test LB+plain');
    expect(r.stdout).not.toContain('NBN');
  });

  it('counts final states in words that agree (1 final state, 3 final states)', () => {
    const r = gpumm('compare', '--models', 'amdgpu,rc11', 'litmus/LB+plain.litmus');
    expect(r.stdout).toMatch(/amdgpu +condition unknown, 1 final state \(race, undef\)/);
    expect(r.stdout).toMatch(/rc11 +condition fails, 3 final states \(race\)/);
  });

  it('--json prints what CompareJsonSchema describes', () => {
    const r = gpumm('compare', '--json', '--models', 'amdgpu,rc11', 'litmus/LB+plain.litmus');
    expect(r.status).toBe(0);
    const out = CompareJsonSchema.parse(JSON.parse(r.stdout));
    expect(out[0]!.verdicts.map((v) => [v.model, v.verdict, v.states])).toEqual([
      ['amdgpu', 'unknown', 1],
      ['rc11', 'fails', 3],
    ]);
  });

  it("has gpumm run's budgets: a model run stopped by one is named, its comparison undecided, exit 3", () => {
    // rc11 has 3 final states of LB+plain, amdgpu 1: --max-states 1 stops rc11 only.
    const r = gpumm('compare', '--models', 'amdgpu,rc11', '--max-states', '1', 'litmus/LB+plain.litmus');
    expect(r.status).toBe(3);
    expect(r.stderr).toContain('LB+plain: undecided: rc11 stopped (max-states) with 1 final state found');
    expect(r.stderr).toContain('hint: the test has more final states than --max-states allows');
    expect(r.stdout).toMatch(/amdgpu +condition unknown, 1 final state \(race, undef\)\n/);
    expect(r.stdout).toMatch(/rc11 +condition .*, 1 final state so far, stopped \(max-states\)/);
    expect(r.stdout).toContain('undecided: rc11 stopped before its search was complete');
    // What rc11 has not found yet may still be there: amdgpu's state is not called its own.
    expect(r.stdout).not.toContain('only amdgpu allows');
    const j = gpumm(
      'compare',
      '--json',
      '--models',
      'amdgpu,rc11',
      '--max-executions',
      '1',
      'litmus/LB+plain.litmus',
    );
    expect(j.status).toBe(3);
    const [c] = CompareJsonSchema.parse(JSON.parse(j.stdout));
    expect([c!.complete, ...c!.verdicts.map((v) => v.stop)]).toEqual([
      false,
      'max-executions',
      'max-executions',
    ]);
    expect(c!.only).toEqual([]);
    // Within the budgets, the same comparison as without them.
    const whole = gpumm('compare', '--models', 'amdgpu,rc11', '--timeout', '60', 'litmus/LB+plain.litmus');
    expect(whole.status).toBe(0);
    expect(whole.stdout).toContain('only rc11 allows: P0:r0=0; P1:r1=0;');
  });

  it('Ctrl-C prints the comparisons so far and exits 130', async () => {
    const { spawn } = await import('node:child_process');
    // CO 8 under the fast search: seconds (it stops at --max-states after several).
    const co8 = tmpFile(
      'co8.litmus',
      `AMDGPU CO8\n@x = addrspace(1) global i32 0\n${Array.from(
        { length: 8 },
        (_, i) =>
          `P${i} @ agent ${i} {\n  store atomic i32 ${i + 1}, ptr addrspace(1) @x monotonic, align 4\n  %r0 = load atomic i32, ptr addrspace(1) @x monotonic, align 4\n}\n`,
      ).join('')}exists (P0:%r0 == 0)\n`,
    );
    const bin = join(import.meta.dirname, '..', '..', 'bin', 'gpumm.js');
    const child = spawn(process.execPath, [bin, 'compare', '--models', 'amdgpu,amdgpu-cat', co8], {
      cwd: join(import.meta.dirname, '..', '..'),
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    // Signalled once the first model's search says it is under way.
    let signalled = false;
    child.stderr.on('data', (d) => {
      err += d;
      // Once: a second Ctrl-C while the answer is printed ends the process, as it should.
      if (!signalled && err.includes('(Ctrl-C prints the comparisons so far)'))
        signalled = child.kill('SIGINT');
    });
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(status).toBe(130);
    expect(err).toMatch(/CO8 \(amdgpu\): [\d.]+% of the search space after 300 ms/);
    expect(out).toMatch(
      /amdgpu +condition undecided \(fails so far\), \d+ final states so far, stopped \(interrupted\)/,
    );
    expect(out).toMatch(/amdgpu-cat +condition .*stopped \(interrupted\)/);
    expect(err).toContain('CO8: undecided: amdgpu stopped (interrupted)');
  }, 60_000);

  it('rejects an unknown model on the command line', () => {
    const r = gpumm('compare', '--models', 'amdgpu,nope', 'litmus/LB+plain.litmus');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('CL1003');
  });
});
