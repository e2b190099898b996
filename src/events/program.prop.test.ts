/**
 * The solver of value cycles (`Evaluator.solve`, docs/model.md "Values out of thin air") against a
 * brute force written apart from it: on random programs with data dependencies, for every rf choice
 * of every variant, the valuations the evaluator finds are exactly the assignments of the domain's
 * values to the reads on value cycles that the program reproduces — each such read's source write
 * computing the value it was given — tried one by one.
 *
 * The brute force shares the compiled steps, their operand table (`operandsOf`) and the integer
 * operations (`binop`, `icmp`, `rmwop`) with the evaluator, nothing of its evaluation order, its
 * stall detection, its choice of the reads to guess or its backtracking: it finds the reads on
 * cycles from the static data dependencies, builds the domain from its definition, and evaluates
 * each assignment by passes over the threads in program order until nothing changes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { binop, icmp, isUndef, rmwop, widthOf, wrap } from '../core/values.ts';
import { variantCount, variantSkeleton } from '../enumerate/enumerate.ts';
import { arbDataTest } from '../enumerate/gen.ts';
import {
  compile,
  conditionConstants,
  Evaluator,
  type Op,
  operandsOf,
  type ProgramStep,
  type ThreadProgram,
} from './program.ts';
import type { Skeleton } from './skeleton.ts';

/** The operands of a step, a copy's source register among them (what its value depends on). */
function inputs(s: ProgramStep): Op[] {
  return s.k === 'copy' ? [{ c: false, r: s.src }] : operandsOf(s);
}

/** Per write or read event, the reads its value depends on directly (through registers), statically. */
function readDeps(programs: ThreadProgram[], n: number): number[][] {
  const deps: number[][] = Array.from({ length: n }, () => []);
  for (const p of programs) {
    // Register → the reads its value comes from.
    const regReads: number[][] = p.regs.map(() => []);
    const of = (ops: Op[]): number[] => ops.flatMap((o) => (o.c ? [] : regReads[o.r]!));
    for (const s of p.steps) {
      if (s.k === 'read' && s.dst >= 0) regReads[s.dst] = [s.ev];
      else if (s.k === 'bin' || s.k === 'icmp' || s.k === 'select' || s.k === 'copy')
        regReads[s.dst] = [...new Set(of(inputs(s)))];
      if (s.k === 'store' && s.ev >= 0) deps[s.ev] = of([s.a]);
      // An exchange stores its operand, any other RMW combines it with the value read.
      if (s.k === 'rmw' && s.ev >= 0) deps[s.ev] = s.op === 'xchg' ? of([s.a]) : [s.read, ...of([s.a])];
    }
  }
  return deps;
}

/** The reads on a cycle of value dependencies through `rf` (read → its source write's reads). */
function cycleReads(programs: ThreadProgram[], sk: Skeleton, rf: Int32Array): number[] {
  const deps = readDeps(programs, sk.n);
  const next = (r: number): number[] => (rf[r]! >= 0 ? deps[rf[r]!]! : []);
  return sk.reads.filter((r) => {
    const seen = new Set<number>();
    const stack = [...next(r)];
    while (stack.length > 0) {
      const x = stack.pop()!;
      if (x === r) return true;
      if (seen.has(x)) continue;
      seen.add(x);
      stack.push(...next(x));
    }
    return false;
  });
}

interface Eval {
  status: 'ok' | 'stuck' | 'cas' | 'assume';
  regs: number[][];
  val: Map<number, number>;
}

/**
 * Evaluates with the reads of `fixed` returning the given values: passes over every thread in
 * program order, each step computed once its inputs are, until a pass changes nothing.
 */
