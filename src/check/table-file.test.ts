import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATALOGUE_DIR } from '../cli/demo.ts';
import { litmusFilesIn } from '../cli/io.ts';
import { DIAGNOSTICS, diagnosticLine, type SourceDiagnostic } from '../core/diagnostics.ts';
import type { Test } from '../core/types.ts';
import { runTestSync } from '../enumerate/verdict.ts';
import type { IsaInstr } from '../lower/isa.ts';
import { type GridJson, gridJsonText } from '../lower/json.ts';
import { findTarget, type Target } from '../lower/targets.ts';
import type { LowerCtx, WaveMode } from '../lower/types.ts';
import type { CodeOrWhy, LoweredCode } from '../sim/program.ts';
import { ctxOf, litmus, litmusFile, TEST_BUDGET } from '../sim/testutil.ts';
import { type CheckResult, checkTest, docCode } from './check.ts';
import { columnLabel, readTableFile, type TableFile, tableCode } from './table-file.ts';
import { CATALOGUE_RUNS } from './testutil.ts';

const TEXTS = new Map<string, string>();

/** A target's table as `gpumm lower --table --target T --json` writes it. */
function exported(target: string): string {
  if (!TEXTS.has(target)) TEXTS.set(target, gridJsonText(findTarget(target)!));
  return TEXTS.get(target)!;
}

type GridFile = GridJson;

/** The table of `target` edited by `edit`, as a hand-editor's tool would write it back. */
function edited(target: string, edit: (g: GridFile) => void): string {
  const g = JSON.parse(exported(target)) as GridFile;
  edit(g);
  return JSON.stringify(g, null, 2);
}

function read(text: string, want: Target | null = null): TableFile {
  const r = readTableFile(text, 'my-table.json', want);
  if (r.table === null) throw new Error(r.diagnostics.map((d) => `${d.code} ${d.message}`).join('\n'));
  return r.table;
}

/** The asm of a cell's result in a column (by label) of an exported table, for editing. */
function asmOf(g: GridFile, key: string, label: string): string[] {
  const col = g.columns.findIndex((c) => c.label === label);
  const r = g.cells.find((c) => c.key === key)!.results[col]!;
  if (!('asm' in r)) throw new Error(`${key} has no code in ${label}`);
  return r.asm;
}

/** Code with each wait's counters in one order: one wait's counters are a set. */
function canon(code: unknown): unknown {
  return JSON.parse(
    JSON.stringify(code, (k, v: unknown) => (k === 'counters' ? [...(v as string[])].sort() : v)),
  );
}

/** Line and column (from 1) of the first occurrence of `what` in `text`, as diagnostics give them. */
function placeOf(text: string, what: string, from = 0): { line: number; col: number } {
  const at = text.indexOf(what, from);
  if (at < 0) throw new Error(`${what} not in the text`);
  const before = text.slice(0, at);
  return { line: before.split('\n').length, col: at - before.lastIndexOf('\n') };
}

/** Every diagnostic code the tests below have seen. */
const SEEN = new Set<string>();

/** The diagnostics of a table text (recorded in SEEN). */
function problems(text: string, want: Target | null = null): SourceDiagnostic[] {
  const ds = readTableFile(text, 'my-table.json', want).diagnostics;
  for (const d of ds) SEEN.add(d.code);
  return ds;
}

function diagnosticsOf(text: string, want: Target | null = null) {
  return problems(text, want).map((d) => ({ code: d.code, line: d.span.line, col: d.span.col }));
}

const CATALOGUE = litmusFilesIn(CATALOGUE_DIR).map((f) => litmusFile(f));

/** Why a table gives a test no code, on one line (`CODE message`), or null when it gives code. */
function whyOf(c: CodeOrWhy): string | null {
  return 'error' in c ? diagnosticLine(c.error) : null;
}

