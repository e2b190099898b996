/**
 * A Vulkan litmus test as gpumm holds it, whichever syntax it came from: Dartagnan's herd-like
 * Vulkan litmus syntax (`src/vulkan/dat3m.ts`) or the Khronos Vulkan-MemoryModel `.test` format
 * (`src/vulkan/khronos.ts`). One AST, two front ends and two printers (`src/vulkan/print.ts`); the
 * Vulkan model (`models/vulkan.cat`, `src/vulkan/search.ts`) reads it through the event builder
 * (`src/vulkan/events.ts`). docs/model-vulkan.md describes the meaning of every field.
 *
 * A plain JSON-able tree, like the AMDGPU `Test` (src/core/types.ts). No Node APIs here.
 */
import type { Expectation, IcmpPred, Quantifier, Span, Test } from '../core/types.ts';

/**
 * Vulkan memory scopes, widest first (Vulkan spec, "Shaders" chapter, scopes; the memory model
 * appendix's memory domains are their duals): device, queue family, workgroup, subgroup.
 */
export const VK_SCOPES = ['dv', 'qf', 'wg', 'sg'] as const;
export type VkScope = (typeof VK_SCOPES)[number];

/** Rank of a scope: 0 = device (widest) … 3 = subgroup. */
export function vkScopeRank(s: VkScope): number {
  return VK_SCOPES.indexOf(s);
}

/** The number of storage classes gpumm's Vulkan model distinguishes (`sc0` … `sc3`). */
export const STORAGE_CLASSES = 4;

/**
 * Where a thread (a shader invocation) runs: its subgroup, workgroup and queue family. Hierarchical
 * like the AMDGPU placement: two invocations share a workgroup when they agree on queue family and
 * workgroup, a subgroup when they also agree on subgroup.
 */
export interface VkPlacement {
  queueFamily: number;
  workgroup: number;
  subgroup: number;
}

/** An operand: an integer constant or a register of the thread. */
export type VkValue = { kind: 'const'; value: number } | { kind: 'reg'; name: string };

interface Base {
  span: Span;
}

/**
 * What every memory access carries: its location, storage class (`sc0`…`sc3`), whether it is
 * atomic, non-private, and its per-instruction availability / visibility operation (`.av` / `.vis`;
 * implicit for atomics), with the scope of that operation or of the atomic.
 */
interface AccessBase extends Base {
  loc: string;
  /** Storage class index 0…3. */
  sc: number;
  atomic: boolean;
  /** Written `.nonpriv` (atomics and `.av`/`.vis` accesses are non-private whatever is written). */
  nonpriv: boolean;
  /** The atomic's scope, or the scope of the `.av`/`.vis` operation; null for a plain access. */
  scope: VkScope | null;
  /** Storage-class semantics as a bit mask (`semsc0` = bit 0 …). */
  semsc: number;
}

/** `ld[.atom][.acq][.vis][.scope].scN[.semscN…][.semvis] r, x`. */
export interface VkLoad extends AccessBase {
  kind: 'ld';
  dst: string;
  acquire: boolean;
  /** `.vis`: a per-instruction visibility operation (MakePointerVisible). */
  vis: boolean;
  semvis: boolean;
}

/** `st[.atom][.rel][.av][.scope].scN[.semscN…][.semav] x, v`. */
export interface VkStore extends AccessBase {
  kind: 'st';
  value: VkValue;
  /**
   * A Khronos store written without a value: `value` is one gpumm chose that no valued load names
   * (printed back without a value).
   */
  fresh: boolean;
  release: boolean;
  /** `.av`: a per-instruction availability operation (MakePointerAvailable). */
  av: boolean;
  semav: boolean;
}

export const VK_RMW_OPS = ['xchg', 'add', 'sub', 'and', 'or', 'xor'] as const;
export type VkRmwOp = (typeof VK_RMW_OPS)[number];

