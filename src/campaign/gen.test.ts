import { describe, expect, it } from 'vitest';
import type { Cond, Instr, Test } from '../core/types.ts';
import { runTestSync } from '../enumerate/verdict.ts';
import { parse } from '../syntax/parser.ts';
import { print } from '../syntax/printer.ts';
import { familyName, type GenOptions, generateAll, parseGenSpec, skeletons, specText } from './gen.ts';

function options(spec: string): GenOptions {
  const r = parseGenSpec(spec);
  if ('error' in r) throw new Error(r.error.message);
  return r.options;
}

const gen = (spec: string) => generateAll(options(spec))!;

// ------------------------------------------------------------------------------------------------
// An independent reading of a generated test: its accesses run by a brute-force interpreter, with no
// model and no knowledge of the generator's cycles.

interface Access {
  /** X: an exchange, reading the old value into `reg` and writing `value`. */
  kind: 'R' | 'W' | 'X';
  loc: string;
  value: number;
  reg: string;
}

function accesses(t: Test): Access[][] {
  return t.threads.map((th) =>
    th.body.flatMap((i: Instr): Access[] => {
      if (i.kind === 'load') return [{ kind: 'R', loc: i.ptr.loc, value: 0, reg: i.dst }];
      if (i.kind === 'store' && i.value.kind === 'const')
        return [{ kind: 'W', loc: i.ptr.loc, value: i.value.value, reg: '' }];
      if (i.kind === 'rmw' && i.op === 'xchg' && i.value.kind === 'const' && i.dst)
        return [{ kind: 'X', loc: i.ptr.loc, value: i.value.value, reg: i.dst }];
      return [];
    }),
  );
}

function holds(c: Cond, regs: Record<string, number>, mem: Record<string, number>): boolean {
  switch (c.kind) {
    case 'and':
      return c.args.every((a) => holds(a, regs, mem));
    case 'cmp': {
      const v = c.lhs.kind === 'reg' ? regs[`${c.lhs.thread}:${c.lhs.reg}`] : mem[c.lhs.loc];
      const want = c.rhs.kind === 'int' ? c.rhs.value : Number.NaN;
      return c.op === '==' ? v === want : v !== want;
    }
    default:
      throw new Error(`unexpected condition ${c.kind}`);
  }
}

/** Whether some interleaving of the threads (each in an order `orders` allows) makes the condition true. */
function reachable(t: Test, orders: (n: number) => number[][]): boolean {
  const threads = accesses(t);
  const perThread = threads.map((th) => orders(th.length).map((p) => p.map((k) => th[k]!)));
  const pick = (ti: number, chosen: Access[][]): boolean => {
    if (ti === threads.length) return interleave(chosen, t);
    return perThread[ti]!.some((seq) => pick(ti + 1, [...chosen, seq]));
  };
  return pick(0, []);
}

function interleave(seqs: Access[][], t: Test): boolean {
  const pos = seqs.map(() => 0);
  const mem: Record<string, number> = {};
  const regs: Record<string, number> = {};
  const go = (): boolean => {
    if (pos.every((p, k) => p === seqs[k]!.length)) return holds(t.condition!.cond, regs, mem);
    for (let k = 0; k < seqs.length; k++) {
      const a = seqs[k]![pos[k]!];
      if (!a) continue;
      pos[k]!++;
      const key = `${t.threads[k]!.name}:${a.reg}`;
      const [oldMem, oldReg] = [mem[a.loc], regs[key]];
      if (a.kind !== 'W') regs[key] = mem[a.loc] ?? 0;
      if (a.kind !== 'R') mem[a.loc] = a.value;
      const ok = go();
      if (a.kind !== 'R') mem[a.loc] = oldMem as number;
      if (a.kind !== 'W') {
        if (oldReg === undefined) delete regs[key];
        else regs[key] = oldReg;
      }
      pos[k]!--;
      if (ok) return true;
    }
    return false;
  };
  return go();
}

const inOrder = (n: number) => [Array.from({ length: n }, (_, i) => i)];
function anyOrder(n: number): number[][] {
  if (n === 0) return [[]];
  return anyOrder(n - 1).flatMap((p) =>
    Array.from({ length: n }, (_, i) => [...p.slice(0, i), n - 1, ...p.slice(i)]),
  );
}

