/**
 * From a lowered test to the machine's program: each thread's machine instructions in order, the
 * one memory instruction of each IR access bound to its location and registers, the thread-local
 * arithmetic kept as it is. An instruction the machine does not implement makes the whole test
 * `unsupported` with the reason — never silently dropped, since it may order memory.
 *
 * No Node APIs here.
 */

import { type Diagnostic, diag } from '../core/diagnostics.ts';
import type { BinOp, IcmpPred, Operand, RmwOp, Span, Test } from '../core/types.ts';
import { widthOf } from '../core/values.ts';
import type { BarrierIsaInstr, Counter, IsaInstr, VmemInstr } from '../lower/isa.ts';
import { formatIsa } from '../lower/isa.ts';
import type { LscFenceOp, XeBarrierInstr, XeGenericSpace } from '../lower/isa-xe.ts';
import { lowerTest } from '../lower/lower.ts';
import type { LowerCtx } from '../lower/types.ts';
import { isLowered } from '../lower/types.ts';
import type { FamilyConfig, MachineMode } from './config.ts';

/** A register operand resolved to its index, or a constant. */
export type MOperand = { c: true; v: number } | { c: false; r: number };

/** How an access reaches memory: through the vector caches, to the LDS, or to the thread's scratch. */
export type Path = 'vmem' | 'lds' | 'private';

/** One machine instruction of a thread. */
export type MInstr =
  | {
      k: 'mem';
      text: string;
      /** The IR instruction it implements (index into the thread's body). */
      ir: number;
      acc: 'load' | 'store' | 'rmw' | 'cas';
      path: Path;
      loc: number;
      rank: number;
      counters: Counter[];
      /** Store / rmw operand. */
      a: MOperand | null;
      /** cmpxchg expected and desired. */
      exp: MOperand | null;
      rmw: RmwOp | null;
      weak: boolean;
      dst: number;
      okDst: number;
      width: number;
      /** The generic (flat) encoding: its completion may be reported out of order. */
      flat: boolean;
      /**
       * Intel Xe: an atomic on global memory, which takes the L3's coherent pipeline (plain accesses take
       * the other one; `RequestOrder.pipes`).
       */
      coherent: boolean;
      /** An atomic whose IR result is used but whose return bit is clear: it writes no register. */
      unreturned: boolean;
    }
  /**
   * A wait until each counter is down to its count (`counts`, zero for the tables' waits). A count
   * above zero excuses the last ones counted on it (`excused`: instruction indices of the thread), as
   * completion is reported in issue order within a type; where it may not be (flat instructions
   * counted, or several lanes sharing the counter), the wait only bounds how many are outstanding
   * (`loose`).
   */
  | { k: 'wait'; text: string; counters: Counter[]; counts: number[]; excused: number[]; loose: boolean }
  | { k: 'inv'; text: string; from: number; below: number; counters: Counter[]; cite: string }
  | { k: 'wb'; text: string; from: number; below: number; counters: Counter[]; cite: string }
  /**
   * Intel Xe `lsc_fence` (config.ts `FenceSpec`): issues once the wave's earlier requests to its port
   * have been performed, and applies its op to the caches at `levels` of the thread's path as it issues,
   * so the thread goes on only when it is done.
   */
  | {
      k: 'fence';
      text: string;
      port: 'ugm' | 'slm';
      op: Exclude<LscFenceOp, 'flushl3'>;
      levels: number[];
      cite: string;
    }
  /**
   * Barrier operations on object `obj` (an index into `MProgram.barriers`), seeds/001: an arrive
   * (`count`: a new expected count, signal.var; `isfirst`: the register `signal.isfirst` writes, or
   * -1), a wait (`obj` -1: the named barrier object the wave last joined; `nullOk`: without one the
   * wait is on the NULL barrier, a no-op), an init, a join (`obj` -1: the NULL barrier), a leave.
   */
  | { k: 'arrive'; text: string; obj: number; count: number | null; isfirst: number }
  | { k: 'bwait'; text: string; obj: number; nullOk: boolean }
  | { k: 'binit'; text: string; obj: number; count: number }
  | { k: 'join'; text: string; obj: number }
  | { k: 'leave'; text: string }
  /** An instruction with no effect on the machine (`s_mov_b32 m0`, an operation on the NULL barrier). */
  | { k: 'nop'; text: string }
  | { k: 'bin'; text: string; dst: number; op: BinOp; a: MOperand; b: MOperand; width: number }
  | { k: 'icmp'; text: string; dst: number; pred: IcmpPred; a: MOperand; b: MOperand; width: number }
  | { k: 'select'; text: string; dst: number; cond: MOperand; a: MOperand; b: MOperand }
  | { k: 'copy'; text: string; dst: number; src: number };