function evaluate(programs: ThreadProgram[], sk: Skeleton, rf: Int32Array, fixed: Map<number, number>): Eval {
  const val = new Map<number, number>();
  for (const l of sk.locs)
    if (l.initEvent >= 0) val.set(l.initEvent, wrap(l.init as number, widthOf(l.type)));
  const regs = programs.map((p) => p.regs.map(() => Number.NaN));
  const has = programs.map((p) => p.regs.map(() => false));
  const doneSteps = programs.map((p) => p.steps.map(() => false));
  let changed = true;
  while (changed) {
    changed = false;
    for (let t = 0; t < programs.length; t++) {
      const get = (o: Op) => (o.c ? o.v : regs[t]![o.r]!);
      const ok = (o: Op) => o.c || has[t]![o.r]!;
      const setReg = (r: number, v: number) => {
        regs[t]![r] = v;
        has[t]![r] = true;
      };
      programs[t]!.steps.forEach((s, i) => {
        if (doneSteps[t]![i]) return;
        switch (s.k) {
          case 'read': {
            let v: number;
            if (fixed.has(s.ev)) v = fixed.get(s.ev)!;
            else if (rf[s.ev]! < 0) v = Number.NaN;
            else if (val.has(rf[s.ev]!)) v = val.get(rf[s.ev]!)!;
            else return;
            val.set(s.ev, v);
            if (s.dst >= 0) setReg(s.dst, v);
            break;
          }
          case 'store':
            if (!ok(s.a)) return;
            val.set(s.ev, wrap(get(s.a), s.width));
            break;
          case 'rmw':
            if (!ok(s.a) || (s.op !== 'xchg' && !val.has(s.read))) return;
            val.set(s.ev, rmwop(s.op, val.get(s.read) ?? Number.NaN, get(s.a), s.width));
            break;
          case 'cas':
            if (!ok(s.expected) || !val.has(s.read)) return;
            break;
          case 'bin':
            if (!ok(s.a) || !ok(s.b)) return;
            setReg(s.dst, binop(s.op, get(s.a), get(s.b), s.width));
            break;
          case 'icmp':
            if (!ok(s.a) || !ok(s.b)) return;
            setReg(s.dst, icmp(s.pred, get(s.a), get(s.b), s.width));
            break;
          case 'select': {
            if (!ok(s.cond) || !ok(s.a) || !ok(s.b)) return;
            const c = get(s.cond);
            setReg(s.dst, isUndef(c) ? Number.NaN : c !== 0 ? get(s.a) : get(s.b));
            break;
          }
          case 'copy':
            if (!has[t]![s.src]) return;
            setReg(s.dst, regs[t]![s.src]!);
            break;
          case 'assume':
            return;
        }
        doneSteps[t]![i] = true;
        changed = true;
      });
    }
  }
  if (doneSteps.some((d) => d.some((x) => !x))) return { status: 'stuck', regs, val };
  // The cmpxchg outcomes the variant assumed, checked once every value is known.
  for (const p of programs)
    for (const s of p.steps)
      if (s.k === 'cas') {
        const t = programs.indexOf(p);
        const old = val.get(s.read)!;
        const exp = s.expected.c ? s.expected.v : regs[t]![s.expected.r]!;
        const contradicts = s.ok ? old !== exp : !s.weak && old === exp;
        if (!isUndef(old) && !isUndef(exp) && contradicts) return { status: 'cas', regs, val };
      }
  return { status: 'ok', regs, val };
}

/** The domain's values for a read of `width` bits, from its definition. */
function domainOf(base: Iterable<number>, width: number): number[] {
  const out = new Set<number>();
  for (const x of base) if (!isUndef(x)) for (const y of [x - 1, x, x + 1]) out.add(wrap(y, width));
  return [...out].sort((a, b) => a - b);
}

/** Every constant of the steps, the initial values and the condition's constants. */
function constantsOf(programs: ThreadProgram[], sk: Skeleton): number[] {
  const out: number[] = conditionConstants(sk.test.condition?.cond);
  for (const l of sk.locs) if (l.initEvent >= 0) out.push(wrap(l.init as number, widthOf(l.type)));
  for (const p of programs)
    for (const s of p.steps) for (const o of inputs(s)) if (o.c && !isUndef(o.v)) out.push(o.v);
  return out;
}

/** A valuation as text: every register and every event value. */
function show(regs: ArrayLike<number>[], val: (e: number) => number, n: number): string {
  const v = (x: number) => (isUndef(x) ? 'u' : String(x));
  const ev = Array.from({ length: n }, (_, e) => v(val(e))).join(',');
  return `${regs.map((r) => Array.from(r, v).join(',')).join('|')} / ${ev}`;
}

