import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GridJsonSchema, LowerJsonSchema, SideBySideJsonSchema } from '../lower/json.ts';
import { findLlc } from '../lower/llc.ts';
import { gpumm } from './testing.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const MP = join(ROOT, 'litmus', 'MP+rel+acq.agent.litmus');

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
    expect(t.stderr).toMatch(
      /error LW2001: unknown target "gfx9000"\n(.*\n){2} {2}hint: nearest known names: gfx900/,
    );
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
      /^<command-line>:1:\d+: error LW2009: option --tgsplit does not apply to --table\n(.*\n){2} {2}hint: /,
    );
    const tg = gpumm('lower', MP, '--target', 'gfx1200', '--tgsplit');
    expect(tg.status).toBe(2);
    expect(tg.stderr).toContain('LW2009');
  });

  it('an av intrinsic lowers by the rule on AMD targets; on Intel it is a warning, the rest still lowers, exit 0', () => {
    const file = join(ROOT, 'litmus', 'MP+avst+acq.agent.litmus');
    const amd = gpumm('lower', file, '--target', 'gfx1200', '--explain');
    expect(amd.status).toBe(0);
    expect(amd.stderr).toBe('');
    expect(amd.stdout).toContain(
      '      global_store_b128 scope:SCOPE_DEV\n      ; GFX12 table, "store atomic monotonic singlethread/wavefront/workgroup/agent/system global/generic", as @llvm.amdgcn.av.global.store.b128\n      ; rule: an av store is the monotonic atomic store of its scope',
    );
    const r = gpumm('lower', file, '--target', 'pvc');
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('warning LW2008');
    expect(r.stdout).toContain('; no code sequence (LW2008');
    expect(r.stdout).toContain('lsc_fence.ugm.invalidate.gpu');
  });

  it.skipIf('reason' in findLlc())('--opencl --compare-llc compiles OpenCL atomics -one-as', () => {
    const r = gpumm('lower', MP, '--target', 'gfx900', '--opencl', '--compare-llc');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('compared with llc-22 (OpenCL: atomics compiled -one-as, seq_cst as written)');
    // store atomic release agent global, OpenCL: "If OpenCL, omit lgkmcnt(0)" — llc-22 agrees with -one-as.
    expect(r.stdout).toContain(
      '      gpumm: s_waitcnt vmcnt(0); global_store\n      llc:   s_waitcnt vmcnt(0); global_store\n',
    );
  });

  it.skipIf('reason' in findLlc())('--compare-llc prints both sequences and the difference', () => {
    const r = gpumm('lower', MP, '--target', 'gfx1200', '--compare-llc');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('gpumm: global_wb scope:SCOPE_DEV; s_wait_loadcnt 0x0');
    expect(r.stdout).toContain('differs: gpumm global_wb scope:SCOPE_DEV  →  llc —\n');
    expect(r.stdout).toContain(
      'why (gfx12-wb-system-only): GFX12: llc-22 emits `global_wb` only for system scope',
    );
  });

  it.skipIf('reason' in findLlc())(
    '--compare-llc shows the exact instructions: gfx600 invalidates with buffer_wbinvl1',
    () => {
      const r = gpumm('lower', MP, '--target', 'gfx600', '--compare-llc');
      expect(r.status).toBe(0);
      expect(r.stdout).toContain(
        'differs: gpumm buffer_wbinvl1_vol  →  llc buffer_wbinvl1\n      why (gfx6-wbinvl1)',
      );
    },
  );

  it.skipIf('reason' in findLlc())('--compare-llc compiles named barriers, with their m0 set-up', () => {
    const nb = join(ROOT, 'litmus', 'barriers', 'MP+nbar+fence.wg.litmus');
    const r = gpumm('lower', nb, '--target', 'gfx1250', '--compare-llc');
    expect(r.status).toBe(0);
    expect(r.stdout).not.toContain('no intrinsic to compile');
    expect(r.stdout).not.toContain('differs');
    expect(r.stdout).toContain(
      'barrier.init(ptr addrspace(3) @bar, i32 2)\n      gpumm: s_mov_b32 m0, 0x20001; s_barrier_init m0\n      llc:   s_mov_b32 m0, 0x20001; s_barrier_init m0\n',
    );
    expect(r.stdout).toContain('llc:   s_mov_b32 m0, 0x1; s_barrier_join m0\n');
    expect(r.stdout).toContain('llc:   s_mov_b32 m0, 0x20001; s_barrier_signal m0\n');
  });

  it.skipIf('reason' in findLlc())(
    '--compare-llc before the file: the file is not taken for the llc path (the same comparison)',
    () => {
      const nb = join(ROOT, 'litmus', 'barriers', 'MP+nbar+fence.wg.litmus');
      const after = gpumm('lower', nb, '--target', 'gfx1250', '--compare-llc');
      const before = gpumm('lower', '--target', 'gfx1250', '--compare-llc', nb);
      expect(before.stderr).toBe('');
      expect(before.status).toBe(0);
      expect(before.stdout).toBe(after.stdout);
    },
  );

  it.skipIf('reason' in findLlc())('--compare-llc shows a repeated wait as a difference of its own', () => {
    // GFX10 WGP mode, workgroup acq_rel generic atomicrmw with return: the document waits on vscnt after
    // the atomic too; llc-22 waits on vmcnt only — one repeated wait instruction.
    const dir = mkdtempSync(join(tmpdir(), 'gpumm-'));
    const f = join(dir, 'rmw.litmus');
    writeFileSync(
      f,
      'AMDGPU rmw\n@x = global i32 0\nP0 @ agent 0, workgroup 0 {\n  %r = atomicrmw add ptr @x, i32 1 syncscope("workgroup") acq_rel\n}\n',
    );
    const r = gpumm('lower', f, '--target', 'gfx1030', '--compare-llc');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('differs: gpumm s_waitcnt_vscnt null, 0x0  →  llc —\n');
    expect(r.stdout).toContain('why (gfx10-atomic-wait-kind)');
  });
});

