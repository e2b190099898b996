import { describe, expect, it } from 'vitest';
import type { Test } from '../core/types.ts';
import { avCells, baseCells, expandCell, gridColumns, resultText } from './grid.ts';
import { formatSeq } from './isa.ts';
import { lowerCell, lowerInstr, lowerTest, mergedCmpxchgOrdering, wideSuffix } from './lower.ts';
import { findTarget, nearestTargetNames, PROCESSORS } from './targets.ts';
import { barrierOf, ctxOf, instrOf, linesOf, lowerText } from './test-helpers.ts';
import type { Cell } from './types.ts';

describe('processor table', () => {
  it('finds names and aliases with their own dGPU/APU column', () => {
    expect(findTarget('fiji')?.processor.name).toBe('gfx803');
    expect(findTarget('KAVERI')?.gpu).toBe('APU');
    expect(findTarget('bonaire')?.gpu).toBe('dGPU');
    expect(findTarget('gfx1201')?.processor.table).toBe('gfx12');
    expect(findTarget('gfx9000')).toBeNull();
  });
  it('suggests the nearest known names', () => {
    expect(nearestTargetNames('gfx120')[0]).toBe('gfx1200');
    expect(nearestTargetNames('tahity')[0]).toBe('tahiti');
  });
});

describe('lowerInstr', () => {
  it('returns the spec rows with the rules applied', () => {
    const r = lowerInstr(instrOf('load acquire agent local'), ctxOf('gfx1200', 'wgp'));
    expect('diagnostic' in r).toBe(false);
    if (!('diagnostic' in r)) {
      expect(r.rows[0]).toBe('GFX12 table, "load atomic acquire workgroup local"');
      expect(r.rows.some((x) => x.includes('treated as work-group'))).toBe(true);
    }
  });
  it('merges cmpxchg orderings as the backend does', () => {
    expect(mergedCmpxchgOrdering('release', 'acquire')).toBe('acq_rel');
    expect(mergedCmpxchgOrdering('monotonic', 'acquire')).toBe('acquire');
    expect(mergedCmpxchgOrdering('acquire', 'seq_cst')).toBe('seq_cst');
    expect(lowerText('gfx900', 'cmpxchg release/acquire agent global noret')).toEqual(
      lowerText('gfx900', 'atomicrmw acq_rel agent global noret'),
    );
  });
  it('non-memory instructions lower to nothing; av intrinsics lower on AMD targets and are LW2008 on Intel', () => {
    const span = { file: 't', offset: 0, line: 1, col: 1, len: 0 };
    const bin = lowerInstr(
      {
        kind: 'bin',
        span,
        dst: 'a',
        op: 'add',
        type: 'i32',
        a: { kind: 'const', value: 1 },
        b: { kind: 'const', value: 2 },
      },
      ctxOf('gfx900'),
    );
    expect(bin).toEqual({ seq: [], rows: [] });
    const av = lowerInstr(
      { kind: 'avload', span, dst: 'a', type: 'i32', ptr: { loc: 'x', space: 'global' }, scope: 'agent' },
      ctxOf('gfx1200'),
    );
    expect(linesOf(av)).toEqual(['global_load_b128 scope:SCOPE_DEV']);
    const xe = lowerInstr(instrOf('avstore agent'), ctxOf('pvc', 'cu', 'opencl'));
    expect('diagnostic' in xe && [xe.diagnostic.code, xe.diagnostic.severity]).toEqual(['LW2008', 'warning']);
    expect(lowerText('gfx1250', 'load acquire agent global')).toEqual([
      'global_load scope:SCOPE_DEV',
      's_wait_loadcnt 0x0',
      'global_inv scope:SCOPE_DEV',
      's_wait_loadcnt 0x0',
    ]);
    expect(lowerText('gfx90a', barrierOf('barrier'))).toEqual(['s_barrier']);
  });
  it('diagnostics carry the instruction span and a hint', () => {
    const r = lowerInstr(instrOf('fence monotonic agent'), ctxOf('gfx900'));
    expect('diagnostic' in r && r.diagnostic.hint).toContain('acquire');
  });
});

