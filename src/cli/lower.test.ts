import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GridJsonSchema, LowerJsonSchema } from '../lower/json.ts';
import { findLlc } from '../lower/llc.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'gpumm.js');
const MP = join(ROOT, 'litmus', 'MP+rel+acq.agent.litmus');

function gpumm(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd: ROOT, maxBuffer: 1 << 26 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('gpumm lower', () => {
  it('prints each IR instruction followed by its machine code, with rows under --explain', () => {
    const r = gpumm('lower', MP, '--target', 'gfx1200', '--cu', '--explain');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('CU mode, HSA');
    expect(r.stdout).toMatch(
      /syncscope\("agent"\) acquire\n {6}global_load scope:SCOPE_DEV\n {6}s_wait_loadcnt 0x0\n {6}global_inv scope:SCOPE_DEV\n/,
    );
    expect(r.stdout).toContain('; GFX12 table, "load atomic acquire agent/system global"');
  });

  it('--json gives the ISA instructions with their kinds', () => {
    const r = gpumm('lower', MP, '--target', 'fiji', '--opencl', '--json');
    expect(r.status).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.processor).toBe('gfx803');
    const rel = j.threads[0].instrs[1];
    expect(rel.asm).toEqual(['s_waitcnt vmcnt(0)', 'buffer_store']);
    expect(rel.isa[0]).toEqual({ kind: 'wait', counters: ['vmcnt'] });
  });

  it('--tgsplit selects TgSplit execution mode on gfx90a', () => {
    const plain = gpumm('lower', MP, '--target', 'gfx90a');
    expect(plain.status).toBe(0);
    expect(plain.stdout).toContain('s_waitcnt vmcnt(0) lgkmcnt(0)');
    const tg = gpumm('lower', MP, '--target', 'gfx90a', '--tgsplit', '--json');
    expect(tg.status).toBe(0);
    const j = JSON.parse(tg.stdout) as { tgsplit: boolean | null };
    expect(j.tgsplit).toBe(true);
    expect(tg.stdout).not.toContain('lgkmcnt');
  });

  it('--table prints the grid of the target', () => {
    const r = gpumm('lower', '--table', '--target', 'gfx900');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(
      'load acquire agent[-one-as] global [*]\n  all: global_load glc=1; s_waitcnt vmcnt(0); buffer_wbinvl1_vol',
    );
  });

  it('--table --json prints the grid as data that parses with GridJsonSchema', () => {
    const r = gpumm('lower', '--table', '--target', 'gfx1200', '--json');
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    const j = GridJsonSchema.parse(JSON.parse(r.stdout));
    expect(j.processor).toBe('gfx1200');
    expect(j.columns.map((c) => c.label)).toEqual(['cu/hsa', 'cu/opencl', 'wgp/hsa', 'wgp/opencl']);
    expect(j.columns[2]).toEqual({ label: 'wgp/hsa', mode: 'wgp', tgsplit: null, lang: 'hsa' });
    const cell = j.cells.find((c) => c.key === 'load acquire agent[-one-as] global [*]');
    expect(cell).toMatchObject({
      instr: 'load',
      ordering: 'acquire',
      syncscope: { scope: 'agent', oneAs: null },
      space: 'global',
      volatile: null,
      nontemporal: null,
    });
    const wgpHsa = cell!.results[2]!;
    expect('asm' in wgpHsa && wgpHsa.asm).toEqual([
      'global_load scope:SCOPE_DEV',
      's_wait_loadcnt 0x0',
      'global_inv scope:SCOPE_DEV',
    ]);
    expect('rows' in wgpHsa && wgpHsa.rows).toEqual([
      'GFX12 table, "load atomic acquire agent/system global"',
    ]);
    const bad = j.cells.find((c) => c.key.startsWith('store release agent[-one-as] constant'));
    expect(bad!.results.every((x) => 'diagnostic' in x && x.diagnostic.code === 'LW2003')).toBe(true);
    expect(j.rejected.find((x) => x.key === 'fence monotonic * *')?.diagnostic.code).toBe('LW2002');
    // Every cell of the text grid is in the JSON, in the same order.
    const text = gpumm('lower', '--table', '--target', 'gfx1200');
    const keys = text.stdout.split('\n').filter((l) => l !== '' && !l.startsWith(' ') && !l.startsWith('#'));
    expect([...j.cells.map((c) => c.key), ...j.rejected.map((x) => x.key)]).toEqual(keys);
  });

  it('--json output parses with LowerJsonSchema', () => {
    const r = gpumm('lower', MP, '--target', 'gfx1250', '--json');
    expect(r.status).toBe(0);
    const j = LowerJsonSchema.parse(JSON.parse(r.stdout));
    expect(j.mode).toBeNull();
    const rel = j.threads[0]!.instrs[1]!;
    expect('asm' in rel && rel.asm.at(-2)).toBe('s_wait_xcnt 0x0');
  });

  it('bad target, bad mode and a lowering diagnostic exit 2 with a hint and nothing on stdout', () => {
    const t = gpumm('lower', MP, '--target', 'gfx9000');
    expect(t.status).toBe(2);
    expect(t.stdout).toBe('');
    expect(t.stderr).toMatch(/error LW2001: unknown target "gfx9000"\n {2}hint: nearest known names: gfx900/);
    const m = gpumm('lower', MP, '--target', 'gfx900', '--wgp');
    expect(m.status).toBe(2);
    expect(m.stderr).toContain('LW2009');
    const dir = mkdtempSync(join(tmpdir(), 'gpumm-'));
    const f = join(dir, 'flat.litmus');
    writeFileSync(
      f,
      'AMDGPU flat\n@x = addrspace(1) global i32 0\nP0 @ agent 0, workgroup 0 {\n  store i32 1, ptr @x, align 4\n}\n',
    );
    const g = gpumm('lower', f, '--target', 'tahiti');
    expect(g.status).toBe(2);
    expect(g.stdout).toBe('');
    expect(g.stderr).toContain(`${f}:4:3: error LW2004`);
    expect(g.stderr).not.toMatch(/\n\s+at /);
    const n = gpumm('lower');
    expect(n.status).toBe(2);
    expect(n.stderr).toContain('LW2011');
    const x = gpumm('lower', MP, '--target', 'gfx1250', '--cu');
    expect(x.status).toBe(2);
    expect(x.stderr).toMatch(/<command-line>:1:\d+: error LW2009: option --cu does not apply to gfx1250/);
    const tj = gpumm('lower', '--table', '--target', 'gfx90a', '--tgsplit', '--json');
    expect(tj.status).toBe(2);
    expect(tj.stdout).toBe('');
    expect(tj.stderr).toMatch(
      /^<command-line>:1:\d+: error LW2009: option --tgsplit does not apply to --table\n {2}hint: /,
    );
    const tg = gpumm('lower', MP, '--target', 'gfx1200', '--tgsplit');
    expect(tg.status).toBe(2);
    expect(tg.stderr).toContain('LW2009');
  });

  it('an av intrinsic has no table row: a warning, the rest still lowers, exit 0', () => {
    const r = gpumm('lower', join(ROOT, 'litmus', 'MP+avst+acq.agent.litmus'), '--target', 'gfx1200');
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('warning LW2008');
    expect(r.stdout).toContain('; no code sequence (LW2008');
    expect(r.stdout).toContain('global_inv scope:SCOPE_DEV');
  });

  it.skipIf('reason' in findLlc())('--opencl --compare-llc compiles OpenCL atomics -one-as', () => {
    const r = gpumm('lower', MP, '--target', 'gfx900', '--opencl', '--compare-llc');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('compared with llc-22 (OpenCL: atomics compiled -one-as, seq_cst as written)');
    // store atomic release agent global, OpenCL: "If OpenCL, omit lgkmcnt(0)" — llc-22 agrees with -one-as.
    expect(r.stdout).toContain(
      '      gpumm: wait(vmcnt); vmem.store\n      llc:   wait(vmcnt); vmem.store\n',
    );
  });

  it.skipIf('reason' in findLlc())('--compare-llc prints both sequences and the difference', () => {
    const r = gpumm('lower', MP, '--target', 'gfx1200', '--compare-llc');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('gpumm: wb:SCOPE_DEV');
    expect(r.stdout).toContain('differs: only gpumm: wb:SCOPE_DEV; only llc: (none)');
  });
});