/** The brute force's valuations of rf choice `rf`. */
function bruteForce(
  programs: ThreadProgram[],
  sk: Skeleton,
  rf: Int32Array,
): { cycle: number[]; states: string[] } {
  // The read of an RMW or a successful cmpxchg reading the operation's own write: no valuation.
  for (const p of programs)
    for (const s of p.steps)
      if ((s.k === 'rmw' && rf[s.read] === s.ev) || (s.k === 'cas' && s.write >= 0 && rf[s.read] === s.write))
        return { cycle: [], states: [] };
  const cycle = cycleReads(programs, sk, rf);
  const events = (e: Eval) => (x: number) => e.val.get(x) ?? Number.NaN;
  const readsOnly = (e: Eval) => (x: number) =>
    sk.events[x]!.kind === 'write' && !e.val.has(x) ? Number.NaN : events(e)(x);
  if (cycle.length === 0) {
    const e = evaluate(programs, sk, rf, new Map());
    return { cycle, states: e.status === 'ok' ? [show(e.regs, readsOnly(e), sk.n)] : [] };
  }
  // The values computed apart from the cycles (everything a run without guesses knows).
  const apart = evaluate(programs, sk, rf, new Map());
  const base = [...constantsOf(programs, sk), ...apart.val.values(), ...apart.regs.flat()];
  const width = (r: number): number => {
    for (const p of programs) for (const s of p.steps) if (s.k === 'read' && s.ev === r) return s.width;
    throw new Error(`no read step for event ${r}`);
  };
  const states: string[] = [];
  const fixed = new Map<number, number>();
  const tryAll = (k: number): void => {
    if (k === cycle.length) {
      const e = evaluate(programs, sk, rf, fixed);
      if (e.status !== 'ok') return;
      for (const r of cycle) if (e.val.get(rf[r]!) !== fixed.get(r)) return;
      states.push(show(e.regs, readsOnly(e), sk.n));
      return;
    }
    for (const v of domainOf(base, width(cycle[k]!))) {
      fixed.set(cycle[k]!, v);
      tryAll(k + 1);
    }
    fixed.delete(cycle[k]!);
  };
  tryAll(0);
  return { cycle, states: states.sort() };
}

/** Every rf choice of `sk` (each read: a write of its location, or undef), at most `max` of them. */
function* rfChoices(sk: Skeleton, max: number): Generator<Int32Array> {
  const rf = new Int32Array(sk.n).fill(-2);
  const doms = sk.reads.map((r) => [...sk.writesByLoc[sk.events[r]!.loc]!, -1]);
  let count = 0;
  function* rec(k: number): Generator<Int32Array> {
    if (count >= max) return;
    if (k === sk.reads.length) {
      count++;
      yield rf;
      return;
    }
    for (const w of doms[k]!) {
      rf[sk.reads[k]!] = w;
      yield* rec(k + 1);
    }
  }
  yield* rec(0);
}

describe('value cycles: the solver = trying every value of the domain', () => {
  it('on random programs with data dependencies, every rf choice', () => {
    let cyclic = 0;
    let solved = 0;
    fc.assert(
      fc.property(arbDataTest(), (t) => {
        for (let v = 0; v < variantCount(t); v++) {
          const sk = variantSkeleton(t, v);
          const programs = compile(sk);
          const ev = new Evaluator(sk, programs, conditionConstants(t.condition?.cond));
          for (const rf of rfChoices(sk, 400)) {
            const bf = bruteForce(programs, sk, rf);
            const n = ev.valuations(rf);
            const got: string[] = [];
            for (let k = 0; k < n; k++) {
              ev.loadSolution(k);
              const val = (e: number) =>
                ev.simple || sk.events[e]!.kind === 'init' || ev.known[e] === 1
                  ? ev.writeVal[e]!
                  : Number.NaN;
              got.push(show(ev.regs, val, sk.n));
            }
            if (ev.status === 'cycle') {
              cyclic++;
              if (n > 0) solved++;
              expect([...ev.thinAirReads()]).toEqual(bf.cycle);
            } else if (ev.status === 'ok') expect(bf.cycle).toEqual([]);
            // A cmpxchg outcome (or branch) contradicted by values computed apart from any cycle
            // has no valuation whatever the cycle's values: the brute force finds none either.
            expect(got.sort()).toEqual(bf.states);
          }
        }
      }),
      { numRuns: Number(process.env.GPUMM_PROP_RUNS ?? 150) },
    );
    // The generator reaches value cycles, solvable ones among them.
    expect(cyclic).toBeGreaterThan(20);
    expect(solved).toBeGreaterThan(5);
  });
});