describe('gpumm lower --explain and llc-22', () => {
  it('says under an instruction what llc-22 emits instead, and why, from the recorded divergences', () => {
    const r = gpumm('lower', MP, '--target', 'gfx1200', '--explain');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(
      /syncscope\("agent"\) release\n(?: {6}.*\n)*? {6}; llc-22 -O0 emits instead: s_wait_loadcnt 0x0;[^\n]*global_store scope:SCOPE_DEV\n {6}; why \(gfx12-wb-system-only\): [^\n]*\n {6}; where: SIGfx12CacheControl::insertRelease/,
    );
    // llc-22 agrees on the acquire load: no note there.
    const acquire = r.stdout.slice(r.stdout.indexOf('acquire\n'));
    expect(acquire.slice(0, acquire.indexOf('%r1'))).not.toContain('llc-22');
  });

  it('says nothing about llc-22 without --explain', () => {
    const r = gpumm('lower', MP, '--target', 'gfx1200');
    expect(r.stdout).not.toContain('llc-22');
  });
});

describe('gpumm lower, Intel Xe targets and several targets side by side', () => {
  it('--target gfx942,pvc puts each target code side by side under each IR instruction', () => {
    const r = gpumm('lower', MP, '--target', 'gfx942,pvc');
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('lowered for gfx942 (GFX9, dGPU, HSA) | pvc (Xe-HPC, dGPU, OpenCL/SPIR-V)\n');
    expect(r.stdout).toMatch(
      /syncscope\("agent"\) release\n {6}buffer_wbl2 sc1=1 +\| lsc_fence\.ugm\.evict\.gpu\n {6}s_waitcnt vmcnt\(0\) lgkmcnt\(0\) \| lsc_atomic_store\.ugm\n/,
    );
  });

  it('--json with several targets parses with SideBySideJsonSchema', () => {
    const r = gpumm('lower', MP, '--target', 'gfx1200,dg2,lnl', '--cu', '--json');
    expect(r.status).toBe(0);
    const j = SideBySideJsonSchema.parse(JSON.parse(r.stdout));
    expect(j.targets.map((t) => [t.target, t.mode])).toEqual([
      ['gfx1200', 'cu'],
      ['dg2', null],
      ['lnl', null],
    ]);
    const acq = j.threads[1]!.instrs[0]!;
    expect(acq.results.map((x) => ('asm' in x ? x.asm.at(-1) : null))).toEqual([
      'global_inv scope:SCOPE_DEV',
      'lsc_fence.ugm.invalidate.tile',
      'lsc_fence.ugm.invalidate.gpu',
    ]);
  });

  it('an Intel target alone: the listing, --explain with the compiler functions, --json and --table', () => {
    const e = gpumm('lower', MP, '--target', 'dg2', '--explain');
    expect(e.status).toBe(0);
    expect(e.stdout).toContain('lowered for dg2 (Xe-HPG, dGPU, OpenCL/SPIR-V)');
    expect(e.stdout).toContain('hasL3FlushOnGPUScopeInvalidate');
    const j = LowerJsonSchema.parse(JSON.parse(gpumm('lower', MP, '--target', 'acm-g10', '--json').stdout));
    expect([j.target, j.processor, j.lang, j.mode, j.tgsplit]).toEqual([
      'acm-g10',
      'dg2',
      'opencl',
      null,
      null,
    ]);
    const t = GridJsonSchema.parse(JSON.parse(gpumm('lower', '--table', '--target', 'pvc', '--json').stdout));
    expect(t.columns).toEqual([{ label: 'opencl', mode: null, tgsplit: null, lang: 'opencl' }]);
    expect(gpumm('lower', '--table', '--target', 'lnl').stdout).toContain(
      'store release workgroup[-one-as] global [*]\n  all: lsc_fence.ugm.evict.group; lsc_atomic_store.ugm\n',
    );
  });

  it('a blank name in a --target list is said so, and command-line diagnostics quote the command line with a caret', () => {
    for (const list of ['gfx942,', ',pvc', 'gfx942,,pvc', ' ']) {
      const r = gpumm('lower', MP, '--target', list);
      expect([r.status, r.stdout]).toEqual([2, '']);
      // It was 'unknown target ""' at column 1, with the nearest names of the empty string.
      expect(r.stderr).toContain(`error LW2016: the --target list "${list}" has an empty name`);
    }
    const r = gpumm('lower', MP, '--target', 'gfx90a', '--cu');
    const col = `lower ${MP} --target gfx90a `.length + 1;
    expect(r.stderr).toContain(`<command-line>:1:${col}: error LW2009: option --cu does not apply to gfx90a`);
    expect(r.stderr).toContain(
      `   1 | lower ${MP} --target gfx90a --cu\n     | ${' '.repeat(col - 1)}^^^^\n`,
    );
  });

  it('bad target names in a list, repeated targets and options with no Intel meaning exit 2 with a hint', () => {
    const u = gpumm('lower', MP, '--target', 'gfx942,pvx');
    expect([u.status, u.stdout]).toEqual([2, '']);
    expect(u.stderr).toMatch(/<command-line>:1:\d+: error LW2001: unknown target "pvx"\n/);
    expect(u.stderr).toContain('hint: nearest known names: pvc');
    const d = gpumm('lower', MP, '--target', 'pvc,gfx942,pvc');
    expect([d.status, d.stdout]).toEqual([2, '']);
    expect(d.stderr).toContain('error LW2015: processor pvc is listed more than once (as "pvc" twice)');
    // Aliases name one processor: two identical columns (fiji is gfx803; kaveri and bonaire, gfx700).
    for (const [list, proc, as] of [
      ['fiji,gfx803', 'gfx803', '"fiji" and "gfx803"'],
      ['gfx700,kaveri', 'gfx700', '"gfx700" and "kaveri"'],
      ['bonaire,KAVERI', 'gfx700', '"bonaire" and "kaveri"'],
      ['bmg,bmg-g21', 'bmg', '"bmg" and "bmg-g21"'],
    ]) {
      const a = gpumm('lower', MP, '--target', list!);
      expect([a.status, a.stdout]).toEqual([2, '']);
      expect(a.stderr).toContain(`error LW2015: processor ${proc} is listed more than once (as ${as})`);
      expect(a.stderr).toContain('hint: list each processor once: an alias (fiji for gfx803');
    }
    const c = gpumm('lower', MP, '--target', 'pvc', '--compare-llc');
    expect([c.status, c.stdout]).toEqual([2, '']);
    expect(c.stderr).toMatch(
      /error LW2009: option --compare-llc does not apply to pvc \(Intel Xe-HPC\)\n(.*\n){2} {2}hint: llc-22 has no Intel Xe backend/,
    );
    const w = gpumm('lower', MP, '--target', 'bmg', '--wgp');
    expect(w.status).toBe(2);
    expect(w.stderr).toContain('hint: Intel Xe targets have no CU/WGP wavefront modes');
    const both = gpumm('lower', MP, '--target', 'pvc,lnl', '--tgsplit');
    expect(both.status).toBe(2);
    expect(both.stderr).toContain('option --tgsplit does not apply to pvc (Xe-HPC), lnl (Xe2)');
    const tb = gpumm('lower', '--table', '--target', 'gfx942,pvc');
    expect([tb.status, tb.stdout]).toEqual([2, '']);
    expect(tb.stderr).toContain('option --table does not apply to several targets');
    const cl = gpumm('lower', MP, '--target', 'gfx942,gfx900', '--compare-llc');
    expect(cl.status).toBe(2);
    expect(cl.stderr).toContain('option --compare-llc does not apply to several targets');
    const ck = gpumm('check', MP, '--target', 'gfx942,pvc');
    expect(ck.status).toBe(2);
    expect(ck.stderr).toContain(
      'error LW2009: option --target with several targets does not apply to this command',
    );
  });

  it('gpumm check on an Intel target: the Intel machine; no llc-22 profile (LW2009, exit 2)', () => {
    const doc = gpumm('check', MP, '--target', 'pvc');
    expect(doc.status).toBe(0);
    expect(doc.stdout).toContain('on pvc (--lowering doc): sound');
    const llc = gpumm('check', MP, '--target', 'dg2', '--lowering', 'llc');
    expect([llc.status, llc.stdout]).toEqual([2, '']);
    expect(llc.stderr).toContain('llc-22 has no Intel Xe backend');
  });

  it('an operation one target lacks is an error for the whole run: exit 2, nothing on stdout', () => {
    const r = gpumm(
      'lower',
      join(ROOT, 'litmus', 'barriers', 'BAR-isfirst.litmus'),
      '--target',
      'gfx1200,pvc',
    );
    expect([r.status, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toMatch(/error LW2006: barrier operation "signal_isfirst" is not available on pvc/);
  });

  it('an AMDGPU-only annotation on an Intel target is a warning; the code is printed, exit 0', () => {
    const r = gpumm('lower', join(ROOT, 'litmus', 'AV-Prop2.av-outwards.litmus'), '--target', 'gfx1200,pvc');
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/warning LW2014: !mmra !\{!"amdgcn-av", !"none"\} has no meaning on pvc/);
    expect(r.stdout).toContain('lsc_fence.ugm.invalidate.gpu');
  });
});
