/**
 * Intel Xe rows, transcribed by hand from Intel's graphics compiler (IGC) — each case cites the
 * function it follows — and written as vISA spells them. They use no table data from src/lower, so a
 * wrong row cannot pass by agreeing with itself.
 *
 * IGC files read: IGC/BiFModule/Implementation/barrier.cl @9bb52b06, include/atomic_fence_impl.h
 * @38e30ed5, atomics.cl @dbc92aab; IGC/Compiler/CISACodeGen/EmitVISAPass.cpp @b926f8aa
 * (`EmitPass::emitMemoryFence`), Platform.hpp @9d002efd; GenericAddressDynamicResolution.cpp @98cd73ec.
 */

import { describe, expect, it } from 'vitest';
import { ADDRESS_SPACES, type Instr } from '../core/types.ts';
import { baseCells, expandCell, resultText } from './grid.ts';
import { emitMemoryFence, lscScopeOf, SPIRV_SCOPE, xeGroups } from './intel.ts';
import { lowerCell, lowerInstr } from './lower.ts';
import { findTarget, nearestTargetNames, PROCESSORS } from './targets.ts';
import { barrierOf, ctxOf, instrOf, lowerText } from './test-helpers.ts';

const xe = (target: string, desc: string | Instr): string[] => lowerText(target, desc, 'cu', 'opencl');

const DG2_GROUP = ['dg2', 'mtl', 'arl'];
const XE2_GROUP = ['lnl', 'bmg', 'ptl'];

describe('Intel platforms in the processor table', () => {
  it('knows the names users type, ocloc acronyms as aliases, in any case', () => {
    for (const n of ['dg2', 'mtl', 'arl', 'pvc', 'lnl', 'bmg', 'ptl']) {
      expect(findTarget(n)?.processor.vendor).toBe('Intel');
    }
    expect(findTarget('ACM-G10')?.processor.name).toBe('dg2');
    expect(findTarget('arl-h')?.processor.name).toBe('arl');
    expect(findTarget('lnl-m')?.processor.name).toBe('lnl');
    expect(findTarget('bmg-g21')?.processor.name).toBe('bmg');
    expect(findTarget('PVC')?.gpu).toBe('dGPU');
    expect(findTarget('mtl')?.gpu).toBe('iGPU');
    expect(findTarget('xe2')).toBeNull();
  });
  it('suggests the nearest names for anything else', () => {
    expect(nearestTargetNames('pvx')[0]).toBe('pvc');
    expect(nearestTargetNames('bmg-g2')[0]).toBe('bmg-g21');
    expect(nearestTargetNames('dg-2')).toContain('dg2');
  });
  it('puts the platforms in the groups whose fence lowering differs (EmitVISAPass.cpp emitMemoryFence)', () => {
    expect(xeGroups().map((g) => g.processors.map((p) => p.name))).toEqual([DG2_GROUP, ['pvc'], XE2_GROUP]);
    // Platform.hpp hasL3FlushOnGPUScopeInvalidate: ARL, MTL, DG2. EmitVISAPass "cache is not flushed for
    // scope < tile": DG2, PVC, MTL, ARL. hasMultiTile: PVC.
    const f = (n: string) => findTarget(n)!.processor.features;
    expect(DG2_GROUP.map((n) => [f(n).gpuFenceToTile, f(n).l1FenceToTile, f(n).multiTile])).toEqual(
      DG2_GROUP.map(() => [true, true, false]),
    );
    expect([f('pvc').gpuFenceToTile, f('pvc').l1FenceToTile, f('pvc').multiTile]).toEqual([
      false,
      true,
      true,
    ]);
    expect(XE2_GROUP.map((n) => f(n).gpuFenceToTile || f(n).l1FenceToTile)).toEqual([false, false, false]);
    // No AMDGPU processor has an Intel feature, and no Intel one is given to llc-22.
    for (const p of PROCESSORS) {
      if (p.vendor === 'AMD')
        expect(p.features.multiTile || p.features.gpuFenceToTile || p.features.l1FenceToTile).toBe(false);
      else expect([p.llc, p.table]).toEqual([false, 'xe']);
    }
  });
  it('lowers every cell of the cross-product identically within a group, and differently across groups', () => {
    const texts = (name: string): string[] => {
      const target = findTarget(name)!;
      return baseCells().flatMap((b) =>
        expandCell(b).map((c) => resultText(lowerCell(c, { target, mode: 'cu', lang: 'opencl' }))),
      );
    };
    const [dg2, pvc, lnl] = [texts('dg2'), texts('pvc'), texts('lnl')];
    for (const n of ['mtl', 'arl']) expect(texts(n)).toEqual(dg2);
    for (const n of ['bmg', 'ptl']) expect(texts(n)).toEqual(lnl);
    expect(pvc).not.toEqual(dg2);
    expect(pvc).not.toEqual(lnl);
  });
});

