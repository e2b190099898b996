/**
 * Vulkan tests as AMDGPU tests (docs/model-vulkan.md, "Vulkan and AMDGPU"), for
 * `gpumm compare --models vulkan,amdgpu`, `gpumm convert --to gpumm`, `gpumm run --model amdgpu`
 * and `gpumm lower` of a Vulkan file.
 *
 * The mapping follows the AMDGPU memory model's own table of LLVM and SPIR-V equivalents
 * (spec/amdgpu-memory-model.rst, "The Vulkan Memory Model"): a plain LLVM load or store is an
 * OpLoad / OpStore with NonPrivatePointer, the av intrinsics add MakePointerAvailable /
 * MakePointerVisible, atomics are available/visible at their scope and MakeAvailable /
 * MakeVisible at release / acquire unless marked `!mmra !{!"amdgcn-av", !"none"}`, and a fence is
 * an OpMemoryBarrier. Scopes: subgroup → wavefront, workgroup → workgroup, queue family → agent,
 * device → system or agent (`deviceScope`). What the AMDGPU syntax cannot say is a diagnostic
 * (VK4008), never a silent approximation; where the mapping orders more than the Vulkan test (a
 * private access becomes a plain one, storage-class semantics become every address space, an
 * acq_rel with one of .semav/.semvis gets both) the doc says so, and the last is a warning (VK4009).
 * No Node APIs here.
 */

import { diag, type SourceDiagnostic } from '../core/diagnostics.ts';
import type {
  AddressSpace,
  BinOp,
  Cond,
  CondTerm,
  IcmpPred,
  Instr,
  Location,
  Operand,
  Ordering,
  Scope,
  Span,
  Test,
  Thread,
} from '../core/types.ts';
import {
  BRANCH_PRED,
  CMP_PRED,
  type VkCond,
  type VkScope,
  type VkTerm,
  type VkThread,
  type VkValue,
  type VulkanTest,
} from './ast.ts';
import { locationsOf } from './events.ts';
import { type ThreadPath, threadPaths } from './paths.ts';
import { deadInits } from './print.ts';

/** How Vulkan's Device scope maps to AMDGPU (docs/model-vulkan.md): `system` by default. */
export type DeviceScope = 'system' | 'agent';

const FLAGS = { volatile: false, nontemporal: false };
const GLOBAL: AddressSpace = 'global';

function ordering(acquire: boolean, release: boolean): Ordering {
  return acquire && release ? 'acq_rel' : acquire ? 'acquire' : release ? 'release' : 'monotonic';
}

const NEGATE: Record<IcmpPred, IcmpPred> = {
  eq: 'ne',
  ne: 'eq',
  slt: 'sge',
  sge: 'slt',
  sle: 'sgt',
  sgt: 'sle',
  ult: 'uge',
  uge: 'ult',
  ule: 'ugt',
  ugt: 'ule',
};

function nowhere(file: string): Span {
  return { file, offset: 0, line: 1, col: 1, len: 0 };
}

type Report = (what: string, span: Span, fix?: string) => void;

/**
 * A Vulkan test as an AMDGPU test. Each thread must have one path (straight-line code and await
 * loops, whose exit conditions become assumptions of the condition); the filter and the
 * assumptions fold into the condition: `exists (C ∧ A)`, `~exists (C ∧ A)`, `forall (¬A ∨ C)`.
 * `assumption` is A (null when there is none): the final states of the Vulkan test's executions
 * are the AMDGPU test's final states where A holds.
 */
