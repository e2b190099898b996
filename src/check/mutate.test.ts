import { describe, expect, it } from 'vitest';
import { runTestSync } from '../enumerate/verdict.ts';
import { formatIsa, globalInv, globalWb, type IsaInstr, vmem, wait } from '../lower/isa.ts';
import { lscAtomic, lscFence } from '../lower/isa-xe.ts';
import type { LowerCtx } from '../lower/types.ts';
import { familyMachine, GFX6_9, GFX12 } from '../sim/config.ts';
import { explore } from '../sim/machine.ts';
import { machinesOf } from '../sim/simulate.ts';
import { ctxOf, docOf, litmusFile, TEST_BUDGET } from '../sim/testutil.ts';
import {
  accessObservables,
  formatMutationReport,
  killingCapable,
  type MutationReport,
  mutationMatrix,
  mutationScore,
  mutationsOf,
  observableValues,
  orderedObservables,
  type Subject,
  sequenceMutations,
  subjectOf,
  uncountedCounters,
} from './mutate.ts';

/** The subjects of catalogue files on a target and mode. */
function subjects(ctx: LowerCtx, files: string[]): Subject[] {
  return files
    .map((f) => litmusFile(`litmus/${f}.litmus`))
    .map((t) => subjectOf(t, runTestSync(t), ctx))
    .filter((s): s is Subject => s !== null);
}

