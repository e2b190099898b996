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
  type Cond,
  type IcmpPred,
  type Operand,
  type RmwOp,
  type Test,
} from '../core/types.ts';
import { binop, icmp, isUndef, rmwop, UNDEF, widthOf, wrap } from '../core/values.ts';
import type { Skeleton } from './skeleton.ts';

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
  /** `width`: the bits of the value read (a thin-air guess is wrapped to it, `Evaluator.solve`). */
  | { k: 'read'; ev: number; dst: number; okDst: number; width: number }
  | { k: 'store'; ev: number; a: Op; width: number }
  | { k: 'rmw'; ev: number; read: number; op: RmwOp; a: Op; width: number }
  /**
   * The check of a cmpxchg's assumed outcome against the value it read. The write of a successful
   * one is a `store` of its new value and its success flag a constant, both apart from this step:
   * neither depends on the value read, so they never wait for it (a value cycle through the read
   * alone is no cycle of values).
   */
  | {
      k: 'cas';
      read: number;
      /** The write of a successful one (-1: a failure). */
      write: number;
      expected: Op;
      ok: boolean;
      /** `cmpxchg weak`: may fail even when the values match (LLVM LangRef: "may fail spuriously"). */
      weak: boolean;
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

/** A step setting register `dst` to the constant `v`. */
function constant(dst: number, v: number, width: number): ProgramStep {
  return { k: 'bin', dst, op: 'add', a: { c: true, v }, b: { c: true, v: 0 }, width };
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
          steps.push({
            k: 'read',
            ev: ev(k, 'read'),
            dst: reg(ins.dst, widthOf(ins.type)),
            okDst: -1,
            width: widthOf(ins.type),
          });
          break;
        case 'store':
        case 'avstore':
          steps.push({ k: 'store', ev: ev(k, 'write'), a: op(ins.value), width: widthOf(ins.type) });
          break;
        case 'rmw': {
          const r = ev(k, 'read');
          const width = widthOf(ins.type);
          steps.push({ k: 'read', ev: r, dst: ins.dst ? reg(ins.dst, width) : -1, okDst: -1, width });
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
          const width = widthOf(ins.type);
          const dst = ins.dst ? reg(ins.dst, width) : -1;
          const okDst = ins.dst ? reg(`${ins.dst}.1`, 1) : -1;
          steps.push({ k: 'read', ev: r, dst, okDst: -1, width });
          steps.push({
            k: 'cas',
            read: r,
            write: w,
            expected: op(ins.expected),
            ok: w >= 0,
            weak: ins.weak,
            width,
          });
          // A success stores the new value whatever it read, also an undef (choice 26; whether an
          // undef read succeeds is the variant's choice, choice 11).
          if (w >= 0) steps.push({ k: 'store', ev: w, a: op(ins.desired), width });
          if (okDst >= 0) steps.push(constant(okDst, w >= 0 ? 1 : 0, 1));
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
            steps.push(constant(reg(ins.dst, 1), sk.barrierIsfirst.get(`${t}:${k}`) ?? UNDEF, 1));
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

/**
 * Result of evaluating all threads for one candidate. 'cycle': some value depends on itself through
 * reads-from (out of thin air), so running the program does not compute it: `solve` finds the
 * values that satisfy the cycle. 'cas-mismatch': a cmpxchg read a value that contradicts the
 * outcome the variant assumed. 'assume': a path's branch condition fails.
 */
export type EvalStatus = 'ok' | 'cycle' | 'cas-mismatch' | 'assume';

/** What the evaluator needs of a skeleton: its size and its locations' initial writes. */
export interface EvalLayout {
  n: number;
  locs: readonly { initEvent: number; init: number | 'undef'; type: string }[];
}

/** The integer constants of `cond` (the values a condition compares with). */
export function conditionConstants(cond: Cond | null | undefined): number[] {
  const out: number[] = [];
  const visit = (c: Cond): void => {
    if (c.kind === 'cmp') {
      if (c.rhs.kind === 'int') out.push(c.rhs.value);
    } else if (c.kind === 'not') visit(c.arg);
    else if (c.kind === 'and' || c.kind === 'or') c.args.forEach(visit);
  };
  if (cond) visit(cond);
  return out;
}

const NO_RF = new Int32Array(0);

/** Step kinds of `Evaluator.runSimple`'s plan. */
const SIMPLE_READ = 0;
const SIMPLE_STORE = 1;
const SIMPLE_OTHER = 2;

/** `Evaluator.runSimple`'s plan of programs whose stores all store constants. */
function simplePlan(programs: readonly ThreadProgram[]) {
  const storeEv: number[] = [];
  const storeVal: number[] = [];
  const kind: Uint8Array[] = [];
  const ev: Int32Array[] = [];
  const dst: Int32Array[] = [];
  const reads: Int32Array[] = [];
  for (const p of programs) {
    const n = p.steps.length;
    const k = new Uint8Array(n);
    const e = new Int32Array(n).fill(-1);
    const d = new Int32Array(n).fill(-1);
    p.steps.forEach((s, i) => {
      if (s.k === 'read') {
        k[i] = SIMPLE_READ;
        e[i] = s.ev;
        d[i] = s.dst;
      } else if (s.k === 'store') {
        k[i] = SIMPLE_STORE;
        if (s.ev >= 0) {
          storeEv.push(s.ev);
          storeVal.push(wrap((s.a as { v: number }).v, s.width));
        }
      } else k[i] = SIMPLE_OTHER;
    });
    kind.push(k);
    ev.push(e);
    dst.push(d);
    reads.push(Int32Array.from(p.steps.flatMap((s) => (s.k === 'read' && s.ev >= 0 ? [s.ev] : []))));
  }
  return {
    storeEv: Int32Array.from(storeEv),
    storeVal: Float64Array.from(storeVal),
    kind,
    ev,
    dst,
    reads,
    lastSrc: reads.map((r) => new Int32Array(r.length)),
    lastStatus: new Uint8Array(programs.length),
  };
}

/**
 * Preallocated evaluation state for one skeleton: `writeVal[e]` for write events, `regs[t]` per
 * thread. `run` fills them for the rf choice `rfSrc[e]` (source write of read `e`, or -1 = undef).
 *
 * **Thin-air values** (docs/model.md, "Values out of thin air"). When a value depends on itself
 * through reads-from (load buffering through data dependencies: each thread stores what it loaded),
 * running the program computes nothing for it: `run` answers 'cycle'. The candidate's values are
 * then the solutions of the equations the cycle states, each read's value being the value its
 * source write computes. `solve` enumerates those solutions over a finite domain: every read on a
 * cycle takes a value of the domain, built from the test's constants (its programs, its initial
 * values, the condition's constants given as `extra`) and the values the candidate computes apart
 * from the cycle, each with its two neighbours (v − 1, v + 1, wrapped to the read's width) so that
 * every comparison with a constant can come out either way. It guesses the value of one read on a
 * cycle at a time (each guess breaks the cycles through that read), runs the program, and keeps the
 * guesses that the writes they read reproduce, cutting a branch as soon as a source contradicts its
 * guess. `valuations` runs and solves in one call; an RMW whose read reads its own write has no
 * valuation at all (`readsOwnWrite`).
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
  /**
   * `runSimple`'s plan, built once: the constant stores (event, wrapped value), and per thread each
   * step's kind (SIMPLE_READ, SIMPLE_STORE, or SIMPLE_OTHER: read from the step object) with a read's
   * event and register. Typed arrays: the leaves of a large search run it hundreds of thousands of
   * times. Per thread, the rf sources its reads had at its last run and that run's outcome (0: none
   * yet, 1: ok, 2: an `assume` failed): every write stores a constant, so a thread whose reads have
   * the same sources computes the same registers again, and is not run again (neighbouring leaves
   * of a search differ in a few reads).
   */
  private readonly plan: {
    storeEv: Int32Array;
    storeVal: Float64Array;
    kind: Uint8Array[];
    ev: Int32Array[];
    dst: Int32Array[];
    reads: Int32Array[];
    lastSrc: Int32Array[];
    lastStatus: Uint8Array;
  } | null;
  /** The cmpxchg whose read value contradicts the assumed outcome, when `run` returns 'cas-mismatch'. */
  mismatch = -1;
  /** The status of the last `valuations`: 'cycle' when its valuations are solutions of a value cycle. */
  status: EvalStatus = 'ok';
  /** The number of valuations the last `valuations` found. */
  count = 0;
  /** The tables of `solve`, built on its first call (`solverTables`). */
  private tables: SolverTables | null = null;
  /** The read and the write of every RMW and successful cmpxchg, as pairs. */
  private readonly rmwPairs: Int32Array;
  private readonly stack: number[] = [];
  /** Per event: whether a read takes `seedVal` instead of its source's value (a guess). */
  private readonly seeded: Uint8Array;
  private readonly seedVal: Float64Array;
  /** The rf choice of the last `run`. */
  private rf: Int32Array = NO_RF;
  /** The reads on a value cycle of the last `solve`, and its solutions (their values, flat). */
  private cycleReads: number[] = [];
  private solutions: number[] = [];
  /** Per width, the guesses of the last `solve` (sorted), built on demand from `domainBase`. */
  private domains: (Float64Array | undefined)[] = [];
  private domainBase: number[] = [];

  constructor(
    sk: EvalLayout,
    readonly programs: ThreadProgram[],
    private readonly extra: readonly number[] = [],
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
    this.plan = this.simple ? simplePlan(programs) : null;
    this.seeded = new Uint8Array(sk.n);
    this.seedVal = new Float64Array(sk.n);
    this.rmwPairs = Int32Array.from(
      programs
        .flatMap((p) => p.steps)
        .flatMap((s) =>
          s.k === 'rmw' && s.ev >= 0 && s.read >= 0
            ? [s.read, s.ev]
            : s.k === 'cas' && s.write >= 0
              ? [s.read, s.write]
              : [],
        ),
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
    const plan = this.plan!;
    const inits = this.initEvents;
    for (let k = 0; k < inits.length; k++) writeVal[inits[k]!] = this.initValues[k]!;
    const { storeEv, storeVal, lastStatus } = plan;
    for (let k = 0; k < storeEv.length; k++) writeVal[storeEv[k]!] = storeVal[k]!;
    for (let t = 0; t < programs.length; t++) {
      const reads = plan.reads[t]!;
      const last = plan.lastSrc[t]!;
      let same = lastStatus[t] !== 0;
      for (let j = 0; j < reads.length; j++) {
        const src = rfSrc[reads[j]!]!;
        if (last[j] !== src) {
          same = false;
          last[j] = src;
        }
      }
      if (!same) lastStatus[t] = this.runThreadSimple(t, rfSrc) ? 1 : 2;
      if (lastStatus[t] === 2) return 'assume';
    }
    return 'ok';
  }

  /** Runs thread `t` of a simple program (`runSimple`); false when one of its `assume`s fails. */
  private runThreadSimple(t: number, rfSrc: Int32Array): boolean {
    const { writeVal } = this;
    const plan = this.plan!;
    const steps = this.programs[t]!.steps;
    const regs = this.regs[t]!;
    regs.fill(UNDEF);
    const kind = plan.kind[t]!;
    const evs = plan.ev[t]!;
    const dsts = plan.dst[t]!;
    for (let i = 0; i < kind.length; i++) {
      const k = kind[i]!;
      if (k === SIMPLE_READ) {
        const ev = evs[i]!;
        const src = ev < 0 ? -1 : rfSrc[ev]!;
        const v = src >= 0 ? writeVal[src]! : UNDEF;
        const dst = dsts[i]!;
        if (dst >= 0) regs[dst] = v;
        if (ev >= 0) writeVal[ev] = v;
        continue;
      }
      if (k === SIMPLE_STORE) continue;
      const s = steps[i]!;
      if (s.k === 'bin') regs[s.dst] = binop(s.op, this.val(s.a, t), this.val(s.b, t), s.width);
      else if (s.k === 'icmp') regs[s.dst] = icmp(s.pred, this.val(s.a, t), this.val(s.b, t), s.width);
      else if (s.k === 'select') {
        const c = this.val(s.cond, t);
        regs[s.dst] = isUndef(c) ? UNDEF : c !== 0 ? this.val(s.a, t) : this.val(s.b, t);
      } else if (s.k === 'copy') regs[s.dst] = regs[s.src]!;
      else if (s.k === 'assume' && !this.assumeHolds(s, t)) return false;
    }
    return true;
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
   * no-thin-air-violating candidates can do (`solve` then finds their values).
   */
  run(rfSrc: Int32Array): EvalStatus {
    if (this.simple) return this.runSimple(rfSrc);
    this.rf = rfSrc;
    this.reset();
    return this.propagate();
  }

  /**
   * Evaluates the candidate `rfSrc` and returns its number of valuations: 1 when `run` computes
   * every value; when values depend on themselves, the number of solutions `solve` finds (`status`
   * 'cycle'); 0 when no valuation exists (`status` says why). The first valuation is loaded;
   * `loadSolution(k)` loads the others.
   */
  valuations(rfSrc: Int32Array): number {
    if (this.readsOwnWrite(rfSrc)) {
      this.status = 'cycle';
      this.cycleReads = [];
      this.count = 0;
      return 0;
    }
    const st = this.run(rfSrc);
    this.status = st;
    this.count = st === 'ok' ? 1 : st === 'cycle' ? this.solve() : 0;
    return this.count;
  }

  /**
   * Whether the read of an RMW or a successful cmpxchg reads the operation's own write: a cycle of
   * one operation, which has no valuation whatever the values (the read of an atomic
   * read-modify-write precedes its write). The AMDGPU model's axioms reject it first; the Vulkan
   * model's relations (search.ts, models/vulkan.cat) do not, and leave it to the values
   * (docs/model-vulkan.md, "Values").
   */
  private readsOwnWrite(rfSrc: Int32Array): boolean {
    const p = this.rmwPairs;
    for (let i = 0; i < p.length; i += 2) if (rfSrc[p[i]!] === p[i + 1]!) return true;
    return false;
  }

  /** Clears every value but the initial writes'. */
  private reset(): void {
    this.known.fill(0);
    for (const r of this.regs) r.fill(UNDEF);
    for (const k of this.regKnown) k.fill(0);
    for (const d of this.done) d.fill(0);
    const inits = this.initEvents;
    for (let k = 0; k < inits.length; k++) {
      this.writeVal[inits[k]!] = this.initValues[k]!;
      this.known[inits[k]!] = 1;
    }
  }

  /** Runs every step whose inputs are known until none is left, or none can run ('cycle'). */
  private propagate(): EvalStatus {
    const { programs, writeVal, known, rf: rfSrc, seeded } = this;
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
            let v: number;
            if (s.ev >= 0 && seeded[s.ev] === 1) v = this.seedVal[s.ev]!;
            else {
              const src = s.ev < 0 ? -1 : rfSrc[s.ev]!;
              if (src >= 0 && known[src] === 0) continue;
              v = src >= 0 ? writeVal[src]! : UNDEF;
            }
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
            // An exchange stores its operand whatever it read (`rmwop`): it does not wait for the read.
            if (!this.ready(s.a, t) || (s.op !== 'xchg' && s.read >= 0 && known[s.read] === 0)) continue;
            if (s.ev >= 0) {
              writeVal[s.ev] = rmwop(s.op, writeVal[s.read]!, this.val(s.a, t), s.width);
              known[s.ev] = 1;
            }
          } else if (s.k === 'cas') {
            if (!this.ready(s.expected, t) || known[s.read] === 0) continue;
            const old = writeVal[s.read]!;
            const exp = this.val(s.expected, t);
            // A success needs equal values; a failure needs different ones unless the cmpxchg is weak.
            const contradicts = s.ok ? old !== exp : !s.weak && old === exp;
            if (!isUndef(old) && !isUndef(exp) && contradicts) {
              this.mismatch = s.read;
              return 'cas-mismatch';
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

  /**
   * After `run` answered 'cycle': finds every solution of the value cycles over the domain (see the
   * class comment) and returns how many; the first is loaded. A read on a cycle whose source
   * computes `undef` has no solution (no guess equals undef).
   */
  solve(): number {
    this.tables ??= solverTables(this.programs, this.writeVal.length, this.initValues, this.extra);
    this.status = 'cycle';
    this.cycleReads = this.readsOnCycles();
    this.domainBase = this.knownValues();
    this.domains = [];
    this.solutions = [];
    this.explore();
    const n = this.cycleReads.length === 0 ? 0 : this.solutions.length / this.cycleReads.length;
    if (n > 0) this.loadSolution(0);
    return n;
  }

  /** Loads solution `k` of the last `solve` (or, after an acyclic run, does nothing for k = 0). */
  loadSolution(k: number): void {
    if (this.status !== 'cycle') return;
    const reads = this.cycleReads;
    for (let i = 0; i < reads.length; i++) {
      this.seeded[reads[i]!] = 1;
      this.seedVal[reads[i]!] = this.solutions[k * reads.length + i]!;
    }
    this.reset();
    const st = this.propagate();
    for (const r of reads) this.seeded[r] = 0;
    if (st !== 'ok') throw new Error(`internal: thin-air solution ${k} does not evaluate (${st})`);
  }

  /** The reads on a value cycle of the last `solve` (event ids, ascending). */
  thinAirReads(): readonly number[] {
    return this.status === 'cycle' ? this.cycleReads : [];
  }

  /** The guesses of the last `solve` for a read of `width` bits (sorted, distinct). */
  domain(width: number): Float64Array {
    let d = this.domains[width];
    if (!d) {
      const base = this.domainBase;
      const all = new Float64Array(3 * base.length);
      let n = 0;
      const top = 2 ** Math.min(width, 53);
      for (let i = 0; i < base.length; i++)
        for (let dv = -1; dv <= 1; dv++) {
          const v = wrap(base[i]! + dv, width);
          if (v >= 0 && v < top) all[n++] = v;
        }
      const sorted = all.subarray(0, n).sort();
      let m = 0;
      for (let i = 0; i < n; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[m++] = sorted[i]!;
      d = sorted.slice(0, m);
      this.domains[width] = d;
    }
    return d;
  }

  /** The constants and every value known at the stall (what the candidate computes apart from the cycles). */
  private knownValues(): number[] {
    const vs = this.tables!.constants.slice();
    const add = (v: number) => {
      if (!isUndef(v)) vs.push(v);
    };
    for (let e = 0; e < this.known.length; e++) if (this.known[e] === 1) add(this.writeVal[e]!);
    for (let t = 0; t < this.regs.length; t++) {
      const r = this.regs[t]!;
      const k = this.regKnown[t]!;
      for (let i = 0; i < r.length; i++) if (k[i] === 1) add(r[i]!);
    }
    return vs;
  }

  /** Guesses reads on cycles depth-first; records each complete evaluation that reproduces its guesses. */
  private explore(): void {
    this.reset();
    const st = this.propagate();
    if (st === 'cas-mismatch' || st === 'assume' || this.contradicted()) return;
    if (st === 'cycle') {
      const r = this.cutRead();
      if (r < 0) return;
      const dom = this.domain(this.tables!.readWidth[r]!);
      this.seeded[r] = 1;
      for (let i = 0; i < dom.length; i++) {
        this.seedVal[r] = dom[i]!;
        this.explore();
      }
      this.seeded[r] = 0;
      return;
    }
    for (const r of this.cycleReads) this.solutions.push(this.writeVal[r]!);
  }

  /**
   * Whether what the guesses so far computed already fails: a guess its source's value contradicts
   * (NaN, undef, equals nothing), or a read on a cycle whose value lies outside the domain. Known
   * values stay what they are whatever the later guesses, so the branch has no solution.
   */
  private contradicted(): boolean {
    for (const r of this.cycleReads) {
      if (this.known[r] === 0) continue;
      const v = this.writeVal[r]!;
      const src = this.rf[r]!;
      if (this.seeded[r] === 1 && this.known[src] === 1 && this.writeVal[src] !== v) return true;
      if (!this.inDomain(r, v)) return true;
    }
    return false;
  }

  private inDomain(r: number, v: number): boolean {
    const d = this.domain(this.tables!.readWidth[r]!);
    let lo = 0;
    let hi = d.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (d[mid] === v) return true;
      if (d[mid]! < v) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }

  /** The not-done steps step `g` (global index) waits for, at the current stall. */
  private waitsFor(g: number, out: number[]): void {
    const rk = this.regKnown[this.tables!.stepThread[g]!]!;
    const ins = this.tables!.regInputs[g]!;
    for (let i = 0; i < ins.length; i += 2) if (rk[ins[i]!] !== 1) out.push(ins[i + 1]!);
    const s = this.tables!.flatSteps[g]!;
    let e = -1;
    if (s.k === 'read') e = s.ev >= 0 && this.seeded[s.ev] === 0 ? this.rf[s.ev]! : -1;
    else if (s.k === 'rmw') e = s.op !== 'xchg' ? s.read : -1;
    else if (s.k === 'cas') e = s.read;
    if (e >= 0 && this.known[e] === 0 && this.tables!.producer[e]! >= 0) out.push(this.tables!.producer[e]!);
  }

  /** Whether the not-done step `g` waits, through other waiting steps, for itself. */
  private onCycle(g: number): boolean {
    const { stack } = this;
    const { seen } = this.tables!;
    seen.fill(0);
    stack.length = 0;
    this.waitsFor(g, stack);
    while (stack.length > 0) {
      const x = stack.pop()!;
      if (x === g) return true;
      if (seen[x]) continue;
      seen[x] = 1;
      this.waitsFor(x, stack);
    }
    return false;
  }

  /** The reads on a value cycle at the current stall (event ids, ascending). */
  private readsOnCycles(): number[] {
    const out: number[] = [];
    for (let e = 0; e < this.tables!.producer.length; e++) {
      const g = this.tables!.producer[e]!;
      if (g >= 0 && this.known[e] === 0 && this.tables!.flatSteps[g]!.k === 'read' && this.onCycle(g))
        out.push(e);
    }
    return out;
  }

  /** The first read on a cycle of the current stall that is not guessed yet (-1: none). */
  private cutRead(): number {
    for (const r of this.cycleReads)
      if (this.known[r] === 0 && this.seeded[r] === 0 && this.onCycle(this.tables!.producer[r]!)) return r;
    return -1;
  }
}

/** What `Evaluator.solve` needs of the programs, built once per evaluator on its first call. */
interface SolverTables {
  /** Every constant of the programs, of the initial values and of `extra`: the domain's base. */
  constants: number[];
  /** Per event: the global index of the step that computes its value (-1: an initial write). */
  producer: Int32Array;
  /** Per read event: its width in bits. */
  readWidth: Uint8Array;
  /** Per global step (the threads' steps one after the other): its thread and the step. */
  stepThread: Int32Array;
  flatSteps: ProgramStep[];
  /**
   * Per global step: its register inputs that some step defines, as pairs (register, global index
   * of the defining step).
   */
  regInputs: Int32Array[];
  /** Scratch of `onCycle`. */
  seen: Uint8Array;
}

function solverTables(
  programs: ThreadProgram[],
  n: number,
  initValues: Float64Array,
  extra: readonly number[],
): SolverTables {
  const flatSteps = programs.flatMap((p) => p.steps);
  const stepThread = new Int32Array(flatSteps.length);
  const producer = new Int32Array(n).fill(-1);
  const readWidth = new Uint8Array(n);
  const consts = new Set<number>(extra);
  for (const v of initValues) consts.add(v);
  let base = 0;
  const defs = programs.map((p, t) => {
    const def = new Int32Array(p.regs.length).fill(-1);
    p.steps.forEach((s, i) => {
      stepThread[base + i] = t;
      for (const o of operandsOf(s)) if (o.c) consts.add(o.v);
      if ((s.k === 'read' || s.k === 'store' || s.k === 'rmw') && s.ev >= 0) producer[s.ev] = base + i;
      if (s.k === 'read' && s.ev >= 0) readWidth[s.ev] = s.width;
      if (
        (s.k === 'read' || s.k === 'bin' || s.k === 'icmp' || s.k === 'select' || s.k === 'copy') &&
        s.dst >= 0
      )
        def[s.dst] = base + i;
    });
    base += p.steps.length;
    return def;
  });
  const regInputs = flatSteps.map((s, g) => {
    const def = defs[stepThread[g]!]!;
    const ins = s.k === 'copy' ? [{ c: false as const, r: s.src }] : operandsOf(s);
    return Int32Array.from(ins.flatMap((o) => (!o.c && def[o.r]! >= 0 ? [o.r, def[o.r]!] : [])));
  });
  return {
    constants: [...consts].filter((v) => !isUndef(v)),
    producer,
    readWidth,
    stepThread,
    flatSteps,
    regInputs,
    seen: new Uint8Array(flatSteps.length),
  };
}

/** The operands of a step (its register inputs and its constants; a copy's source is no operand). */
export function operandsOf(s: ProgramStep): Op[] {
  switch (s.k) {
    case 'store':
    case 'rmw':
      return [s.a];
    case 'cas':
      return [s.expected];
    case 'bin':
    case 'icmp':
    case 'assume':
      return [s.a, s.b];
    case 'select':
      return [s.cond, s.a, s.b];
    case 'read':
    case 'copy':
      return [];
    default:
      return assertNever(s, 'step');
  }
}
