import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { has } from '../core/relation.ts';
import type { Instr, Ordering, Scope, Test } from '../core/types.ts';
import { SCOPES } from '../core/types.ts';
import { arbMpSpaces, arbTest } from '../enumerate/gen.ts';
import { referenceEnumerate } from '../enumerate/reference.ts';
import type { Workspace } from './amdgpu.ts';
import { states } from './testutil.ts';

/** Parses `P0:a=1 P1:b=undef` into a map. */
function parse(s: string): Map<string, string> {
  return new Map(s.split(' ').map((kv) => kv.split('=') as [string, string]));
}

/** Every state of `strong` agrees with some state of `weak` (an undef in `weak` stands for any value). */
function covered(strong: string[], weak: string[]): boolean {
  const ws = weak.map(parse);
  return strong.every((s) => {
    const m = parse(s);
    return ws.some((w) => [...m].every(([k, v]) => w.get(k) === 'undef' || w.get(k) === v));
  });
}

const STRONGER: Record<string, Partial<Record<Ordering, Ordering>>> = {
  load: { notatomic: 'unordered', unordered: 'monotonic', monotonic: 'acquire', acquire: 'seq_cst' },
  store: { notatomic: 'unordered', unordered: 'monotonic', monotonic: 'release', release: 'seq_cst' },
  rmw: { monotonic: 'acquire', acquire: 'acq_rel', release: 'acq_rel', acq_rel: 'seq_cst' },
  fence: { acquire: 'acq_rel', release: 'acq_rel', acq_rel: 'seq_cst' },
};

function mapInstr(t: Test, ti: number, k: number, f: (i: Instr) => Instr): Test {
  return {
    ...t,
    threads: t.threads.map((th, a) =>
      a !== ti ? th : { ...th, body: th.body.map((i, b) => (b === k ? f(i) : i)) },
    ),
  };
}

function strengthen(i: Instr): Instr {
  if (i.kind === 'load' || i.kind === 'store' || i.kind === 'rmw' || i.kind === 'fence') {
    const o = STRONGER[i.kind]?.[i.ordering];
    if (o) return { ...i, ordering: o } as Instr;
  }
  return i;
}

function widen(i: Instr): Instr {
  const wider = (s: Scope): Scope => SCOPES[Math.max(0, SCOPES.indexOf(s) - 1)]!;
  if (
    i.kind === 'load' ||
    i.kind === 'store' ||
    i.kind === 'rmw' ||
    i.kind === 'fence' ||
    i.kind === 'cmpxchg'
  )
    return { ...i, syncscope: { ...i.syncscope, scope: wider(i.syncscope.scope) } } as Instr;
  if (i.kind === 'avload' || i.kind === 'avstore') return { ...i, scope: wider(i.scope) };
  return i;
}

const pick = (t: Test) =>
  fc
    .nat(t.threads.length - 1)
    .chain((ti) => fc.tuple(fc.constant(ti), fc.nat(t.threads[ti]!.body.length - 1)));

/** Final register states of every sequentially consistent interleaving. */
function scStates(t: Test): string[] {
  const out = new Set<string>();
  const labels: [number, string][] = [];
  t.threads.forEach((th, a) => {
    for (const i of th.body) if ((i.kind === 'load' || i.kind === 'rmw') && i.dst) labels.push([a, i.dst]);
  });
  const go = (pc: number[], mem: Map<string, number>, regs: Map<string, number>[]) => {
    let moved = false;
    t.threads.forEach((th, a) => {
      const i = th.body[pc[a]!];
      if (!i) return;
      moved = true;
      const m2 = new Map(mem);
      const r2 = regs.map((r) => new Map(r));
      const val = (o: { kind: 'const'; value: number } | { kind: 'reg'; name: string }) =>
        o.kind === 'const' ? o.value : (r2[a]!.get(o.name) ?? Number.NaN);
      if (i.kind === 'load') r2[a]!.set(i.dst, m2.get(i.ptr.loc) ?? Number.NaN);
      else if (i.kind === 'store') m2.set(i.ptr.loc, val(i.value));
      else if (i.kind === 'rmw') {
        const old = m2.get(i.ptr.loc) ?? Number.NaN;
        if (i.dst) r2[a]!.set(i.dst, old);
        m2.set(i.ptr.loc, old + val(i.value));
      }
      const pc2 = pc.slice();
      pc2[a]!++;
      go(pc2, m2, r2);
    });
    if (!moved) {
      out.add(
        labels
          .map(([a, r]) => {
            const v = regs[a]!.get(r)!;
            return `${t.threads[a]!.name}:${r}=${Number.isNaN(v) ? 'undef' : v}`;
          })
          .sort()
          .join(' '),
      );
    }
  };
  const mem = new Map<string, number>();
  for (const l of t.locations) if (l.init !== 'undef') mem.set(l.name, l.init);
  go(
    t.threads.map(() => 0),
    mem,
    t.threads.map(() => new Map()),
  );
  return [...out].sort();
}

