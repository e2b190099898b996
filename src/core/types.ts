/**
 * The shapes every stage shares: scopes, orderings, address spaces, thread placement, and the
 * litmus-test AST (`Test`). No Node APIs here: the web page imports this file.
 *
 * The AST is a plain JSON-able tree (string-literal unions, numbers, arrays) so it survives
 * worker messages and `--json` output unchanged.
 */

/** Source position of an AST node or diagnostic. `line` and `col` are 1-based; `offset` is 0-based. */
export interface Span {
  file: string;
  offset: number;
  line: number;
  col: number;
  len: number;
}

/**
 * AMDGPU synchronisation scopes, widest first.
 * spec: amdgpu-memory-model.rst "AMDGPU scopes" — system, agent, cluster, workgroup, wavefront,
 * singlethread, "arranged from largest scope (system scope) to smallest scope".
 */
export const SCOPES = ['system', 'agent', 'cluster', 'workgroup', 'wavefront', 'singlethread'] as const;
export type Scope = (typeof SCOPES)[number];

/** Rank of a scope: 0 = system (widest) … 5 = singlethread (narrowest). */
export function scopeRank(s: Scope): number {
  return SCOPES.indexOf(s);
}

/** The narrower of two scopes. */
export function narrowerScope(a: Scope, b: Scope): Scope {
  return scopeRank(a) >= scopeRank(b) ? a : b;
}

/**
 * A syncscope as written in IR: a scope and whether it is a `-one-as` form. The 2018 usage document
 * has no `-one-as` scopes; LLVM's current AMDGPUUsage "Memory Scopes" table (added with D59517):
 * "Same as ``agent`` but only synchronizes with other operations within the same address space"
 * (docs/model.md, choice 6).
 */
export interface SyncScope {
  scope: Scope;
  oneAs: boolean;
}

/** LLVM atomic orderings, weakest first; `notatomic` marks plain accesses. */
export const ORDERINGS = [
  'notatomic',
  'unordered',
  'monotonic',
  'acquire',
  'release',
  'acq_rel',
  'seq_cst',
] as const;
export type Ordering = (typeof ORDERINGS)[number];

/** True when `o` has acquire semantics (acquire, acq_rel, seq_cst). */
export function isAcquire(o: Ordering): boolean {
  return o === 'acquire' || o === 'acq_rel' || o === 'seq_cst';
}

/** True when `o` has release semantics (release, acq_rel, seq_cst). */
export function isRelease(o: Ordering): boolean {
  return o === 'release' || o === 'acq_rel' || o === 'seq_cst';
}

/**
 * Address space of a pointer as used by an access. AMDGPU numbering
 * (spec: amdgpu-usage-2018.rst "Address Spaces"): 0 generic (flat), 1 global, 3 local (LDS),
 * 4 constant, 5 private (scratch).
 */
export const ADDRESS_SPACES = ['generic', 'global', 'local', 'constant', 'private'] as const;
export type AddressSpace = (typeof ADDRESS_SPACES)[number];

/** IR `addrspace(N)` number of each address space. */
export const ADDRSPACE_NUMBER: Record<AddressSpace, number> = {
  generic: 0,
  global: 1,
  local: 3,
  constant: 4,
  private: 5,
};

/** Where a declared location lives. A generic pointer names a location of one of these. */
export type LocationSpace = Exclude<AddressSpace, 'generic'>;

/**
 * Placement of a thread (an LLVM "thread", i.e. one work-item / lane) in the hierarchy.
 * Coordinates are hierarchical: two threads share a workgroup instance when they agree on agent,
 * cluster and workgroup. A host (CPU) thread shares only the system scope with GPU threads.
 */
export type Placement =
  | { kind: 'device'; agent: number; cluster: number; workgroup: number; wavefront: number }
  | { kind: 'host' };

/** An integer type as written (`i32`, `i64`, `<4 x i32>` …); values are modelled as integers. */
export type IrType = string;

/** Operand of an instruction: an integer constant or a register defined earlier in the thread. */
export type Operand = { kind: 'const'; value: number } | { kind: 'reg'; name: string };

/** A pointer operand: the location it names and the address space of the pointer type. */
export interface PtrRef {
  /** Location name without the leading `@`. */
  loc: string;
  /** Address space of the pointer (not of the location): `generic` for a flat `ptr`. */
  space: AddressSpace;
}

export const RMW_OPS = ['xchg', 'add', 'sub', 'and', 'or', 'xor', 'max', 'min', 'umax', 'umin'] as const;
export type RmwOp = (typeof RMW_OPS)[number];

export const BIN_OPS = [
  'add',
  'sub',
  'mul',
  'and',
  'or',
  'xor',
  'shl',
  'lshr',
  'ashr',
  'udiv',
  'urem',
] as const;
export type BinOp = (typeof BIN_OPS)[number];

