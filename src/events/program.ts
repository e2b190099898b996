/**
 * Register values: each thread compiled to a list of steps over numbered registers, evaluated for
 * one candidate (an rf choice per read). Reads take the value of their rf source; `undef` (NaN here)
 * propagates through every computation (DESIGN: "Values computed from `undef` are `undef`").
 *
 * Values are unsigned integers of the register's width (up to 32 bits exactly; i64 arithmetic is
 * plain double arithmetic, exact for litmus-sized values).
 */

import {
  assertNever,
  type BinOp,
  type IcmpPred,
  type Operand,
  type RmwOp,
  type Test,
} from '../core/types.ts';
import type { Skeleton } from './skeleton.ts';

/** The undefined value. Test with `isUndef`. */
export const UNDEF = Number.NaN;

export function isUndef(v: number): boolean {
  return Number.isNaN(v);
}

/** An operand of a step: a constant, or a register slot of the thread. */
export type Op = { c: true; v: number } | { c: false; r: number };

/**
 * One step of a compiled thread. `assume` is a condition the candidate's values must satisfy (a
 * branch outcome of a Vulkan test's path, src/vulkan/paths.ts): `run` returns 'assume' when it fails.
 */
export type ProgramStep =
  | { k: 'assume'; pred: IcmpPred; a: Op; b: Op; width: number; expect: boolean }
  | Step;

type Step =
  | { k: 'read'; ev: number; dst: number; okDst: number }
  | { k: 'store'; ev: number; a: Op; width: number }
  | { k: 'rmw'; ev: number; read: number; op: RmwOp; a: Op; width: number }
  | {
      k: 'cas';
      read: number;
      write: number;
      expected: Op;
      desired: Op;
      ok: boolean;
      /** `cmpxchg weak`: may fail even when the values match (LLVM LangRef: "may fail spuriously"). */
      weak: boolean;
      okDst: number;
      width: number;
    }
  | { k: 'bin'; dst: number; op: BinOp; a: Op; b: Op; width: number }
  | { k: 'icmp'; dst: number; pred: IcmpPred; a: Op; b: Op; width: number }
  | { k: 'select'; dst: number; cond: Op; a: Op; b: Op }
  | { k: 'copy'; dst: number; src: number };

/** A compiled thread. */
export interface ThreadProgram {
  steps: ProgramStep[];
  /** Register names in index order (a cmpxchg result `%p` has slots `%p` (old) and `%p.1` (success)). */
  regs: string[];
  regIndex: Map<string, number>;
  widths: number[];
}

/** The width in bits of an IR integer type (`i32` → 32; vectors and unknown types → 32). */
export function widthOf(type: string): number {
  const m = /^i(\d+)$/.exec(type.trim());
  return m ? Number(m[1]) : 32;
}

const MODULUS = Float64Array.from({ length: 54 }, (_, w) => 2 ** w);

export function wrap(v: number, width: number): number {
  if (width >= 53) return v;
  const m = MODULUS[width]!;
  if (v >= 0 && v < m) return v;
  if (Number.isNaN(v)) return v;
  return ((v % m) + m) % m;
}

function signed(v: number, width: number): number {
  if (width >= 53) return v;
  const half = 2 ** (width - 1);
  return v >= half ? v - 2 * half : v;
}