describe('scopes (barrier.cl CONVERT_SCOPE_SPIRV_TO_VISA, EmitVISAPass.cpp emitMemoryFence)', () => {
  it('maps syncscopes to SPIR-V scopes and those to LSC scopes; CrossDevice is gpu today (the TODO)', () => {
    expect(SPIRV_SCOPE).toEqual({
      system: 'CrossDevice',
      agent: 'Device',
      cluster: 'Device',
      workgroup: 'Workgroup',
      wavefront: 'Subgroup',
      singlethread: 'Invocation',
    });
    expect(
      ['CrossDevice', 'Device', 'Workgroup', 'Subgroup', 'Invocation'].map((s) => lscScopeOf(s as never)),
    ).toEqual(['gpu', 'gpu', 'group', 'group', 'group']);
  });
  it('narrows gpu scope to tile only on single-tile DG2/MTL/ARL; raises L1 work below tile on DG2/MTL/ARL/PVC', () => {
    const fence = (
      name: string,
      global: boolean,
      inv: boolean,
      evict: boolean,
      scope: 'Device' | 'Workgroup',
    ) => {
      const f = emitMemoryFence(
        { global, invalidateL1: inv, evictL1: evict, scope },
        findTarget(name)!.processor,
      ).fence;
      return `${f.sfid}.${f.op}.${f.scope}`;
    };
    expect(fence('dg2', true, false, false, 'Device')).toBe('ugm.none.tile');
    expect(fence('pvc', true, false, false, 'Device')).toBe('ugm.none.gpu');
    expect(fence('lnl', true, true, false, 'Device')).toBe('ugm.invalidate.gpu');
    expect(fence('pvc', true, true, false, 'Workgroup')).toBe('ugm.invalidate.tile');
    expect(fence('mtl', true, false, true, 'Workgroup')).toBe('ugm.evict.tile');
    expect(fence('bmg', true, false, true, 'Workgroup')).toBe('ugm.evict.group');
    // No L1 work: no raise, even on DG2 ("if ... (L1_Invalidate || L1_Evict) && Scope < TILE").
    expect(fence('dg2', true, false, false, 'Workgroup')).toBe('ugm.none.group');
    // getLSCMemoryFenceOp: evict wins over invalidate.
    expect(fence('pvc', true, true, true, 'Device')).toBe('ugm.evict.gpu');
    // "SLM only gets .group and .none", whatever was asked.
    expect(fence('pvc', false, true, true, 'Device')).toBe('slm.none.group');
  });
});