function allSeqCstSystem(t: Test): Test {
  return {
    ...t,
    // Only initialised locations: on an undef-initialised one, value rule 1 makes an atomic read
    // that nothing happens-before undef even when SC would give it a value (pinned in amdgpu.test.ts).
    locations: t.locations.map((l) => ({ ...l, init: 0 })),
    threads: t.threads.map((th) => ({
      ...th,
      body: th.body.map((i): Instr => {
        const ss = { scope: 'system' as const, oneAs: false };
        if (i.kind === 'load' || i.kind === 'store' || i.kind === 'rmw')
          return { ...i, ordering: 'seq_cst', syncscope: ss, avNone: false };
        if (i.kind === 'fence') return { ...i, ordering: 'seq_cst', syncscope: ss, avNone: false };
        return i;
      }),
    })),
  };
}

const sortedState = (s: string) => s.split(' ').sort().join(' ');

describe('metamorphic properties of the model', () => {
  it('strengthening an ordering never adds an allowed state', () => {
    fc.assert(
      fc.property(
        arbTest().chain((t) => fc.tuple(fc.constant(t), pick(t))),
        ([t, [ti, k]]) => {
          const strong = mapInstr(t, ti, k, strengthen);
          expect(covered(states(strong), states(t))).toBe(true);
        },
      ),
      { numRuns: 600 },
    );
  });

  it('widening a syncscope never adds an allowed state', () => {
    fc.assert(
      fc.property(
        arbTest().chain((t) => fc.tuple(fc.constant(t), pick(t))),
        ([t, [ti, k]]) => {
          const wide = mapInstr(t, ti, k, widen);
          expect(covered(states(wide), states(t))).toBe(true);
        },
      ),
      { numRuns: 600 },
    );
  });

  it('replacing a -one-as syncscope by its plain form never adds an allowed state', () => {
    const plain = (i: Instr): Instr =>
      'syncscope' in i ? ({ ...i, syncscope: { ...i.syncscope, oneAs: false } } as Instr) : i;
    fc.assert(
      fc.property(
        fc.oneof(arbTest({ spaces: true }), arbMpSpaces()).chain((t) => fc.tuple(fc.constant(t), pick(t))),
        ([t, [ti, k]]) => {
          const p = mapInstr(t, ti, k, plain);
          expect(covered(states(p), states(t))).toBe(true);
        },
      ),
      { numRuns: 600 },
    );
  });

  it("dropping a fence's amdgpu-synchronize-as tags never adds an allowed state (MMRAs only relax)", () => {
    const untagged = (i: Instr): Instr => (i.kind === 'fence' ? { ...i, syncAs: [] } : i);
    let tagged = 0;
    fc.assert(
      fc.property(
        arbMpSpaces().chain((t) => fc.tuple(fc.constant(t), pick(t))),
        ([t, [ti, k]]) => {
          const i = t.threads[ti]!.body[k]!;
          if (i.kind === 'fence' && i.syncAs.length > 0) tagged++;
          const p = mapInstr(t, ti, k, untagged);
          expect(covered(states(p), states(t))).toBe(true);
        },
      ),
      { numRuns: 400 },
    );
    // The runs must pick tagged fences at all: 31 to 66 of the 400 do over 300 seeds (median 49), so
    // the bound stays clear of the spread while a generator without tags (0) still fails it.
    expect(tagged).toBeGreaterThan(20);
  });

  it('with every operation seq_cst at system scope, exactly the sequentially consistent states are allowed', () => {
    fc.assert(
      fc.property(arbTest(), (t0) => {
        const t = allSeqCstSystem(t0);
        expect(states(t).map(sortedState).sort()).toEqual(scStates(t));
      }),
      { numRuns: 600 },
    );
  });

  it('renaming threads or locations changes nothing', () => {
    fc.assert(
      fc.property(arbTest(), (t) => {
        const swap = (l: string) => (l === 'x' ? 'y' : l === 'y' ? 'x' : l);
        const renamed: Test = {
          ...t,
          locations: t.locations.map((l) => ({ ...l, name: swap(l.name) })),
          threads: [...t.threads].reverse().map((th) => ({
            ...th,
            body: th.body.map((i) =>
              'ptr' in i ? ({ ...i, ptr: { ...i.ptr, loc: swap(i.ptr.loc) } } as Instr) : i,
            ),
          })),
        };
        const norm = (ss: string[]) => ss.map(sortedState).sort();
        expect(norm(states(renamed, {}, true))).toEqual(norm(states(t, {}, true)));
      }),
      { numRuns: 400 },
    );
  });
});

/**
 * spec, Properties, 1: "A write W is location-ordered before a read R only if W happens-before R."
 * Checked for every access (writes too: location order to a write also needs an hb chain), with
 * the hb of the location's address-space class (docs/model.md, choice 6).
 */
function loImpliesHb(ws: Workspace): void {
  const { sk } = ws;
  for (const w of sk.writes) {
    for (const e of sk.events) {
      if (!has(ws.lo, w, e.id)) continue;
      expect(e.loc).toBe(sk.events[w]!.loc);
      expect(has(ws.hbOf(e.id), w, e.id), `lo(${w}, ${e.id}) without hb`).toBe(true);
    }
  }
}

describe('properties the spec states', () => {
  it('Property 1: location order implies happens-before, on every consistent execution', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          arbTest(),
          arbTest({ exotic: true, maxInstrs: 4 }),
          arbTest({ barriers: true, maxInstrs: 5 }),
          arbTest({ spaces: true, maxInstrs: 5 }),
          arbMpSpaces(),
        ),
        (t) => {
          referenceEnumerate(t, undefined, loImpliesHb);
        },
      ),
      { numRuns: 800 },
    );
  });
});