/** Compiles every thread of the skeleton's test (event ids come from the skeleton). */
export function compile(sk: Skeleton): ThreadProgram[] {
  const test: Test = sk.test;
  return test.threads.map((th, t) => {
    const regIndex = new Map<string, number>();
    const regs: string[] = [];
    const widths: number[] = [];
    const reg = (name: string, width: number): number => {
      let i = regIndex.get(name);
      if (i === undefined) {
        i = regs.length;
        regIndex.set(name, i);
        regs.push(name);
        widths.push(width);
      }
      return i;
    };
    const op = (o: Operand): Op => {
      if (o.kind === 'const') return { c: true, v: o.value };
      return { c: false, r: reg(o.name, 32) };
    };
    const mine = sk.events.filter((e) => e.thread === t);
    const ev = (k: number, kind: 'read' | 'write') =>
      mine.find((e) => e.instr === k && e.kind === kind)?.id ?? -1;
    const steps: ProgramStep[] = [];
    th.body.forEach((ins, k) => {
      switch (ins.kind) {
        case 'load':
        case 'avload':
          steps.push({ k: 'read', ev: ev(k, 'read'), dst: reg(ins.dst, widthOf(ins.type)), okDst: -1 });
          break;
        case 'store':
        case 'avstore':
          steps.push({ k: 'store', ev: ev(k, 'write'), a: op(ins.value), width: widthOf(ins.type) });
          break;
        case 'rmw': {
          const r = ev(k, 'read');
          steps.push({ k: 'read', ev: r, dst: ins.dst ? reg(ins.dst, widthOf(ins.type)) : -1, okDst: -1 });
          steps.push({
            k: 'rmw',
            ev: ev(k, 'write'),
            read: r,
            op: ins.op,
            a: op(ins.value),
            width: widthOf(ins.type),
          });
          break;
        }
        case 'cmpxchg': {
          const r = ev(k, 'read');
          const w = ev(k, 'write');
          const dst = ins.dst ? reg(ins.dst, widthOf(ins.type)) : -1;
          const okDst = ins.dst ? reg(`${ins.dst}.1`, 1) : -1;
          steps.push({ k: 'read', ev: r, dst, okDst: -1 });
          steps.push({
            k: 'cas',
            read: r,
            write: w,
            expected: op(ins.expected),
            desired: op(ins.desired),
            ok: w >= 0,
            weak: ins.weak,
            okDst,
            width: widthOf(ins.type),
          });
          break;
        }
        case 'bin':
          steps.push({
            k: 'bin',
            dst: reg(ins.dst, widthOf(ins.type)),
            op: ins.op,
            a: op(ins.a),
            b: op(ins.b),
            width: widthOf(ins.type),
          });
          break;
        case 'icmp':
          steps.push({
            k: 'icmp',
            dst: reg(ins.dst, 1),
            pred: ins.pred,
            a: op(ins.a),
            b: op(ins.b),
            width: widthOf(ins.type),
          });
          break;
        case 'select':
          steps.push({
            k: 'select',
            dst: reg(ins.dst, widthOf(ins.type)),
            cond: op(ins.cond),
            a: op(ins.a),
            b: op(ins.b),
          });
          break;
        case 'extract':
          steps.push({
            k: 'copy',
            dst: reg(ins.dst, ins.index === 0 ? widthOf(ins.type) : 1),
            src: reg(ins.index === 0 ? ins.src : `${ins.src}.1`, 32),
          });
          break;
        case 'barrier':
          // signal.isfirst: "sets SCC=1 if this wave is the first to signal the barrier" (seeds/001),
          // as decided by the skeleton's barrier execution.
          if (ins.op === 'signal_isfirst' && ins.dst !== null)
            steps.push({
              k: 'bin',
              dst: reg(ins.dst, 1),
              op: 'add',
              a: { c: true, v: sk.barrierIsfirst.get(`${t}:${k}`) ?? UNDEF },
              b: { c: true, v: 0 },
              width: 1,
            });
          break;
        case 'fence':
        case 'wavebarrier':
          break;
        default:
          assertNever(ins, 'instruction');
      }
    });
    return { steps, regs, regIndex, widths };
  });
}

