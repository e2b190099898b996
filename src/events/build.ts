/**
 * Small constructors for `Test` ASTs, for tests, property generators and benchmarks that need
 * tests without going through litmus text.
 */

import type {
  AddressSpace,
  BinOp,
  Cond,
  Condition,
  CondTerm,
  IcmpPred,
  Instr,
  LocationSpace,
  Operand,
  Ordering,
  Placement,
  Quantifier,
  RmwOp,
  Scope,
  Span,
  SyncAs,
  Test,
  Thread,
} from '../core/types.ts';

const span: Span = { file: '<built>', offset: 0, line: 1, col: 1, len: 0 };

/** A register name (`r0`) or constant. */
export type Val = number | string;

function operand(v: Val): Operand {
  return typeof v === 'number' ? { kind: 'const', value: v } : { kind: 'reg', name: v };
}

export interface AccessOpts {
  scope?: Scope;
  /** The `-one-as` form of the syncscope. */
  oneAs?: boolean;
  avNone?: boolean;
  space?: AddressSpace;
  /** A fence's `amdgpu-synchronize-as` address spaces. */
  syncAs?: SyncAs[];
}

const flags = (o: AccessOpts) => ({ volatile: false, nontemporal: false, avNone: o.avNone ?? false });
const ss = (o: AccessOpts) => ({ scope: o.scope ?? 'system', oneAs: o.oneAs ?? false });
const ptr = (loc: string, o: AccessOpts) => ({ loc, space: o.space ?? ('generic' as const) });

export function ld(dst: string, loc: string, ordering: Ordering = 'notatomic', o: AccessOpts = {}): Instr {
  return { kind: 'load', span, dst, type: 'i32', ptr: ptr(loc, o), ordering, syncscope: ss(o), ...flags(o) };
}

export function st(loc: string, value: Val, ordering: Ordering = 'notatomic', o: AccessOpts = {}): Instr {
  return {
    kind: 'store',
    span,
    type: 'i32',
    value: operand(value),
    ptr: ptr(loc, o),
    ordering,
    syncscope: ss(o),
    ...flags(o),
  };
}

export function rmw(
  dst: string | null,
  op: RmwOp,
  loc: string,
  value: Val,
  ordering: Ordering = 'monotonic',
  o: AccessOpts = {},
): Instr {
  return {
    kind: 'rmw',
    span,
    dst,
    op,
    type: 'i32',
    ptr: ptr(loc, o),
    value: operand(value),
    ordering,
    syncscope: ss(o),
    ...flags(o),
  };
}

export function cas(
  dst: string | null,
  loc: string,
  expected: Val,
  desired: Val,
  success: Ordering = 'monotonic',
  failure: Ordering = 'monotonic',
  o: AccessOpts = {},
): Instr {
  return {
    kind: 'cmpxchg',
    span,
    dst,
    weak: false,
    type: 'i32',
    ptr: ptr(loc, o),
    expected: operand(expected),
    desired: operand(desired),
    success,
    failure,
    syncscope: ss(o),
    ...flags(o),
  };
}

export function fence(ordering: Ordering, o: AccessOpts = {}): Instr {
  return {
    kind: 'fence',
    span,
    ordering,
    syncscope: ss(o),
    avNone: o.avNone ?? false,
    syncAs: o.syncAs ?? [],
  };
}

/** `call void @llvm.amdgcn.s.barrier()`: arrive and wait on the workgroup barrier. */
export function sbarrier(): Instr {
  return { kind: 'barrier', span, op: 'barrier', id: null, object: null, count: null, dst: null };
}

/** GFX12 split barrier: `s.barrier.signal(id)` (arrive) or `s.barrier.wait(id)`; id -1 is the workgroup barrier. */
export function splitBarrier(op: 'signal' | 'wait', id = -1): Instr {
  return { kind: 'barrier', span, op, id, object: null, count: null, dst: null };
}

/** `%dst = call i1 @llvm.amdgcn.s.barrier.signal.isfirst(i32 id)`. */
export function isfirst(dst: string, id = -1): Instr {
  return { kind: 'barrier', span, op: 'signal_isfirst', id, object: null, count: null, dst };
}

