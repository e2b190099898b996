import { describe, expect, it } from 'vitest';
import { type Family, row, sharedRows } from './amd-rows.ts';
import { lds } from './isa.ts';
import { FAMILY_TABLES } from './lower.ts';
import { ANY_SCOPE_CL, memOp } from './table.ts';

describe('row: a row whose columns are its text', () => {
  it('reads instruction, ordering, scopes and address spaces from the text', () => {
    const r = row('atomicrmw acq_rel workgroup/cluster global/generic', () => []);
    expect([r.instr, r.orderings, r.scopes, r.spaces]).toEqual([
      ['rmw'],
      ['acq_rel'],
      ['workgroup', 'cluster'],
      ['global', 'generic'],
    ]);
    expect(row('load atomic seq_cst agent/system global', () => []).instr).toEqual(['load']);
    expect(row('fence acquire singlethread/wavefront none', () => []).spaces).toEqual(['none']);
  });

  it('takes the address spaces a row serves beyond its text', () => {
    expect(row('store atomic release workgroup global', () => [], ['global', 'generic']).spaces).toEqual([
      'global',
      'generic',
    ]);
  });

  it('rejects text that is not a row of columns', () => {
    for (const text of [
      'load none none global/generic',
      'load atomic acquire workgroup',
      'load atomic acquire workgroup global extra',
      'store atomic release device global',
      'atomicrmw release workgroup shared',
      'private (Memory Model text: treated as non-atomic)',
    ]) {
      expect(() => row(text, () => []), text).toThrow(/not a row's columns/);
    }
  });
});

describe('sharedRows', () => {
  const f: Family = {
    name: 'TEST',
    anyScope: ANY_SCOPE_CL,
    op: (k) => lds(memOp(k.instr), k.returns),
    table: () => [],
  };
  const s = sharedRows(f);

  it('words "any scope" rows with the family\'s scope list', () => {
    expect(s.seqCstAnyScope.map((r) => r.row)).toEqual([
      'store atomic seq_cst singlethread/wavefront/workgroup/cluster/agent/system global/local/generic',
      'atomicrmw seq_cst singlethread/wavefront/workgroup/cluster/agent/system global/local/generic',
      'fence seq_cst singlethread/wavefront/workgroup/cluster/agent/system none',
    ]);
    expect(s.loadLocal.scopes).toBe(ANY_SCOPE_CL);
  });

  it("puts the family's atomicWriteWaits before singlethread stores and atomicrmw only", () => {
    const withWait = sharedRows({ ...f, atomicWriteWaits: () => [lds('store')] });
    const env = {} as Parameters<typeof s.loadLocal.build>[1];
    const key = (instr: 'load' | 'store' | 'rmw') => ({
      instr,
      ordering: 'acquire' as const,
      scope: 'wavefront' as const,
      space: 'global' as const,
      volatile: false,
      nontemporal: false,
      returns: false,
    });
    const fail = () => {
      throw new Error('no lookup');
    };
    expect(withWait.singlethread('load', 'acquire').build(key('load'), env, fail)).toHaveLength(1);
    expect(withWait.singlethread('store', 'release').build(key('store'), env, fail)).toHaveLength(2);
    expect(withWait.singlethread('rmw', 'acq_rel').build(key('rmw'), env, fail)).toHaveLength(2);
  });
});

describe('the AMDGPU tables', () => {
  it('cite every row whose text is columns with exactly the columns it matches', () => {
    for (const [family, { table }] of Object.entries(FAMILY_TABLES)) {
      if (family === 'xe') continue;
      for (const r of table) {
        let parsed: ReturnType<typeof row>;
        try {
          parsed = row(r.row, r.build);
        } catch {
          continue; // non-atomic and Memory Model text rows: their columns are not their words
        }
        expect([r.instr, r.orderings, r.scopes], `${family}: ${r.row}`).toEqual([
          parsed.instr,
          parsed.orderings,
          parsed.scopes,
        ]);
        expect(r.spaces, `${family}: ${r.row}`).toEqual(expect.arrayContaining([...parsed.spaces]));
      }
    }
  });
});