/** `rmw.atom[.mo].scope.scN[.semscN…][.semav][.semvis][.op] r, x, v` (no op: an exchange). */
export interface VkRmw extends AccessBase {
  kind: 'rmw';
  dst: string;
  op: VkRmwOp;
  value: VkValue;
  /** As for `VkStore`: a Khronos RMW written without a value to store. */
  fresh: boolean;
  acquire: boolean;
  release: boolean;
  semav: boolean;
  semvis: boolean;
}

/** `membar.mo.scope[.semscN…][.semav][.semvis]`: OpMemoryBarrier. */
export interface VkMembar extends Base {
  kind: 'membar';
  acquire: boolean;
  release: boolean;
  scope: VkScope;
  semsc: number;
  semav: boolean;
  semvis: boolean;
}

/**
 * `cbar[.mo].scope[.semscN…][.semav][.semvis] id[, resource[, quorum]]`: OpControlBarrier. `id`
 * names the dynamic instance (threads of one execution-scope instance meet at the barriers with the
 * same id); `resource` and `quorum` make it one of Dartagnan's named barriers with a quorum
 * (docs/model-vulkan.md, "Control barriers").
 */
export interface VkCbar extends Base {
  kind: 'cbar';
  acquire: boolean;
  release: boolean;
  /** Memory scope. */
  scope: VkScope;
  /** Execution scope: the instance whose invocations meet (Dartagnan: always the workgroup). */
  execScope: VkScope;
  semsc: number;
  semav: boolean;
  semvis: boolean;
  /** Instance id as written (`00` and `0` are different ids, as in Dartagnan). */
  id: string;
  resource: number | null;
  quorum: number | null;
}

/** `avdevice` / `visdevice`: an availability (visibility) operation of the device domain. */
export interface VkDeviceOp extends Base {
  kind: 'avdevice' | 'visdevice';
}

export const VK_LOCAL_OPS = ['add', 'sub', 'mul', 'and', 'or', 'xor'] as const;
export type VkLocalOp = (typeof VK_LOCAL_OPS)[number];

/** `add r, a, b` (register arithmetic). */
export interface VkLocal extends Base {
  kind: 'local';
  op: VkLocalOp;
  dst: string;
  a: VkValue;
  b: VkValue;
}

/** `LC00:` */
export interface VkLabel extends Base {
  kind: 'label';
  name: string;
}

/** `goto LC00` */
export interface VkGoto extends Base {
  kind: 'goto';
  label: string;
}

export const VK_BRANCH_CONDS = ['beq', 'bne', 'blt', 'ble', 'bgt', 'bge'] as const;
export type VkBranchCond = (typeof VK_BRANCH_CONDS)[number];

/** The comparison a branch makes (signed, as Dartagnan's integers). */
export const BRANCH_PRED: Record<VkBranchCond, IcmpPred> = {
  beq: 'eq',
  bne: 'ne',
  blt: 'slt',
  ble: 'sle',
  bgt: 'sgt',
  bge: 'sge',
};

/** `bne r0, 1, LC01`: jump when the comparison holds. */
export interface VkBranch extends Base {
  kind: 'branch';
  cond: VkBranchCond;
  a: VkValue;
  b: VkValue;
  label: string;
}

export type VkInstr =
  | VkLoad
  | VkStore
  | VkRmw
  | VkMembar
  | VkCbar
  | VkDeviceOp
  | VkLocal
  | VkLabel
  | VkGoto
  | VkBranch;

/** A memory access instruction. */
export type VkAccess = VkLoad | VkStore | VkRmw;

export function isAccess(i: VkInstr): i is VkAccess {
  return i.kind === 'ld' || i.kind === 'st' || i.kind === 'rmw';
}

/**
 * A declared name. Each name is a *reference*; names declared the same location (`SLOC a b` in the
 * Khronos format) are distinct references to one memory location (Vulkan spec, "Reference").
 */
export interface VkLocation {
  name: string;
  init: number;
  /** The name whose location this one shares, or null. */
  sameAs: string | null;
  span: Span;
}

/** `P0:r0 = 1` in the initial state. */
export interface VkRegInit {
  thread: string;
  reg: string;
  value: number;
  span: Span;
}

