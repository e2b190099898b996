/**
 * Differential test against llc-22 (LLVM's AMDGPU backend): every cell of the cross-product on every
 * processor llc-22 knows (both wavefront modes on GFX10–12, TgSplit on and off on GFX9.4) is compiled
 * and compared with gpumm's sequence; the atomic cells also with OpenCL rules (`openclCell`). Where they differ gpumm follows the document; the differences are recorded in
 * baselines/llc-divergences.txt (and rendered into docs/targets/divergences.md), so a new
 * disagreement fails here. Skipped, with the reason printed, when llc-22 is not installed.
 */

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from '../syntax/parser.ts';
import { foldCells, groupDivergences, renderDivergenceBaseline } from './divergences.ts';
import { baseCells, expandCell } from './grid.ts';
import { barrierInstrM0, globalInv, setM0, vmem, wait } from './isa.ts';
import {
  BARRIER_CASES,
  compareWithLlc,
  comparisonModule,
  differential,
  differentialRuns,
  diffRun,
  findLlc,
  runLlc,
} from './llc.ts';
import {
  barrierKernel,
  cellKernel,
  LLC_AV_FAILS,
  MODULE_TAIL,
  namedBarrierDecls,
  normaliseAsm,
  normaliseIsa,
  splitFunctions,
} from './llc-ir.ts';
import { wideSuffix } from './lower.ts';
import { PROCESSORS } from './targets.ts';
import { ctxOf } from './test-helpers.ts';

const llc = findLlc();
if ('reason' in llc) console.warn(`skipping llc-22 differential tests: ${llc.reason}`);