/** Integer arithmetic of `bin` (also used by the hardware machines, src/sim). */
export function binop(op: BinOp, a: number, b: number, width: number): number {
  if (isUndef(a) || isUndef(b)) return UNDEF;
  switch (op) {
    case 'add':
      return wrap(a + b, width);
    case 'sub':
      return wrap(a - b, width);
    case 'mul':
      return wrap(a * b, width);
    case 'and':
      return wrap(Number(BigInt(a) & BigInt(b)), width);
    case 'or':
      return wrap(Number(BigInt(a) | BigInt(b)), width);
    case 'xor':
      return wrap(Number(BigInt(a) ^ BigInt(b)), width);
    case 'shl':
      return b >= width ? UNDEF : wrap(a * 2 ** b, width);
    case 'lshr':
      return b >= width ? UNDEF : Math.floor(a / 2 ** b);
    case 'ashr':
      return b >= width ? UNDEF : wrap(Math.floor(signed(a, width) / 2 ** b), width);
    case 'udiv':
      return b === 0 ? UNDEF : Math.floor(a / b);
    case 'urem':
      return b === 0 ? UNDEF : a % b;
    default:
      return assertNever(op, 'binop');
  }
}

/** The value an atomicrmw writes, from the old value and its operand. */
export function rmwop(op: RmwOp, old: number, v: number, width: number): number {
  // An exchange stores its operand whatever it read (LangRef, atomicrmw: "xchg: *ptr = val"), so an
  // undef read leaves the stored value defined (docs/model.md choice 26); wrap keeps an undef operand.
  if (op === 'xchg') return wrap(v, width);
  if (isUndef(old) || isUndef(v)) return UNDEF;
  switch (op) {
    case 'add':
    case 'sub':
    case 'and':
    case 'or':
    case 'xor':
      return binop(op, old, v, width);
    case 'max':
      return signed(old, width) >= signed(v, width) ? old : wrap(v, width);
    case 'min':
      return signed(old, width) <= signed(v, width) ? old : wrap(v, width);
    case 'umax':
      return Math.max(old, wrap(v, width));
    case 'umin':
      return Math.min(old, wrap(v, width));
    default:
      return assertNever(op, 'rmw op');
  }
}

/** `icmp` on two values of `width` bits: 1 or 0, undef when either is. */
export function icmp(pred: IcmpPred, a: number, b: number, width: number): number {
  if (isUndef(a) || isUndef(b)) return UNDEF;
  const x = wrap(a, width);
  const y = wrap(b, width);
  // Equality, the common case (branch conditions, spin loops), needs no signed conversion.
  if (pred === 'eq') return x === y ? 1 : 0;
  if (pred === 'ne') return x !== y ? 1 : 0;
  const sx = signed(x, width);
  const sy = signed(y, width);
  let r: boolean;
  switch (pred) {
    case 'ugt':
      r = x > y;
      break;
    case 'uge':
      r = x >= y;
      break;
    case 'ult':
      r = x < y;
      break;
    case 'ule':
      r = x <= y;
      break;
    case 'sgt':
      r = sx > sy;
      break;
    case 'sge':
      r = sx >= sy;
      break;
    case 'slt':
      r = sx < sy;
      break;
    case 'sle':
      r = sx <= sy;
      break;
    default:
      return assertNever(pred, 'predicate');
  }
  return r ? 1 : 0;
}

/** Result of evaluating all threads for one candidate ('assume': a path's branch condition fails). */
export type EvalStatus = 'ok' | 'cycle' | 'cas-mismatch' | 'assume';

/** What the evaluator needs of a skeleton: its size and its locations' initial writes. */
export interface EvalLayout {
  n: number;
  locs: readonly { initEvent: number; init: number | 'undef'; type: string }[];
}

/**
 * Preallocated evaluation state for one skeleton: `writeVal[e]` for write events, `regs[t]` per
 * thread. `run` fills them for the rf choice `rfSrc[e]` (source write of read `e`, or -1 = undef).
 */
export class Evaluator {
  readonly writeVal: Float64Array;
  readonly known: Uint8Array;
  readonly regs: Float64Array[];
  private readonly regKnown: Uint8Array[];
  private readonly done: Uint8Array[];
  private readonly initEvents: Int32Array;
  private readonly initValues: Float64Array;
  private readonly totalSteps: number;
  /** Only stores of constants, loads and register arithmetic (see `runSimple`). */
  readonly simple: boolean;
  /** The cmpxchg whose read value contradicts the assumed outcome, when `run` returns 'cas-mismatch'. */
  mismatch = -1;