/** A location instance: LDS once per work-group, private once per thread. */
export interface MLoc {
  name: string;
  space: 'global' | 'constant' | 'local' | 'private';
  /** `a0.c0.w1` for LDS, the thread name for private, null otherwise. */
  owner: string | null;
  init: number;
}

export interface MThread {
  name: string;
  instrs: MInstr[];
  /**
   * Per machine instruction, the source line of the IR instruction it implements: the map from the
   * machine code (the documents' or llc-22's, split at the IR instructions) back to the test.
   */
  lines: number[];
  regs: string[];
  /** Work-group key (`a0.c0.w0`). */
  wg: string;
  /** Cluster key (`a0.c0`). */
  cluster: string;
  /** Wavefront key (`a0.c0.w0.f1`): threads with the same key are lanes of one wavefront. */
  wave: string;
}

/**
 * A barrier object (seeds/001 "Barrier Objects"): the workgroup barrier of a work-group, the cluster
 * barrier of a cluster, or a named barrier object of a work-group.
 */
export interface MBarrier {
  /** `wg:a0.c0.w1`, `cluster:a0.c0`, `named1@a0.c0.w1`. */
  key: string;
  kind: 'workgroup' | 'cluster' | 'named';
  /**
   * The expected count the hardware initialises it with (seeds/001: the waves of the work-group, the
   * work-groups of the cluster), or -1 for a named object, which needs an init.
   */
  expected: number;
  /** Work-group or cluster key: whose waves drop it when they end (named objects: none). */
  owner: string | null;
}

export interface MProgram {
  threads: MThread[];
  locs: MLoc[];
  barriers: MBarrier[];
}

/** Per thread, per IR instruction: its machine code (from `gpumm lower` or from llc-22). */
export type LoweredCode = readonly (readonly (readonly IsaInstr[])[])[];

/** A test's code, or why it has none (a lowering refusal, an instruction llc-22 fails on, a table without the cell). */
export type CodeOrWhy = LoweredCode | { error: Diagnostic };

/** MC1010 for instruction `text` of `thread`. */
function notImplemented(thread: string, text: string, family: string, span: Span): Diagnostic {
  return diag('MC1010', span, { thread, instr: text, family });
}

/** Per thread, per IR instruction, the documents' machine code; or why the test does not lower. */
export function docCode(test: Test, ctx: LowerCtx): CodeOrWhy {
  const lowered = lowerTest(test, ctx);
  const out: IsaInstr[][][] = [];
  for (const th of lowered) {
    const seqs: IsaInstr[][] = [];
    for (const li of th.instrs) {
      if (!isLowered(li.result)) return { error: li.result.diagnostic };
      seqs.push(li.result.seq);
    }
    out.push(seqs);
  }
  return out;
}

