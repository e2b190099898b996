/**
 * From a lowered test to the machine's program: each thread's machine instructions in order, the
 * one memory instruction of each IR access bound to its location and registers, the thread-local
 * arithmetic kept as it is. An instruction the machine does not implement makes the whole test
 * `unsupported` with the reason — never silently dropped, since it may order memory.
 *
 * No Node APIs here.
 */

import type { BinOp, IcmpPred, Operand, RmwOp, Test } from '../core/types.ts';
import { widthOf } from '../events/program.ts';
import type { Counter, IsaInstr, VmemInstr } from '../lower/isa.ts';
import { formatIsa } from '../lower/isa.ts';
import { lowerTest } from '../lower/lower.ts';
import type { LowerCtx } from '../lower/types.ts';
import { isLowered } from '../lower/types.ts';
import type { FamilyConfig } from './config.ts';

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
    }
  | { k: 'wait'; text: string; counters: Counter[] }
  | { k: 'inv'; text: string; from: number; below: number; counters: Counter[]; cite: string }
  | { k: 'wb'; text: string; from: number; below: number; counters: Counter[]; cite: string }
  /** Split barrier halves; `s_barrier` is a signal then a wait. */
  | { k: 'signal'; text: string }
  | { k: 'bwait'; text: string }
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
  regs: string[];
  /** Work-group key (`a0.c0.w0`). */
  wg: string;
  /** Wavefront key (`a0.c0.w0.f1`): threads with the same key are lanes of one wavefront. */
  wave: string;
}

export interface MProgram {
  threads: MThread[];
  locs: MLoc[];
}

/** Per thread, per IR instruction: its machine code (from `gpumm lower` or from llc-22). */
export type LoweredCode = readonly (readonly (readonly IsaInstr[])[])[];

