import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CheckJsonSchema } from './check.ts';
import { CATALOGUE, gpumm } from './testing.ts';

describe('gpumm check', () => {
  it('sound: every machine outcome allowed, a racy undef read matching any value is said so; exit 0', () => {
    const r = gpumm('check', join(CATALOGUE, 'MP+rel+acq.agent.litmus'), '--target', 'gfx900');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Test MP\+rel\+acq\.agent on gfx900 \(CU mode, --lowering doc\): sound$/m);
    expect(r.stdout).toContain("(allowed: the model's P1:r1 is undef, matching any value)");
  });

  it('UNSOUND: the forbidden outcome and a step-by-step trace; exit 1', () => {
    const r = gpumm('check', join(CATALOGUE, 'LB+rlx.agent.litmus'), '--target', 'gfx900');
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('UNSOUND');
    expect(r.stdout).toContain('P0:r0=1; P1:r1=1;  <- forbidden by the model');
    expect(r.stdout).toMatch(
      /Trace to P0:r0=1; P1:r1=1; with P0: a0\/sa0\/wgp0\/cu0, P1: a0\/sa0\/wgp1\/cu1:/,
    );
    expect(r.stdout).toMatch(/ {2,}\d+\. perform {3}P\d: global_store \(line \d+\) — passed L1@cu\d/);
  });

  it('both modes of a GFX12 target by default, one with --cu / --wgp; --json follows CheckJsonSchema', () => {
    const r = gpumm('check', join(CATALOGUE, 'MP+rel+acq.wg.litmus'), '--target', 'gfx1200', '--json');
    expect(r.status).toBe(0);
    const out = CheckJsonSchema.parse(JSON.parse(r.stdout));
    expect(out.map((c) => `${c.mode}:${c.verdict}`)).toEqual(['cu:sound', 'wgp:sound']);
    const one = gpumm(
      'check',
      join(CATALOGUE, 'MP+rel+acq.wg.litmus'),
      '--target',
      'gfx1200',
      '--wgp',
      '--json',
    );
    expect(CheckJsonSchema.parse(JSON.parse(one.stdout)).map((c) => c.mode)).toEqual(['wgp']);
  });

  it('an unknown target: diagnostic with the nearest names, exit 2, nothing on stdout', () => {
    const r = gpumm('check', join(CATALOGUE, 'MP+rel+acq.agent.litmus'), '--target', 'gfx9000');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('LW2001');
    expect(r.stderr).toMatch(/nearest known names: gfx900/);
    expect(r.stdout).toBe('');
  });

  it('a host thread is unsupported (exit 3), with the reason', () => {
    const r = gpumm('check', join(CATALOGUE, 'CoRR.host.litmus'), '--target', 'gfx1200', '--cu');
    expect(r.status).toBe(3);
    expect(r.stdout).toContain('P0 is a host thread: the documents give no code sequences for host code');
  });

  it('TgSplit targets: without and with TgSplit by default, TgSplit only with --tgsplit', () => {
    const both = gpumm('check', join(CATALOGUE, 'MP+rel+acq.wg.litmus'), '--target', 'gfx90a', '--json');
    expect(both.status).toBe(0);
    expect(JSON.parse(both.stdout).map((x: { mode: string }) => x.mode)).toEqual(['cu', 'tgsplit']);
    const tg = gpumm('check', join(CATALOGUE, 'MP+rel+acq.wg.litmus'), '--target', 'gfx942', '--tgsplit');
    expect(tg.status).toBe(0);
    expect(tg.stdout).toContain('on gfx942 (TGSPLIT mode, --lowering doc): sound');
  });

  it('a budget: a check that runs out of states is undecided (exit 3)', () => {
    const r = gpumm(
      'check',
      join(CATALOGUE, 'IRIW+sc.wg.litmus'),
      '--target',
      'gfx1200',
      '--wgp',
      '--max-states',
      '50',
    );
    expect(r.status).toBe(3);
    expect(r.stdout).toContain('the machine exploration stopped (max-states)');
  });
});

describe('gpumm check on Intel Xe targets', () => {
  it('sound, with no wavefront mode in the text; every platform group by name', () => {
    for (const target of ['pvc', 'dg2', 'mtl', 'arl', 'lnl', 'bmg', 'ptl']) {
      const r = gpumm('check', join(CATALOGUE, 'MP+rel+acq.agent.litmus'), '--target', target);
      expect(r.status, target).toBe(0);
      expect(r.stdout).toMatch(
        new RegExp(`^Test MP\\+rel\\+acq\\.agent on ${target} \\(--lowering doc\\): sound$`, 'm'),
      );
    }
  });

  it('UNSOUND (exit 1) with a trace in the Intel machine code: an SLM store a ugm fence does not wait for', () => {
    const r = gpumm('check', join(CATALOGUE, 'MP+rel+acq.wg.lds-data.litmus'), '--target', 'pvc');
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('P1:r0=1; P1:r1=0;  <- forbidden by the model');
    expect(r.stdout).toMatch(/Trace to P1:r0=1; P1:r1=0; with P0: a0\/tile0\/xc0, P1: a0\/tile0\/xc0:/);
    expect(r.stdout).toMatch(
      /issue {5}P0: lsc_fence\.ugm\.evict\.tile \(line \d+\) — earlier ugm requests performed/,
    );
    expect(r.stdout).toMatch(
      /perform {3}P0: lsc_store\.slm \(line \d+\) — wrote @lds\[a0\.c0\.w0\]=1 to SLM/,
    );
  });

  it('--json follows CheckJsonSchema; --all-targets includes every Intel platform', () => {
    const r = gpumm('check', join(CATALOGUE, 'CoRR.atomic.wg.litmus'), '--all-targets', '--json');
    expect(r.status).toBe(0);
    const out = CheckJsonSchema.parse(JSON.parse(r.stdout));
    const intel = out.filter((c) => ['dg2', 'mtl', 'arl', 'pvc', 'lnl', 'bmg', 'ptl'].includes(c.target));
    expect(intel.map((c) => `${c.target}:${c.verdict}`)).toEqual([
      'dg2:sound',
      'mtl:sound',
      'arl:sound',
      'pvc:sound',
      'lnl:sound',
      'bmg:sound',
      'ptl:sound',
    ]);
  });

  it('--lowering llc: llc-22 has no Intel backend (LW2009, exit 2, nothing on stdout); --cu does not apply', () => {
    const llc = gpumm(
      'check',
      join(CATALOGUE, 'MP+rel+acq.agent.litmus'),
      '--target',
      'pvc',
      '--lowering',
      'llc',
    );
    expect(llc.status).toBe(2);
    expect(llc.stderr).toMatch(/error LW2009: option --lowering llc does not apply to pvc \(Intel Xe-HPC\)/);
    expect(llc.stdout).toBe('');
    const cu = gpumm('check', join(CATALOGUE, 'MP+rel+acq.agent.litmus'), '--target', 'lnl', '--cu');
    expect(cu.status).toBe(2);
    expect(cu.stderr).toContain('Intel Xe targets have no CU/WGP wavefront modes');
  });
});