describe('normalising llc output', () => {
  it('keeps instructions as written, merging only a run of waits', () => {
    const asm = [
      'k:                                      ; @k',
      '\t;;#ASMSTART',
      '\t; GPUMM_BEGIN',
      '\t;;#ASMEND',
      '\tv_mov_b32_e32 v0, s2',
      '\ts_wait_bvhcnt 0x0',
      '\ts_wait_storecnt 0x0',
      '\ts_wait_loadcnt_dscnt 0x0',
      '\tflat_atomic_add_u32 v0, v[0:1], v2 th:TH_ATOMIC_RETURN scope:SCOPE_SE',
      '\tglobal_inv scope:SCOPE_SE',
      '\t;;#ASMSTART',
      '\t; GPUMM_END',
      '\t;;#ASMEND',
    ].join('\n');
    const fns = splitFunctions(asm);
    expect(normaliseAsm(fns.get('k')!)).toEqual([
      's_wait_loadcnt 0x0',
      's_wait_bvhcnt 0x0',
      's_wait_storecnt 0x0',
      's_wait_dscnt 0x0',
      'flat_atomic th:TH_ATOMIC_RETURN scope:SCOPE_SE',
      'global_inv scope:SCOPE_SE',
    ]);
    expect(
      normaliseAsm([
        's_waitcnt vmcnt(0) lgkmcnt(0)',
        'global_load_dword v0, v0, s[4:5] slc glc',
        'buffer_wbinvl1_vol',
      ]),
    ).toEqual(['s_waitcnt vmcnt(0) lgkmcnt(0)', 'global_load glc slc', 'buffer_wbinvl1_vol']);
  });

  it('keeps what the old normal form hid: kmcnt, encodings, buffer_wbinvl1, repeated waits', () => {
    expect(normaliseAsm(['s_wait_kmcnt 0x0', 'global_store_b32 v0, v1, s[0:1] scope:SCOPE_SYS'])).toEqual([
      's_wait_kmcnt 0x0',
      'global_store scope:SCOPE_SYS',
    ]);
    expect(normaliseAsm(['flat_load_dword v0, v[0:1]'])).not.toEqual(
      normaliseAsm(['buffer_load_dword v0, off']),
    );
    expect(normaliseAsm(['scratch_load_dword v0, off, s0'])).toEqual(['scratch_load']);
    expect(normaliseAsm(['buffer_wbinvl1'])).not.toEqual(normaliseAsm(['buffer_wbinvl1_vol']));
    expect(
      normaliseAsm(['s_waitcnt vmcnt(0)', 'global_store_dword v0, v1, s[0:1]', 's_waitcnt vmcnt(0)']),
    ).toEqual(['s_waitcnt vmcnt(0)', 'global_store', 's_waitcnt vmcnt(0)']);
    expect(normaliseAsm(['s_waitcnt vmcnt(1)', 's_waitcnt vmcnt(0) lgkmcnt(3)'])).toEqual([
      's_waitcnt vmcnt(0) lgkmcnt(3)',
    ]);
  });

  it('drops ALU work and evaluates the value moved into m0', () => {
    expect(
      normaliseAsm([
        's_mov_b32 s0, 0x80201',
        's_and_b32 s1, s0, 63',
        's_mov_b32 s0, 0x30000',
        's_or_b32 s0, s0, s1',
        's_wait_alu 0xfffe',
        's_mov_b32 m0, s0',
        's_barrier_init m0',
      ]),
    ).toEqual(['s_mov_b32 m0, 0x30001', 's_barrier_init m0']);
    expect(normaliseAsm(['s_mov_b32 m0, s7', 's_barrier_join m0'])).toEqual([
      's_mov_b32 m0, ?',
      's_barrier_join m0',
    ]);
    expect(normaliseAsm(['s_mov_b32 m0, -1', 'ds_write_b32 v0, v1'])).toEqual([
      's_mov_b32 m0, 0xffffffff',
      'ds_store',
    ]);
    // GFX10's hazard wait on operand reads (llc-22 on gfx1010 after a store): no memory operation's
    // completion, so no instruction for the machines (a campaign found every gfx1010 llc check unsupported).
    expect(normaliseAsm(['global_store_dword v0, v1, s[0:1]', 's_waitcnt_depctr depctr_vm_vsrc(0)'])).toEqual(
      ['global_store'],
    );
  });

  it('spells gpumm sequences the same way', () => {
    expect(
      normaliseIsa([
        wait('loadcnt', 'dscnt'),
        vmem('atomic', 'flat', { returns: true, th: 'TH_ATOMIC_RETURN', scope: 'SCOPE_SE' }),
        globalInv('SCOPE_SE'),
        setM0(0x50001),
        barrierInstrM0('s_barrier_signal', 1),
      ]),
    ).toEqual([
      's_wait_loadcnt 0x0',
      's_wait_dscnt 0x0',
      'flat_atomic th:TH_ATOMIC_RETURN scope:SCOPE_SE',
      'global_inv scope:SCOPE_SE',
      's_mov_b32 m0, 0x50001',
      's_barrier_signal m0',
    ]);
  });
});

describe('barrier kernels', () => {
  it('use every named-barrier object before the marker, in declaration order', () => {
    const k = barrierKernel({ op: 'join', id: null, object: 'b', count: null }, 'f', ['a', 'b']);
    expect(k).toContain('"s,s"(ptr addrspace(3) @nb.a, ptr addrspace(3) @nb.b)');
    expect(k).toContain('call void @llvm.amdgcn.s.barrier.join(ptr addrspace(3) @nb.b)');
    expect(namedBarrierDecls(['a', 'b'])).toBe(
      '@nb.a = internal addrspace(3) global target("amdgcn.named.barrier", 0) poison\n' +
        '@nb.b = internal addrspace(3) global target("amdgcn.named.barrier", 0) poison\n',
    );
  });

  it('every barrier operation and every id kind is a case of the differential test', () => {
    const ops = new Set(BARRIER_CASES.map((c) => c.b.op));
    expect([...ops].sort()).toEqual(
      ['barrier', 'init', 'join', 'leave', 'signal', 'signal_isfirst', 'signal_var', 'wait'].sort(),
    );
    for (const op of ['signal', 'signal_isfirst', 'wait'] as const)
      expect(BARRIER_CASES.filter((c) => c.b.op === op).map((c) => c.b.id)).toEqual([
        -4, -3, -2, -1, 0, 1, 16,
      ]);
  });
});

