import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type GridJson, gridJsonText } from '../lower/json.ts';
import { findTarget } from '../lower/targets.ts';
import { CheckJsonSchema } from './check.ts';
import { CATALOGUE, gpumm, tmpFile } from './testing.ts';

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

describe('gpumm check: assumptions and readings', () => {
  const MP_WG = join(CATALOGUE, 'MP+rel+acq.wg.litmus');
  const SB_WG = join(CATALOGUE, 'SB+sc.wg.litmus');

  it('a sound verdict names the assumptions it needs; --no-assume runs without one (UNSOUND, exit 1); --json has both', () => {
    const r = gpumm('check', SB_WG, '--target', 'gfx1200', '--cu');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/: sound \(assuming: cu-in-order-types\)$/m);
    const without = gpumm('check', SB_WG, '--target', 'gfx1200', '--cu', '--no-assume', 'cu-in-order-types');
    expect(without.status).toBe(1);
    expect(without.stdout).toMatch(/--no-assume cu-in-order-types\): UNSOUND$/m);
    const all = gpumm('check', SB_WG, '--target', 'gfx1200', '--cu', '--no-assume', 'all', '--json');
    const [c] = CheckJsonSchema.parse(JSON.parse(all.stdout));
    expect(c!.verdict).toBe('UNSOUND');
    expect(c!.notAssumed).toEqual(['cu-in-order-reads', 'cu-in-order-types', 'lds-in-order', 'fill-at-read']);
    const json = CheckJsonSchema.parse(
      JSON.parse(gpumm('check', SB_WG, '--target', 'gfx1200', '--cu', '--json').stdout),
    );
    expect(json[0]!.assumptions).toEqual(['cu-in-order-types']);
    // A verdict that holds without any assumption names none.
    const plain = gpumm('check', join(CATALOGUE, 'MP+rel+acq.agent.litmus'), '--target', 'gfx900');
    expect(plain.stdout).toMatch(/: sound$/m);
  });

  it('an unknown assumption is a usage error with the nearest name, exit 2, nothing on stdout', () => {
    const r = gpumm('check', MP_WG, '--target', 'gfx1200', '--no-assume', 'cu-in-order-read');
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/CL1003: --no-assume names an unknown assumption 'cu-in-order-read'/);
    expect(r.stderr).toMatch(/did you mean cu-in-order-reads\?/);
  });

  it('--hw-text: the GFX12 reading; llc-22 defaults to AMDGPUUsage, the documents to the seed; a bad value is exit 2', () => {
    const f = join(CATALOGUE, 'MP+rel+acq.agent.litmus');
    const doc = gpumm('check', f, '--target', 'gfx1200', '--cu');
    expect(doc.stdout).toMatch(/--lowering doc, --hw-text seed\): sound/);
    const bad = gpumm('check', f, '--target', 'gfx1200', '--hw-text', 'newest');
    expect(bad.status).toBe(2);
    expect(bad.stdout).toBe('');
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

describe('gpumm check --table: a hand-edited code-sequence table', () => {
  const MP = join(CATALOGUE, 'MP+rel+acq.agent.litmus');
  const ACQ = 'load acquire agent[-one-as] global [*]';
  type Grid = GridJson;
  /** gfx900's table as `gpumm lower --table --json` writes it, edited, in a file of its own. */
  const tableFile = (edit: (g: Grid) => void = () => {}, text?: (t: string) => string): string => {
    const g = JSON.parse(gridJsonText(findTarget('gfx900')!)) as Grid;
    edit(g);
    const out = JSON.stringify(g, null, 2);
    return tmpFile('my-table.json', text ? text(out) : out);
  };
  const asm = (g: Grid, key: string): string[] => {
    const r = g.cells.find((c) => c.key === key)!.results[0]!;
    return 'asm' in r ? r.asm : [];
  };
  /** Line and column of the first `what` in the file, as diagnostics give them. */
  const place = (file: string, what: string): string => {
    const text = readFileSync(file, 'utf8');
    const before = text.slice(0, text.indexOf(what));
    return `${before.split('\n').length}:${before.length - before.lastIndexOf('\n')}`;
  };

  it("runs the file's code on the file's target; a dropped wait makes MP+rel+acq.agent UNSOUND (exit 1)", () => {
    const same = tableFile();
    const ok = gpumm('check', MP, '--table', same);
    expect(ok.status).toBe(0);
    expect(ok.stdout).toMatch(
      /^Test MP\+rel\+acq\.agent on gfx900 \(CU mode, --lowering table:\S*my-table\.json[,)].*: sound$/m,
    );
    const weak = tableFile((g) => {
      asm(g, ACQ).splice(1, 1);
    });
    const r = gpumm('check', MP, '--table', weak, '--target', 'gfx900');
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/: UNSOUND\n/);
    expect(r.stdout).toContain('P1:r0=1; P1:r1=0;  <- forbidden by the model');
    // The edited cell's steps are marked with its code and the built-in one.
    expect(r.stdout).toMatch(
      /\[edited: global_load glc=1; buffer_wbinvl1_vol \(was: global_load glc=1; s_waitcnt vmcnt\(0\); buffer_wbinvl1_vol\)\]/,
    );
    const json = gpumm('check', MP, '--table', weak, '--json');
    const out = CheckJsonSchema.parse(JSON.parse(json.stdout));
    expect(out.map((c) => c.verdict)).toEqual(['UNSOUND']);
    expect(out[0]!.lowering).toMatch(/^table:.*my-table\.json$/);
  });

  it('a trimmed file: the test whose cell is missing is unsupported (exit 3), naming the key', () => {
    const trimmed = tableFile((g) => {
      g.cells = g.cells.filter((c) => c.key !== ACQ);
    });
    const r = gpumm('check', MP, '--table', trimmed);
    expect(r.status).toBe(3);
    expect(r.stdout).toMatch(
      /: unsupported\n {2}MC2003 P1: line 24: \S*my-table\.json has no cell "load acquire agent global"/,
    );
  });

  it('bad JSON: file:line:col, exit 2, nothing on stdout', () => {
    const f = tableFile(undefined, (t) => t.replace('"columns": [', '"columns": [,'));
    const r = gpumm('check', MP, '--table', f);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    const [line, col] = place(f, '[,').split(':').map(Number);
    expect(r.stderr).toContain(
      `my-table.json:${line}:${col! + 1}: error TBL1001: expected a value, found ','`,
    );
  });

  it('a field of the wrong type: at its value', () => {
    const f = tableFile(undefined, (t) => t.replace('"target": "gfx900"', '"target": ["gfx900"]'));
    const r = gpumm('check', MP, '--table', f);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(
      'my-table.json:2:13: error TBL2001: target: Invalid input: expected string, received array',
    );
  });

  it('asm text the reader does not understand and an unknown key: each located, escaped, all at once', () => {
    const f = tableFile((g) => {
      asm(g, ACQ)[2] = '\u001b[2Jbuffer_wbinvl1_volatile';
      g.cells[0]!.key = 'load none none genric';
    });
    const r = gpumm('check', MP, '--table', f);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      `my-table.json:${place(f, '"load none none genric"')}: error TBL2002: unknown cell key "load none none genric"`,
    );
    expect(r.stderr).toContain('hint: nearest keys: "load none none generic"');
    expect(r.stderr).toContain(
      `my-table.json:${place(f, '"\\u001b[2Jbuffer')}: error TBL3001: '\\x1b[2Jbuffer_wbinvl1_volatile' in cell "${ACQ}", column hsa:`,
    );
    // Nothing of the file reaches the terminal raw.
    expect(r.stderr).not.toContain('\u001b');
  });

  it("a table for another target than --target names: TBL2008 at the file's target", () => {
    const r = gpumm('check', MP, '--table', tableFile(), '--target', 'gfx1200');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(
      /my-table\.json:2:13: error TBL2008: the table is for gfx900, but --target gfx1200 was given/,
    );
  });

  it('--lowering and --all-targets choose other code or targets: usage errors (CL1003, exit 2)', () => {
    const f = tableFile();
    const llc = gpumm('check', MP, '--table', f, '--lowering', 'llc');
    expect(llc.status).toBe(2);
    expect(llc.stderr).toMatch(/error CL1003: --lowering and --table both choose the code/);
    const all = gpumm('check', MP, '--table', f, '--all-targets');
    expect(all.status).toBe(2);
    expect(all.stderr).toMatch(/error CL1003: --all-targets checks every target/);
    expect(all.stdout).toBe('');
  });
});
