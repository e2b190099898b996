import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CampaignSummarySchema } from '../campaign/report.ts';
import { HEADER, jsonl, MP, SB, SHARD_0, SHARD_1 } from '../campaign/report-fixture.ts';
import { registerCampaignReport } from './campaign-report.ts';
import { CliExit } from './shared.ts';

const DIR = mkdtempSync(join(tmpdir(), 'gpumm-campaign-report-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const p = join(DIR, name);
  writeFileSync(p, text);
  return p;
}

const SHARD_0_FILE = file('shard-0.jsonl', jsonl(SHARD_0));
const SHARD_1_FILE = file('shard-1.jsonl', jsonl(SHARD_1));

let stdout = '';
let stderr = '';
beforeEach(() => {
  stdout = '';
  stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
});
afterEach(() => vi.restoreAllMocks());

/** `gpumm campaign report ARGS…` through commander, as the lead will wire it: resolves, or rejects with the exit. */
async function report(...args: string[]): Promise<void> {
  const program = new Command().exitOverride();
  registerCampaignReport(program.command('campaign'));
  await program.parseAsync(['campaign', 'report', ...args], { from: 'user' });
}

/** The status a command ends with: 0 when it returns, a CliExit's status otherwise. */
async function status(...args: string[]): Promise<number> {
  try {
    await report(...args);
    return 0;
  } catch (e) {
    if (e instanceof CliExit) return e.status;
    throw e;
  }
}

describe('gpumm campaign report', () => {
  it('reads the shards of a campaign as one report, as text', async () => {
    expect(await status(SHARD_0_FILE, SHARD_1_FILE)).toBe(0);
    expect(stderr).toBe('');
    const lines = stdout.split('\n');
    expect(lines[0]).toBe(
      'Campaign: 3 tests (1 duplicate line left out), shards 0/2, 1/2, 3.1 s of test time',
    );
    expect(lines).toContain('  gfx942   cu    doc           2        1            0          0');
    // The two shards' mutation lines merged: a and b killed, c undecided, over the 3 distinct tests.
    expect(lines).toContain('  gfx942  cu        3  100.0%       2        3          1');
    expect(stdout).not.toContain('\x1b');
  });

  it('--json: the summary, valid per its schema', async () => {
    expect(await status(SHARD_0_FILE, '--json')).toBe(0);
    const s = CampaignSummarySchema.parse(JSON.parse(stdout));
    expect(s.tests).toBe(3);
    expect(s.unsound.map((u) => u.test)).toEqual(['<script>alert(1)</script>\x1b[31m', 'MP+rel+acq']);
    // Nothing raw from the file on a terminal, even in JSON.
    expect(stdout).not.toContain('\x1b');
  });

  it('--html FILE: writes the page whole (nothing left beside it) and still prints the report', async () => {
    const out = join(DIR, 'report.html');
    expect(await status(SHARD_0_FILE, '--html', out)).toBe(0);
    const page = readFileSync(out, 'utf8');
    expect(page.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(page).toContain('<svg role="img"');
    expect(page).not.toMatch(/<script/i);
    expect(readdirSync(DIR).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(stdout).toMatch(/^Campaign: 3 tests/);
  });

  it('--html to a folder that does not exist: exit 2 (CL1006), nothing on stdout', async () => {
    expect(await status(SHARD_0_FILE, '--html', join(DIR, 'no-such-folder', 'r.html'))).toBe(2);
    expect(stderr).toContain('CL1006');
    expect(stdout).toBe('');
  });

  it('a bad line: exit 2 with its diagnostic at file:line:col, nothing on stdout', async () => {
    const bad = file('bad.jsonl', `${jsonl([HEADER, MP])}{"kind":"test","hash":1}\n${jsonl([SB])}`);
    expect(await status(SHARD_0_FILE, bad, '--json')).toBe(2);
    expect(stderr).toMatch(
      new RegExp(`^${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3:\\d+: error CL1020: `),
    );
    expect(stderr).toContain('   3 | {"kind":"test","hash":1}');
    expect(stdout).toBe('');
  });

  it('a file that cannot be read, or a folder: exit 2 (CL1001, CL1002)', async () => {
    expect(await status(join(DIR, 'missing.jsonl'))).toBe(2);
    expect(stderr).toContain('error CL1001');
    expect(await status(DIR)).toBe(2);
    expect(stderr).toContain('error CL1002');
    expect(stdout).toBe('');
  });

  it('a file that is not UTF-8: exit 2 (CL1005)', async () => {
    const latin1 = join(DIR, 'latin1.jsonl');
    writeFileSync(latin1, Buffer.concat([Buffer.from(jsonl([HEADER])), Buffer.from([0xe9, 0x0a])]));
    expect(await status(latin1)).toBe(2);
    expect(stderr).toContain(':2:1: error CL1005');
  });

  it('a cut last line (a killed campaign): a warning, and the report of the rest (exit 0)', async () => {
    const cut = file('cut.jsonl', `${jsonl(SHARD_0)}${JSON.stringify(SB).slice(0, 30)}`);
    expect(await status(cut)).toBe(0);
    expect(stderr).toMatch(/:6:1: warning CL1021: /);
    expect(stdout).toMatch(/^Campaign: 3 tests/);
  });

  it('a last line without its line break is torn even when it parses: a warning, left out', async () => {
    const unended = file('unended.jsonl', jsonl(SHARD_0).slice(0, -1));
    expect(await status(unended, '--json')).toBe(0);
    expect(stderr).toMatch(/:5:1: warning CL1021: /);
    expect(JSON.parse(stdout).mutation).toEqual([]);
  });

  it('a torn last line may end inside a character: still only a warning, not CL1005', async () => {
    const bytes = Buffer.from(`${jsonl(SHARD_0)}{"kind":"test","test":"é`);
    const torn = join(DIR, 'torn-utf8.jsonl');
    writeFileSync(torn, bytes.subarray(0, -1));
    expect(await status(torn)).toBe(0);
    expect(stderr).toMatch(/:6:1: warning CL1021: /);
  });

  it('UNSOUND results are not a failure: a report is not a verdict', async () => {
    expect(await status(SHARD_0_FILE)).toBe(0);
    expect(stdout).toContain('UNSOUND (2):');
  });

  it('needs at least one file (commander)', async () => {
    await expect(report()).rejects.toMatchObject({ code: 'commander.missingArgument' });
  });
});