describe('the module --compare-llc compiles', () => {
  const file = join(import.meta.dirname, '..', '..', 'litmus', 'MP+rel+acq.none.agent.litmus');
  const { test } = parse(readFileSync(file, 'utf8'), file);
  const { module } = comparisonModule(test!, ctxOf('gfx1200'));

  it('keeps !mmra !{!"amdgcn-av", !"none"} on the instruction that has it, and only there', () => {
    expect(module).toContain(
      '%v = load atomic i32, ptr addrspace(1) %p syncscope("agent") acquire, align 4, !mmra !1\n',
    );
    expect(module).toContain(
      'store atomic i32 %x, ptr addrspace(1) %p syncscope("agent") release, align 4\n',
    );
    expect(module).toContain('!1 = !{!"amdgcn-av", !"none"}\n');
    expect(module.match(/!mmra/g)).toHaveLength(1);
  });

  it('keeps !mmra on fences too', () => {
    const fence = parse(
      'AMDGPU f\n@x = addrspace(1) global i32 0\nP0 @ agent 0, workgroup 0 {\n  fence syncscope("agent") release, !mmra !{!"amdgcn-av", !"none"}\n}\n',
      'f.litmus',
    );
    expect(fence.diagnostics).toEqual([]);
    expect(comparisonModule(fence.test!, ctxOf('gfx900')).module).toContain(
      'fence syncscope("agent") release, !mmra !1\n',
    );
  });

  it('leaves the av intrinsics out, saying why, and shows their access with its 128-bit suffix', () => {
    const avFile = join(import.meta.dirname, '..', '..', 'litmus', 'MP+rel.none+acq.none.agent.avvis.litmus');
    const av = parse(readFileSync(avFile, 'utf8'), avFile).test!;
    const { module, items } = comparisonModule(av, ctxOf('gfx942', 'cu'));
    expect(module).not.toContain('llvm.amdgcn.av');
    const avItems = items.filter((i) => i.instr.kind === 'avload' || i.instr.kind === 'avstore');
    expect(avItems.map((i) => [i.fn, i.doc, i.note])).toEqual([
      [null, ['global_store_dwordx4 sc1=1'], `not compared: llc-22 ${LLC_AV_FAILS}`],
      [null, ['global_load_dwordx4 sc1=1'], `not compared: llc-22 ${LLC_AV_FAILS}`],
    ]);
  });

  it.skipIf('reason' in llc)(
    'keeps amdgpu-synchronize-as tags and wave.barrier, and llc-22 compiles them as gpumm lowers them',
    async () => {
      const src = [
        'AMDGPU s',
        '@x = addrspace(1) global i32 0',
        'P0 @ agent 0, workgroup 0 {',
        '  fence syncscope("workgroup") release, !mmra !{!"amdgpu-synchronize-as", !"local"}',
        '  call void @llvm.amdgcn.wave.barrier()',
        '  fence syncscope("agent") acquire, !mmra !{!"amdgpu-synchronize-as", !"global"}',
        '  fence syncscope("agent-one-as") acq_rel, !mmra !{!{!"amdgpu-synchronize-as", !"global"}, !{!"amdgcn-av", !"none"}}',
        '}',
      ].join('\n');
      const { test, diagnostics } = parse(`${src}\n`, 's.litmus');
      expect(diagnostics).toEqual([]);
      const ctx = ctxOf('gfx942', 'cu');
      const { module } = comparisonModule(test!, ctx);
      expect(module).toContain('!mmra !{!"amdgpu-synchronize-as", !"local"}');
      expect(module).toContain('call void @llvm.amdgcn.wave.barrier()');
      const got = await compareWithLlc(test!, ctx, 'path' in llc ? llc.path : 'llc-22');
      expect(got.map((g) => [g.doc, g.llc, g.same])).toEqual([
        [['s_waitcnt lgkmcnt(0)'], ['s_waitcnt lgkmcnt(0)'], true],
        [[], [], true],
        [['s_waitcnt vmcnt(0)', 'buffer_inv sc1'], ['s_waitcnt vmcnt(0)', 'buffer_inv sc1'], true],
        [
          ['buffer_wbl2 sc1', 's_waitcnt vmcnt(0)', 'buffer_inv sc1'],
          ['buffer_wbl2 sc1', 's_waitcnt vmcnt(0)', 'buffer_inv sc1'],
          true,
        ],
      ]);
    },
  );

  it.skipIf('reason' in llc)('is valid IR for llc-22', async () => {
    const asm = await runLlc('path' in llc ? llc.path : 'llc-22', module, 'gfx1200', 'wgp');
    expect(asm).toContain('GPUMM_END');
  });
});

