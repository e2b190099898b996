import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MutateJsonSchema } from './mutate.ts';
import { CATALOGUE, gpumm } from './testing.ts';

describe('gpumm mutate', () => {
  it('an Intel target: each lsc_fence dropped, its op weakened and its scope narrowed; the killing test per mutant (--json)', () => {
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
    const killed = (row: RegExp, mutation: string) =>
      m!.mutants.find((x) => row.test(x.row) && x.mutation === mutation)?.killedBy;
    expect(killed(/store atomic global/, 'drop lsc_fence.ugm.evict.gpu')).toBe('MP+rel+acq.agent');
    expect(killed(/store atomic global/, 'lsc_fence.ugm.evict.gpu as invalidate')).toBe('MP+rel+acq.agent');
    expect(killed(/store atomic global/, 'lsc_fence.ugm.evict.gpu at tile')).toBe('MP+rel+acq.agent');
    expect(killed(/load atomic global/, 'lsc_fence.ugm.invalidate.gpu as none')).toBe('MP+rel+acq.agent');
    expect(killed(/"fence"/, 'lsc_fence.ugm.invalidate.gpu at tile')).toBe('MP+fence.rel+fence.acq.agent');
    // A release needs no invalidation: the evict weakened to clean survives, with its reason.
    const clean = m!.mutants.find(
      (x) => /store atomic global/.test(x.row) && x.mutation === 'lsc_fence.ugm.evict.gpu as clean',
    )!;
    expect(clean.killedBy).toBeNull();
    expect(clean.survives).toMatch(/clean writes the dirty lines back as evict does/);
  });

  it('the text report names the target without a wavefront mode', () => {
    const r = gpumm('mutate', join(CATALOGUE, 'MP+rel+acq.agent.litmus'), '--target', 'dg2');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(
      /^Mutation matrix for dg2: \d+ mutants, \d+ killed, over 1 sound catalogue tests$/m,
    );
  });
});
