/**
 * The events of one variant of a Vulkan test (`src/vulkan/paths.ts`) and every relation fixed
 * before a reads-from / coherence choice: program order along the executed paths, same location,
 * same reference, same subgroup / workgroup / queue family, control-barrier instances,
 * system-synchronizes-with, RMW pairs and data dependencies. The Vulkan cat model
 * (`models/vulkan.cat`, primitives in `src/vulkan/cat-primitives.ts`), the fast search
 * (`src/vulkan/search.ts`) and the brute-force reference (`src/vulkan/reference.ts`) all start
 * from these events.
 *
 * Each executed instruction is one event, an RMW two (its read and its write, related by `rmw`, as
 * gpumm splits AMDGPU RMWs), and each location one initial write. The initial write is not an
 * operation (Vulkan spec, "Allocation": "The initialization is not considered to be a memory
 * operation"): it is in no thread, no program order, no location order and no race, and a read of
 * it is from-read before every other write to the location.
 * No Node APIs here.
 */
import { add, type Relation, relation } from '../core/relation.ts';
import type { Span } from '../core/types.ts';
import { UNDEF } from '../core/values.ts';
import type { EvalLayout, Op, ProgramStep, ThreadProgram } from '../events/program.ts';
import { BRANCH_PRED, type VkInstr, type VkScope, type VkValue, type VulkanTest } from './ast.ts';
import type { PathStep, Variant } from './paths.ts';
import { inScopeOf, shareLevel } from './scopes.ts';

export type VkEventKind = 'init' | 'read' | 'write' | 'fence' | 'cbar' | 'avdevice' | 'visdevice';

/** One event. Monomorphic: every field on every event. */
export interface VkEvent {
  id: number;
  kind: VkEventKind;
  /** Thread index, -1 for an initial write. */
  thread: number;
  /** Index of the instruction in the thread body, -1 for an initial write. */
  instr: number;
  /** Location (shared by the references declared the same location), -1 for non-accesses. */
  loc: number;
  /** Reference (the name the access uses), -1 for non-accesses and initial writes. */
  ref: number;
  atomic: boolean;
  /** Non-private (Vulkan spec, "Private vs. Non-Private"): atomics, `.av`/`.vis`, `.nonpriv`. */
  nonpriv: boolean;
  /** A per-instruction availability operation: an `.av` store or an atomic write. */
  av: boolean;
  /** A per-instruction visibility operation: a `.vis` load or an atomic read. */
  vis: boolean;
  /** The memory scope (atomics, `.av`/`.vis` operations, barriers), null otherwise. */
  scope: VkScope | null;
  acquire: boolean;
  release: boolean;
  /** Storage class of an access (0…3), -1 otherwise. */
  sc: number;
  /** Storage-class semantics (bit k: semsc k). */
  semsc: number;
  semav: boolean;
  semvis: boolean;
  /** A memory barrier: `membar`, or `cbar` with acquire or release semantics. */
  fence: boolean;
  /** A control barrier. */
  cbar: boolean;
  /** The other half of an RMW, or -1. */
  rmw: number;
  span: Span | null;
}

export interface VkLoc {
  id: number;
  /** The declared name that owns the location (references declared the same share it). */
  name: string;
  init: number;
  initEvent: number;
  type: string;
}

/** The events and static relations of one variant. */
export interface VkSkeleton extends EvalLayout {
  test: VulkanTest;
  variant: Variant;
  index: number;
  events: VkEvent[];
  n: number;
  locs: VkLoc[];
  /** Reference names (index = `VkEvent.ref`). */
  refs: string[];
  po: Relation;
  /** Same location (accesses and initial writes; reflexive). */
  loc: Relation;
  /** Same reference (accesses; reflexive). */
  vloc: Relation;
  int: Relation;
  ext: Relation;
  rmw: Relation;
  data: Relation;
  ssg: Relation;
  swg: Relation;
  sqf: Relation;
  /** Control barriers of one completed dynamic instance (reflexive on executed barriers). */
  syncbar: Relation;
  ssw: Relation;
  /** Each in the instance of the other's memory scope (Vulkan spec, "potentially-mutually-ordered"). */
  inscope: Relation;
  reads: number[];
  writes: number[];
  writesByLoc: number[][];
  /** Per thread pair (a·T+b): `shareLevel`. */
  share: Int8Array;
  /** Register evaluation along the executed paths. */
  programs: ThreadProgram[];
  /** Per thread: register name → slot of its last assignment, or -1 when never assigned. */
  finalSlot: Map<string, number>[];
}