/**
 * The test up to renaming, computed apart from the generator: the smallest text over every
 * permutation of its threads, with locations and registers renamed in order of first use.
 */
function upToRenaming(t: Test): string {
  let best: string | null = null;
  for (const perm of anyOrder(t.threads.length)) {
    const threads = perm.map((k) => t.threads[k]!);
    const locs: Record<string, string> = {};
    const regs: Record<string, string> = {};
    const lines: string[] = [];
    threads.forEach((th, ti) => {
      const p = th.placement.kind === 'device' ? th.placement : null;
      lines.push(`T${ti}`);
      for (const i of th.body) {
        let s = JSON.stringify(i, (k, v) => (k === 'span' ? undefined : v));
        if ('ptr' in i) {
          locs[i.ptr.loc] ??= `L${Object.keys(locs).length}`;
          s = s.replace(`"loc":"${i.ptr.loc}"`, `"loc":"${locs[i.ptr.loc]}"`);
        }
        if ('dst' in i && i.dst) {
          regs[`${th.name}:${i.dst}`] = `R${Object.keys(regs).length}`;
          s = s.replace(`"dst":"${i.dst}"`, '');
        }
        lines.push(s);
      }
      lines.push(JSON.stringify(p && { a: p.agent, w: p.workgroup }));
    });
    // Placements compared by which threads share a workgroup and an agent, not by the numbers.
    const wgs = threads.map((th) =>
      th.placement.kind === 'device' ? `${th.placement.agent}.${th.placement.workgroup}` : 'h',
    );
    const ags = threads.map((th) => (th.placement.kind === 'device' ? th.placement.agent : -1));
    lines.push(wgs.map((w) => wgs.indexOf(w)).join(','), ags.map((a) => ags.indexOf(a)).join(','));
    const cond = JSON.stringify(t.condition!.cond, (k, v) => (k === 'span' ? undefined : v))
      .replace(/"thread":"(P\d+)","reg":"(\w+)"/g, (_, th, r) => `"r":"${regs[`${th}:${r}`]}"`)
      .replace(/"loc":"(\w+)"/g, (_, l) => `"loc":"${locs[l]}"`);
    const spaces = t.locations.map((l) => `${locs[l.name]}:${l.space}`).sort();
    const text = [
      ...lines.map((l) => l.replace(/"(wg|a|w)":\d+,?/g, '')),
      JSON.parse(JSON.stringify(cond)),
      ...spaces,
    ].join('\n');
    if (best === null || text < best) best = text;
  }
  return best!;
}