/** Per thread, per IR instruction, the documents' machine code; or why the test does not lower. */
export function docCode(test: Test, ctx: LowerCtx): LoweredCode | { error: string } {
  const lowered = lowerTest(test, ctx);
  const out: IsaInstr[][][] = [];
  for (const th of lowered) {
    const seqs: IsaInstr[][] = [];
    for (const li of th.instrs) {
      if (!isLowered(li.result))
        return { error: `${li.result.diagnostic.code} ${li.result.diagnostic.message}` };
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
): { program: MProgram } | { unsupported: string } {
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

  const threads: MThread[] = [];
  for (let t = 0; t < test.threads.length; t++) {
    const th = test.threads[t]!;
    if (th.placement.kind === 'host')
      return { unsupported: `${th.name} is a host thread: the machines model GPU agents only` };
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
    const thCode = code[t] ?? [];
    for (let k = 0; k < th.body.length; k++) {
      const ir = th.body[k]!;
      const seq = thCode[k] ?? [];
      // Thread-local computation: no machine code of its own.
      switch (ir.kind) {
        case 'bin':
          instrs.push({
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
          instrs.push({
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
          instrs.push({
            k: 'select',
            text: 'select',
            dst: reg(ir.dst),
            cond: op(ir.cond),
            a: op(ir.a),
            b: op(ir.b),
          });
          continue;
        case 'extract':
          instrs.push({
            k: 'copy',
            text: 'extractvalue',
            dst: reg(ir.dst),
            src: reg(ir.index === 0 ? ir.src : `${ir.src}.1`),
          });
          continue;
        case 'avload':
        case 'avstore':
          return {
            unsupported: `${th.name}: ${ir.kind === 'avload' ? 'av load' : 'av store'} has no machine code`,
          };
        default:
      }
      const accesses = seq.filter((i) => i.kind === 'vmem' || i.kind === 'lds');
      const isAccess =
        ir.kind === 'load' || ir.kind === 'store' || ir.kind === 'rmw' || ir.kind === 'cmpxchg';
      if (isAccess && accesses.length !== 1)
        return {
          unsupported: `${th.name}: ${ir.kind} at line ${ir.span.line} became ${accesses.length} memory instructions (${seq.map(formatIsa).join('; ')})`,
        };
      if (!isAccess && accesses.length > 0)
        return { unsupported: `${th.name}: line ${ir.span.line} has memory instructions but no access` };
      for (const i of seq) {
        const text = formatIsa(i);
        switch (i.kind) {
          case 'vmem':
          case 'lds': {
            if (!isAccess) throw new Error('unreachable');
            const loc = locIndex(ir.ptr.loc, t);
            if (loc < 0) return { unsupported: `${th.name}: unknown location @${ir.ptr.loc}` };
            const space = locs[loc]!.space;
            const path: Path = space === 'local' ? 'lds' : space === 'private' ? 'private' : 'vmem';
            if (i.kind === 'lds' && path !== 'lds')
              return { unsupported: `${th.name}: ${text} on non-LDS location @${ir.ptr.loc}` };
            if (i.kind === 'vmem' && path === 'lds' && i.enc !== 'flat')
              return { unsupported: `${th.name}: ${text} cannot reach LDS location @${ir.ptr.loc}` };
            const vm: VmemInstr | null = i.kind === 'vmem' ? i : null;
            const counters = cfg.counters(i);
            const acc =
              ir.kind === 'load' ? 'load' : ir.kind === 'store' ? 'store' : ir.kind === 'rmw' ? 'rmw' : 'cas';
            const base = {
              k: 'mem' as const,
              text,
              ir: k,
              acc: acc as 'load' | 'store' | 'rmw' | 'cas',
              path,
              loc,
              rank: vm ? cfg.rank(vm) : 0,
              counters,
              a: null as MOperand | null,
              exp: null as MOperand | null,
              rmw: null as RmwOp | null,
              weak: false,
              dst: -1,
              okDst: -1,
              width: widthOf(ir.type),
            };
            if (ir.kind === 'load') base.dst = reg(ir.dst);
            else if (ir.kind === 'store') base.a = op(ir.value);
            else if (ir.kind === 'rmw') {
              base.a = op(ir.value);
              base.rmw = ir.op;
              if (ir.dst !== null) base.dst = reg(ir.dst);
            } else {
              base.exp = op(ir.expected);
              base.a = op(ir.desired);
              base.weak = ir.weak;
              if (ir.dst !== null) {
                base.dst = reg(ir.dst);
                base.okDst = reg(`${ir.dst}.1`);
              }
            }
            instrs.push(base);
            break;
          }
          case 'wait': {
            const unknown = i.counters.filter((c) => !cfg.knownCounters.includes(c));
            if (unknown.length > 0)
              return {
                unsupported: `${th.name}: ${text} waits on ${unknown.join(', ')}, which ${cfg.family} does not have`,
              };
            instrs.push({ k: 'wait', text, counters: i.counters });
            break;
          }
          case 'inv': {
            const s = cfg.inv(i);
            if (!s)
              return { unsupported: `${th.name}: ${text} is not implemented by the ${cfg.family} machine` };
            instrs.push({ k: 'inv', text, from: s.from, below: s.below, counters: s.counters, cite: s.cite });
            break;
          }
          case 'wb': {
            const s = cfg.wb(i);
            if (!s)
              return { unsupported: `${th.name}: ${text} is not implemented by the ${cfg.family} machine` };
            instrs.push({ k: 'wb', text, from: s.from, below: s.below, counters: s.counters, cite: s.cite });
            break;
          }
          case 'barrier':
            if (i.mnemonic === 's_barrier') {
              instrs.push({ k: 'signal', text: `${text} (arrive)` }, { k: 'bwait', text: `${text} (wait)` });
            } else if (i.mnemonic === 's_barrier_signal' && i.id === -1) {
              instrs.push({ k: 'signal', text });
            } else if (i.mnemonic === 's_barrier_wait' && i.id === -1) {
              instrs.push({ k: 'bwait', text });
            } else
              return {
                unsupported: `${th.name}: ${text} (only the work-group barrier, id -1, is implemented)`,
              };
            break;
          default:
            return { unsupported: `${th.name}: unknown instruction` };
        }
      }
    }
    const p = th.placement;
    const wg = `a${p.agent}.c${p.cluster}.w${p.workgroup}`;
    threads.push({ name: th.name, instrs, regs, wg, wave: `${wg}.f${p.wavefront}` });
  }
  return { program: { threads, locs } };
}