/** The mutant of a row (matched by a pattern) with a mutation text. */
function mutant(r: MutationReport, row: RegExp, text: string) {
  const m = r.mutants.find((x) => row.test(x.row) && x.mutation === text);
  if (!m) throw new Error(`no mutant ${text} of ${row}`);
  return m;
}

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

  it('clears every cache and hint bit of a vector memory instruction (glc, slc, dlc, sc0, sc1, nt, th:) and narrows its scope', () => {
    const all = vmem('atomic', 'global', {
      returns: true,
      glc: true,
      slc: true,
      dlc: true,
      sc0: true,
      sc1: true,
      nt: true,
      th: 'TH_ATOMIC_RETURN',
      scope: 'SCOPE_DEV',
    });
    const ms = mutationsOf(all);
    expect(ms.map((m) => [m.kind, m.text.replace(`${formatIsa(all)} `, '')])).toEqual([
      ['weaken', 'at SCOPE_SE'],
      ['clear', 'without glc'],
      ['clear', 'without slc'],
      ['clear', 'without dlc'],
      ['clear', 'without sc0'],
      ['clear', 'without sc1'],
      ['clear', 'without nt'],
      ['clear', 'without th:TH_ATOMIC_RETURN'],
    ]);
    expect(ms.map((m) => formatIsa(m.apply(all)!))).toEqual([
      'global_atomic th:TH_ATOMIC_RETURN scope:SCOPE_SE glc=1 slc=1 dlc=1 sc0=1 sc1=1 nt=1',
      'global_atomic th:TH_ATOMIC_RETURN scope:SCOPE_DEV slc=1 dlc=1 sc0=1 sc1=1 nt=1',
      'global_atomic th:TH_ATOMIC_RETURN scope:SCOPE_DEV glc=1 dlc=1 sc0=1 sc1=1 nt=1',
      'global_atomic th:TH_ATOMIC_RETURN scope:SCOPE_DEV glc=1 slc=1 sc0=1 sc1=1 nt=1',
      'global_atomic th:TH_ATOMIC_RETURN scope:SCOPE_DEV glc=1 slc=1 dlc=1 sc1=1 nt=1',
      'global_atomic th:TH_ATOMIC_RETURN scope:SCOPE_DEV glc=1 slc=1 dlc=1 sc0=1 nt=1',
      'global_atomic th:TH_ATOMIC_RETURN scope:SCOPE_DEV glc=1 slc=1 dlc=1 sc0=1 sc1=1',
      'global_atomic scope:SCOPE_DEV glc=1 slc=1 dlc=1 sc0=1 sc1=1 nt=1',
    ]);
    expect(mutationsOf(vmem('load', 'global', { th: 'TH_LOAD_NT' })).map((m) => m.text)).toEqual([
      'global_load th:TH_LOAD_NT without th:TH_LOAD_NT',
    ]);
  });

  it('moves each wait one place later, past the next instruction of the row; a last wait moves past nothing', () => {
    const seq: IsaInstr[] = [
      vmem('load', 'global', { scope: 'SCOPE_DEV' }),
      wait('loadcnt'),
      globalInv('SCOPE_DEV'),
    ];
    const moves = sequenceMutations(seq).filter((m) => m.kind === 'move');
    expect(moves.map((m) => [m.position, m.text])).toEqual([
      [1, 'move s_wait_loadcnt 0x0 after global_inv scope:SCOPE_DEV'],
    ]);
    expect(moves[0]!.apply(seq).map(formatIsa)).toEqual([
      'global_load scope:SCOPE_DEV',
      'global_inv scope:SCOPE_DEV',
      's_wait_loadcnt 0x0',
    ]);
    expect(sequenceMutations([globalWb('SCOPE_DEV'), wait('storecnt')]).map((m) => m.text)).toEqual([
      'drop global_wb scope:SCOPE_DEV',
      'global_wb scope:SCOPE_DEV at SCOPE_SE',
      'drop s_wait_storecnt 0x0',
    ]);
  });

  it('the counters no instruction of a family is counted on, from its config', () => {
    expect(uncountedCounters(GFX12)).toEqual(['samplecnt', 'bvhcnt', 'kmcnt', 'expcnt']);
    expect(uncountedCounters(GFX6_9)).toEqual(['expcnt']);
    expect(uncountedCounters(familyMachine('gfx1250')!.configs('cu')[0]!)).toContain('xcnt');
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

describe('the score', () => {
  it('is killed / (mutants − redundant − progress only − no counted instruction − undecided)', () => {
    const m = (status: 'killed' | 'survived' | 'undecided', cls: string | null = null) =>
      ({ status, class: cls }) as Parameters<typeof mutationScore>[0][number];
    const s = mutationScore([
      m('killed'),
      m('killed'),
      m('killed'),
      m('survived', 'redundant'),
      m('survived', 'progress-only'),
      m('survived', 'no-counted-instruction'),
      m('survived', 'no-counted-instruction'),
      m('survived', 'assumption'),
      m('survived', 'test-missing'),
      m('undecided'),
    ]);
    expect(s).toEqual({
      mutants: 10,
      killed: 3,
      undecided: 1,
      redundant: 1,
      progressOnly: 1,
      noCountedInstruction: 2,
      assumption: 1,
      testMissing: 1,
      value: 3 / 5,
    });
    expect(mutationScore([m('survived', 'redundant')]).value).toBeNull();
  });
});

describe('the mutation matrix', () => {
  it('gives each survivor one class with its reason: redundant, no counted instruction, progress only, assumption, test missing (gfx1200, CU mode)', async () => {
    const ctx = ctxOf('gfx1200', 'cu');
    const r = await mutationMatrix(subjects(ctx, ['MP+rel+acq.agent', 'S+rel+acq.agent']), ctx, TEST_BUDGET);
    const release = /"store atomic release agent\/system global\/generic"$/;
    const acquire = /"load atomic acquire agent\/system global"$/;
    expect(mutant(r, release, 'drop global_wb scope:SCOPE_DEV')).toMatchObject({
      status: 'killed',
      killedBy: 'MP+rel+acq.agent',
      class: null,
    });
    // Two adjacent waits of a wave alone act as one: the machine program does not change.
    const moved = mutant(r, release, 'move s_wait_storecnt 0x0 after s_wait_loadcnt 0x0');
    expect(moved).toMatchObject({ kind: 'move', status: 'survived', class: 'redundant' });
    expect(moved.survives).toMatch(/adjacent waits of a wave that has the thread to itself act as one wait/);
    const bvh = mutant(r, release, 'drop s_wait_bvhcnt 0x0');
    expect(bvh.class).toBe('no-counted-instruction');
    expect(bvh.survives).toMatch(/no instruction the gfx12 machine runs is counted on bvhcnt/);
    const narrow = mutant(r, release, 'global_store scope:SCOPE_DEV at SCOPE_SE');
    expect(narrow.class).toBe('progress-only');
    expect(narrow.survives).toMatch(/the store is the atomic access itself, not an RMW/);
    // S+rel+acq.agent orders the acquire before P1's later store only through the wait, once the CU's
    // cache may take a store before an earlier load (cu-in-order-types dropped).
    const wait = mutant(r, acquire, 'drop s_wait_loadcnt 0x0');
    expect(wait).toMatchObject({ class: 'assumption', assumptions: ['cu-in-order-types'] });
    expect(wait.survives).toMatch(/S\+rel\+acq\.agent without cu-in-order-types/);
    const ds = mutant(r, release, 'drop s_wait_dscnt 0x0');
    expect(ds.class).toBe('test-missing');
    expect(ds.survives).toMatch(/no test using the row becomes unsound on gfx1200.*a test is missing/);
    const text = formatMutationReport(r);
    expect(text).toMatch(
      /^Mutation score for gfx1200 \(CU mode\): [\d.]+% \(\d+ killed of \d+ = \d+ mutants − /,
    );
    expect(text).toMatch(/^Surviving mutants, assumption \(1\):$/m);
  }, 60_000);

  it('counts a mutant whose checks stop at the budget as undecided, apart from the survivors', async () => {
    const ctx = ctxOf('gfx900', 'cu');
    const [s] = subjects(ctx, ['MP+rel+acq.agent']);
    // The budget the documented code needs, no more: the weaker mutants need more states.
    const fam = familyMachine('gfx6-9')!;
    const built = machinesOf(s!.test, docOf(s!.test, ctx), fam, 'cu');
    if ('kind' in built) throw new Error(built.reason);
    const need = Math.max(...built.machines.map((m) => explore(m, TEST_BUDGET).states));
    const r = await mutationMatrix([s!], ctx, { ...TEST_BUDGET, maxStates: need });
    expect(r.tests).toBe(1);
    const undecided = r.mutants.filter((m) => m.status === 'undecided');
    expect(undecided.length).toBeGreaterThan(0);
    for (const m of undecided) expect(m.class).toBeNull();
    const sc = r.score;
    expect(sc.undecided).toBe(undecided.length);
    expect(
      sc.killed + sc.undecided + sc.redundant + sc.progressOnly + sc.noCountedInstruction,
    ).toBeLessThanOrEqual(sc.mutants);
    expect(sc.value).toBe(
      sc.killed / (sc.mutants - sc.redundant - sc.progressOnly - sc.noCountedInstruction - sc.undecided),
    );
    expect(formatMutationReport(r)).toMatch(/^Undecided mutants \(\d+, not scored\):$/m);
  }, 60_000);

  it('mutates the av rows like the others: their cache policy is progress only, covered by the release and acquire rows (docs/mutation.md)', async () => {
    const ctx = ctxOf('gfx1200', 'wgp');
    const r = await mutationMatrix(
      subjects(ctx, ['MP+bar+fence.wg.avvis', 'MP+rel.none+acq.none.agent.avvis', 'MP+bar+fence.wg']),
      ctx,
      TEST_BUDGET,
    );
    expect(r.tests).toBe(3);
    const av = r.mutants.filter((m) => / as @llvm\.amdgcn\.av\.global\.(load|store)\.b128$/.test(m.row));
    expect(av.map((m) => m.mutation).sort()).toEqual([
      'global_load_b128 scope:SCOPE_DEV at SCOPE_SE',
      'global_load_b128 scope:SCOPE_SE at SCOPE_CU',
      'global_store_b128 scope:SCOPE_DEV at SCOPE_SE',
      'global_store_b128 scope:SCOPE_SE at SCOPE_CU',
    ]);
    for (const m of av) expect(m.class, m.mutation).toBe('progress-only');
    // The workgroup-scope release fence publishes the store too: without its write-back the plain store
    // of MP+bar+fence.wg is lost, the av store (scope:SCOPE_SE) of the avvis twin is not.
    expect(mutant(r, /"fence release workgroup/, 'drop global_wb scope:SCOPE_SE').killedBy).toBe(
      'MP+bar+fence.wg',
    );
  }, 60_000);
});

describe('rows no catalogue test can kill', () => {
  it('the chain test orders nothing around its acq_rel RMW: the ordered observables of that instance are none', () => {
    const t = litmusFile('litmus/MP+rel+acq_rel-rmw.chain.agent.litmus');
    const report = runTestSync(t);
    const labels = report.observables;
    // P1's only instruction is the RMW: its waits and invalidates order nothing of P1.
    expect(orderedObservables(t, 1, 0, labels)).toEqual([]);
    // The RMW's own access feeds its register and y, which P2 reads.
    expect(accessObservables(t, 1, 0, labels).sort()).toEqual(['P1:r0', 'P2:r1']);
    // P0's release orders the store of x, which P2 reads: the model forbids r2 = 0 once r1 = 2.
    expect(orderedObservables(t, 0, 1, labels)).toEqual(['P2:r2']);
    const values = observableValues(t, report, []);
    expect([...values.get('P2:r2')!].sort()).toEqual([0, 1]);
    expect(killingCapable(report, values, ['P2:r2'])).toBe(true);
    expect(killingCapable(report, values, [])).toBe(false);
  });

  it('lists the rows with mutants and no killing-capable test: used by none, or only by tests that cannot kill them (gfx900)', async () => {
    const ctx = ctxOf('gfx900', 'cu');
    const acqRel = 'GFX6-9 table, "atomicrmw acq_rel agent/system global"';
    const chain = await mutationMatrix(subjects(ctx, ['MP+rel+acq_rel-rmw.chain.agent']), ctx, TEST_BUDGET);
    expect(chain.gaps.find((g) => g.row === acqRel)).toEqual({
      row: acqRel,
      usedBy: ['MP+rel+acq_rel-rmw.chain.agent'],
      why: "no test using it can kill the mutants of its ordering instructions: no observable the thread's other instructions feed has a value the model constrains (MP+rel+acq_rel-rmw.chain.agent)",
    });
    expect(chain.gaps.find((g) => g.row === 'GFX6-9 table, "fence acq_rel agent/system none"')?.why).toBe(
      'no catalogue test uses the row',
    );
    // The rows whose only mutants need no test are not listed: a plain load, a relaxed store.
    expect(chain.gaps.some((g) => /"load none/.test(g.row))).toBe(false);
    // An acq_rel RMW that acquires the data it then reads kills its mutants.
    const both = await mutationMatrix(
      subjects(ctx, ['MP+rel+acq_rel-rmw.chain.agent', 'MP+rel+acq_rel-rmw.agent']),
      ctx,
      TEST_BUDGET,
    );
    expect(both.gaps.some((g) => g.row === acqRel)).toBe(false);
    expect(
      mutant(both, /"atomicrmw acq_rel agent\/system global"$/, 'drop buffer_wbinvl1_vol').killedBy,
    ).toBe('MP+rel+acq_rel-rmw.agent');
    expect(formatMutationReport(both)).toMatch(/^Rows no catalogue test can kill \(\d+\):$/m);
  }, 60_000);
});