  constructor(
    sk: EvalLayout,
    readonly programs: ThreadProgram[],
  ) {
    this.writeVal = new Float64Array(sk.n);
    this.known = new Uint8Array(sk.n);
    this.regs = programs.map((p) => new Float64Array(p.regs.length));
    this.regKnown = programs.map((p) => new Uint8Array(p.regs.length));
    this.done = programs.map((p) => new Uint8Array(p.steps.length));
    const inits = sk.locs.filter((l) => l.initEvent >= 0);
    this.initEvents = Int32Array.from(inits, (l) => l.initEvent);
    this.initValues = Float64Array.from(inits, (l) => wrap(l.init as number, widthOf(l.type)));
    this.totalSteps = programs.reduce((n, p) => n + p.steps.length, 0);
    this.simple = programs.every((p) =>
      p.steps.every((st) => st.k !== 'rmw' && st.k !== 'cas' && (st.k !== 'store' || st.a.c)),
    );
  }

  private val(o: Op, t: number): number {
    return o.c ? o.v : this.regs[t]![o.r]!;
  }

  /**
   * The common case of stores of constants and no RMW or cmpxchg: every written value is known
   * up front, so one pass in program order computes everything.
   */
  private runSimple(rfSrc: Int32Array): EvalStatus {
    const { programs, writeVal } = this;
    for (const r of this.regs) r.fill(UNDEF);
    const inits = this.initEvents;
    for (let k = 0; k < inits.length; k++) writeVal[inits[k]!] = this.initValues[k]!;
    for (let t = 0; t < programs.length; t++) {
      const steps = programs[t]!.steps;
      for (let i = 0; i < steps.length; i++) {
        const s = steps[i]!;
        if (s.k === 'store' && s.ev >= 0) writeVal[s.ev] = wrap((s.a as { v: number }).v, s.width);
      }
    }
    for (let t = 0; t < programs.length; t++) {
      const steps = programs[t]!.steps;
      const regs = this.regs[t]!;
      for (let i = 0; i < steps.length; i++) {
        const s = steps[i]!;
        if (s.k === 'read') {
          const src = s.ev < 0 ? -1 : rfSrc[s.ev]!;
          const v = src >= 0 ? writeVal[src]! : UNDEF;
          if (s.dst >= 0) regs[s.dst] = v;
          if (s.ev >= 0) writeVal[s.ev] = v;
        } else if (s.k === 'bin') regs[s.dst] = binop(s.op, this.val(s.a, t), this.val(s.b, t), s.width);
        else if (s.k === 'icmp') regs[s.dst] = icmp(s.pred, this.val(s.a, t), this.val(s.b, t), s.width);
        else if (s.k === 'select') {
          const c = this.val(s.cond, t);
          regs[s.dst] = isUndef(c) ? UNDEF : c !== 0 ? this.val(s.a, t) : this.val(s.b, t);
        } else if (s.k === 'copy') regs[s.dst] = regs[s.src]!;
        else if (s.k === 'assume' && !this.assumeHolds(s, t)) return 'assume';
      }
    }
    return 'ok';
  }

  /** Whether an `assume` step holds (an undef operand never satisfies it). */
  private assumeHolds(s: Extract<ProgramStep, { k: 'assume' }>, t: number): boolean {
    const v = icmp(s.pred, this.val(s.a, t), this.val(s.b, t), s.width);
    return !isUndef(v) && (v === 1) === s.expect;
  }

  private ready(o: Op, t: number): boolean {
    return o.c || this.regKnown[t]![o.r] === 1;
  }

  private set(t: number, r: number, v: number): void {
    this.regs[t]![r] = v;
    this.regKnown[t]![r] = 1;
  }