describe('fences (barrier.cl __intel_atomic_work_item_fence → EmitVISAPass.cpp emitMemoryFence)', () => {
  it('global fence at device scope: acquire invalidates, release and stronger evict', () => {
    // "bool invalidateL1 = Semantics & (Acquire | AcquireRelease | SequentiallyConsistent); bool evictL1 =
    // Semantics & (Release | AcquireRelease | SequentiallyConsistent)".
    expect(xe('pvc', 'fence acquire agent none as:global')).toEqual(['lsc_fence.ugm.invalidate.gpu']);
    expect(xe('pvc', 'fence release agent none as:global')).toEqual(['lsc_fence.ugm.evict.gpu']);
    expect(xe('pvc', 'fence acq_rel agent none as:global')).toEqual(['lsc_fence.ugm.evict.gpu']);
    expect(xe('lnl', 'fence seq_cst agent none as:global')).toEqual(['lsc_fence.ugm.evict.gpu']);
    // Single tile: "Change the scope from `GPU` or wider to `Tile` ... on DG2 and MTL and ARL".
    for (const t of DG2_GROUP) {
      expect(xe(t, 'fence acquire agent none as:global')).toEqual(['lsc_fence.ugm.invalidate.tile']);
      expect(xe(t, 'fence release agent none as:global')).toEqual(['lsc_fence.ugm.evict.tile']);
    }
  });
  it('system scope is CrossDevice, mapped to gpu scope (the TODO), tile on DG2/MTL/ARL', () => {
    expect(xe('pvc', 'fence release system none as:global')).toEqual(['lsc_fence.ugm.evict.gpu']);
    expect(xe('bmg', 'fence acquire system none as:global')).toEqual(['lsc_fence.ugm.invalidate.gpu']);
    expect(xe('arl', 'fence acquire system none as:global')).toEqual(['lsc_fence.ugm.invalidate.tile']);
  });
  it('global fence at workgroup scope or narrower: no L1 work, group scope, no raise', () => {
    // "If scope doesn't reach outside of workgroup, L1 flush can be skipped":
    // __intel_memfence_handler(false, true, false, false, Memory).
    for (const t of ['dg2', 'pvc', 'lnl']) {
      for (const s of ['workgroup', 'wavefront', 'singlethread']) {
        expect(xe(t, `fence seq_cst ${s} none as:global`)).toEqual(['lsc_fence.ugm.none.group']);
      }
    }
  });
  it('local memory: slm.none.group at every scope ("SLM only gets .group and .none")', () => {
    for (const t of ['dg2', 'pvc', 'lnl']) {
      expect(xe(t, 'fence seq_cst agent none as:local')).toEqual(['lsc_fence.slm.none.group']);
      expect(xe(t, 'fence acquire system none as:local')).toEqual(['lsc_fence.slm.none.group']);
    }
  });
  it('an untagged fence orders both memories: the slm fence first, then the ugm one', () => {
    // `if (Semantics & WorkgroupMemory)` comes before `if (Semantics & CrossWorkgroupMemory)`.
    expect(xe('pvc', 'fence release agent')).toEqual(['lsc_fence.slm.none.group', 'lsc_fence.ugm.evict.gpu']);
    expect(xe('pvc', 'fence seq_cst agent none as:global as:local')).toEqual(
      xe('pvc', 'fence seq_cst agent'),
    );
    expect(xe('dg2', 'fence acquire workgroup')).toEqual([
      'lsc_fence.slm.none.group',
      'lsc_fence.ugm.none.group',
    ]);
    // -one-as changes nothing: each fence orders one memory already.
    expect(xe('pvc', 'fence acq_rel agent-one-as')).toEqual(xe('pvc', 'fence acq_rel agent'));
  });
  it("a fence tagged with one memory keeps that memory's fence and only its notes", () => {
    const rowsOf = (target: string, desc: string) => {
      const r = lowerInstr(instrOf(desc), ctxOf(target, 'cu', 'opencl'));
      return 'diagnostic' in r ? [] : r.rows;
    };
    expect(xe('dg2', 'fence release agent none as:local')).toEqual(['lsc_fence.slm.none.group']);
    expect(xe('dg2', 'fence release agent none as:global')).toEqual(['lsc_fence.ugm.evict.tile']);
    // The ugm fence left out is not explained: its "gpu scope narrowed to tile" note was shown beside
    // the lone slm fence.
    expect(rowsOf('dg2', 'fence release agent none as:local').join('\n')).not.toContain('narrowed to tile');
    expect(rowsOf('dg2', 'fence release agent none as:global').join('\n')).toContain('narrowed to tile');
  });
  it('cluster scope is Device scope (no workgroup clusters), with its rule', () => {
    expect(xe('pvc', 'fence release cluster')).toEqual(xe('pvc', 'fence release agent'));
    const r = lowerInstr(instrOf('fence release cluster'), ctxOf('pvc', 'cu', 'opencl'));
    expect('rows' in r && r.rows.some((x) => x.includes('no workgroup clusters'))).toBe(true);
  });
});

