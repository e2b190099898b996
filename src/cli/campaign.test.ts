/**
 * `gpumm campaign` through the real command line: the results file line by line, four shards merged
 * against one run, a campaign killed (SIGKILL, a torn last line) and resumed, Ctrl-C, and the inputs it
 * refuses without writing anything.
 */

import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CampaignSummarySchema } from '../campaign/report.ts';
import { type Header, type Line, LineSchema, type TestLine } from '../campaign/schema.ts';
import { CATALOGUE, gpumm, ROOT } from './testing.ts';

/** The catalogue's first tests but its three slowest on these targets: about two seconds of work. */
const SLOW = ['IRIW+sc.wg.diff-wg.litmus', 'IRIW+sc.wg.litmus', 'AV-Prop4.vis-outside-writer.litmus'];
const FILES = readdirSync(CATALOGUE)
  .filter((f) => f.endsWith('.litmus') && !SLOW.includes(f))
  .sort()
  .slice(0, 40)
  .map((f) => join('litmus', f));
const CONFIG = ['--targets', 'gfx900,gfx1200'];

const dir = mkdtempSync(join(tmpdir(), 'gpumm-campaign-'));
const out = (name: string) => join(dir, name);

/** Every line of a results file, each parsed by the schema (a line that does not parse fails the test). */
function linesOf(file: string): Line[] {
  const text = readFileSync(file, 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  return text
    .slice(0, -1)
    .split('\n')
    .map((l) => LineSchema.parse(JSON.parse(l)));
}

/** The test lines less their timings, by hash: what two runs of one campaign must agree on. */
function testsOf(lines: readonly Line[]): TestLine[] {
  return lines
    .filter((l): l is TestLine => l.kind === 'test')
    .map((l) => ({
      ...l,
      ms: 0,
      model: { ...l.model, ms: 0 },
      checks: l.checks.map((c) => ({ ...c, ms: 0 })),
    }))
    .sort((a, b) => (a.hash < b.hash ? -1 : 1));
}

let single: Line[];

beforeAll(() => {
  const r = gpumm('campaign', ...FILES, ...CONFIG, '--out', out('single.jsonl'));
  expect(r.stderr).toBe('');
  // The catalogue has UNSOUND checks on these targets.
  expect(r.status).toBe(1);
  single = linesOf(out('single.jsonl'));
});

describe('gpumm campaign', () => {
  it('writes the header, then one line per test, every line of the schema', () => {
    const [header, ...rest] = single;
    expect(header).toMatchObject({
      kind: 'header',
      targets: ['gfx900', 'gfx1200'],
      lowerings: ['doc'],
      shard: { index: 0, count: 1 },
    });
    expect(rest.every((l) => l.kind === 'test')).toBe(true);
    const tests = rest as TestLine[];
    expect(tests.map((t) => t.file).sort()).toEqual([...FILES].sort());
    // gfx900 in CU mode, gfx1200 in CU and WGP mode.
    for (const t of tests)
      expect(t.checks.map((c) => `${c.target} ${c.mode}`)).toEqual([
        'gfx900 cu',
        'gfx1200 cu',
        'gfx1200 wgp',
      ]);
  });

  it('summarises the file: as text, and as JSON', () => {
    const r = gpumm('campaign', ...FILES, ...CONFIG, '--out', out('single.jsonl'), '--resume', '--json');
    expect(r.status).toBe(1);
    // The one summary schema of `campaign run --json` and `campaign report --json`.
    const s = CampaignSummarySchema.parse(JSON.parse(r.stdout));
    expect(s).toMatchObject({ tests: 40, ran: 0, interrupted: false });
    const report = CampaignSummarySchema.parse(
      JSON.parse(gpumm('campaign', 'report', out('single.jsonl'), '--json').stdout),
    );
    const { ran: _r, interrupted: _i, wallMs: _w, ...same } = s;
    expect(report).toEqual(same);
    const unsound = testsOf(single).flatMap((t) => t.checks.filter((c) => c.verdict === 'UNSOUND'));
    expect(s.unsound.length).toBe(unsound.length);
    expect(s.checks.map((c) => `${c.target} ${c.mode}`)).toEqual(['gfx900 cu', 'gfx1200 cu', 'gfx1200 wgp']);
  });

  it('makes four shards whose merge is the single run', () => {
    const shards = [0, 1, 2, 3].map((i) => out(`shard${i}.jsonl`));
    const sizes = shards.map((f, i) => {
      const r = gpumm(
        'campaign',
        ...FILES,
        ...CONFIG,
        '--shard',
        `${i}/4`,
        '--out',
        f,
        ...(i === 0 ? ['--workers', '2'] : []),
      );
      expect([0, 1]).toContain(r.status);
      const lines = linesOf(f);
      expect((lines[0] as Header).shard).toEqual({ index: i, count: 4 });
      return lines.length - 1;
    });
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(40);
    // Given in another order, and one shard twice: each test once all the same.
    const r = gpumm(
      'campaign',
      'merge',
      shards[2]!,
      shards[0]!,
      shards[3]!,
      shards[1]!,
      shards[0]!,
      '--out',
      out('merged.jsonl'),
    );
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    const merged = linesOf(out('merged.jsonl'));
    expect(merged[0]).toEqual(single[0]);
    expect(merged.slice(1).map((l) => (l as TestLine).hash)).toEqual(testsOf(single).map((t) => t.hash));
    expect(testsOf(merged)).toEqual(testsOf(single));

    // Three of four: merged, with a warning naming the shard left out.
    const part = gpumm('campaign', 'merge', shards[0]!, shards[1]!, shards[3]!);
    expect(part.status).toBe(0);
    expect(part.stderr).toContain('warning CL1013');
    expect(part.stderr).toContain('2/4');
    expect(part.stdout.trim().split('\n').length).toBe(1 + sizes[0]! + sizes[1]! + sizes[3]!);
  });

  it("--mutate: the shards' mutation lines merge to the single run's (a mutant killed in any shard is killed)", () => {
    const mp = readdirSync(CATALOGUE)
      .filter((f) => f.startsWith('MP') && f.endsWith('.litmus'))
      .sort()
      .slice(0, 12)
      .map((f) => join('litmus', f));
    const run = (file: string, ...more: string[]) => {
      expect(gpumm('campaign', ...mp, '--targets', 'gfx900', '--mutate', '--out', file, ...more).status).toBe(
        0,
      );
      return linesOf(file);
    };
    const whole = run(out('mutate.jsonl'));
    run(out('mutate0.jsonl'), '--shard', '0/2');
    run(out('mutate1.jsonl'), '--shard', '1/2');
    const r = gpumm('campaign', 'merge', out('mutate0.jsonl'), out('mutate1.jsonl'));
    expect(r.status).toBe(0);
    const merged = r.stdout
      .trim()
      .split('\n')
      .map((l) => LineSchema.parse(JSON.parse(l)));
    const mutation = (ls: Line[]) =>
      ls
        .filter((l) => l.kind === 'mutation')
        .map((l) => ({
          ...l,
          // A survivor's reason names the tests tried: one shard's in a merge.
          mutants: [...l.mutants]
            .map((m) => ({ ...m, survives: null }))
            .sort((a, b) =>
              `${a.row} ${a.position} ${a.mutation}`.localeCompare(`${b.row} ${b.position} ${b.mutation}`),
            ),
        }));
    expect(mutation(whole).length).toBe(1);
    expect(mutation(whole)[0]!.score.killed).toBeGreaterThan(0);
    expect(mutation(merged)).toEqual(mutation(whole));
  });

  it('resumes a campaign killed mid-run, its last line torn: every test once, as in the single run', async () => {
    const file = out('killed.jsonl');
    const child = spawn(
      process.execPath,
      [join(ROOT, 'bin', 'gpumm.js'), 'campaign', ...FILES, ...CONFIG, '--workers', '1', '--out', file],
      {
        cwd: ROOT,
        stdio: 'ignore',
      },
    );
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    const lineCount = () => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').length - 1 : 0);
    const t0 = Date.now();
    while (lineCount() < 3 && Date.now() - t0 < 30_000) await new Promise((r) => setTimeout(r, 10));
    child.kill('SIGKILL');
    await exited;
    const before = lineCount();
    // Killed part-way: some tests written, not all (else this test would test nothing).
    expect(before).toBeGreaterThanOrEqual(3);
    expect(before).toBeLessThan(41);
    appendFileSync(file, '{"kind":"test","hash":"0123456789abcdef');
    const r = gpumm('campaign', ...FILES, ...CONFIG, '--out', file, '--resume', '--json');
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ tests: 40, ran: 41 - before });
    const lines = linesOf(file);
    expect(lines[0]).toEqual(single[0]);
    const hashes = lines.slice(1).map((l) => (l as TestLine).hash);
    expect(new Set(hashes).size).toBe(40);
    expect(testsOf(lines)).toEqual(testsOf(single));
  });

  it('stops on Ctrl-C with whole lines only, exit 130', async () => {
    const file = out('interrupted.jsonl');
    const child = spawn(
      process.execPath,
      [join(ROOT, 'bin', 'gpumm.js'), 'campaign', ...FILES, ...CONFIG, '--workers', '2', '--out', file],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    child.stdout!.on('data', (d) => {
      stdout += d;
    });
    const status = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const t0 = Date.now();
    while (
      (!existsSync(file) || readFileSync(file, 'utf8').split('\n').length < 3) &&
      Date.now() - t0 < 30_000
    )
      await new Promise((r) => setTimeout(r, 10));
    child.kill('SIGINT');
    expect(await status).toBe(130);
    const lines = linesOf(file);
    expect(stdout).toContain('(interrupted)');
    expect(stdout).toMatch(new RegExp(`^Campaign: ${lines.length - 1} tests?,`));
  });

  it('never overwrites results without --resume, nor resumes another campaign', () => {
    const file = out('single.jsonl');
    const text = readFileSync(file, 'utf8');
    const again = gpumm('campaign', ...FILES, ...CONFIG, '--out', file);
    expect(again.status).toBe(2);
    expect(again.stderr).toContain('CL1009');
    expect(again.stderr).toContain('--resume');
    const other = gpumm('campaign', ...FILES, '--targets', 'gfx900', '--out', file, '--resume');
    expect(other.status).toBe(2);
    expect(other.stderr).toContain('CL1010');
    expect(other.stderr).toContain('targets');
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('--resume of a file whose only line is torn (killed as it started) starts afresh', () => {
    const file = out('torn-header.jsonl');
    writeFileSync(file, readFileSync(out('single.jsonl'), 'utf8').slice(0, 40));
    const r = gpumm('campaign', FILES[0]!, ...CONFIG, '--out', file, '--resume');
    expect(r.stderr).toContain('warning CL1021');
    expect([0, 1]).toContain(r.status);
    expect(linesOf(file).map((l) => l.kind)).toEqual(['header', 'test']);
  });

  it('refuses a bad --shard, an unknown target and a bad test file, writing nothing', () => {
    for (const shard of ['4/4', '1/0', 'x', '1/2/3']) {
      const r = gpumm('campaign', FILES[0]!, ...CONFIG, '--shard', shard, '--out', out('bad.jsonl'));
      expect(r.status, shard).toBe(2);
      expect(r.stderr).toContain('CL1003');
    }
    const target = gpumm('campaign', FILES[0]!, '--targets', 'gfx9000', '--out', out('bad.jsonl'));
    expect(target.status).toBe(2);
    expect(target.stderr).toContain('LW2001');
    const broken = join(dir, 'broken.litmus');
    writeFileSync(broken, 'AMDGPU broken\n{ }\nP0 |\n');
    const test = gpumm('campaign', FILES[0]!, broken, ...CONFIG, '--out', out('bad.jsonl'));
    expect(test.status).toBe(2);
    expect(test.stderr).toContain('broken.litmus');
    expect(existsSync(out('bad.jsonl'))).toBe(false);
  });

  it('refuses to merge files of different campaigns, and a damaged file', () => {
    const other = out('other.jsonl');
    expect(gpumm('campaign', FILES[0]!, '--targets', 'gfx900', '--out', other).status).toBe(0);
    const r = gpumm('campaign', 'merge', out('single.jsonl'), other);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('CL1012');
    const damaged = out('damaged.jsonl');
    const lines = readFileSync(out('single.jsonl'), 'utf8').split('\n');
    writeFileSync(damaged, [lines[0], 'not json', ...lines.slice(1)].join('\n'));
    const d = gpumm('campaign', 'merge', damaged);
    expect(d.status).toBe(2);
    // The diagnostic of the one reader that report and --resume use too, at its line.
    expect(d.stderr).toMatch(/damaged\.jsonl:2:\d+: error CL1020: /);
    expect(d.stdout).toBe('');
  });
});

describe('gpumm campaign --gen, report and slurm through the command line', () => {
  const SPEC = 'orders=rlx scopes=agent placements=wgs';

  it('--gen runs the generated tests, each with its source, and the header records the spec', () => {
    const file = out('gen.jsonl');
    const r = gpumm('campaign', '--gen', SPEC, '--targets', 'gfx900', '--out', file);
    expect(r.status, r.stderr).toBe(1);
    const lines = linesOf(file);
    expect((lines[0] as Header).gen).toBe(
      'size=4 nprocs=4 relax=Rfe,Fre,Coe,PodRR,PodRW,PodWR,PodWW orders=rlx fences=none scopes=agent placements=wgs spaces=global writes=store lang=amdgpu',
    );
    const tests = lines.filter((l): l is TestLine => l.kind === 'test');
    expect(tests.map((t) => t.test).sort()).toEqual(
      ['2+2W', 'LB', 'MP', 'R', 'S', 'SB'].map((f) => `${f}+rlx-rlx.ag+rlx-rlx.ag+w01`),
    );
    for (const t of tests) {
      expect(t.file).toBe(`gen:${t.test}`);
      expect(t.source).toMatch(new RegExp(`^AMDGPU ${t.test.replaceAll('+', '\\+')}\\n`));
    }
    // Load buffering: the machines reach what the model's no-thin-air axiom forbids (docs/hardware.md).
    const lb = tests.find((t) => t.test.startsWith('LB+'))!;
    expect(lb.model.verdict).toBe('forbidden');
    expect(lb.checks[0]!.verdict).toBe('UNSOUND');
    // The report reads it: one UNSOUND result, with its trace.
    const rep = gpumm('campaign', 'report', file, '--json');
    expect(rep.status, rep.stderr).toBe(0);
    const summary = JSON.parse(rep.stdout) as { tests: number; unsound: { test: string }[] };
    expect(summary.tests).toBe(6);
    expect(summary.unsound.map((u) => u.test)).toEqual([lb.test]);
  });

  it('a bad --gen is a usage error on --gen, writing nothing', () => {
    const file = out('gen-bad.jsonl');
    const r = gpumm('campaign', '--gen', 'orders=rlx,nope', '--targets', 'gfx900', '--out', file);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/CL1003: 'nope' is not a valid orders value/);
    expect(existsSync(file)).toBe(false);
    expect(gpumm('campaign', '--gen', 'lang=vulkan', '--targets', 'gfx900', '--out', file).status).toBe(2);
  });

  it('slurm: the script passes --gen on to every task', () => {
    const r = gpumm(
      'campaign',
      'slurm',
      '--gen',
      SPEC,
      '--tasks',
      '3',
      '--out-dir',
      out('slurm'),
      '--targets',
      'gfx900',
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('#SBATCH --array=0-2');
    expect(r.stdout).toContain(`--gen '${SPEC}'`);
  });
});

describe('gpumm campaign: the test set in the header', () => {
  const SPEC = 'orders=rlx,acq scopes=agent placements=wgs';

  it('a resume over other tests is refused; a merge that lacks tests says how many (CL1014)', () => {
    const a = out('set-0.jsonl');
    const b = out('set-1.jsonl');
    for (const [f, i] of [
      [a, 0],
      [b, 1],
    ] as const)
      expect(
        gpumm('campaign', '--gen', SPEC, '--targets', 'gfx900', '--shard', `${i}/2`, '--out', f).status,
      ).not.toBe(2);
    const header = linesOf(a)[0] as Header;
    expect(header.testSet.count).toBe(15);
    expect((linesOf(b)[0] as Header).testSet).toEqual(header.testSet);
    // The same settings over other tests: not the same campaign.
    const other = gpumm(
      'campaign',
      '--gen',
      'orders=rlx scopes=agent placements=wgs',
      '--targets',
      'gfx900',
      '--shard',
      '0/2',
      '--out',
      a,
      '--resume',
    );
    expect(other.status).toBe(2);
    expect(other.stderr).toContain('CL1010');
    expect(other.stderr).toContain('testSet');
    // A shard cut short (a test line lost): the merge says so.
    const text = readFileSync(b, 'utf8').split('\n');
    writeFileSync(b, `${[text[0], ...text.slice(2)].join('\n')}`);
    const m = gpumm('campaign', 'merge', a, b);
    expect(m.status).toBe(0);
    expect(m.stderr).toContain("warning CL1014: the merged results hold 14 of the campaign's 15 tests");
    expect(gpumm('campaign', 'merge', a, out('set-0.jsonl')).stderr).toContain('CL1013');
  });
});