export const ICMP_PREDS = ['eq', 'ne', 'ugt', 'uge', 'ult', 'ule', 'sgt', 'sge', 'slt', 'sle'] as const;
export type IcmpPred = (typeof ICMP_PREDS)[number];

/** Flags shared by memory instructions. */
export interface AccessFlags {
  volatile: boolean;
  /** `!nontemporal` metadata present. */
  nontemporal: boolean;
  /** `!mmra !{!"amdgcn-av", !"none"}` present: no MakeAvailable / MakeVisible (spec: amdgpu-memory-model.rst). */
  avNone: boolean;
}

interface InstrBase {
  span: Span;
}

/** `load` / `load atomic`. `ordering` is `notatomic` for a plain load. */
export interface LoadInstr extends InstrBase, AccessFlags {
  kind: 'load';
  dst: string;
  type: IrType;
  ptr: PtrRef;
  ordering: Ordering;
  syncscope: SyncScope;
}

/** `store` / `store atomic`. */
export interface StoreInstr extends InstrBase, AccessFlags {
  kind: 'store';
  type: IrType;
  value: Operand;
  ptr: PtrRef;
  ordering: Ordering;
  syncscope: SyncScope;
}

/** `atomicrmw`. `dst` is null when the result is unused (lowering picks the no-return form). */
export interface RmwInstr extends InstrBase, AccessFlags {
  kind: 'rmw';
  dst: string | null;
  op: RmwOp;
  type: IrType;
  ptr: PtrRef;
  value: Operand;
  ordering: Ordering;
  syncscope: SyncScope;
}

/** `cmpxchg`. Its result register holds `{ old, success }`; see `ExtractInstr`. */
export interface CmpxchgInstr extends InstrBase, AccessFlags {
  kind: 'cmpxchg';
  dst: string | null;
  weak: boolean;
  type: IrType;
  ptr: PtrRef;
  expected: Operand;
  desired: Operand;
  success: Ordering;
  failure: Ordering;
  syncscope: SyncScope;
}

/**
 * Address spaces an `!mmra !{!"amdgpu-synchronize-as", !"<as>"}` tag can name (LLVM
 * SIMemoryLegalizer.cpp, `ASNames`: "global" → GLOBAL, "local" → LDS).
 */
export const SYNC_AS = ['global', 'local'] as const;
export type SyncAs = (typeof SYNC_AS)[number];

/** `fence`. */
export interface FenceInstr extends InstrBase {
  kind: 'fence';
  ordering: Ordering;
  syncscope: SyncScope;
  avNone: boolean;
  /**
   * The address spaces of its `amdgpu-synchronize-as` MMRA tags, in `SYNC_AS` order without
   * repeats; empty when it has none (then it orders every address space). LLVM
   * SIMemoryLegalizer.cpp, `getAtomicFenceInfo`: the tags replace the fence's ordering address
   * spaces (docs/model.md, choice 33).
   */
  syncAs: SyncAs[];
}

/**
 * `@llvm.amdgcn.wave.barrier()`: keeps the wavefront converged (LLVM declares it `IntrNoMem`,
 * `IntrConvergent`; llc emits only the comment `; wave barrier`). It orders no memory
 * (docs/model.md, choice 34).
 */
export interface WaveBarrierInstr extends InstrBase {
  kind: 'wavebarrier';
}

/**
 * `@llvm.amdgcn.av.global.store.b128(ptr, value, scope)`: a non-atomic store-available
 * (spec: amdgpu-memory-model.rst "store-available").
 */
export interface AvStoreInstr extends InstrBase {
  kind: 'avstore';
  type: IrType;
  value: Operand;
  ptr: PtrRef;
  scope: Scope;
}

/** `@llvm.amdgcn.av.global.load.b128(ptr, scope)`: a non-atomic load-visible. */
export interface AvLoadInstr extends InstrBase {
  kind: 'avload';
  dst: string;
  type: IrType;
  ptr: PtrRef;
  scope: Scope;
}

/** Integer arithmetic on registers: `%r = add i32 %a, 1`. */
export interface BinInstr extends InstrBase {
  kind: 'bin';
  dst: string;
  op: BinOp;
  type: IrType;
  a: Operand;
  b: Operand;
}

/** `%c = icmp eq i32 %a, 1` (result 0 or 1). */
export interface IcmpInstr extends InstrBase {
  kind: 'icmp';
  dst: string;
  pred: IcmpPred;
  type: IrType;
  a: Operand;
  b: Operand;
}

/** `%r = select i1 %c, i32 %a, i32 %b`. */
export interface SelectInstr extends InstrBase {
  kind: 'select';
  dst: string;
  type: IrType;
  cond: Operand;
  a: Operand;
  b: Operand;
}