/** Compiles a lowered test for a family's machine, or says which instruction it cannot run. */
export function compileProgram(
  test: Test,
  code: LoweredCode,
  cfg: FamilyConfig,
  mode: MachineMode = 'cu',
): { program: MProgram } | { unsupported: Diagnostic } {
  const locs: MLoc[] = [];
  const locIndex = (name: string, t: number): number => {
    const decl = test.locations.find((l) => l.name === name);
    if (!decl) return -1;
    const th = test.threads[t]!;
    const p = th.placement;
    const owner =
      decl.space === 'local'
        ? p.kind === 'device'
          ? `a${p.agent}.c${p.cluster}.w${p.workgroup}`
          : null
        : decl.space === 'private'
          ? th.name
          : null;
    let k = locs.findIndex((l) => l.name === name && l.owner === owner);
    if (k < 0)
      k =
        locs.push({
          name,
          space: decl.space,
          owner,
          init: decl.init === 'undef' ? Number.NaN : decl.init,
        }) - 1;
    return k;
  };
  // Every declared instance exists even if unused, so final memory can name it.
  for (const l of test.locations) {
    if (l.barrier) continue;
    const perThread = l.space === 'local' || l.space === 'private';
    for (let t = 0; t < (perThread ? test.threads.length : 1); t++) locIndex(l.name, t);
  }

  const barriers: MBarrier[] = [];
  const keyOf = (t: number) => {
    const p = test.threads[t]!.placement;
    return p.kind === 'device'
      ? {
          wg: `a${p.agent}.c${p.cluster}.w${p.workgroup}`,
          cluster: `a${p.agent}.c${p.cluster}`,
          wave: p.wavefront,
        }
      : null;
  };
  const countDistinct = (f: (k: NonNullable<ReturnType<typeof keyOf>>) => string | null): number =>
    new Set(
      test.threads.flatMap((_, u) => {
        const k = keyOf(u);
        const v = k ? f(k) : null;
        return v === null ? [] : [v];
      }),
    ).size;
  const barrier = (kind: MBarrier['kind'], t: number, id = 0): number => {
    const k = keyOf(t)!;
    const key =
      kind === 'workgroup'
        ? `wg:${k.wg}`
        : kind === 'cluster'
          ? `cluster:${k.cluster}`
          : `named${id}@${k.wg}`;
    let b = barriers.findIndex((x) => x.key === key);
    if (b >= 0) return b;
    // seeds/001, init -1: "The expected count of this barrier is set to the number of waves in the
    // workgroup"; init -3: "… to the number of workgroups in the workgroup cluster"; named objects
    // [1, 16] are set by s_barrier_init.
    const expected =
      kind === 'workgroup'
        ? countDistinct((x) => (x.wg === k.wg ? `${x.wave}` : null))
        : kind === 'cluster'
          ? countDistinct((x) => (x.cluster === k.cluster ? x.wg : null))
          : -1;
    b =
      barriers.push({
        key,
        kind,
        expected,
        owner: kind === 'workgroup' ? k.wg : kind === 'cluster' ? k.cluster : null,
      }) - 1;
    return b;
  };

  const threads: MThread[] = [];
  for (let t = 0; t < test.threads.length; t++) {
    const th = test.threads[t]!;
    if (th.placement.kind === 'host') return { unsupported: diag('MC1001', null, { thread: th.name }) };
    /** `m0` as the thread's `s_mov_b32 m0` instructions set it (straight-line code). */
    let m0 = 0;
    const regs: string[] = [];
    const reg = (name: string): number => {
      const n = name.startsWith('%') ? name.slice(1) : name;
      let i = regs.indexOf(n);
      if (i < 0) i = regs.push(n) - 1;
      return i;
    };
    const op = (o: Operand): MOperand =>
      o.kind === 'const' ? { c: true, v: o.value } : { c: false, r: reg(o.name) };
    const instrs: MInstr[] = [];
    const lines: number[] = [];
    let line = 0;
    const emit = (...xs: MInstr[]) => {
      for (const x of xs) {
        instrs.push(x);
        lines.push(line);
      }
    };
    const thCode = code[t] ?? [];
    for (let k = 0; k < th.body.length; k++) {
      const ir = th.body[k]!;
      line = ir.span.line;
      let seq = thCode[k] ?? [];
      // Thread-local computation: no machine code of its own.
      switch (ir.kind) {
        case 'bin':
          emit({
            k: 'bin',
            text: ir.op,
            dst: reg(ir.dst),
            op: ir.op,
            a: op(ir.a),
            b: op(ir.b),
            width: widthOf(ir.type),
          });
          continue;
        case 'icmp':
          emit({
            k: 'icmp',
            text: `icmp ${ir.pred}`,
            dst: reg(ir.dst),
            pred: ir.pred,
            a: op(ir.a),
            b: op(ir.b),
            width: widthOf(ir.type),
          });
          continue;
        case 'select':
          emit({
            k: 'select',
            text: 'select',
            dst: reg(ir.dst),
            cond: op(ir.cond),
            a: op(ir.a),
            b: op(ir.b),
          });
          continue;
        case 'extract':
          emit({
            k: 'copy',
            text: 'extractvalue',
            dst: reg(ir.dst),
            src: reg(ir.index === 0 ? ir.src : `${ir.src}.1`),
          });
          continue;
        default:
      }
      if (seq.some((i) => i.kind === 'xe_generic')) {
        // Intel Xe generic pointers: the compiler reads the pointer's tag and branches to the access for
        // its address space (isa-xe.ts XeGenericInstr); the machine runs the branch of the space the
        // location is declared in (constant memory is global memory the kernel does not write).
        const decl = 'ptr' in ir ? test.locations.find((l) => l.name === ir.ptr.loc) : undefined;
        if (!decl)
          return { unsupported: diag('MC1002', ir.span, { thread: th.name, line: String(ir.span.line) }) };
        const space: XeGenericSpace = decl.space === 'constant' ? 'global' : (decl.space as XeGenericSpace);
        const flat: IsaInstr[] = [];
        for (const i of seq) {
          if (i.kind !== 'xe_generic') flat.push(i);
          else {
            const branch = i.branches.find((b) => b.spaces.includes(space));
            if (!branch)
              return {
                unsupported: diag('MC1003', ir.span, { thread: th.name, line: String(ir.span.line), space }),
              };
            flat.push(...branch.seq);
          }
        }
        seq = flat;
      }
      let accesses = seq.filter((i) => i.kind === 'vmem' || i.kind === 'lds' || i.kind === 'lsc');
      const opOf = (i: IsaInstr | undefined) => (i?.kind === 'vmem' || i?.kind === 'lsc' ? i.op : null);
      // The av intrinsics are one load or store (lower.ts lowerAvCell: the monotonic row at 128 bits).
      // The machine performs the whole access at once: a location holds one value of the test's type,
      // so a 128-bit access cannot be seen torn.
      const isAccess =
        ir.kind === 'load' ||
        ir.kind === 'store' ||
        ir.kind === 'rmw' ||
        ir.kind === 'cmpxchg' ||
        ir.kind === 'avload' ||
        ir.kind === 'avstore';
      const privateLoc =
        'ptr' in ir && test.locations.find((l) => l.name === ir.ptr.loc)?.space === 'private';
      if (
        (ir.kind === 'rmw' || ir.kind === 'cmpxchg') &&
        privateLoc &&
        accesses.length === 2 &&
        opOf(accesses[0]) === 'load' &&
        opOf(accesses[1]) === 'store'
      ) {
        // A private read-modify-write as a load then a store (the documents: "all accesses are
        // treated as non-atomic"; llc-22 expands it so): private memory is one thread's, so nothing
        // comes between the two — the machine performs them as one access, at the store.
        seq = seq.filter((i) => i !== accesses[0]);
        accesses = [accesses[1]!];
      }
      if (isAccess && accesses.length !== 1)
        return {
          unsupported: diag('MC1004', ir.span, {
            thread: th.name,
            kind: ir.kind,
            line: String(ir.span.line),
            count: String(accesses.length),
            seq: seq.map(formatIsa).join('; '),
          }),
        };
      if (!isAccess && accesses.length > 0)
        return { unsupported: diag('MC1005', ir.span, { thread: th.name, line: String(ir.span.line) }) };
      for (const i of seq) {
        const text = formatIsa(i);
        switch (i.kind) {
          case 'vmem':
          case 'lds':
          case 'lsc': {
            if (!isAccess) throw new Error('unreachable');
            const loc = locIndex(ir.ptr.loc, t);
            if (loc < 0)
              return { unsupported: diag('MC1006', ir.span, { thread: th.name, loc: ir.ptr.loc }) };
            const space = locs[loc]!.space;
            const path: Path = space === 'local' ? 'lds' : space === 'private' ? 'private' : 'vmem';
            if (path === 'lds' && mode === 'tgsplit')
              // AMDGPUUsage "Memory Model GFX90A"/"GFX942": "The exception is when in tgsplit execution
              // mode when no LDS is allocated as wavefronts of the same work-group can be in different CUs."
              return {
                unsupported: diag('MC1007', ir.span, { thread: th.name, loc: ir.ptr.loc }),
              };
            if ((i.kind === 'lds' || (i.kind === 'lsc' && i.sfid === 'slm')) && path !== 'lds')
              return {
                unsupported: diag('MC1008', ir.span, { thread: th.name, instr: text, loc: ir.ptr.loc }),
              };
            if (
              ((i.kind === 'vmem' && i.enc !== 'flat') || (i.kind === 'lsc' && i.sfid === 'ugm')) &&
              path === 'lds'
            )
              return {
                unsupported: diag('MC1009', ir.span, { thread: th.name, instr: text, loc: ir.ptr.loc }),
              };
            if (i.kind === 'lsc' && !cfg.lsc)
              return { unsupported: notImplemented(th.name, text, cfg.family, ir.span) };
            // An atomic returns its value only with the family's return bit (config.ts `returns`): without
            // it the register is never written, and the atomic is counted as one that does not return.
            const vm: VmemInstr | null =
              i.kind === 'vmem' ? (i.op === 'atomic' ? { ...i, returns: cfg.returns(i) } : i) : null;
            // Only an atomic instruction has a return bit (llc-22 may implement an RMW as a load).
            const returns = vm === null || vm.op !== 'atomic' || vm.returns;
            const counters = i.kind === 'lsc' ? [] : cfg.counters(vm ?? i);
            const acc =
              ir.kind === 'load' || ir.kind === 'avload'
                ? 'load'
                : ir.kind === 'store' || ir.kind === 'avstore'
                  ? 'store'
                  : ir.kind === 'rmw'
                    ? 'rmw'
                    : 'cas';
            const base = {
              k: 'mem' as const,
              text,
              ir: k,
              acc: acc as 'load' | 'store' | 'rmw' | 'cas',
              path,
              loc,
              rank: vm ? cfg.rank(vm) : i.kind === 'lsc' && path === 'vmem' ? cfg.lsc!.rank(i) : 0,
              counters,
              a: null as MOperand | null,
              exp: null as MOperand | null,
              rmw: null as RmwOp | null,
              weak: false,
              dst: -1,
              okDst: -1,
              width: widthOf(ir.type),
              flat: vm !== null && vm.enc === 'flat',
              coherent: i.kind === 'lsc' && i.op === 'atomic' && path === 'vmem',
              unreturned: !returns && (ir.kind === 'rmw' || ir.kind === 'cmpxchg') && ir.dst !== null,
            };
            if (ir.kind === 'load' || ir.kind === 'avload') base.dst = reg(ir.dst);
            else if (ir.kind === 'store' || ir.kind === 'avstore') base.a = op(ir.value);
            else if (ir.kind === 'rmw') {
              base.a = op(ir.value);
              base.rmw = ir.op;
              // A register the atomic does not return to is never written (it stays undef).
              if (ir.dst !== null) {
                const d = reg(ir.dst);
                if (returns) base.dst = d;
              }
            } else {
              base.exp = op(ir.expected);
              base.a = op(ir.desired);
              base.weak = ir.weak;
              if (ir.dst !== null) {
                const d = reg(ir.dst);
                const ok = reg(`${ir.dst}.1`);
                if (returns) {
                  base.dst = d;
                  base.okDst = ok;
                }
              }
            }
            emit(base);
            break;
          }
          case 'wait': {
            const unknown = i.counters.filter((c) => !cfg.knownCounters.includes(c));
            if (unknown.length > 0)
              return {
                unsupported: diag('MC1011', ir.span, {
                  thread: th.name,
                  instr: text,
                  counters: unknown.join(', '),
                  family: cfg.family,
                }),
              };
            const counts = i.counters.map((_, n) => i.counts?.[n] ?? 0);
            const excused: number[] = [];
            let loose = false;
            i.counters.forEach((c, n) => {
              const want = counts[n]!;
              if (want === 0) return;
              // amdgpu-usage-2018.rst: "completion is reported to a wavefront in execution order"
              // (gfx12: "in-order within a type"), except that flat instructions "can report out of
              // vector memory order if they access LDS memory, and out of LDS operation order if
              // they access global memory".
              const counted = instrs.flatMap((x, idx) =>
                (x.k === 'mem' || x.k === 'inv' || x.k === 'wb') && x.counters.includes(c) ? [idx] : [],
              );
              if (
                counted.some((idx) => {
                  const x = instrs[idx]!;
                  return x.k === 'mem' && x.flat;
                })
              )
                loose = true;
              excused.push(...counted.slice(-want));
            });
            emit({ k: 'wait', text, counters: i.counters, counts, excused, loose });
            break;
          }
          case 'inv': {
            const s = cfg.inv(i);
            if (!s) return { unsupported: notImplemented(th.name, text, cfg.family, ir.span) };
            emit({ k: 'inv', text, from: s.from, below: s.below, counters: s.counters, cite: s.cite });
            break;
          }
          case 'wb': {
            const s = cfg.wb(i);
            if (!s) return { unsupported: notImplemented(th.name, text, cfg.family, ir.span) };
            emit({ k: 'wb', text, from: s.from, below: s.below, counters: s.counters, cite: s.cite });
            break;
          }
          case 'lsc_fence': {
            const f = cfg.lsc?.fence(i) ?? `is not implemented by the ${cfg.family} machine`;
            if (typeof f === 'string')
              return {
                unsupported: diag('MC1012', ir.span, { thread: th.name, instr: text, sep: ': ', why: f }),
              };
            emit({ k: 'fence', text, port: f.port, op: f.op, levels: f.levels, cite: f.cite });
            break;
          }
          case 'xe_barrier':
            emit(...xeBarrierOps(i, text, barrier('workgroup', t)));
            break;
          case 'setm0':
            m0 = i.value;
            emit({ k: 'nop', text });
            break;
          case 'barrier': {
            const isfirst =
              ir.kind === 'barrier' && ir.op === 'signal_isfirst' && ir.dst !== null ? reg(ir.dst) : -1;
            const ops = barrierOps(i, text, m0, isfirst, cfg.barrierIds, (kind, id) => barrier(kind, t, id));
            if (typeof ops === 'string')
              return { unsupported: diag('MC1012', ir.span, { thread: th.name, instr: text, why: ops }) };
            emit(...ops);
            break;
          }
          default:
            return { unsupported: diag('MC1013', ir.span, { thread: th.name }) };
        }
      }
    }
    const k = keyOf(t)!;
    threads.push({
      name: th.name,
      instrs,
      lines,
      regs,
      wg: k.wg,
      cluster: k.cluster,
      wave: `${k.wg}.f${k.wave}`,
    });
  }
  return { program: { threads, locs, barriers } };
}