/** Location and reference of every name: references declared the same location share one. */
export function locationsOf(test: VulkanTest): {
  rootOf: Map<string, string>;
  names: string[];
  refs: string[];
} {
  const decl = new Map(test.locations.map((l) => [l.name, l]));
  const rootOf = new Map<string, string>();
  const root = (n: string): string => {
    let cur = n;
    for (let guard = 0; guard <= decl.size; guard++) {
      const d = decl.get(cur);
      if (!d || d.sameAs === null) return cur;
      cur = d.sameAs;
    }
    return cur;
  };
  const refs: string[] = [];
  for (const l of test.locations) if (!refs.includes(l.name)) refs.push(l.name);
  for (const th of test.threads)
    for (const i of th.body)
      if ((i.kind === 'ld' || i.kind === 'st' || i.kind === 'rmw') && !refs.includes(i.loc)) refs.push(i.loc);
  for (const r of refs) rootOf.set(r, root(r));
  const names = [...new Set(refs.map((r) => rootOf.get(r)!))];
  return { rootOf, names, refs };
}

/** Builds the skeleton of variant `v` of `test`. */
export function buildVkSkeleton(test: VulkanTest, v: Variant, index = 0): VkSkeleton {
  const { rootOf, names, refs } = locationsOf(test);
  const decl = new Map(test.locations.map((l) => [l.name, l]));
  const events: VkEvent[] = [];
  const blank = (kind: VkEventKind, thread: number, instr: number, span: Span | null): VkEvent => ({
    id: events.length,
    kind,
    thread,
    instr,
    loc: -1,
    ref: -1,
    atomic: false,
    nonpriv: false,
    av: false,
    vis: false,
    scope: null,
    acquire: false,
    release: false,
    sc: -1,
    semsc: 0,
    semav: false,
    semvis: false,
    fence: false,
    cbar: false,
    rmw: -1,
    span,
  });
  const locs: VkLoc[] = names.map((name, id) => {
    const e = blank('init', -1, -1, null);
    e.loc = id;
    events.push(e);
    return { id, name, init: decl.get(name)?.init ?? 0, initEvent: e.id, type: 'i32' };
  });
  const locId = (ref: string) => names.indexOf(rootOf.get(ref)!);
  /** Event ids of each executed step, per thread: [read/other, write] (-1 when absent). */
  const stepEvents: [number, number][][] = [];
  test.threads.forEach((th, t) => {
    const mine: [number, number][] = [];
    for (const s of v.executed[t]!) {
      const i = th.body[s.instr]!;
      mine.push(eventsOf(i, s, t));
    }
    stepEvents.push(mine);
  });

  function eventsOf(i: VkInstr, s: PathStep, t: number): [number, number] {
    const span = i.span;
    const access = (kind: 'read' | 'write') => {
      const e = blank(kind, t, s.instr, span);
      const a = i as VkInstr & { kind: 'ld' | 'st' | 'rmw' };
      e.loc = locId(a.loc);
      e.ref = refs.indexOf(a.loc);
      e.atomic = a.atomic;
      e.sc = a.sc;
      e.semsc = a.semsc;
      e.scope = a.scope;
      return e;
    };
    switch (i.kind) {
      case 'ld': {
        const e = access('read');
        e.acquire = i.acquire;
        e.vis = i.vis || i.atomic;
        e.nonpriv = i.nonpriv || i.vis || i.atomic;
        e.semvis = i.semvis;
        events.push(e);
        return [e.id, -1];
      }
      case 'st': {
        const e = access('write');
        e.release = i.release;
        e.av = i.av || i.atomic;
        e.nonpriv = i.nonpriv || i.av || i.atomic;
        e.semav = i.semav;
        events.push(e);
        return [-1, e.id];
      }
      case 'rmw': {
        const r = access('read');
        r.atomic = true;
        r.acquire = i.acquire;
        r.vis = true;
        r.nonpriv = true;
        r.semvis = i.semvis;
        events.push(r);
        const w = access('write');
        w.atomic = true;
        w.release = i.release;
        w.av = true;
        w.nonpriv = true;
        w.semav = i.semav;
        events.push(w);
        r.rmw = w.id;
        w.rmw = r.id;
        return [r.id, w.id];
      }
      case 'membar':
      case 'cbar': {
        const e = blank(i.kind === 'membar' ? 'fence' : 'cbar', t, s.instr, span);
        e.acquire = i.acquire;
        e.release = i.release;
        e.scope = i.scope;
        e.semsc = i.semsc;
        e.semav = i.semav;
        e.semvis = i.semvis;
        e.fence = i.kind === 'membar' || i.acquire || i.release;
        e.cbar = i.kind === 'cbar';
        events.push(e);
        return [e.id, -1];
      }
      case 'avdevice':
      case 'visdevice': {
        const e = blank(i.kind, t, s.instr, span);
        events.push(e);
        return [e.id, -1];
      }
      default:
        return [-1, -1];
    }
  }

  const n = events.length;
  const T = test.threads.length;
  const share = new Int8Array(Math.max(1, T * T));
  for (let a = 0; a < T; a++)
    for (let b = 0; b < T; b++)
      share[a * T + b] = shareLevel(test.threads[a]!.placement, a, test.threads[b]!.placement, b);
  const po = relation(n);
  const locRel = relation(n);
  const vloc = relation(n);
  const int = relation(n);
  const ext = relation(n);
  const rmw = relation(n);
  const ssg = relation(n);
  const swg = relation(n);
  const sqf = relation(n);
  const inscope = relation(n);
  const ssw = relation(n);
  const sswThreads = test.ssw.map((s) => [threadIndex(test, s.from), threadIndex(test, s.to)] as const);
  for (const x of events) {
    for (const y of events) {
      const threads = x.thread >= 0 && y.thread >= 0;
      const sh = threads ? share[x.thread * T + y.thread]! : -1;
      if (threads && x.thread === y.thread && x.id < y.id) add(po, x.id, y.id);
      if (threads && x.thread === y.thread) add(int, x.id, y.id);
      else if (x.id !== y.id) add(ext, x.id, y.id);
      if (x.loc >= 0 && x.loc === y.loc) add(locRel, x.id, y.id);
      if (x.ref >= 0 && x.ref === y.ref) add(vloc, x.id, y.id);
      if (sh >= 3) add(ssg, x.id, y.id);
      if (sh >= 2) add(swg, x.id, y.id);
      if (sh >= 1) add(sqf, x.id, y.id);
      if (threads && x.scope !== null && y.scope !== null && inScopeOf(x.scope, sh) && inScopeOf(y.scope, sh))
        add(inscope, x.id, y.id);
      if (threads && sswThreads.some(([a, b]) => a === x.thread && b === y.thread)) add(ssw, x.id, y.id);
    }
    if (x.kind === 'read' && x.rmw >= 0) add(rmw, x.id, x.rmw);
  }
  const syncbar = relation(n);
  for (const inst of v.instances) {
    const evs = inst.members.map(([t, k]) => stepEvents[t]![k]![0]);
    for (const a of evs) for (const b of evs) if (a >= 0 && b >= 0) add(syncbar, a, b);
  }
  const { programs, finalSlot, data } = compilePaths(test, v, stepEvents, n);
  const reads = events.filter((e) => e.kind === 'read').map((e) => e.id);
  const writes = events.filter((e) => e.kind === 'write' || e.kind === 'init').map((e) => e.id);
  return {
    test,
    variant: v,
    index,
    events,
    n,
    locs,
    refs,
    po,
    loc: locRel,
    vloc,
    int,
    ext,
    rmw,
    data,
    ssg,
    swg,
    sqf,
    syncbar,
    ssw,
    inscope,
    reads,
    writes,
    writesByLoc: locs.map((l) => writes.filter((w) => events[w]!.loc === l.id)),
    share,
    programs,
    finalSlot,
  };
}