describe('gpumm gen: the vocabulary', () => {
  it('the default spec reads back to itself; a bad key or value is an error naming it', () => {
    const o = options('');
    expect(parseGenSpec(specText(o))).toEqual({ options: o });
    expect(specText(o)).toContain('relax=Rfe,Fre,Coe,PodRR,PodRW,PodWR,PodWW');
    expect(parseGenSpec('size=3')).toMatchObject({ error: { key: 'size' } });
    expect(parseGenSpec('orders=rlx,weird')).toMatchObject({
      error: { key: 'orders', message: expect.stringContaining('weird') },
    });
    expect(parseGenSpec('colour=red')).toMatchObject({ error: { key: 'colour' } });
    expect(parseGenSpec('size=4 size=5')).toMatchObject({ error: { key: 'size' } });
    expect(parseGenSpec('relax=PodXW')).toMatchObject({ error: { key: 'relax' } });
    expect(parseGenSpec('fences=none.local')).toMatchObject({ error: { key: 'fences' } });
  });

  it("size 4 makes herd's six two-thread shapes; size 5 adds WRC, WWC and twelve more; size 6 has IRIW and ISA2", () => {
    expect(skeletons(options('size=4')).map(familyName)).toEqual(['MP', 'LB', 'S', 'SB', 'R', '2+2W']);
    const five = skeletons(options('size=5')).map(familyName);
    expect(five).toHaveLength(18);
    expect(five).toEqual(expect.arrayContaining(['WRC', 'WWC', 'RWC']));
    const six = skeletons(options('size=6')).map(familyName);
    expect(six).toEqual(expect.arrayContaining(['IRIW', 'ISA2', 'W+RWC', '3.SB', '3.LB', '3.2W']));
    // nprocs bounds the threads: no three-thread shape with nprocs=2.
    expect(skeletons(options('size=6 nprocs=2')).map(familyName)).not.toContain('IRIW');
  });

  it('counts equal a hand count', () => {
    // One annotation per shape: one test each.
    expect(gen('orders=rlx scopes=agent placements=wgs')).toHaveLength(6);
    // MP, S, R have no symmetry: 2^4 orders × 2^2 thread scopes × 2 placements = 128 each. SB, LB,
    // 2+2W swap their threads: (128 + 16 fixed by the swap) / 2 = 72 each (Burnside).
    expect(gen('')).toHaveLength(3 * 128 + 3 * 72);
    // Placements of two threads: one workgroup, two workgroups (all), two agents.
    expect(gen('orders=rlx scopes=agent placements=all')).toHaveLength(12);
    expect(gen('orders=rlx scopes=agent placements=all,agents')).toHaveLength(18);
    // A scope on a thread without an atomic or fence changes nothing: 6 shapes, no scopes.
    expect(gen('orders=na scopes=workgroup,agent placements=wgs')).toHaveLength(6);
    // Fences: MP has two po edges, each none or sc: 4; SB, LB, 2+2W: (4 + 2) / 2 = 3; 3·4 + 3·3 = 21.
    expect(gen('orders=rlx fences=none,sc scopes=agent placements=wgs')).toHaveLength(21);
    // LDS only where the threads share a workgroup: one placement of each shape, 2 locations each
    // global or local: MP, S, R 4 each, SB, LB, 2+2W (4 + 2) / 2 = 3 each; one-workgroup-each keeps global only.
    expect(gen('orders=rlx scopes=agent placements=wg spaces=global,local')).toHaveLength(21);
    expect(gen('orders=rlx scopes=agent placements=wgs spaces=global,local')).toHaveLength(6);
    // LDS through a generic pointer, like LDS: only in one workgroup.
    expect(gen('orders=rlx scopes=agent placements=wg spaces=global,generic-local')).toHaveLength(21);
    expect(gen('orders=rlx scopes=agent placements=wgs spaces=generic-local')).toHaveLength(0);
    // Each write a store or an exchange: MP 2², S and R 2³, SB and LB (2² + 2) / 2, 2+2W (2⁴ + 2²) / 2.
    expect(gen('orders=rlx scopes=agent placements=wgs writes=store,xchg')).toHaveLength(
      4 + 8 + 8 + 3 + 3 + 10,
    );
    // av/vis intrinsics take global locations only: with LDS in one workgroup, an av access needs its
    // location global. Per shape 2⁴ access choices × location spaces, counted by hand for MP: both
    // locations global 16, one LDS 4 each (its two accesses rlx), both LDS 1: 25.
    const avMp = gen('orders=rlx,av scopes=workgroup placements=wg spaces=global,local').filter((g) =>
      g.name.startsWith('MP+'),
    );
    expect(avMp).toHaveLength(25);
    // Waves of one workgroup meet at its barrier equally often: MP in one workgroup with none or a
    // barrier on each po edge: both or neither (2); in two workgroups any (4).
    const barMp = gen('orders=rlx fences=none,bar scopes=workgroup placements=wg,wgs').filter((g) =>
      g.name.startsWith('MP+'),
    );
    expect(barMp.map((g) => g.name).sort()).toEqual([
      'MP+rlx-B-rlx.wg+rlx-B-rlx.wg+w00',
      'MP+rlx-B-rlx.wg+rlx-B-rlx.wg+w01',
      'MP+rlx-B-rlx.wg+rlx-rlx.wg+w01',
      'MP+rlx-rlx.wg+rlx-B-rlx.wg+w01',
      'MP+rlx-rlx.wg+rlx-rlx.wg+w00',
      'MP+rlx-rlx.wg+rlx-rlx.wg+w01',
    ]);
  });

  it('names are unique, systematic, and say the annotation', () => {
    const all = gen(
      'orders=rlx,acq,rel,sc fences=none,acq_rel scopes=workgroup,agent placements=all spaces=global,generic',
    );
    expect(new Set(all.map((g) => g.name)).size).toBe(all.length);
    for (const g of all) expect(g.name).toMatch(/^[A-Za-z0-9+.\-_]+$/);
    const names = all.map((g) => g.name);
    expect(names).toContain('MP+rlx-rel.ag+acq-rlx.ag+w01');
    expect(names).toContain('SB+sc-Far-sc.wg+rlx-rlx.wg+w00+pg');
  });
});