describe('an exported table reads back as the built-in table', () => {
  // Every target the catalogue is checked on: each table family, each Intel fence-lowering group.
  const targets = [...new Set(CATALOGUE_RUNS.map(([t]) => t))];
  it.each(targets)('%s: every cell, every column: the asm lines read as the typed isa beside them', (t) => {
    const text = exported(t);
    const table = read(text);
    const g = JSON.parse(text) as GridFile;
    let compared = 0;
    for (const c of g.cells)
      c.results.forEach((r, k) => {
        const got = table.cells.get(c.key)![k]!;
        if (!('isa' in r)) {
          expect(got, c.key).toEqual({ none: r.diagnostic.code });
          return;
        }
        expect(canon('seq' in got ? got.seq : got), `${c.key} ${k}`).toEqual(canon(r.isa));
        compared++;
      });
    expect(compared).toBeGreaterThan(500);
  });

  const runs: [string, WaveMode | 'tgsplit'][] = [
    ['gfx900', 'cu'],
    ['gfx90a', 'tgsplit'],
    ['gfx1200', 'cu'],
    ['gfx1200', 'wgp'],
    ['pvc', 'cu'],
  ];
  it.each(runs)('%s %s: every catalogue test gets the same code as from the built-in table', (t, mode) => {
    const table = read(exported(t));
    const ctx = ctxOf(t, mode);
    let same = 0;
    for (const test of CATALOGUE) {
      const doc = docCode(test, ctx);
      const mine = tableCode(test, ctx, table);
      if ('error' in doc) {
        // The built-in lowering's diagnostic, or the cell without code in this column.
        expect('error' in mine, test.name).toBe(true);
        continue;
      }
      expect(canon(mine), test.name).toEqual(canon(doc));
      same++;
    }
    expect(same).toBeGreaterThan(120);
  });

  /** The model's report and the machine's verdict with code from the table and from the built-in one. */
  async function both(test: Test, ctx: LowerCtx, table: TableFile): Promise<[CheckResult, CheckResult]> {
    const report = runTestSync(test);
    const check = async (code: CodeOrWhy) => {
      if ('error' in code) throw new Error(diagnosticLine(code.error));
      return checkTest(test, report, code, ctx, 'doc', { ...TEST_BUDGET, trace: false });
    };
    return [await check(tableCode(test, ctx, table)), await check(docCode(test, ctx))];
  }
  const verdictOf = (r: CheckResult) => ({
    verdict: r.verdict,
    machine: r.machine.map((m) => m.values),
    forbidden: r.forbidden?.values ?? null,
  });

  const tests = [
    'MP+rel+acq.agent',
    'SB+sc.agent',
    'LB+rlx.agent',
    'MP+bar+fence.wg',
    'AV-Prop5.av-vis-chain',
    'MP+fence.agent.sync-global',
    'ISA2+rel+acq.hrf',
  ];
  it.each([
    ['gfx900', 'cu'],
    ['gfx1200', 'cu'],
    ['gfx1200', 'wgp'],
  ] as const)(
    '%s %s: catalogue tests check alike (verdicts, machine outcomes)',
    async (t, mode) => {
      const table = read(exported(t));
      const verdicts: string[] = [];
      for (const name of tests) {
        const test = litmusFile(join(CATALOGUE_DIR, `${name}.litmus`));
        const [mine, doc] = await both(test, ctxOf(t, mode), table);
        expect(verdictOf(mine), name).toEqual(verdictOf(doc));
        verdicts.push(mine.verdict);
      }
      // Both kinds of verdict are compared: LB+rlx.agent is a finding on every AMD family.
      expect(verdicts).toContain('UNSOUND');
      expect(verdicts).toContain('sound');
    },
    60_000,
  );
});