describe('atomics (atomics.cl, atomic_fence_impl.h FENCE_PRE_OP / FENCE_POST_OP)', () => {
  it('relaxed: the atomic alone; loads as atomic_or 0, stores as exchange', () => {
    // __spirv_AtomicLoad → __spirv_AtomicOr(Pointer, Scope, Semantics, 0); __spirv_AtomicStore →
    // __spirv_AtomicExchange, "with the return value ignored".
    expect(xe('pvc', 'load monotonic agent global')).toEqual(['lsc_atomic_or.ugm']);
    expect(xe('pvc', 'store monotonic agent global')).toEqual(['lsc_atomic_store.ugm']);
    expect(xe('dg2', 'atomicrmw monotonic system global')).toEqual(['lsc_atomic_iadd.ugm']);
  });
  it('release: an evicting fence before, at the atomic scope; acquire: an invalidating fence after', () => {
    // FENCE_PRE_OP: __intel_memfence_handler(flushL3, isGlobal, false, isGlobal, Scope);
    // FENCE_POST_OP: __intel_memfence_handler(flushL3, isGlobal, isGlobal, false, Scope).
    expect(xe('pvc', 'store release agent global')).toEqual([
      'lsc_fence.ugm.evict.gpu',
      'lsc_atomic_store.ugm',
    ]);
    expect(xe('pvc', 'load acquire agent global')).toEqual([
      'lsc_atomic_or.ugm',
      'lsc_fence.ugm.invalidate.gpu',
    ]);
    expect(xe('lnl', 'atomicrmw acq_rel agent global')).toEqual([
      'lsc_fence.ugm.evict.gpu',
      'lsc_atomic_iadd.ugm',
      'lsc_fence.ugm.invalidate.gpu',
    ]);
    expect(xe('pvc', 'store seq_cst agent global')).toEqual([
      'lsc_fence.ugm.evict.gpu',
      'lsc_atomic_store.ugm',
      'lsc_fence.ugm.invalidate.gpu',
    ]);
    expect(xe('dg2', 'load acquire agent global')).toEqual([
      'lsc_atomic_or.ugm',
      'lsc_fence.ugm.invalidate.tile',
    ]);
  });
  it('without the workgroup shortcut fences get: L1 work at group scope, raised to tile on DG2/MTL/ARL/PVC', () => {
    expect(xe('lnl', 'store release workgroup global')).toEqual([
      'lsc_fence.ugm.evict.group',
      'lsc_atomic_store.ugm',
    ]);
    expect(xe('bmg', 'load acquire wavefront global')).toEqual([
      'lsc_atomic_or.ugm',
      'lsc_fence.ugm.invalidate.group',
    ]);
    for (const t of [...DG2_GROUP, 'pvc']) {
      expect(xe(t, 'store release workgroup global')).toEqual([
        'lsc_fence.ugm.evict.tile',
        'lsc_atomic_store.ugm',
      ]);
      expect(xe(t, 'load acquire singlethread global')).toEqual([
        'lsc_atomic_or.ugm',
        'lsc_fence.ugm.invalidate.tile',
      ]);
    }
  });
  it('names the LSC atomic after the IR operation (vISA LSC_OP; exchange is lsc_atomic_store)', () => {
    const rmw = (op: string) => {
      const i = instrOf('atomicrmw monotonic agent global') as Instr & { kind: 'rmw' };
      return xe('pvc', { ...i, op: op as never });
    };
    expect(
      ['xchg', 'add', 'sub', 'and', 'or', 'xor', 'max', 'min', 'umax', 'umin'].map((o) => rmw(o)[0]),
    ).toEqual([
      'lsc_atomic_store.ugm',
      'lsc_atomic_iadd.ugm',
      'lsc_atomic_isub.ugm',
      'lsc_atomic_and.ugm',
      'lsc_atomic_or.ugm',
      'lsc_atomic_xor.ugm',
      'lsc_atomic_smax.ugm',
      'lsc_atomic_smin.ugm',
      'lsc_atomic_umax.ugm',
      'lsc_atomic_umin.ugm',
    ]);
  });
  it('cmpxchg is icas, fenced with its merged ordering (atomic_cmpxhg fences with Equal)', () => {
    expect(xe('pvc', 'cmpxchg acquire/monotonic agent global')).toEqual([
      'lsc_atomic_icas.ugm',
      'lsc_fence.ugm.invalidate.gpu',
    ]);
    expect(xe('pvc', 'cmpxchg release/monotonic agent global')).toEqual([
      'lsc_fence.ugm.evict.gpu',
      'lsc_atomic_icas.ugm',
    ]);
    // Failure stronger than success: SPIR-V needs Unequal no stronger than Equal, so Equal is strengthened.
    expect(xe('pvc', 'cmpxchg monotonic/acquire agent global')).toEqual(
      xe('pvc', 'cmpxchg acquire/acquire agent global'),
    );
  });
  it('local atomics fence slm at group scope (isGlobal false)', () => {
    expect(xe('pvc', 'load acquire agent local')).toEqual(['lsc_atomic_or.slm', 'lsc_fence.slm.none.group']);
    expect(xe('dg2', 'store release workgroup local')).toEqual([
      'lsc_fence.slm.none.group',
      'lsc_atomic_store.slm',
    ]);
    expect(xe('lnl', 'atomicrmw monotonic workgroup local')).toEqual(['lsc_atomic_iadd.slm']);
  });
  it('private atomics are plain accesses (the __private overloads), whatever the ordering', () => {
    expect(xe('pvc', 'load seq_cst agent private')).toEqual(['lsc_load.ugm']);
    expect(xe('pvc', 'store release system private')).toEqual(['lsc_store.ugm']);
    expect(xe('dg2', 'atomicrmw acq_rel agent private')).toEqual(['lsc_load.ugm', 'lsc_store.ugm']);
    expect(xe('lnl', 'cmpxchg seq_cst/seq_cst agent private')).toEqual(['lsc_load.ugm', 'lsc_store.ugm']);
  });
  it('generic atomics dispatch on the address space: local, private, else global', () => {
    expect(xe('pvc', 'load acquire agent generic')).toEqual([
      'local: lsc_atomic_or.slm, lsc_fence.slm.none.group',
      'private: lsc_load.ugm',
      'global: lsc_atomic_or.ugm, lsc_fence.ugm.invalidate.gpu',
    ]);
  });
});