  /**
   * Evaluates every step as soon as its inputs are known (registers are SSA, so steps of one thread
   * may be evaluated out of program order: a read waiting for its source does not hold up the
   * independent steps after it). 'cycle': values depend on each other through rf, which only
   * no-thin-air-violating candidates can do.
   */
  run(rfSrc: Int32Array): EvalStatus {
    if (this.simple) return this.runSimple(rfSrc);
    const { programs, writeVal, known } = this;
    known.fill(0);
    for (const r of this.regs) r.fill(UNDEF);
    for (const k of this.regKnown) k.fill(0);
    for (const d of this.done) d.fill(0);
    const inits = this.initEvents;
    for (let k = 0; k < inits.length; k++) {
      writeVal[inits[k]!] = this.initValues[k]!;
      known[inits[k]!] = 1;
    }
    let left = this.totalSteps;
    while (left > 0) {
      let progress = false;
      for (let t = 0; t < programs.length; t++) {
        const steps = programs[t]!.steps;
        const done = this.done[t]!;
        for (let i = 0; i < steps.length; i++) {
          if (done[i]) continue;
          const s = steps[i]!;
          if (s.k === 'read') {
            const src = s.ev < 0 ? -1 : rfSrc[s.ev]!;
            if (src >= 0 && known[src] === 0) continue;
            const v = src >= 0 ? writeVal[src]! : UNDEF;
            if (s.dst >= 0) this.set(t, s.dst, v);
            if (s.ev >= 0) {
              writeVal[s.ev] = v; // a read's slot holds the value it returned
              known[s.ev] = 1;
            }
          } else if (s.k === 'store') {
            if (!this.ready(s.a, t)) continue;
            if (s.ev >= 0) {
              writeVal[s.ev] = wrap(this.val(s.a, t), s.width);
              known[s.ev] = 1;
            }
          } else if (s.k === 'rmw') {
            if (!this.ready(s.a, t) || (s.read >= 0 && known[s.read] === 0)) continue;
            if (s.ev >= 0) {
              writeVal[s.ev] = rmwop(s.op, writeVal[s.read]!, this.val(s.a, t), s.width);
              known[s.ev] = 1;
            }
          } else if (s.k === 'cas') {
            if (!this.ready(s.expected, t) || !this.ready(s.desired, t) || known[s.read] === 0) continue;
            const old = writeVal[s.read]!;
            const exp = this.val(s.expected, t);
            // A success needs equal values; a failure needs different ones unless the cmpxchg is weak.
            const contradicts = s.ok ? old !== exp : !s.weak && old === exp;
            if (!isUndef(old) && !isUndef(exp) && contradicts) {
              this.mismatch = s.read;
              return 'cas-mismatch';
            }
            if (s.okDst >= 0) this.set(t, s.okDst, s.ok ? 1 : 0);
            if (s.write >= 0) {
              // A success stores the new value whatever it read, also an undef (choice 26; whether an
              // undef read succeeds is the variant's choice, choice 11).
              writeVal[s.write] = wrap(this.val(s.desired, t), s.width);
              known[s.write] = 1;
            }
          } else if (s.k === 'bin') {
            if (!this.ready(s.a, t) || !this.ready(s.b, t)) continue;
            this.set(t, s.dst, binop(s.op, this.val(s.a, t), this.val(s.b, t), s.width));
          } else if (s.k === 'icmp') {
            if (!this.ready(s.a, t) || !this.ready(s.b, t)) continue;
            this.set(t, s.dst, icmp(s.pred, this.val(s.a, t), this.val(s.b, t), s.width));
          } else if (s.k === 'select') {
            if (!this.ready(s.cond, t) || !this.ready(s.a, t) || !this.ready(s.b, t)) continue;
            const c = this.val(s.cond, t);
            this.set(t, s.dst, isUndef(c) ? UNDEF : c !== 0 ? this.val(s.a, t) : this.val(s.b, t));
          } else if (s.k === 'assume') {
            if (!this.ready(s.a, t) || !this.ready(s.b, t)) continue;
            if (!this.assumeHolds(s, t)) return 'assume';
          } else {
            if (this.regKnown[t]![s.src] !== 1) continue;
            this.set(t, s.dst, this.regs[t]![s.src]!);
          }
          done[i] = 1;
          left--;
          progress = true;
        }
      }
      if (!progress) return 'cycle';
    }
    return 'ok';
  }
}