describe('a hand-edited table', () => {
  const MP = litmusFile(join(CATALOGUE_DIR, 'MP+rel+acq.agent.litmus'));
  const ACQ = 'load acquire agent[-one-as] global [*]';

  async function verdict(test: Test, ctx: LowerCtx, table: TableFile): Promise<CheckResult> {
    const code = tableCode(test, ctx, table);
    if ('error' in code) throw new Error(diagnosticLine(code.error));
    return checkTest(test, runTestSync(test), code, ctx, 'doc', { ...TEST_BUDGET, trace: true });
  }

  it("gfx900: without the acquire load's s_waitcnt vmcnt(0), MP+rel+acq.agent is UNSOUND", async () => {
    const text = edited('gfx900', (g) => {
      const asm = asmOf(g, ACQ, 'hsa');
      expect(asm).toEqual(['global_load glc=1', 's_waitcnt vmcnt(0)', 'buffer_wbinvl1_vol']);
      asm.splice(1, 1);
    });
    const r = await verdict(MP, ctxOf('gfx900'), read(text));
    expect(r.verdict).toBe('UNSOUND');
    expect(r.forbidden?.values).toEqual({ 'P1:r0': 1, 'P1:r1': 0 });
    // The invalidate no longer waits for the flag load: it is performed before the load reads y.
    expect(r.forbidden?.trace?.map((s) => s.text)).toContain('buffer_wbinvl1_vol');
  });

  it("gfx1200: without the acquire load's global_inv scope:SCOPE_DEV, UNSOUND in both modes", async () => {
    const text = edited('gfx1200', (g) => {
      for (const label of ['cu/hsa', 'wgp/hsa']) {
        const asm = asmOf(g, ACQ, label);
        asm.splice(asm.indexOf('global_inv scope:SCOPE_DEV'), 1);
      }
    });
    const table = read(text);
    for (const mode of ['cu', 'wgp'] as const)
      expect((await verdict(MP, ctxOf('gfx1200', mode), table)).verdict, mode).toBe('UNSOUND');
  });

  it('an added line is read: an extra wait is in the code, and the test stays sound', async () => {
    const text = edited('gfx900', (g) => asmOf(g, ACQ, 'hsa').push('s_waitcnt vmcnt(0) lgkmcnt(0)'));
    const table = read(text);
    const code = tableCode(MP, ctxOf('gfx900'), table) as LoweredCode;
    expect(code[1]![0]).toEqual([
      expect.objectContaining({ kind: 'vmem', op: 'load', glc: true }),
      { kind: 'wait', counters: ['vmcnt'] },
      { kind: 'inv', mnemonic: 'buffer_wbinvl1_vol', scope: null, sc: null },
      { kind: 'wait', counters: ['vmcnt', 'lgkmcnt'] },
    ]);
    expect((await verdict(MP, ctxOf('gfx900'), table)).verdict).toBe('sound');
  });

  it("llc-22's spelling is read too: data sizes, register operands, merged GFX12 waits", () => {
    const text = edited('gfx1200', (g) => {
      const asm = asmOf(g, ACQ, 'cu/hsa');
      asm.splice(
        0,
        asm.length,
        'global_load_b32 v1, v0, s[0:1] scope:SCOPE_DEV',
        's_wait_loadcnt_dscnt 0x0',
        'global_inv scope:SCOPE_DEV',
      );
    });
    const code = tableCode(MP, ctxOf('gfx1200', 'cu'), read(text)) as LoweredCode;
    expect(code[1]![0]!.map((i) => i.kind)).toEqual(['vmem', 'wait', 'wait', 'inv']);
    expect(code[1]![0]![1]).toEqual({ kind: 'wait', counters: ['loadcnt'] });
    expect(code[1]![0]![2]).toEqual({ kind: 'wait', counters: ['dscnt'] });
  });

  it('an unfolded key gives one variant its own code; the folded key still serves the others', () => {
    const text = edited('gfx900', (g) => {
      const cell = g.cells.find((c) => c.key === ACQ)!;
      g.cells.push({
        ...cell,
        key: 'load acquire agent global [volatile]',
        volatile: true,
        nontemporal: false,
        syncscope: { scope: 'agent', oneAs: false },
        results: cell.results.map(() => ({ isa: [], asm: ['global_load glc=1'], rows: [] })),
      });
    });
    const table = read(text);
    const plain = tableCode(MP, ctxOf('gfx900'), table) as LoweredCode;
    expect(plain[1]![0]).toHaveLength(3);
    const vol = litmus(
      `AMDGPU V
@x = addrspace(1) global i32 0
P0 @ agent 0 {
  %r0 = load atomic volatile i32, ptr addrspace(1) @x syncscope("agent") acquire, align 4
  %r1 = load atomic volatile i32, ptr addrspace(1) @x syncscope("agent-one-as") acquire, align 4
}
exists (P0:%r0 == 0)
`,
    );
    const code = tableCode(vol, ctxOf('gfx900'), table) as LoweredCode;
    expect(code[0]![0]!.map((i: IsaInstr) => i.kind)).toEqual(['vmem']);
    // The -one-as variant is not the unfolded key's: the folded cell's code.
    expect(code[0]![1]).toHaveLength(3);
  });

  it('a test instruction whose cell the file lacks: why, naming the key and the keys that fold it', () => {
    const text = edited('gfx900', (g) => {
      g.cells = g.cells.filter((c) => c.key !== ACQ);
    });
    expect(whyOf(tableCode(MP, ctxOf('gfx900'), read(text)))).toBe(
      'MC2003 P1: line 24: my-table.json has no cell "load acquire agent global" (nor "load acquire agent[-one-as] global", "load acquire agent global [*]", "load acquire agent[-one-as] global [*]")',
    );
  });

  it('a column the file lacks, a cell without code in the column, a fence no table has a cell for', () => {
    const noWgp = edited('gfx1200', (g) => {
      const keep = g.columns.map((c) => c.label.startsWith('cu/'));
      g.columns = g.columns.filter((_, k) => keep[k]);
      for (const c of g.cells) c.results = c.results.filter((_, k) => keep[k]);
    });
    const table = read(noWgp);
    expect(tableCode(MP, ctxOf('gfx1200', 'cu'), table)).not.toHaveProperty('error');
    expect(whyOf(tableCode(MP, ctxOf('gfx1200', 'wgp'), table))).toBe(
      'MC2002 my-table.json has no column wgp/hsa',
    );
    expect(columnLabel(ctxOf('pvc'))).toBe('opencl');
    const both = litmus(`AMDGPU F
P0 @ agent 0 {
  fence syncscope("agent") release, !mmra !0
}
!0 = !{!1, !2}
!1 = !{!"amdgpu-synchronize-as", !"global"}
!2 = !{!"amdgpu-synchronize-as", !"local"}
`);
    expect(whyOf(tableCode(both, ctxOf('gfx1200', 'cu'), table))).toBe(
      'MC2004 P0: line 3: a table has no cell for this instruction (fence release agent - !synchronize-as:global,local)',
    );
  });

  it('Intel Xe: a generic access is read back from its branch lines; an edit of one branch is used', () => {
    const text = edited('pvc', (g) => {
      const asm = asmOf(g, 'load acquire agent[-one-as] generic [*]', 'opencl');
      expect(asm.every((l) => /^[a-z, ]+: /.test(l))).toBe(true);
      asm[asm.findIndex((l) => l.startsWith('global: '))] = 'global: lsc_atomic_or.ugm';
    });
    const test = litmus(`AMDGPU G
@x = addrspace(1) global i32 0
P0 @ agent 0 {
  %r0 = load atomic i32, ptr @x syncscope("agent") acquire, align 4
}
exists (P0:%r0 == 0)
`);
    const code = tableCode(test, ctxOf('pvc'), read(text)) as LoweredCode;
    expect(code[0]![0]).toEqual([
      {
        kind: 'xe_generic',
        branches: expect.arrayContaining([
          {
            spaces: ['global'],
            seq: [{ kind: 'lsc', op: 'atomic', sfid: 'ugm', atomic: 'or', returns: true }],
          },
        ]),
      },
    ]);
  });
});