/** GFX12.5 named barrier on object `bar`: `init(bar, n)`, `join(bar)`, `signal.var(bar, n)`. */
export function named(op: 'init' | 'join' | 'signal_var', bar: string, count: number | null = null): Instr {
  return {
    kind: 'barrier',
    span,
    op,
    id: null,
    object: bar,
    count: op === 'join' ? null : (count ?? 1),
    dst: null,
  };
}

/** `s.barrier.leave(i16 id)`: drop the named barrier the thread joined. */
export function leave(id = 1): Instr {
  return { kind: 'barrier', span, op: 'leave', id, object: null, count: null, dst: null };
}

/** The av intrinsics take `ptr addrspace(1)` (a generic pointer is a diagnostic, LT3014). */
export function avst(loc: string, value: Val, scope: Scope): Instr {
  return {
    kind: 'avstore',
    span,
    type: 'i32',
    value: operand(value),
    ptr: ptr(loc, { space: 'global' }),
    scope,
  };
}

export function avld(dst: string, loc: string, scope: Scope): Instr {
  return { kind: 'avload', span, dst, type: 'i32', ptr: ptr(loc, { space: 'global' }), scope };
}

export function bin(dst: string, op: BinOp, a: Val, b: Val): Instr {
  return { kind: 'bin', span, dst, op, type: 'i32', a: operand(a), b: operand(b) };
}

export function icmp(dst: string, pred: IcmpPred, a: Val, b: Val): Instr {
  return { kind: 'icmp', span, dst, pred, type: 'i32', a: operand(a), b: operand(b) };
}

export function select(dst: string, c: Val, a: Val, b: Val): Instr {
  return { kind: 'select', span, dst, type: 'i32', cond: operand(c), a: operand(a), b: operand(b) };
}

export function extract(dst: string, src: string, index: 0 | 1): Instr {
  return { kind: 'extract', span, dst, type: index === 0 ? 'i32' : 'i1', src, index };
}

/** Device placement. */
export function dev(agent: number, cluster: number, workgroup: number, wavefront: number): Placement {
  return { kind: 'device', agent, cluster, workgroup, wavefront };
}

export const host: Placement = { kind: 'host' };

export function thread(name: string, placement: Placement, body: Instr[]): Thread {
  return { name, placement, body, span };
}

export const reg = (thread: string, r: string): CondTerm => ({ kind: 'reg', thread, reg: r, span });
export const mem = (loc: string, thread: string | null = null): CondTerm => ({
  kind: 'mem',
  loc,
  thread,
  span,
});
export const eq = (lhs: CondTerm, v: number | 'undef'): Cond => ({
  kind: 'cmp',
  op: '==',
  lhs,
  rhs: v === 'undef' ? { kind: 'undef' } : { kind: 'int', value: v },
});
export const and = (...args: Cond[]): Cond => ({ kind: 'and', args });
export const or = (...args: Cond[]): Cond => ({ kind: 'or', args });
export const cond = (quantifier: Quantifier, c: Cond): Condition => ({ quantifier, cond: c, span });

export interface TestSpec {
  /** `{ barrier: true }`: a named-barrier object (`target("amdgcn.named.barrier", 0)` in LDS). */
  locs: Record<
    string,
    number | 'undef' | { init: number | 'undef'; space: LocationSpace } | { barrier: true }
  >;
  threads: Thread[];
  cond?: Condition | null;
  name?: string;
}

export function makeTest(spec: TestSpec): Test {
  return {
    arch: 'AMDGPU',
    name: spec.name ?? 'T',
    description: '',
    expects: [],
    locations: Object.entries(spec.locs).map(([name, v]) =>
      typeof v === 'object' && 'barrier' in v
        ? {
            name,
            space: 'local' as const,
            type: 'target("amdgcn.named.barrier", 0)',
            init: 'undef' as const,
            barrier: true,
            span,
          }
        : {
            name,
            space: typeof v === 'object' ? v.space : 'global',
            type: 'i32',
            init: typeof v === 'object' ? v.init : v,
            barrier: false,
            span,
          },
    ),
    threads: spec.threads,
    condition: spec.cond ?? null,
    file: '<built>',
  };
}

/** Thread names P0, P1, … on distinct agents unless `placements` says otherwise. */
export function threads(bodies: Instr[][], placements?: Placement[]): Thread[] {
  return bodies.map((b, i) => thread(`P${i}`, placements?.[i] ?? dev(i, 0, 0, 0), b));
}