/** `%v = extractvalue { i32, i1 } %pair, 0|1`: the old value (0) or success flag (1) of a cmpxchg. */
export interface ExtractInstr extends InstrBase {
  kind: 'extract';
  dst: string;
  type: IrType;
  src: string;
  index: 0 | 1;
}

/**
 * Barrier operations (seeds/001 "Execution Model"), spelled as the AMDGPU intrinsics:
 * - `barrier`: `@llvm.amdgcn.s.barrier()` — arrive and wait on the workgroup barrier;
 * - `signal` (arrive), `signal_isfirst`, `wait`: the GFX12 split barrier with an immediate id
 *   (`-1` the workgroup barrier, `-2`/`-3`/`-4` … as seeds/001 lists);
 * - `init`, `join`, `signal_var` (arrive), `leave` (drop): GFX12.5 named barriers, whose object is an
 *   LDS location declared with type `target("amdgcn.named.barrier", 0)`.
 */
export type BarrierOp =
  | 'barrier'
  | 'signal'
  | 'signal_isfirst'
  | 'wait'
  | 'init'
  | 'join'
  | 'signal_var'
  | 'leave';

export interface BarrierInstr extends InstrBase {
  kind: 'barrier';
  op: BarrierOp;
  /** Immediate barrier id for `signal`, `signal_isfirst`, `wait`, `leave`; null otherwise. */
  id: number | null;
  /** Named-barrier object (location name) for `init`, `join`, `signal_var`; null otherwise. */
  object: string | null;
  /** Member count for `init` and `signal_var`; null otherwise. */
  count: number | null;
  /** Result register of `signal_isfirst`. */
  dst: string | null;
}

export type Instr =
  | LoadInstr
  | StoreInstr
  | RmwInstr
  | CmpxchgInstr
  | FenceInstr
  | AvStoreInstr
  | AvLoadInstr
  | BinInstr
  | IcmpInstr
  | SelectInstr
  | ExtractInstr
  | BarrierInstr
  | WaveBarrierInstr;

/** A declared memory location: `@x = addrspace(1) global i32 0`. */
export interface Location {
  name: string;
  space: LocationSpace;
  type: IrType;
  /** Initial value; `undef` for `undef`/`poison` initialisers (no initial write). */
  init: number | 'undef';
  /** A named-barrier object (`target("amdgcn.named.barrier", 0)`), not data memory. */
  barrier: boolean;
  span: Span;
}

export interface Thread {
  name: string;
  placement: Placement;
  body: Instr[];
  span: Span;
}

/** A value in a condition. */
export type CondValue = { kind: 'int'; value: number } | { kind: 'undef' };

/** A term of a condition: a thread's final register, or a location's final value. */
export type CondTerm =
  | { kind: 'reg'; thread: string; reg: string; span: Span }
  /** `@x`, or `P1:@x` for the copy of a local location seen by thread P1. */
  | { kind: 'mem'; loc: string; thread: string | null; span: Span };

export type Cond =
  | { kind: 'true' }
  | { kind: 'false' }
  | { kind: 'cmp'; op: '==' | '!='; lhs: CondTerm; rhs: CondValue }
  | { kind: 'not'; arg: Cond }
  | { kind: 'and'; args: Cond[] }
  | { kind: 'or'; args: Cond[] };

export type Quantifier = 'exists' | 'not exists' | 'forall';

export interface Condition {
  quantifier: Quantifier;
  cond: Cond;
  span: Span;
}

/**
 * Catalogue expectations (`expect:` lines).
 * - condition: the final condition holds / does not / holds only if undef takes suitable values;
 * - race: some consistent execution has a data race, or none does;
 * - undef: some consistent execution has a read returning undef, or none does;
 * - ub: some execution has undefined behaviour (barriers), or none does.
 */
export type Expectation =
  | { key: 'condition'; value: 'holds' | 'fails' | 'unknown'; span: Span }
  | { key: 'race'; value: 'racy' | 'race-free'; span: Span }
  | { key: 'undef'; value: 'undef' | 'no-undef'; span: Span }
  | { key: 'ub'; value: 'ub' | 'no-ub'; span: Span };

export type ExpectKey = Expectation['key'];

/** A parsed litmus test. */
export interface Test {
  arch: 'AMDGPU';
  name: string;
  description: string;
  expects: Expectation[];
  locations: Location[];
  threads: Thread[];
  condition: Condition | null;
  /** The file the test came from (as given to the parser). */
  file: string;
}

/** Exhaustiveness helper for switch statements over unions. */
export function assertNever(x: never, what = 'value'): never {
  throw new Error(`unexpected ${what}: ${JSON.stringify(x)}`);
}

/** Internal invariant check; throws (bad input never reaches here: it is a diagnostic). */
export function assert(cond: unknown, msg = 'assertion failed'): asserts cond {
  if (!cond) throw new Error(msg);
}