describe('a bad table file: located diagnostics', () => {
  const t900 = () => exported('gfx900');

  it('JSON syntax: the place of the first error', () => {
    const text = t900().replace('"columns": [', '"columns": [,');
    expect(diagnosticsOf(text)).toEqual([
      { code: 'TBL1001', ...placeOf(text, '[,'), col: placeOf(text, '[,').col + 1 },
    ]);
    const cut = t900().slice(0, 1000);
    const end = cut.split('\n');
    expect(diagnosticsOf(cut)[0]).toMatchObject({ code: 'TBL1001', line: end.length });
    const twice = t900().replace('"target": "gfx900",', '"target": "gfx900", "target": "gfx900",');
    expect(diagnosticsOf(twice)).toEqual([{ code: 'TBL1001', line: 2, col: 23 }]);
  });

  it('a field of the wrong type, a missing field: at the value, at the object it belongs in', () => {
    const wrong = t900().replace('"target": "gfx900"', '"target": 900');
    expect(diagnosticsOf(wrong)).toEqual([{ code: 'TBL2001', line: 2, col: 13 }]);
    const text = edited('gfx900', (g) => {
      (g.cells[3]!.results[1] as { asm?: unknown }).asm = 'global_load';
      delete (g.cells[5] as { key?: string }).key;
    });
    const asm = text.indexOf('"asm": "global_load"');
    expect(diagnosticsOf(text)).toEqual([
      { code: 'TBL2001', ...placeOf(text, '"global_load"', asm) },
      // cells[5] lost its key: at its opening brace.
      { code: 'TBL2001', ...cellBrace(text, 5) },
    ]);
  });

  it('an asm line the reader does not understand: at that string, naming the cell and the column', () => {
    const text = edited('gfx900', (g) => {
      asmOf(g, 'load acquire agent[-one-as] global [*]', 'opencl')[1] = 's_waitcnt vmcnt0';
      asmOf(g, 'load acquire agent[-one-as] global [*]', 'opencl')[2] = 'buffer_wbinvl1_vol_x';
    });
    const r = { diagnostics: problems(text) };
    expect(r.diagnostics.map((d) => ({ code: d.code, line: d.span.line, col: d.span.col }))).toEqual([
      { code: 'TBL3001', ...placeOf(text, '"s_waitcnt vmcnt0"') },
      { code: 'TBL3001', ...placeOf(text, '"buffer_wbinvl1_vol_x"') },
    ]);
    expect(r.diagnostics[0]!.message).toBe(
      '\'s_waitcnt vmcnt0\' in cell "load acquire agent[-one-as] global [*]", column opencl: wait vmcnt0 not understood',
    );
  });

  it('an unknown key, with the nearest known; a key twice; a field that disagrees with its key', () => {
    const text = edited('gfx900', (g) => {
      g.cells[0]!.key = 'load acquire agnet global';
      g.cells[2]!.key = g.cells[1]!.key;
      g.cells[4]!.ordering = 'seq_cst';
    });
    const again = `"key": ${JSON.stringify((JSON.parse(text) as GridFile).cells[1]!.key)}`;
    const r = { diagnostics: problems(text) };
    expect(r.diagnostics.map((d) => ({ code: d.code, line: d.span.line, col: d.span.col }))).toEqual([
      { code: 'TBL2002', ...placeOf(text, '"load acquire agnet global"') },
      // At the second cell with the key, its value: after `"key": ` (indented by 6).
      { code: 'TBL2003', line: placeOf(text, again, text.indexOf(again) + 1).line, col: 14 },
      { code: 'TBL2004', ...placeOf(text, '"seq_cst"') },
    ]);
    expect(r.diagnostics[0]!.hint).toContain('"load acquire agent global"');
  });

  it('the target: unknown, or not the one --target names', () => {
    const unknown = t900().replace('"target": "gfx900"', '"target": "gfx9000"');
    expect(diagnosticsOf(unknown)).toEqual([{ code: 'TBL2007', line: 2, col: 13 }]);
    expect(diagnosticsOf(t900(), findTarget('gfx1200'))).toEqual([{ code: 'TBL2008', line: 2, col: 13 }]);
    // An alias of the same processor is the same target.
    expect(diagnosticsOf(exported('gfx803'), findTarget('fiji'))).toEqual([]);
  });

  it('columns: an unknown label, and a cell with a result too few', () => {
    const text = edited('gfx900', (g) => {
      g.columns[1]!.label = 'wgp/opencl';
      g.cells[7]!.results.pop();
    });
    expect(diagnosticsOf(text).map((d) => d.code)).toEqual(['TBL2005', 'TBL2006']);
    expect(diagnosticsOf(text)[0]).toEqual({ code: 'TBL2005', ...placeOf(text, '"wgp/opencl"') });
  });
});

describe('the table-file diagnostics', () => {
  it('every TBL code is reported by one of the cases above', () => {
    expect(Object.keys(DIAGNOSTICS).filter((c) => c.startsWith('TBL') && !SEEN.has(c))).toEqual([]);
  });
});

/** Where cell `n` of a pretty-printed table opens: its `{`, alone on a line indented by 4. */
function cellBrace(text: string, n: number): { line: number; col: number } {
  const lines = text.split('\n');
  const first = lines.indexOf('  "cells": [');
  let seen = -1;
  for (let k = first + 1; k < lines.length; k++)
    if (lines[k] === '    {' && ++seen === n) return { line: k + 1, col: 5 };
  throw new Error(`no cell ${n}`);
}