export interface VkThread {
  name: string;
  /** The thread number `SSW` lines refer to (Khronos `NEWTHREAD n`; `Pn` in the Dartagnan syntax). */
  number: number;
  placement: VkPlacement;
  body: VkInstr[];
  span: Span;
}

/** `ssw P0 P1` / `SSW 0 1`: every operation of the first thread system-synchronizes-with every one of the second. */
export interface VkSsw {
  from: string;
  to: string;
  span: Span;
}

export type VkTerm =
  | { kind: 'reg'; thread: string; reg: string; span: Span }
  | { kind: 'mem'; loc: string; span: Span }
  | { kind: 'const'; value: number; span: Span };

export const VK_CMP_OPS = ['==', '!=', '<', '<=', '>', '>='] as const;
export type VkCmpOp = (typeof VK_CMP_OPS)[number];

/** The comparison a condition's operator makes (signed, as Dartagnan's integers). */
export const CMP_PRED: Record<VkCmpOp, IcmpPred> = {
  '==': 'eq',
  '!=': 'ne',
  '<': 'slt',
  '<=': 'sle',
  '>': 'sgt',
  '>=': 'sge',
};

export type VkCond =
  | { kind: 'true' }
  | { kind: 'false' }
  | { kind: 'cmp'; op: VkCmpOp; lhs: VkTerm; rhs: VkTerm }
  | { kind: 'not'; arg: VkCond }
  | { kind: 'and'; args: VkCond[] }
  | { kind: 'or'; args: VkCond[] };

export interface VkCondition {
  quantifier: Quantifier;
  cond: VkCond;
  span: Span;
}

/**
 * A predicate of a Khronos assertion line, over one consistent execution: `consistent[X]`,
 * `racefree[X]`, `#dr=0`, `#dr>0`, joined by `&&`, `||`, `!` and parentheses.
 */
export type KhronosPred =
  | { kind: 'consistent' }
  | { kind: 'racefree' }
  | { kind: 'racy' }
  | { kind: 'not'; arg: KhronosPred }
  | { kind: 'and'; args: KhronosPred[] }
  | { kind: 'or'; args: KhronosPred[] };

/** `SATISFIABLE [NOCHAINS] pred` / `NOSOLUTION [NOCHAINS] pred`. */
export interface KhronosAssertion {
  expect: 'SATISFIABLE' | 'NOSOLUTION';
  /** Run without availability/visibility chains of more than one element. */
  nochains: boolean;
  pred: KhronosPred;
  /** The predicate as written, for reports. */
  text: string;
  span: Span;
}

export type VkFormat = 'dat3m' | 'khronos';

/** A parsed Vulkan litmus test. */
export interface VulkanTest {
  arch: 'VULKAN';
  /** The syntax it was written in (and `gpumm parse` prints it back in). */
  format: VkFormat;
  name: string;
  /** Quoted descriptions (Dartagnan) or leading `//` comment lines (Khronos). */
  description: string[];
  /** gpumm's `expect:` lines. */
  expects: Expectation[];
  locations: VkLocation[];
  regInits: VkRegInit[];
  threads: VkThread[];
  ssw: VkSsw[];
  /** Executions whose final state does not satisfy the filter are left out (Dartagnan's `filter`). */
  filter: VkCond | null;
  condition: VkCondition | null;
  /** Khronos `SATISFIABLE`/`NOSOLUTION` lines. */
  assertions: KhronosAssertion[];
  file: string;
}

/** Either kind of test gpumm reads. */
export type AnyTest = Test | VulkanTest;

export function isVulkan(t: AnyTest): t is VulkanTest {
  return t.arch === 'VULKAN';
}

/** Calls `f` on each term of each comparison of `c`, left to right. */
export function forEachVkTerm(c: VkCond, f: (t: VkTerm) => void): void {
  switch (c.kind) {
    case 'cmp':
      f(c.lhs);
      f(c.rhs);
      return;
    case 'not':
      forEachVkTerm(c.arg, f);
      return;
    case 'and':
    case 'or':
      for (const a of c.args) forEachVkTerm(a, f);
      return;
    case 'true':
    case 'false':
      return;
  }
}