/**
 * Intel Xe's work-group barrier (vISA BARRIER.md: "The barrier instruction causes the executing thread to
 * wait until all threads in the same thread group have executed the barrier instruction") and its split
 * phases (SBARRIER.md: "A signal operation notifies the other threads that it has reached the barrier,
 * while a wait operation waits for other threads to reach the barrier"), on the work-group's barrier
 * object. BARRIER.md adds that "Memory ordering is also guaranteed by this instruction" without saying
 * which, and vISA emits no fence with it (TranslateSendSync.cpp generateSingleBarrier: "For now produce
 * no fence"): the machine orders no memory at a barrier, which only adds runs (docs/hardware.md).
 */
function xeBarrierOps(i: XeBarrierInstr, text: string, obj: number): MInstr[] {
  const arrive: MInstr = { k: 'arrive', text, obj, count: null, isfirst: -1 };
  const wait: MInstr = { k: 'bwait', text, obj, nullOk: false };
  if (i.mnemonic === 'sbarrier.signal') return [arrive];
  if (i.mnemonic === 'sbarrier.wait') return [wait];
  return [
    { ...arrive, text: `${text} (arrive)` },
    { ...wait, text: `${text} (wait)` },
  ];
}

/**
 * The machine operations of one barrier instruction (seeds/001, tables "s_barrier GFX6-11", "s_barrier
 * GFX12" and "s_barrier IDs GFX12"), or why it is not modelled. `m0` is the thread's m0 when the
 * instruction reads its operand from there: the id in bits [4:0], a member count in bits [22:16].
 */