describe('plain accesses', () => {
  it('global, constant and private use ugm; local slm; generic switches on the pointer tag (resolveGAS)', () => {
    expect(xe('pvc', 'load none none global')).toEqual(['lsc_load.ugm']);
    expect(xe('pvc', 'store none none private')).toEqual(['lsc_store.ugm']);
    expect(xe('pvc', 'load none none constant')).toEqual(['lsc_load.ugm']);
    expect(xe('lnl', 'store none none local')).toEqual(['lsc_store.slm']);
    expect(xe('dg2', 'load none none generic')).toEqual([
      'local: lsc_load.slm',
      'private, global: lsc_load.ugm',
    ]);
  });
  it('unordered is plain; an atomic load of constant memory is plain; stores to it are rejected', () => {
    expect(xe('pvc', 'load unordered agent global')).toEqual(['lsc_load.ugm']);
    expect(xe('pvc', 'load acquire agent constant')).toEqual(['lsc_load.ugm']);
    expect(xe('pvc', 'store none none constant')).toEqual(['error LW2003']);
  });
  it('volatile and nontemporal change nothing', () => {
    for (const space of ADDRESS_SPACES.filter((s) => s !== 'constant')) {
      expect(xe('dg2', `store none none ${space} volatile nontemporal`)).toEqual(
        xe('dg2', `store none none ${space}`),
      );
      expect(xe('pvc', `load acquire agent ${space} volatile`)).toEqual(
        xe('pvc', `load acquire agent ${space}`),
      );
    }
  });
  it('orderings LLVM IR rejects are rejected as for AMDGPU', () => {
    expect(xe('pvc', 'store acquire agent global')).toEqual(['error LW2002']);
    expect(xe('pvc', 'cmpxchg seq_cst/release agent global')).toEqual(['error LW2010']);
  });
});

describe('barriers and AMDGPU-only parts', () => {
  it('s.barrier is vISA barrier; signal/wait of -1 are sbarrier (ControlBarrier[Arrive|Wait]INTEL)', () => {
    expect(xe('pvc', barrierOf('barrier'))).toEqual(['barrier']);
    expect(xe('dg2', barrierOf('signal', -1))).toEqual(['sbarrier.signal']);
    expect(xe('lnl', barrierOf('wait', -1))).toEqual(['sbarrier.wait']);
  });
  it('other barrier ids and AMDGPU-only barrier operations are diagnostics', () => {
    expect(xe('pvc', barrierOf('signal', 3))).toEqual(['error LW2007']);
    expect(xe('pvc', barrierOf('signal_isfirst', -1))).toEqual(['error LW2006']);
    expect(xe('pvc', barrierOf('init', null, 'nb'))).toEqual(['error LW2006']);
    expect(xe('pvc', barrierOf('leave', 1))).toEqual(['error LW2006']);
  });
  it('wave.barrier emits nothing (ControlBarrier, Subgroup: "nothing will be emited")', () => {
    const span = { file: 't', offset: 0, line: 1, col: 1, len: 0 };
    const r = lowerInstr({ kind: 'wavebarrier', span }, ctxOf('pvc'));
    expect('rows' in r && r.seq).toEqual([]);
    expect('rows' in r && r.rows[0]).toContain('barrier.cl');
  });
  it('the amdgcn-av MMRA has no Intel meaning: a warning, and the access lowers as without it', () => {
    const plain = instrOf('store release agent global');
    const r = lowerInstr({ ...plain, avNone: true } as Instr, ctxOf('pvc'));
    const r0 = lowerInstr(plain, ctxOf('pvc'));
    expect('seq' in r && 'seq' in r0 && r.seq).toEqual('seq' in r0 && r0.seq);
    expect('seq' in r && r.warnings?.map((w) => [w.code, w.severity])).toEqual([['LW2014', 'warning']]);
    // AMDGPU targets give it a meaning (no MakeAvailable/MakeVisible) and no warning.
    const amd = lowerInstr({ ...plain, avNone: true } as Instr, ctxOf('gfx1200'));
    expect('seq' in amd && amd.warnings).toBeUndefined();
  });
});