export function vulkanToAmdgpu(
  t: VulkanTest,
  deviceScope: DeviceScope = 'system',
): { test: Test | null; diagnostics: SourceDiagnostic[]; assumption: Cond | null } {
  const diagnostics: SourceDiagnostic[] = [];
  const no: Report = (what, span, fix) =>
    diagnostics.push(diag('VK4008', span, { what, format: 'AMDGPU (gpumm)', fix }));
  const warn = (what: string, span: Span, how: string) =>
    diagnostics.push(diag('VK4009', span, { what, how }));
  const scope = (s: VkScope): Scope =>
    s === 'sg' ? 'wavefront' : s === 'wg' ? 'workgroup' : s === 'qf' ? 'agent' : deviceScope;
  if (deviceScope === 'agent' && new Set(t.threads.map((th) => th.placement.queueFamily)).size > 1)
    no(
      'Device scope as agent scope in a test of several queue families (each one agent)',
      t.threads[0]!.span,
      'device-scope operations would not include each other: use --device-scope system',
    );
  const { rootOf } = locationsOf(t);
  for (const l of t.locations)
    if (l.sameAs !== null) no(`${l.name} declared the same location as ${l.sameAs} (two references)`, l.span);
  for (const s of t.ssw) no('system-synchronizes-with between threads', s.span);
  const names = [...new Set(rootOf.values())];
  const locations: Location[] = names.map((name) => {
    const decl = t.locations.find((l) => l.name === name);
    return {
      name,
      space: 'global',
      type: 'i32',
      init: decl?.init ?? 0,
      barrier: false,
      span: decl?.span ?? nowhere(t.file),
    };
  });
  const assumptions: Cond[] = [];
  const threads: Thread[] = t.threads.map((th) => {
    const paths = threadPaths(th, 0);
    if (paths.length !== 1 || paths[0]!.cut) {
      no(
        `${th.name}'s control flow (${paths.length} paths)`,
        th.span,
        "gpumm's AMDGPU syntax has no branches: only straight-line code and await loops translate",
      );
      return { name: th.name, placement: placementOf(th), body: [], span: th.span };
    }
    return translateThread(t, th, paths[0]!, scope, rootOf, assumptions, no, warn);
  });
  const extra = [...assumptions, ...(t.filter ? [condOf(t, t.filter, threads, no)] : [])];
  let condition: Test['condition'] = null;
  if (t.condition) {
    const c = condOf(t, t.condition.cond, threads, no);
    const q = t.condition.quantifier;
    const cond: Cond =
      extra.length === 0
        ? c
        : q === 'forall'
          ? { kind: 'or', args: [{ kind: 'not', arg: { kind: 'and', args: extra } }, c] }
          : { kind: 'and', args: [c, ...extra] };
    condition = { quantifier: q, cond, span: t.condition.span };
  } else if (extra.length > 0)
    condition = { quantifier: 'exists', cond: { kind: 'and', args: extra }, span: nowhere(t.file) };
  if (diagnostics.some((d) => d.severity === 'error')) return { test: null, diagnostics, assumption: null };
  return {
    assumption: extra.length === 0 ? null : { kind: 'and', args: extra },
    test: {
      arch: 'AMDGPU',
      name: t.name,
      description: t.description.join(' ').replace(/\s+/g, ' ').replace(/"/g, "'").trim(),
      expects: [],
      locations,
      threads,
      condition,
      file: t.file,
    },
    diagnostics,
  };
}

function placementOf(th: VkThread): Thread['placement'] {
  return {
    kind: 'device',
    agent: th.placement.queueFamily,
    cluster: 0,
    workgroup: th.placement.workgroup,
    wavefront: th.placement.subgroup,
  };
}

/**
 * Register names along a path: AMDGPU registers are assigned once, so the last assignment of `r`
 * keeps the name `r` (the one the condition names) and an earlier one at step k is `r.k`.
 */
function namer(th: VkThread, path: ThreadPath) {
  const last = new Map<string, number>();
  path.steps.forEach((s, k) => {
    const i = th.body[s.instr]!;
    if (i.kind === 'ld' || i.kind === 'rmw' || i.kind === 'local') last.set(i.dst, k);
  });
  const cur = new Map<string, string>();
  return {
    assign(r: string, k: number): string {
      const name = last.get(r) === k ? r : `${r}.${k < 0 ? `init` : k}`;
      cur.set(r, name);
      return name;
    },
    read(r: string): string | null {
      return cur.get(r) ?? null;
    },
  };
}

function translateThread(
  t: VulkanTest,
  th: VkThread,
  path: ThreadPath,
  scope: (s: VkScope) => Scope,
  rootOf: Map<string, string>,
  assumptions: Cond[],
  no: Report,
  warn: (what: string, span: Span, how: string) => void,
): Thread {
  const body: Instr[] = [];
  const names = namer(th, path);
  // Initial register values some instruction or the condition can observe: an assignment at the start.
  const dead = deadInits(t);
  for (const r of t.regInits)
    if (r.thread === th.name && !dead.has(`${r.thread}:${r.reg}`))
      body.push({
        kind: 'bin',
        span: r.span,
        dst: names.assign(r.reg, -1),
        op: 'add',
        type: 'i32',
        a: { kind: 'const', value: r.value },
        b: { kind: 'const', value: 0 },
      });
  const operand = (v: VkValue): Operand => {
    if (v.kind === 'const') return { kind: 'const', value: v.value };
    const n = names.read(v.name);
    // A register read before any assignment holds 0, as in the Vulkan model (herd's convention).
    return n === null ? { kind: 'const', value: 0 } : { kind: 'reg', name: n };
  };
  const ptr = (loc: string) => ({ loc: rootOf.get(loc) ?? loc, space: GLOBAL });
  const ss = (s: VkScope) => ({ scope: scope(s), oneAs: false });
  /**
   * `!mmra !{"amdgcn-av", "none"}` when the operation makes nothing available or visible. The mark
   * removes MakeAvailable and MakeVisible together, so an acq_rel with only one of them keeps both.
   */
  const mmra = (release: boolean, semav: boolean, acquire: boolean, semvis: boolean, span: Span): boolean => {
    if (!release && !acquire) return false;
    const wantAv = release && semav;
    const wantVis = acquire && semvis;
    if (release && acquire && wantAv !== wantVis)
      warn(
        `an acq_rel operation with only ${wantAv ? '.semav' : '.semvis'}`,
        span,
        'it gets both MakeAvailable and MakeVisible',
      );
    return !wantAv && !wantVis;
  };
  const plain = {
    ordering: 'notatomic' as const,
    syncscope: { scope: 'system' as const, oneAs: false },
    ...FLAGS,
    avNone: false,
  };
  path.steps.forEach((s, k) => {
    const i = th.body[s.instr]!;
    const span = i.span;
    switch (i.kind) {
      case 'ld':
        if (i.atomic)
          body.push({
            kind: 'load',
            span,
            dst: names.assign(i.dst, k),
            type: 'i32',
            ptr: ptr(i.loc),
            ordering: ordering(i.acquire, false),
            syncscope: ss(i.scope!),
            ...FLAGS,
            avNone: i.acquire && !i.semvis,
          });
        else if (i.vis)
          body.push({
            kind: 'avload',
            span,
            dst: names.assign(i.dst, k),
            type: 'i32',
            ptr: ptr(i.loc),
            scope: scope(i.scope!),
          });
        else
          body.push({
            kind: 'load',
            span,
            dst: names.assign(i.dst, k),
            type: 'i32',
            ptr: ptr(i.loc),
            ...plain,
          });
        return;
      case 'st':
        if (i.atomic)
          body.push({
            kind: 'store',
            span,
            type: 'i32',
            value: operand(i.value),
            ptr: ptr(i.loc),
            ordering: ordering(false, i.release),
            syncscope: ss(i.scope!),
            ...FLAGS,
            avNone: i.release && !i.semav,
          });
        else if (i.av)
          body.push({
            kind: 'avstore',
            span,
            type: 'i32',
            value: operand(i.value),
            ptr: ptr(i.loc),
            scope: scope(i.scope!),
          });
        else
          body.push({ kind: 'store', span, type: 'i32', value: operand(i.value), ptr: ptr(i.loc), ...plain });
        return;
      case 'rmw': {
        const value = operand(i.value);
        body.push({
          kind: 'rmw',
          span,
          dst: names.assign(i.dst, k),
          op: i.op,
          type: 'i32',
          ptr: ptr(i.loc),
          value,
          ordering: ordering(i.acquire, i.release),
          syncscope: ss(i.scope!),
          ...FLAGS,
          avNone: mmra(i.release, i.semav, i.acquire, i.semvis, span),
        });
        return;
      }
      case 'membar':
        body.push({
          kind: 'fence',
          span,
          ordering: ordering(i.acquire, i.release),
          syncscope: ss(i.scope),
          avNone: mmra(i.release, i.semav, i.acquire, i.semvis, span),
          syncAs: [],
        });
        return;
      case 'cbar': {
        if (i.quorum !== null || i.resource !== null)
          no(
            'a named barrier with a quorum',
            span,
            "AMDGPU's workgroup barrier waits for every wave of the workgroup",
          );
        if (i.execScope !== 'wg')
          no(
            `a control barrier of execution scope ${i.execScope}`,
            span,
            'the AMDGPU barrier is the workgroup barrier',
          );
        // OpControlBarrier with semantics as LLVM lowers it: a release fence, the barrier, an
        // acquire fence (seeds/001: a barrier alone orders no memory).
        const none = mmra(i.release, i.semav, i.acquire, i.semvis, span);
        if (i.release)
          body.push({
            kind: 'fence',
            span,
            ordering: 'release',
            syncscope: ss(i.scope),
            avNone: none,
            syncAs: [],
          });
        body.push({ kind: 'barrier', span, op: 'barrier', id: null, object: null, count: null, dst: null });
        if (i.acquire)
          body.push({
            kind: 'fence',
            span,
            ordering: 'acquire',
            syncscope: ss(i.scope),
            avNone: none,
            syncAs: [],
          });
        return;
      }
      case 'avdevice':
      case 'visdevice':
        no(`${i.kind} (a device-domain operation of the API, not a shader instruction)`, span);
        return;
      case 'local':
        body.push({
          kind: 'bin',
          span,
          dst: names.assign(i.dst, k),
          op: i.op as BinOp,
          type: 'i32',
          a: operand(i.a),
          b: operand(i.b),
        });
        return;
      case 'branch': {
        // The outcome the path takes, as an assumption on the registers at this point.
        const pred = s.taken ? BRANCH_PRED[i.cond]! : NEGATE[BRANCH_PRED[i.cond]!];
        const dst = `cond.${k}`;
        body.push({ kind: 'icmp', span, dst, pred, type: 'i32', a: operand(i.a), b: operand(i.b) });
        assumptions.push({
          kind: 'cmp',
          op: '==',
          lhs: { kind: 'reg', thread: th.name, reg: dst, span },
          rhs: { kind: 'int', value: 1 },
        });
        return;
      }
      case 'label':
      case 'goto':
        return;
    }
  });
  return { name: th.name, placement: placementOf(th), body, span: th.span };
}

/**
 * A Vulkan condition as an AMDGPU one. A comparison of two registers of one thread, or one with an
 * order other than == and !=, becomes an `icmp` at the end of that thread.
 */
function condOf(t: VulkanTest, c: VkCond, threads: Thread[], no: Report): Cond {
  switch (c.kind) {
    case 'true':
    case 'false':
      return { kind: c.kind };
    case 'not':
      return { kind: 'not', arg: condOf(t, c.arg, threads, no) };
    case 'and':
    case 'or':
      return { kind: c.kind, args: c.args.map((a) => condOf(t, a, threads, no)) };
    case 'cmp': {
      const term = (x: VkTerm): CondTerm | null =>
        x.kind === 'reg'
          ? { kind: 'reg', thread: x.thread, reg: x.reg, span: x.span }
          : x.kind === 'mem'
            ? { kind: 'mem', loc: x.loc, thread: null, span: x.span }
            : null;
      const simple = (a: VkTerm, b: VkTerm): Cond | null => {
        const ta = term(a);
        if (ta === null || b.kind !== 'const' || (c.op !== '==' && c.op !== '!=')) return null;
        return { kind: 'cmp', op: c.op, lhs: ta, rhs: { kind: 'int', value: b.value } };
      };
      const direct = simple(c.lhs, c.rhs) ?? simple(c.rhs, c.lhs);
      if (direct) return direct;
      const regs = [c.lhs, c.rhs].filter((x): x is Extract<VkTerm, { kind: 'reg' }> => x.kind === 'reg');
      const owner = threads.find((th) => th.name === regs[0]?.thread);
      if (
        !owner ||
        regs.some((r) => r.thread !== owner.name) ||
        [c.lhs, c.rhs].some((x) => x.kind === 'mem')
      ) {
        no(`the comparison ${termText(c.lhs)} ${c.op} ${termText(c.rhs)}`, regs[0]?.span ?? nowhere(t.file));
        return { kind: 'false' };
      }
      const op = (x: VkTerm): Operand =>
        x.kind === 'reg'
          ? { kind: 'reg', name: x.reg }
          : { kind: 'const', value: x.kind === 'const' ? x.value : 0 };
      const dst = `cmp.${owner.body.length}`;
      const span = regs[0]!.span;
      owner.body.push({
        kind: 'icmp',
        span,
        dst,
        pred: CMP_PRED[c.op]!,
        type: 'i32',
        a: op(c.lhs),
        b: op(c.rhs),
      });
      return {
        kind: 'cmp',
        op: '==',
        lhs: { kind: 'reg', thread: owner.name, reg: dst, span },
        rhs: { kind: 'int', value: 1 },
      };
    }
  }
}

function termText(x: VkTerm): string {
  return x.kind === 'reg' ? `${x.thread}:${x.reg}` : x.kind === 'mem' ? x.loc : String(x.value);
}
