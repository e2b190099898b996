import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunJsonSchema, reportWriter } from './run.ts';
import { gpumm, tmpFile } from './testing.ts';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'gpumm.js');

const SB = (order: string, expects: string) => `AMDGPU SB
${expects}

@x = addrspace(1) global i32 0
@y = addrspace(1) global i32 0

P0 @ agent 0 {
  store atomic i32 1, ptr addrspace(1) @x ${order}, align 4
  %r0 = load atomic i32, ptr addrspace(1) @y ${order}, align 4
}

P1 @ agent 1 {
  store atomic i32 1, ptr addrspace(1) @y ${order}, align 4
  %r0 = load atomic i32, ptr addrspace(1) @x ${order}, align 4
}

exists (P0:%r0 == 0 /\\ P1:%r0 == 0)
`;

/** The coherence family at n threads (every thread stores its value to @x, then loads @x). */
function coText(n: number): string {
  const threads = Array.from(
    { length: n },
    (_, i) => `P${i} @ agent ${i} {
  store atomic i32 ${i + 1}, ptr addrspace(1) @x monotonic, align 4
  %r0 = load atomic i32, ptr addrspace(1) @x monotonic, align 4
}
`,
  );
  // P0 reads its own store or a later one, never the initial 0: no state proves the condition, so
  // a stopped run leaves it undecided.
  return `AMDGPU CO${n}\nexpect: condition fails\n\n@x = addrspace(1) global i32 0\n\n${threads.join('\n')}\nexists (P0:%r0 == 0)\n`;
}