function barrierOps(
  i: BarrierIsaInstr,
  text: string,
  m0: number,
  isfirst: number,
  ids: readonly number[],
  obj: (kind: MBarrier['kind'], id?: number) => number,
): MInstr[] | string {
  const id = i.viaM0 ? m0 & 0x3f : i.id;
  if (i.mnemonic !== 's_barrier') {
    // seeds/001 "s_barrier IDs GFX12": what the family's hardware has (llc-22 compiles more).
    const named =
      i.mnemonic === 's_barrier_leave' || i.mnemonic === 's_barrier_join' || i.mnemonic === 's_barrier_init';
    if (ids.length === 0) return '(no split or named barriers on this family)';
    if ((id !== null && !ids.includes(id)) || (named && !ids.includes(1)))
      return `(barrier id ${id ?? 'of s_barrier_leave'} is not available on this family)`;
  }
  const m0Count = (m0 >> 16) & 0x7f;
  switch (i.mnemonic) {
    case 's_barrier':
      // "s_barrier GFX6-11": arrive then wait on the workgroup barrier.
      return [
        { k: 'arrive', text: `${text} (arrive)`, obj: obj('workgroup'), count: null, isfirst: -1 },
        { k: 'bwait', text: `${text} (wait)`, obj: obj('workgroup'), nullOk: false },
      ];
    case 's_barrier_signal':
    case 's_barrier_signal_isfirst':
      if (id === -1) return [{ k: 'arrive', text, obj: obj('workgroup'), count: null, isfirst }];
      // -3: "only one wave per workgroup may arrive at the barrier on behalf of its entire workgroup".
      if (id === -3) return [{ k: 'arrive', text, obj: obj('cluster'), count: null, isfirst }];
      // "This is a no-op on the NULL barrier (barrier object 0)."
      if (id === 0) return [{ k: 'nop', text }];
      if (id !== null && id >= 1 && id <= 16)
        // "if there is a non-zero value contained in the bits [22:16] of m0, the expected count of the
        // barrier object is set to that value before the arrive count of the barrier object is incremented".
        return [
          {
            k: 'arrive',
            text,
            obj: obj('named', id),
            count: i.viaM0 && m0Count > 0 ? m0Count : null,
            isfirst,
          },
        ];
      return `(barrier id ${id} is not available to a shader)`;
    case 's_barrier_wait':
      if (id === -1) return [{ k: 'bwait', text, obj: obj('workgroup'), nullOk: false }];
      if (id === -3) return [{ k: 'bwait', text, obj: obj('cluster'), nullOk: false }];
      // "For named barrier objects, this instruction always waits on the last named barrier object that
      // the thread has joined, even if it is different from the barrier object passed to the instruction."
      if (id !== null && id >= 0 && id <= 16) return [{ k: 'bwait', text, obj: -1, nullOk: id === 0 }];
      return `(barrier id ${id} is not available to a shader)`;
    case 's_barrier_init':
      if (id !== null && id >= 1 && id <= 16)
        // "The value to set as the expected count of the barrier is stored in the upper half of m0."
        return [{ k: 'binit', text, obj: obj('named', id), count: m0Count }];
      return `(only named barrier objects 1–16 are initialised by s_barrier_init)`;
    case 's_barrier_join':
      if (id === 0) return [{ k: 'join', text, obj: -1 }];
      if (id !== null && id >= 1 && id <= 16) return [{ k: 'join', text, obj: obj('named', id) }];
      return `(only named barrier objects 0–16 can be joined)`;
    case 's_barrier_leave':
      return [{ k: 'leave', text }];
    default:
      return '(unknown barrier instruction)';
  }
}