describe.skipIf('reason' in llc)('llc-22 differential', () => {
  const path = 'path' in llc ? llc.path : 'llc-22';

  it('llc-22 accepts exactly the processors marked llc in the processor table', async () => {
    const accepted = await Promise.all(
      PROCESSORS.map((p) =>
        runLlc(path, 'define amdgpu_kernel void @k() {\n  ret void\n}\n', p.name, null).then(
          (asm) => asm.includes(`--${p.name}`),
          () => false,
        ),
      ),
    );
    expect(Object.fromEntries(PROCESSORS.map((p, i) => [p.name, accepted[i]]))).toEqual(
      Object.fromEntries(PROCESSORS.map((p) => [p.name, p.llc])),
    );
  });

  it('the triple environment opencl changes no instruction (so OpenCL cells are compiled -one-as)', () => {
    const fns: string[] = [];
    for (const b of baseCells()) {
      if (b.ordering === 'notatomic' || b.space === 'constant' || fns.length >= 300) continue;
      fns.push(cellKernel(expandCell(b)[0]!, `c${fns.length}`));
    }
    const module = `${fns.join('\n')}\n${MODULE_TAIL}`;
    for (const cpu of ['gfx900', 'gfx1200']) {
      const asm = (triple: string): string =>
        spawnSync(path, [`-mtriple=${triple}`, `-mcpu=${cpu}`, '-O0', '-o', '-'], {
          input: module,
          encoding: 'utf8',
          maxBuffer: 1 << 28,
        })
          .stdout.split('\n')
          .filter((l) => !l.includes(cpu))
          .join('\n');
      const hsa = asm('amdgcn-amd-amdhsa');
      expect(hsa).toContain('GPUMM_END');
      expect(asm('amdgcn-amd-amdhsa-opencl')).toBe(hsa);
    }
  });

  it('named barriers on gfx1250 compile exactly as gpumm lowers them (m0 set-up included)', async () => {
    const run = differentialRuns().find((r) => r.proc.name === 'gfx1250' && r.lang === 'hsa')!;
    const { diffs } = await diffRun(path, run);
    const barrierDiffs = diffs.filter((d) => d.cell.startsWith('barrier '));
    // Only the trap barriers, which gpumm rejects (LW2007), differ.
    expect(barrierDiffs.map((d) => d.cell).sort()).toEqual([
      'barrier signal -2',
      'barrier signal -4',
      'barrier signal_isfirst -2',
      'barrier signal_isfirst -4',
      'barrier wait -2',
      'barrier wait -4',
    ]);
  }, 120_000);

  it('llc-22 crashes on split and named barrier intrinsics before GFX12 (llcBarrierFails)', async () => {
    const k = barrierKernel({ op: 'signal', id: -1, object: null, count: null }, 'k')!;
    await expect(runLlc(path, `${k}\n${MODULE_TAIL}`, 'gfx900', null)).rejects.toThrow();
  });

  it('llc-22 crashes on the av intrinsics on every table family (LLC_AV_FAILS)', async () => {
    const decls = `declare void @llvm.amdgcn.av.global.store.b128(ptr addrspace(1), i32, metadata)
declare i32 @llvm.amdgcn.av.global.load.b128(ptr addrspace(1), metadata)
`;
    const kernels = [
      `define amdgpu_kernel void @s(ptr addrspace(1) %p) {
  call void @llvm.amdgcn.av.global.store.b128(ptr addrspace(1) %p, i32 1, metadata !"agent")
  ret void
}`,
      `define amdgpu_kernel void @l(ptr addrspace(1) %p, ptr addrspace(1) %q) {
  %v = call i32 @llvm.amdgcn.av.global.load.b128(ptr addrspace(1) %p, metadata !"agent")
  store i32 %v, ptr addrspace(1) %q
  ret void
}`,
    ];
    for (const cpu of ['gfx600', 'gfx900', 'gfx90a', 'gfx942', 'gfx1030', 'gfx1100', 'gfx1200', 'gfx1250'])
      for (const k of kernels)
        await expect(runLlc(path, `${decls}${k}\n`, cpu, null), `${cpu} ${k}`).rejects.toThrow(
          /DAG->DAG Pattern Instruction Selection/,
        );
  });

  it('a 128-bit access is spelled as gpumm spells the av intrinsics on every processor (wideSuffix)', async () => {
    const module =
      'define amdgpu_kernel void @k(ptr addrspace(1) %p) {\n  store <4 x i32> <i32 1, i32 2, i32 3, i32 4>, ptr addrspace(1) %p, align 16\n  ret void\n}\n';
    const procs = PROCESSORS.filter((p) => p.llc && p.vendor === 'AMD' && p.table !== null);
    const got = await Promise.all(
      procs.map((p) =>
        runLlc(path, module, p.name, null).then(
          (asm) => /\b(?:buffer|global|flat)_store_(\w+)/.exec(asm)?.[1],
        ),
      ),
    );
    expect(Object.fromEntries(procs.map((p, i) => [p.name, got[i]]))).toEqual(
      Object.fromEntries(procs.map((p) => [p.name, wideSuffix(p)])),
    );
  });

  it('every cell agrees with llc-22 or is a recorded divergence', async () => {
    const t0 = performance.now();
    const { cells, divergences } = await differential(path, 2);
    console.log(`llc-22 differential: ${cells} cells in ${Math.round(performance.now() - t0)} ms`);
    // GFX950 uses the GFX942 table by inference (docs/targets/README.md): llc-22 must agree, i.e. every
    // divergence found on a gfx942 run is found on the matching gfx950 run and vice versa.
    for (const d of divergences) {
      for (const run of ['', '/tgsplit', '/opencl', '/tgsplit/opencl']) {
        expect(d.targets.includes(`gfx942${run}`), `${d.cell} on gfx942${run} vs gfx950${run}`).toBe(
          d.targets.includes(`gfx950${run}`),
        );
      }
    }
    const version = 'version' in llc ? llc.version : 'unknown';
    // Every recorded difference has a cause (src/lower/causes.ts).
    expect(groupDivergences(divergences).filter((g) => g.causes.includes('unexplained'))).toEqual([]);
    await expect(renderDivergenceBaseline(groupDivergences(divergences), version)).toMatchFileSnapshot(
      './baselines/llc-divergences.txt',
    );
  }, 1_800_000);
});

describe('folding divergence cells', () => {
  it('folds flag variants to [*] and -one-as twins to [-one-as]', () => {
    const cells = ['', ' [volatile]', ' [nontemporal]', ' [volatile,nontemporal]'].flatMap((f) => [
      `load acquire agent global${f}`,
      `load acquire agent-one-as global${f}`,
    ]);
    expect(foldCells([...cells, 'fence acquire agent -', 'store release workgroup local'])).toEqual([
      'fence acquire agent -',
      'load acquire agent[-one-as] global [*]',
      'store release workgroup local',
    ]);
  });
});