describe('lowerTest', () => {
  it('numbers named-barrier objects in declaration order', () => {
    const span = { file: 't', offset: 0, line: 1, col: 1, len: 0 };
    const loc = (name: string) => ({
      name,
      space: 'local' as const,
      type: 'i32',
      init: 0,
      barrier: true,
      span,
    });
    const test: Test = {
      arch: 'AMDGPU',
      name: 't',
      description: '',
      expects: [],
      locations: [loc('a'), loc('b')],
      threads: [
        {
          name: 'P0',
          placement: { kind: 'device', agent: 0, cluster: 0, workgroup: 0, wavefront: 0 },
          body: [barrierOf('join', null, 'b'), barrierOf('init', null, 'a')],
          span,
        },
      ],
      condition: null,
      file: 't',
    };
    const [p0] = lowerTest(test, ctxOf('gfx1250'));
    const asm = p0!.instrs.map((i) =>
      'diagnostic' in i.result ? 'error' : formatSeq(i.result.seq).join('; '),
    );
    expect(asm).toEqual(['s_mov_b32 m0, 0x2; s_barrier_join m0', 's_mov_b32 m0, 0x10001; s_barrier_init m0']);
  });
});

describe('cluster scope', () => {
  it('is agent scope without workgroup clusters and SCOPE_SE on GFX12.5', () => {
    const g = lowerCell(
      {
        instr: 'load',
        ordering: 'acquire',
        failure: 'monotonic',
        syncscope: { scope: 'cluster', oneAs: false },
        space: 'global',
        volatile: false,
        nontemporal: false,
        returns: true,
      },
      ctxOf('gfx1250'),
    );
    expect('rows' in g && g.rows).toEqual(['GFX125x table, "load atomic acquire cluster global"']);
    expect(lowerText('gfx1200', 'load acquire cluster global')).toEqual(
      lowerText('gfx1200', 'load acquire agent global'),
    );
    expect(lowerText('gfx1250', 'load acquire cluster local')).toEqual(
      lowerText('gfx1250', 'load acquire workgroup local'),
    );
  });
});

describe('GFX1251 uses the GFX125x table', () => {
  it('every cell of the cross-product lowers on gfx1251 exactly as on gfx1250', () => {
    const a = findTarget('gfx1250')!;
    const b = findTarget('gfx1251')!;
    expect(b.processor.table).toBe('gfx1250');
    for (const c of [...baseCells().flatMap(expandCell), ...avCells()]) {
      for (const lang of ['hsa', 'opencl'] as const) {
        const ra = lowerCell(c, { target: a, mode: 'cu', lang });
        const rb = lowerCell(c, { target: b, mode: 'cu', lang });
        expect(resultText(rb).replace('gfx1251', 'gfx1250')).toBe(resultText(ra));
      }
    }
  });
});

describe('GFX950 uses the GFX942 table (an inference: docs/targets/README.md)', () => {
  it('every cell of the cross-product lowers on gfx950 exactly as on gfx942', () => {
    const g942 = findTarget('gfx942')!;
    const g950 = findTarget('gfx950')!;
    expect(g950.processor.table).toBe('gfx942');
    let n = 0;
    for (const c of [...baseCells().flatMap(expandCell), ...avCells()]) {
      for (const tgsplit of [false, true]) {
        for (const lang of ['hsa', 'opencl'] as const) {
          const a = lowerCell(c, { target: g942, mode: 'cu', lang, tgsplit });
          const e = lowerCell(c, { target: g950, mode: 'cu', lang, tgsplit });
          expect(resultText(e).replace('gfx950', 'gfx942')).toBe(resultText(a));
          n++;
        }
      }
    }
    expect(n).toBeGreaterThan(30_000);
  });
});

