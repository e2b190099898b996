import { describe, expect, it } from 'vitest';
import { runTestSync } from '../enumerate/verdict.ts';
import { formatIsa, globalInv, type IsaInstr, wait } from '../lower/isa.ts';
import { lscAtomic, lscFence } from '../lower/isa-xe.ts';
import { ctxOf, litmusFile, TEST_BUDGET } from '../sim/testutil.ts';
import { formatMutationReport, mutationMatrix, mutationsOf, type Subject, subjectOf } from './mutate.ts';

describe('mutations of one instruction', () => {
  it('drops ordering instructions, removes counters from a wait one at a time, narrows scopes', () => {
    expect(mutationsOf(wait('vmcnt', 'lgkmcnt')).map((m) => m.text)).toEqual([
      'drop s_waitcnt vmcnt(0) lgkmcnt(0)',
      's_waitcnt vmcnt(0) lgkmcnt(0) without vmcnt',
      's_waitcnt vmcnt(0) lgkmcnt(0) without lgkmcnt',
    ]);
    expect(mutationsOf(globalInv('SCOPE_DEV')).map((m) => m.text)).toEqual([
      'drop global_inv scope:SCOPE_DEV',
      'global_inv scope:SCOPE_DEV at SCOPE_SE',
    ]);
  });
});

describe('mutations of an Intel instruction', () => {
  it('drops a fence, weakens its op one by one (evict: clean, invalidate, none) and narrows its scope one step (gpu → tile → group)', () => {
    expect(mutationsOf(lscFence('ugm', 'evict', 'gpu')).map((m) => m.text)).toEqual([
      'drop lsc_fence.ugm.evict.gpu',
      'lsc_fence.ugm.evict.gpu as clean',
      'lsc_fence.ugm.evict.gpu as invalidate',
      'lsc_fence.ugm.evict.gpu as none',
      'lsc_fence.ugm.evict.gpu at tile',
    ]);
    expect(mutationsOf(lscFence('ugm', 'invalidate', 'tile')).map((m) => m.text)).toEqual([
      'drop lsc_fence.ugm.invalidate.tile',
      'lsc_fence.ugm.invalidate.tile as none',
      'lsc_fence.ugm.invalidate.tile at group',
    ]);
    expect(mutationsOf(lscFence('slm', 'none', 'group')).map((m) => m.text)).toEqual([
      'drop lsc_fence.slm.none.group',
    ]);
  });

  it('mutates each fence of a generic-pointer dispatch within its branch', () => {
    const g: IsaInstr = {
      kind: 'xe_generic',
      branches: [
        { spaces: ['local'], seq: [lscFence('slm', 'none', 'group'), lscAtomic('slm', 'or', true)] },
        { spaces: ['global'], seq: [lscAtomic('ugm', 'or', true), lscFence('ugm', 'invalidate', 'gpu')] },
      ],
    };
    const ms = mutationsOf(g);
    expect(ms.map((m) => m.text)).toEqual([
      'local branch: drop lsc_fence.slm.none.group',
      'global branch: drop lsc_fence.ugm.invalidate.gpu',
      'global branch: lsc_fence.ugm.invalidate.gpu as none',
      'global branch: lsc_fence.ugm.invalidate.gpu at tile',
    ]);
    expect(formatIsa(ms[3]!.apply(g)!)).toBe(
      'local: lsc_fence.slm.none.group, lsc_atomic_or.slm; global: lsc_atomic_or.ugm, lsc_fence.ugm.invalidate.tile',
    );
    expect(formatIsa(ms[0]!.apply(g)!)).toBe(
      'local: lsc_atomic_or.slm; global: lsc_atomic_or.ugm, lsc_fence.ugm.invalidate.gpu',
    );
  });
});

describe('the mutation matrix', () => {
  it('kills the mutants of the agent-scope release and acquire rows with message passing; the rest survive with a reason', async () => {
    const ctx = ctxOf('gfx1200', 'cu');
    const subjects = ['litmus/MP+rel+acq.agent.litmus', 'litmus/CoRR.plain.litmus']
      .map((f) => litmusFile(f))
      .map((t) => subjectOf(t, runTestSync(t), ctx))
      .filter((s): s is Subject => s !== null);
    const r = await mutationMatrix(subjects, ctx, TEST_BUDGET);
    const find = (row: RegExp, text: string) => r.mutants.find((m) => row.test(m.row) && m.mutation === text);
    expect(find(/store atomic release agent/, 'drop global_wb scope:SCOPE_DEV')?.killedBy).toBe(
      'MP+rel+acq.agent',
    );
    expect(find(/store atomic release agent/, 'drop s_wait_storecnt 0x0')?.killedBy).toBe('MP+rel+acq.agent');
    expect(find(/load atomic acquire agent/, 'drop global_inv scope:SCOPE_DEV')?.killedBy).toBe(
      'MP+rel+acq.agent',
    );
    const bvh = find(/store atomic release agent/, 'drop s_wait_bvhcnt 0x0')!;
    expect(bvh.killedBy).toBeNull();
    expect(bvh.survives).toMatch(/no memory instruction of the tests is counted on bvhcnt/);
    expect(formatMutationReport(r)).toMatch(/Surviving mutants:/);
  }, 60_000);

  it('mutates the av rows like the others; their cache policy survives, covered by the release and acquire rows (docs/hardware.md, "Mutation matrix")', async () => {
    const ctx = ctxOf('gfx1200', 'wgp');
    const files = [
      'litmus/MP+bar+fence.wg.avvis.litmus',
      'litmus/MP+rel.none+acq.none.agent.avvis.litmus',
      'litmus/MP+bar+fence.wg.litmus',
    ];
    const subjects = files
      .map((f) => litmusFile(f))
      .map((t) => subjectOf(t, runTestSync(t), ctx))
      .filter((s): s is Subject => s !== null);
    expect(subjects).toHaveLength(3);
    const r = await mutationMatrix(subjects, ctx, TEST_BUDGET);
    const av = r.mutants.filter((m) => / as @llvm\.amdgcn\.av\.global\.(load|store)\.b128$/.test(m.row));
    expect(av.map((m) => m.mutation).sort()).toEqual([
      'global_load_b128 scope:SCOPE_DEV at SCOPE_SE',
      'global_load_b128 scope:SCOPE_SE at SCOPE_CU',
      'global_store_b128 scope:SCOPE_DEV at SCOPE_SE',
      'global_store_b128 scope:SCOPE_SE at SCOPE_CU',
    ]);
    for (const m of av) expect(m.killedBy, m.mutation).toBeNull();
    // The workgroup-scope release fence publishes the store too: without its write-back the plain store
    // of MP+bar+fence.wg is lost, the av store (scope:SCOPE_SE) of the avvis twin is not.
    const fence = r.mutants.find(
      (m) => /"fence release workgroup/.test(m.row) && m.mutation === 'drop global_wb scope:SCOPE_SE',
    );
    expect(fence?.killedBy).toBe('MP+bar+fence.wg');
  }, 60_000);
});
