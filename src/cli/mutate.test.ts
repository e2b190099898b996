import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MutateJsonSchema } from './mutate.ts';
import { CATALOGUE, gpumm } from './testing.ts';

describe('gpumm mutate', () => {
  it('an Intel target: each lsc_fence dropped, its op weakened and its scope narrowed; the killing test per mutant, the score (--json)', () => {
    const r = gpumm(
      'mutate',
      join(CATALOGUE, 'MP+rel+acq.agent.litmus'),
      join(CATALOGUE, 'MP+fence.rel+fence.acq.agent.litmus'),
      '--target',
      'pvc',
      '--json',
    );
    expect(r.status).toBe(0);
    const [m] = MutateJsonSchema.parse(JSON.parse(r.stdout));
    const find = (row: RegExp, mutation: string) =>
      m!.mutants.find((x) => row.test(x.row) && x.mutation === mutation);
    const killed = (row: RegExp, mutation: string) => find(row, mutation)?.killedBy;
    expect(killed(/store atomic global/, 'drop lsc_fence.ugm.evict.gpu')).toBe('MP+rel+acq.agent');
    expect(killed(/store atomic global/, 'lsc_fence.ugm.evict.gpu as invalidate')).toBe('MP+rel+acq.agent');
    expect(killed(/store atomic global/, 'lsc_fence.ugm.evict.gpu at tile')).toBe('MP+rel+acq.agent');
    expect(killed(/load atomic global/, 'lsc_fence.ugm.invalidate.gpu as none')).toBe('MP+rel+acq.agent');
    expect(killed(/"fence"/, 'lsc_fence.ugm.invalidate.gpu at tile')).toBe('MP+fence.rel+fence.acq.agent');
    // A release needs no invalidation, yet nothing proves the machine runs clean as evict there: a survivor
    // for a missing test.
    expect(find(/store atomic global/, 'lsc_fence.ugm.evict.gpu as clean')).toMatchObject({
      status: 'survived',
      class: 'test-missing',
    });
    const s = m!.score;
    expect(s.mutants).toBe(m!.mutants.length);
    expect(s.killed).toBe(m!.mutants.filter((x) => x.status === 'killed').length);
    expect(s.value).toBe(
      s.killed / (s.mutants - s.redundant - s.progressOnly - s.noCountedInstruction - s.undecided),
    );
    // Rows of the table no test uses are listed too.
    expect(m!.gaps.find((g) => /atomicrmw\/cmpxchg global/.test(g.row))?.why).toBe(
      'no catalogue test uses the row',
    );
  });

  it('the text report opens with the score and names the target without a wavefront mode', () => {
    const r = gpumm('mutate', join(CATALOGUE, 'MP+rel+acq.agent.litmus'), '--target', 'dg2');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(
      /^Mutation score for dg2: [\d.]+% \(\d+ killed of \d+ = \d+ mutants − \d+ redundant − \d+ progress only − \d+ no counted instruction − \d+ undecided\), over 1 sound catalogue tests\n {2}survivors: /,
    );
  });

  it('moves the waits and scores each mode of an AMD target (gfx1200: CU and WGP)', () => {
    const r = gpumm('mutate', join(CATALOGUE, 'MP+rel+acq.agent.litmus'), '--target', 'gfx1200', '--json');
    expect(r.status).toBe(0);
    const ms = MutateJsonSchema.parse(JSON.parse(r.stdout));
    expect(ms.map((m) => m.mode)).toEqual(['cu', 'wgp']);
    for (const m of ms) {
      expect(m.score.value).not.toBeNull();
      expect(
        m.mutants.some(
          (x) =>
            x.kind === 'move' && x.mutation === 'move s_wait_loadcnt 0x0 after global_inv scope:SCOPE_DEV',
        ),
      ).toBe(true);
    }
  });
});