describe('gpumm gen: every test is what its name says', () => {
  const all = gen('size=6 nprocs=4 orders=rlx scopes=agent placements=wgs');
  const exchanges = gen('size=5 orders=rlx scopes=agent placements=wgs writes=xchg');
  // Program order on one location inside a stretch (CoRW, CoWR … within a longer cycle).
  const samePlace = gen('size=5 relax=Rfe,Fre,Coe,Pod**,Pos** orders=rlx scopes=agent placements=wgs').filter(
    (g) => g.test.description.includes('Pos'),
  );

  it('every generated test parses, prints back to its text, and has an exists and no expect', () => {
    for (const g of [
      ...all,
      ...gen('orders=na,sc fences=none,acq.local scopes=workgroup placements=wg spaces=local,generic'),
      ...gen('orders=rlx,av fences=none,bar,fbar writes=store,xchg scopes=wavefront,system placements=all'),
      ...gen('orders=rlx,acq scopes=workgroup placements=wg,wgs spaces=generic-local,generic'),
    ]) {
      const p = parse(g.text, g.name);
      expect(
        p.diagnostics.filter((d) => d.severity === 'error'),
        g.name,
      ).toEqual([]);
      expect(print(p.test!)).toBe(g.text);
      expect(p.test!.condition!.quantifier).toBe('exists');
      expect(p.test!.expects).toEqual([]);
    }
  });

  it('no two tests are equal up to renaming threads and locations (checked by brute force)', () => {
    for (const tests of [
      all,
      gen(''),
      gen('orders=rlx,sc scopes=agent placements=all,agents spaces=global,generic'),
      gen(
        'orders=rlx,av fences=none,sc.local,fbar writes=store,xchg scopes=workgroup placements=wg,wgs spaces=global,local',
      ),
      gen('size=5 relax=Rfe,Fre,Coe,Pod**,Pos** orders=rlx,acq scopes=agent placements=wgs'),
    ]) {
      const forms = tests.map((g) => upToRenaming(parse(g.text).test!));
      expect(new Set(forms).size).toBe(tests.length);
    }
  });

  it("each condition is a cycle: unreachable when every thread runs in order, reachable when threads' accesses may run in any order", () => {
    expect(samePlace.length).toBeGreaterThan(20);
    for (const g of [...all, ...exchanges, ...samePlace]) {
      expect(reachable(g.test, inOrder), `${g.name} under sequential consistency`).toBe(false);
      expect(reachable(g.test, anyOrder), `${g.name} with program order relaxed`).toBe(true);
    }
  });

  it('the model agrees: seq_cst at agent scope forbids every cycle; relaxed accesses allow MP, SB, IRIW', () => {
    const sc = gen('size=6 orders=sc scopes=agent placements=wgs');
    expect(sc.length).toBe(all.length);
    for (const g of [
      ...sc,
      ...gen('size=5 orders=sc scopes=agent placements=wgs writes=xchg'),
      ...gen('size=5 relax=Rfe,Fre,Coe,Pod**,Pos** orders=sc scopes=agent placements=wgs'),
    ])
      expect(runTestSync(g.test).condition?.verdict, g.name).toBe('fails');
    const byName = Object.fromEntries(all.map((g) => [g.name.split('+')[0], g]));
    for (const family of ['MP', 'SB', 'IRIW', 'WRC', 'ISA2'])
      expect(runTestSync(byName[family]!.test).condition?.verdict, family).toBe('holds');
    // A workgroup barrier between fences orders the waves of a workgroup (seeds/001), not of two.
    const bar = Object.fromEntries(
      gen('orders=rlx fences=fbar scopes=workgroup placements=wg,wgs').map((g) => [g.name, g]),
    );
    expect(runTestSync(bar['MP+rlx-FB-rlx.wg+rlx-FB-rlx.wg+w00']!.test).condition?.verdict).toBe('fails');
    expect(runTestSync(bar['SB+rlx-FB-rlx.wg+rlx-FB-rlx.wg+w00']!.test).condition?.verdict).toBe('fails');
    expect(runTestSync(bar['MP+rlx-FB-rlx.wg+rlx-FB-rlx.wg+w01']!.test).condition?.verdict).not.toBe('fails');
  });
});