describe('av intrinsics (lower.ts lowerAvCell)', () => {
  it('are the monotonic load/store row of their scope on global memory, 128 bits wide, on every AMD processor and column', () => {
    let n = 0;
    for (const p of PROCESSORS) {
      if (p.vendor !== 'AMD' || p.table === null) continue;
      const target = { name: p.name, processor: p, gpu: p.gpu };
      for (const col of gridColumns(target)) {
        const ctx = { target, mode: col.mode, lang: col.lang, tgsplit: col.tgsplit };
        for (const av of avCells()) {
          const load = av.instr === 'avload';
          const mono: Cell = {
            ...av,
            instr: load ? 'load' : 'store',
            ordering: 'monotonic',
          };
          const r = lowerCell(av, ctx);
          const m = lowerCell(mono, ctx);
          if ('diagnostic' in r || 'diagnostic' in m) throw new Error(`${p.name}: ${resultText(r)}`);
          // One memory instruction, of the global memory path, the row's own with its cache policy.
          const mems = r.seq.filter((i) => i.kind === 'vmem' || i.kind === 'lds');
          expect(mems).toHaveLength(1);
          const [mem] = mems;
          expect(mem?.kind === 'vmem' && ['global', 'buffer'].includes(mem.enc)).toBe(true);
          expect(mem?.kind === 'vmem' && mem.op).toBe(load ? 'load' : 'store');
          // The row with the access widened, less the GFX12.5 s_wait_xcnt (atomicity only).
          const row = m.seq
            .filter((i) => !(i.kind === 'wait' && i.counters.every((c) => c === 'xcnt')))
            .map((i) => (i.kind === 'vmem' ? { ...i, wide: wideSuffix(p) } : i));
          expect(r.seq, `${p.name} ${col.label} ${av.instr} ${av.syncscope.scope}`).toEqual(row);
          expect(r.rows[0]).toBe(`${m.rows[0]}, as @llvm.amdgcn.av.global.${load ? 'load' : 'store'}.b128`);
          expect(r.rows.some((x) => x.includes(load ? 'load-visible' : 'store-available'))).toBe(true);
          n++;
        }
      }
    }
    expect(n).toBeGreaterThan(700);
  });
  it('spell the 128-bit access dwordx4 up to GFX10 and b128 from GFX11', () => {
    const suffix = (name: string) => wideSuffix(findTarget(name)!.processor);
    expect(
      ['gfx600', 'gfx803', 'gfx900', 'gfx90a', 'gfx942', 'gfx950', 'gfx1010', 'gfx1030'].map(suffix),
    ).toEqual(Array(8).fill('dwordx4'));
    expect(['gfx1100', 'gfx1200', 'gfx1201', 'gfx1250', 'gfx1251'].map(suffix)).toEqual(
      Array(5).fill('b128'),
    );
  });
  it('have no lowering on Intel Xe, whatever the scope', () => {
    for (const t of ['dg2', 'mtl', 'pvc', 'lnl', 'bmg', 'ptl'])
      for (const av of avCells())
        expect(resultText(lowerCell(av, ctxOf(t, 'cu', 'opencl')))).toMatch(
          /^error LW2008: .* has no lowering on /,
        );
  });
});

describe('amdgpu-synchronize-as fences (docs/model.md, choice 33)', () => {
  it('global keeps the global waits and caches and drops the LDS counter; local keeps only the LDS counter', () => {
    expect(lowerText('gfx900', 'fence acq_rel agent none')).toEqual([
      's_waitcnt vmcnt(0) lgkmcnt(0)',
      'buffer_wbinvl1_vol',
    ]);
    expect(lowerText('gfx900', 'fence acq_rel agent none as:global')).toEqual([
      's_waitcnt vmcnt(0)',
      'buffer_wbinvl1_vol',
    ]);
    expect(lowerText('gfx900', 'fence acq_rel agent none as:local')).toEqual(['s_waitcnt lgkmcnt(0)']);
    expect(lowerText('gfx1200', 'fence release system none as:local')).toEqual(['s_wait_dscnt 0x0']);
    expect(lowerText('gfx1200', 'fence release system none as:global')).not.toContain('s_wait_dscnt 0x0');
  });
  it('local orders nothing with -one-as or in TgSplit mode; both tags order what no tag orders elsewhere', () => {
    expect(lowerText('gfx900', 'fence release workgroup-one-as none as:local')).toEqual([]);
    expect(lowerText('gfx942', 'fence acquire workgroup none as:local', 'cu', 'hsa', true)).toEqual([]);
    expect(lowerText('gfx942', 'fence acquire workgroup none as:local', 'cu', 'hsa', false)).toEqual([
      's_waitcnt lgkmcnt(0)',
    ]);
    for (const t of ['gfx900', 'gfx90a', 'gfx942', 'gfx1100', 'gfx1200', 'gfx1250'])
      expect(lowerText(t, 'fence seq_cst agent none as:global as:local')).toEqual(
        lowerText(t, 'fence seq_cst agent none'),
      );
  });
  it('names the legalizer rule among its rows', () => {
    const r = lowerInstr(instrOf('fence acquire agent none as:global'), ctxOf('gfx1100'));
    expect('rows' in r && r.rows.at(-1)).toMatch(/amdgpu-synchronize-as/);
  });
});

describe('llvm.amdgcn.wave.barrier (docs/model.md, choice 34)', () => {
  it('lowers to nothing on every family', () => {
    const span = { file: 't', offset: 0, line: 1, col: 1, len: 0 };
    for (const t of ['gfx600', 'gfx900', 'gfx90a', 'gfx942', 'gfx1100', 'gfx1200', 'gfx1250']) {
      const r = lowerInstr({ kind: 'wavebarrier', span }, ctxOf(t));
      expect('seq' in r && r.seq).toEqual([]);
    }
  });
});
