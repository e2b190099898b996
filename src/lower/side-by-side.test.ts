import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from '../syntax/parser.ts';
import { SideBySideJsonSchema } from './json.ts';
import { codeLines, describeCtx, lowerSideBySide, renderSideBySide, sideBySideJson } from './side-by-side.ts';
import { ctxOf } from './test-helpers.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const file = join(ROOT, 'litmus', 'MP+rel+acq.agent.litmus');
const test = parse(readFileSync(file, 'utf8'), file).test!;

describe('side-by-side lowering', () => {
  const sbs = lowerSideBySide(test, [ctxOf('gfx942', 'cu', 'hsa'), ctxOf('pvc', 'cu', 'opencl')]);

  it('lowers each instruction once per target, in target order', () => {
    const rel = sbs.threads[0]!.instrs[1]!;
    expect(rel.results.map(codeLines)).toEqual([
      ['buffer_wbl2 sc1=1', 's_waitcnt vmcnt(0) lgkmcnt(0)', 'global_store sc1=1'],
      ['lsc_fence.ugm.evict.gpu', 'lsc_atomic_store.ugm'],
    ]);
  });

  it('prints one column per target, aligned over the whole test, the shorter column padded with nothing', () => {
    const text = renderSideBySide(sbs, false);
    const lines = text.split('\n');
    expect(lines[0]).toBe('P0:');
    expect(lines[1]).toMatch(/^ {6}gfx942 +\| pvc$/);
    const bars = lines.filter((l) => l.includes(' | ')).map((l) => l.indexOf(' | '));
    expect(new Set(bars).size).toBe(1);
    expect(text).toContain('      global_store sc1=1            |\n');
    expect(text).toContain('      s_waitcnt vmcnt(0)            | lsc_fence.ugm.invalidate.gpu\n');
  });

  it('with --explain, each target rows under the instruction, named', () => {
    const text = renderSideBySide(sbs, true, (k) => (k === 0 ? ['a note'] : []));
    expect(text).toContain('      ; pvc: Xe table, "store atomic global (exchange)"');
    expect(text).toContain('      ; gfx942: a note');
  });

  it('has a JSON form that parses with its schema', () => {
    const j = SideBySideJsonSchema.parse(sideBySideJson(sbs));
    expect(j.targets.map((t) => [t.target, t.vendor, t.lang])).toEqual([
      ['gfx942', 'AMD', 'hsa'],
      ['pvc', 'Intel', 'opencl'],
    ]);
    const ld = j.threads[1]!.instrs[0]!.results[1]!;
    expect('isa' in ld && ld.isa).toEqual([
      { kind: 'lsc', op: 'atomic', sfid: 'ugm', atomic: 'or', returns: true },
      { kind: 'lsc_fence', sfid: 'ugm', op: 'invalidate', scope: 'gpu' },
    ]);
  });

  it('describes each run: AMDGPU mode and language, Intel OpenCL/SPIR-V', () => {
    expect(describeCtx(ctxOf('gfx1200', 'cu', 'hsa'))).toBe('gfx1200 (GFX12, dGPU, CU mode, HSA)');
    expect(describeCtx(ctxOf('mtl', 'cu', 'hsa'))).toBe('mtl (Xe-LPG, iGPU, OpenCL/SPIR-V)');
  });
});