function threadIndex(test: VulkanTest, name: string): number {
  return test.threads.findIndex((th) => th.name === name);
}

/**
 * Register steps along the executed paths, in SSA form (each assignment a new slot), with the
 * branch outcomes as `assume` steps; the data dependencies read → write through registers.
 * A register read before any assignment holds 0 (herd's convention), or its declared initial value.
 */
function compilePaths(
  test: VulkanTest,
  v: Variant,
  stepEvents: [number, number][][],
  n: number,
): { programs: ThreadProgram[]; finalSlot: Map<string, number>[]; data: Relation } {
  const data = relation(n);
  const finalSlot: Map<string, number>[] = [];
  const programs = test.threads.map((th, t) => {
    const steps: ProgramStep[] = [];
    const regs: string[] = [];
    const widths: number[] = [];
    const regIndex = new Map<string, number>();
    const cur = new Map<string, number>();
    const deps: Set<number>[] = [];
    const slot = (name: string, from: Set<number>): number => {
      const k = regs.length;
      regs.push(`${name}#${k}`);
      widths.push(32);
      regIndex.set(regs[k]!, k);
      cur.set(name, k);
      deps.push(from);
      return k;
    };
    for (const r of test.regInits)
      if (r.thread === th.name) {
        const k = slot(r.reg, new Set());
        steps.push({
          k: 'bin',
          dst: k,
          op: 'add',
          a: { c: true, v: r.value },
          b: { c: true, v: 0 },
          width: 32,
        });
      }
    const op = (x: VkValue): Op => {
      if (x.kind === 'const') return { c: true, v: x.value };
      const k = cur.get(x.name);
      return k === undefined ? { c: true, v: 0 } : { c: false, r: k };
    };
    const depsOf = (x: VkValue): Set<number> => {
      if (x.kind === 'const') return new Set();
      const k = cur.get(x.name);
      return k === undefined ? new Set() : deps[k]!;
    };
    v.executed[t]!.forEach((s, k) => {
      const i = th.body[s.instr]!;
      const [re, we] = stepEvents[t]![k]!;
      switch (i.kind) {
        case 'ld':
          steps.push({ k: 'read', ev: re, dst: slot(i.dst, new Set([re])), okDst: -1, width: 32 });
          break;
        case 'st':
          for (const d of depsOf(i.value)) add(data, d, we);
          steps.push({ k: 'store', ev: we, a: op(i.value), width: 32 });
          break;
        case 'rmw': {
          const a = op(i.value);
          for (const d of depsOf(i.value)) add(data, d, we);
          if (i.op !== 'xchg') add(data, re, we);
          steps.push({ k: 'read', ev: re, dst: slot(i.dst, new Set([re])), okDst: -1, width: 32 });
          steps.push({ k: 'rmw', ev: we, read: re, op: i.op, a, width: 32 });
          break;
        }
        case 'local': {
          const a = op(i.a);
          const b = op(i.b);
          const from = new Set([...depsOf(i.a), ...depsOf(i.b)]);
          steps.push({ k: 'bin', dst: slot(i.dst, from), op: i.op, a, b, width: 32 });
          break;
        }
        case 'branch':
          steps.push({
            k: 'assume',
            pred: BRANCH_PRED[i.cond],
            a: op(i.a),
            b: op(i.b),
            width: 32,
            expect: s.taken === true,
          });
          break;
        default:
      }
    });
    finalSlot.push(new Map([...cur]));
    return { steps, regs, regIndex, widths };
  });
  return { programs, finalSlot, data };
}

/** A register's value when it has none (never assigned in this variant). */
export const UNSET = -1;

export { UNDEF };