describe('gpumm run', () => {
  it('prints a herd-style report and exits 0 when every expectation holds', () => {
    const f = tmpFile(
      'sb.litmus',
      SB('seq_cst', 'expect: condition fails\nexpect: race-free\nexpect: no-undef'),
    );
    const r = gpumm('run', f);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Test SB Allowed\nStates 3\n');
    expect(r.stdout).toContain('\nNo\n');
    expect(r.stdout).toContain('Positive: 0 Negative: 3');
  });

  it('exits 1 when an expectation fails', () => {
    const f = tmpFile('sb.litmus', SB('monotonic', 'expect: condition fails'));
    const r = gpumm('run', f);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('Expect condition fails: FAILED (got holds)');
  });

  it('exits 2 on bad input, printing nothing on stdout', () => {
    const f = tmpFile('bad.litmus', 'AMDGPU\n');
    const r = gpumm('run', f);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(gpumm('run', '/no/such/file.litmus').status).toBe(2);
    expect(gpumm('run', '--max-executions', '0', f).status).toBe(2);
  });

  it('exits 3 on a feature the model does not decide, with the line, a caret and a hint', () => {
    const f = tmpFile(
      'named-by-number.litmus',
      `AMDGPU NBN
@x = global i32 0
P0 @ agent 0 {
  call void @llvm.amdgcn.s.barrier.signal(i32 3)
}
exists (@x == 0)
`,
    );
    const r = gpumm('run', f);
    expect(r.status).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/named-by-number\.litmus:4:3: error MD004: /);
    expect(r.stderr).toContain('^^^');
    expect(r.stderr).toContain('hint: docs/model.md (choice 7)');
  });

  it('exits 3 when the budget stops the run, saying so', () => {
    // No execution has P1:%r0 == 2: the first one found proves nothing about the condition.
    const f = tmpFile(
      'sb.litmus',
      SB('monotonic', 'expect: condition fails').replace('P1:%r0 == 0)', 'P1:%r0 == 2)'),
    );
    const r = gpumm('run', '--max-executions', '1', f);
    expect(r.status).toBe(3);
    expect(r.stdout).toContain('Incomplete (max-executions)');
    expect(r.stdout).toContain('\n??\n');
    expect(r.stderr).toContain('undecided (max-executions)');
    // Not a failure: it said "FAILED (got holds, incomplete)" under "expect: condition holds".
    expect(r.stdout).toMatch(/\nExpect condition fails: undecided \(the run stopped; \w+ so far\)\n/);
    expect(r.stdout).not.toContain('FAILED');
  });

  it('a stopped run keeps what it proved: exit 0 when that decides every expectation, 1 when it proves one false', () => {
    // Every execution of SB satisfies the condition: the first one proves `exists`, and refutes `~exists`.
    const always = (q: string, expects: string) =>
      SB('monotonic', expects).replace(
        'exists (P0:%r0 == 0 /\\ P1:%r0 == 0)',
        `${q} (P0:%r0 == 0 \\/ P0:%r0 == 1)`,
      );
    const proved = tmpFile('sb-proved.litmus', always('exists', 'expect: condition holds'));
    const r = gpumm('run', '--max-executions', '1', proved);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Incomplete (max-executions)');
    expect(r.stdout).toContain('\nOk\n');
    expect(r.stdout).toContain('Expect condition holds: ok (proved before the run stopped)');
    expect(r.stderr).toMatch(
      /SB: stopped \(max-executions\) after 1 executions .*; the states found decide what was asked/,
    );
    const j = RunJsonSchema.parse(
      JSON.parse(gpumm('run', '--json', '--max-executions', '1', proved).stdout),
    )[0]!;
    expect([j.complete, j.decided.condition, j.decided.race, j.expectations[0]!.decided]).toEqual([
      false,
      true,
      false,
      true,
    ]);
    const refuted = tmpFile('sb-refuted.litmus', always('~exists', 'expect: condition holds'));
    const undecided = tmpFile(
      'sb-open.litmus',
      SB('monotonic', 'expect: condition fails').replace('P1:%r0 == 0)', 'P1:%r0 == 2)'),
    );
    // Proved false beside one left open: the definite failure wins.
    const f = gpumm('run', '--max-executions', '1', refuted, undecided);
    expect(f.status).toBe(1);
    expect(f.stdout).toContain('Expect condition holds: FAILED (got fails, proved before the run stopped)');
    expect(f.stderr).toContain('undecided (max-executions)');
  });

  it('--max-states stops a run with too many final states: exit 3, a hint, no partial list', () => {
    const f = tmpFile('co5.litmus', coText(5));
    const r = gpumm('run', '--max-states', '100', f);
    expect(r.status).toBe(3);
    expect(r.stdout).toMatch(/Incomplete \(max-states\): \d+ states found, not listed/);
    expect(r.stdout).toContain('States 0\n??\n');
    expect(r.stdout).not.toMatch(/×\d+/);
    expect(r.stderr).toMatch(/CO5: undecided \(max-states\) after \d+ executions and \d+ final states/);
    expect(r.stderr).toContain('hint: the test has more final states than --max-states allows');
    const j = gpumm('run', '--json', '--max-states', '100', f);
    expect(j.status).toBe(3);
    const [rep] = RunJsonSchema.parse(JSON.parse(j.stdout));
    expect(rep!.stop).toBe('max-states');
    expect(rep!.states.length).toBeGreaterThanOrEqual(100);
  });

  it('--observe condition lists states over the condition only, with the same execution counts', () => {
    const f = tmpFile('co5.litmus', coText(5));
    const all = RunJsonSchema.parse(JSON.parse(gpumm('run', '--json', f).stdout))[0]!;
    const r = gpumm('run', '--json', '--observe', 'condition', f);
    expect(r.status).toBe(0);
    const cond = RunJsonSchema.parse(JSON.parse(r.stdout))[0]!;
    expect(cond.states.map((s) => Object.keys(s.values))).toEqual(Array.from({ length: 5 }, () => ['P0:r0']));
    expect(cond.stats.consistent).toBe(all.stats.consistent);
    expect(cond.witnesses).toEqual(all.witnesses);
    // Every state of the full report projects onto one of these, with the counts summed.
    const sums = new Map<string, number>();
    for (const s of all.states)
      sums.set(String(s.values['P0:r0']), (sums.get(String(s.values['P0:r0'])) ?? 0) + s.count);
    expect(new Map(cond.states.map((s) => [String(s.values['P0:r0']), s.count]))).toEqual(sums);
    expect(gpumm('run', '--observe', 'regs', f).status).toBe(2);
  });

  it('--timeout stops a big run: undecided, with the estimate, exit 3', () => {
    const f = tmpFile('co7.litmus', coText(7));
    const r = gpumm('run', '--timeout', '0.5', f);
    expect(r.status).toBe(3);
    expect(r.stderr).toMatch(/CO7: estimate .* candidates before pruning/);
    expect(r.stderr).toMatch(/CO7: undecided \(timeout\)/);
    expect(r.stdout).toContain('Incomplete (timeout)');
  });

  it('Ctrl-C prints what was found so far', async () => {
    const { spawn } = await import('node:child_process');
    // CO 8: many seconds of search (it stops at --max-states after ~8 s), so the signal always
    // lands mid-search.
    const f = tmpFile('co8.litmus', coText(8));
    const child = spawn(process.execPath, [BIN, 'run', f], { cwd: join(import.meta.dirname, '..', '..') });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    // The signal is sent once the search says it is under way (its line after 300 ms), not after a
    // fixed delay: on a loaded machine the start from source took longer than 2.5 s, and the signal
    // killed the process before its handler was installed.
    let err = '';
    let signalled = false;
    child.stderr.on('data', (d) => {
      err += d;
      // Once: a second Ctrl-C while the answer is printed ends the process, as it should.
      if (!signalled && err.includes('Ctrl-C prints the states found so far'))
        signalled = child.kill('SIGINT');
    });
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(status).toBe(130);
    expect(out).toContain('Incomplete (interrupted)');
    expect(out).toMatch(/States [1-9]/);
  });

  it('--json output matches the schema', () => {
    const f = tmpFile('sb.litmus', SB('seq_cst', ''));
    const r = gpumm('run', '--json', f);
    expect(r.status).toBe(0);
    const reports = RunJsonSchema.parse(JSON.parse(r.stdout));
    expect(reports[0]!.condition?.verdict).toBe('fails');
    expect(reports[0]!.states).toHaveLength(3);
  });

  it('--explain names the axiom that forbids the selected candidate', () => {
    const f = tmpFile('sb.litmus', SB('seq_cst', ''));
    const r = gpumm('run', '--explain', f);
    expect(r.stdout).toContain('P0:r0=0; P1:r0=0;');
    expect(r.stdout).toContain('scoped seq_cst');
  });

  it('--workers gives the same report as an in-process run', () => {
    const f = tmpFile('sb.litmus', SB('monotonic', 'expect: condition holds'));
    const a = gpumm('run', '--json', f);
    const b = gpumm('run', '--json', '--workers', '2', f);
    expect(b.status).toBe(0);
    const strip = (s: string) => RunJsonSchema.parse(JSON.parse(s)).map((r) => ({ ...r, stats: null }));
    expect(strip(b.stdout)).toEqual(strip(a.stdout));
  });

  it('--graph dot prints a graph of one execution', () => {
    const f = tmpFile('sb.litmus', SB('monotonic', ''));
    const r = gpumm('run', '--graph', 'dot', f);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^digraph "SB: P0:r0=0; P1:r0=0;"/);
    expect(r.stdout).toContain('[label="rf"');
  });

  it('--graph --state K beyond the states: a diagnostic at K with the valid range, exit 2, nothing printed', () => {
    const f = tmpFile('sb.litmus', SB('monotonic', ''));
    // SB with relaxed atomics has 4 final states, numbered 0 to 3.
    const ok = gpumm('run', '--graph', 'dot', '--state', '3', f);
    expect(ok.status).toBe(0);
    expect(ok.stdout).toMatch(/^digraph "SB: P0:r0=1; P1:r0=1;"/);
    const r = gpumm('run', '--graph', 'dot', '--state', '4', f);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^<command-line>:1:25: error CL1004: /);
    expect(r.stderr).toContain('hint: choose a state from 0 to 3');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(gpumm('run', '--graph', 'dot', '--state=9', f).stderr).toMatch(
      /^<command-line>:1:25: error CL1004: /,
    );
  });

  it('graph options that would be ignored or lose output are refused up front, exit 2, nothing printed', () => {
    const f = tmpFile('sb.litmus', SB('monotonic', ''));
    const cases: [string[], string][] = [
      // Each was ignored: the report printed as if the option were not there.
      [['--state', '1', f], '--state chooses the execution --graph draws'],
      [['--out', 'x.dot', f], '--out is where --graph writes its graph'],
      // The graph was dropped and the JSON reports printed.
      [['--graph', 'dot', '--json', f], '--graph prints a graph and --json the reports'],
      // The second test's graph overwrote the first's.
      [['--graph', 'dot', '--out', 'x.dot', f, f], '--out holds the graph of one test; 2 files were given'],
      // Two SVG documents one after the other on stdout: not one valid file.
      [
        ['--graph', 'svg', f, f],
        '--graph svg prints one SVG document, and two in a row are not a valid file',
      ],
    ];
    for (const [args, what] of cases) {
      const r = gpumm('run', ...args);
      expect([r.status, r.stdout]).toEqual([2, '']);
      expect(r.stderr).toContain(`error CL1003: ${what}`);
      expect(r.stderr).toContain('^');
    }
  });

  it('--out that cannot be written is a diagnostic with exit 2, not an internal error (exit 70)', () => {
    const f = tmpFile('sb.litmus', SB('monotonic', ''));
    const out = join(tmpdir(), 'gpumm-no-such-folder', 'g.dot');
    const r = gpumm('run', '--graph', 'dot', '--out', out, f);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${out}:1:1: error CL1006: cannot write '${out}': no such folder`);
    expect(r.stderr).not.toContain('internal error');
  });

  it('--out is written whole or not at all: a failed write leaves what was there and no temporary file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gpumm-out-'));
    const f = tmpFile('sb.litmus', SB('monotonic', ''));
    const out = join(dir, 'g.dot');
    writeFileSync(out, 'the previous graph');
    expect(gpumm('run', '--graph', 'dot', '--out', out, f).status).toBe(0);
    expect(readFileSync(out, 'utf8')).toMatch(/^digraph/);
    // A folder in the way: the rename fails after the text was written; nothing of it stays.
    const folder = join(dir, 'folder');
    mkdirSync(join(folder, 'inside'), { recursive: true });
    const r = gpumm('run', '--graph', 'dot', '--out', folder, f);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`error CL1006: cannot write '${folder}': it is a folder`);
    expect(readdirSync(dir).sort()).toEqual(['folder', 'g.dot']);
    expect(readdirSync(folder)).toEqual(['inside']);
  });

  it('--json holds the reports until the run ends: a run that fails part-way leaves stdout empty', () => {
    const pieces: string[] = [];
    const w = reportWriter(true, (t) => pieces.push(t));
    const one = JSON.parse(gpumm('run', '--json', tmpFile('sb.litmus', SB('monotonic', ''))).stdout)[0];
    w.add(one);
    w.add(one);
    expect(pieces).toEqual([]);
    w.end();
    expect(JSON.parse(pieces.join(''))).toEqual([one, one]);
  });

  it('--graph svg draws the graph as SVG with no Graphviz installed (an empty PATH)', () => {
    const f = tmpFile('sb.litmus', SB('monotonic', ''));
    const r = spawnSync(process.execPath, [BIN, 'run', '--graph', 'svg', f], {
      encoding: 'utf8',
      cwd: join(import.meta.dirname, '..', '..'),
      env: { ...process.env, PATH: '' },
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^<\?xml[^>]*>\s*<!DOCTYPE svg[\s\S]*<svg [\s\S]*<\/svg>\s*$/);
    // The title and the edges of the DOT graph, drawn.
    expect(r.stdout).toContain('<title>SB: P0:r0=0; P1:r0=0;</title>');
    expect(r.stdout).toMatch(/<text[^>]*>rf<\/text>/);
  });

  it('--graph dot of several tests prints one DOT file of their graphs, as Graphviz reads several', () => {
    const f = tmpFile('sb.litmus', SB('monotonic', ''));
    const r = gpumm('run', '--graph', 'dot', f, f);
    expect(r.status).toBe(0);
    expect(r.stdout.match(/^digraph /gm)).toHaveLength(2);
  });
});
