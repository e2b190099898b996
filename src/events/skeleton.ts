/**
 * The event skeleton of a litmus test: every memory event, fence and barrier operation, with the
 * static relations the model needs (po, same location, RMW pairs, data dependencies, scope
 * inclusion). Everything here is fixed before any rf/co choice is made.
 *
 * A `cmpxchg` performs a write only when it succeeds, with its failure ordering otherwise, so a
 * test has one skeleton per combination of cmpxchg outcomes (a *variant*); the enumerator checks
 * afterwards that the value read agrees with the outcome assumed.
 *
 * No Node APIs here: the web page imports this file.
 */

import { type Diagnostic, type DiagnosticCode, diag } from '../core/diagnostics.ts';
import {
  add,
  bitset,
  closureInto,
  copyInto,
  intersectInto,
  isEmpty,
  type Relation,
  relation,
  unionInto,
} from '../core/relation.ts';
import {
  assertNever,
  type BarrierOp,
  type Instr,
  isAcquire,
  isRelease,
  type LocationSpace,
  narrowerScope,
  type Ordering,
  type Scope,
  type Span,
  scopeRank,
  type Test,
} from '../core/types.ts';
import { analyseBarriers } from './barriers.ts';
import { shareRank, workgroupKey } from './placement-keys.ts';

export { clusterKey, instanceName, shareRank, workgroupKey } from './placement-keys.ts';

export type EventKind = 'init' | 'read' | 'write' | 'fence' | 'barrier';

/** One event of the skeleton. Monomorphic: every field is present on every event. */
export interface Event {
  id: number;
  kind: EventKind;
  /** Thread index, or -1 for an initial write. */
  thread: number;
  /** Index of the instruction in the thread body, or -1 for an initial write. */
  instr: number;
  /** Location instance (see `LocInstance`), or -1 for fences and barriers. */
  loc: number;
  /** An atomic access (the initial write counts as a system-scoped atomic write). */
  atomic: boolean;
  /** Ordering of this event: for an RMW, the same ordering for both halves; `notatomic` for plain accesses. */
  ordering: Ordering;
  /**
   * Effective scope: the syncscope of an atomic or fence, the `scope` argument of an av intrinsic,
   * clamped to `workgroup` on LDS; null for plain accesses, which are inclusive with nothing.
   */
  scope: Scope | null;
  /** Acquire semantics (reads and fences only). */
  acquire: boolean;
  /** Release semantics (writes and fences only). */
  release: boolean;
  /** seq_cst ordering. */
  sc: boolean;
  /** spec: amdgpu-memory-model.rst "MakeAvailable and MakeVisible": release-or-stronger, not `amdgcn-av none`. */
  makeAvailable: boolean;
  /** spec: ibid.: acquire-or-stronger, not `amdgcn-av none`. */
  makeVisible: boolean;
  /** spec: "store-available": an atomic write or the av store intrinsic. */
  storeAvailable: boolean;
  /** spec: "load-visible": an atomic read or the av load intrinsic. */
  loadVisible: boolean;
  /**
   * A `-one-as` syncscope (atomic accesses and fences): as a synchronising operation it orders only
   * accesses of one address space against each other (docs/model.md, choice 6).
   */
  oneAs: boolean;
  /**
   * The address-space classes (`SPACE_CLASSES` bits) it orders as a synchronising operation: every
   * class, except for a fence with `amdgpu-synchronize-as` tags, which orders only the classes they
   * name (docs/model.md, choice 33).
   */
  orders: number;
  /** The other half of an RMW or successful cmpxchg, or -1. */
  rmw: number;
  /** Barrier operation, for `barrier` events; null otherwise. */
  barrier: BarrierOp | null;
  /** Immediate barrier id of `signal` / `wait` (-1: the workgroup barrier); null otherwise. */
  barrierId: number | null;
  span: Span | null;
}

/** A concrete memory location: LDS names exist once per workgroup, private names once per thread. */
export interface LocInstance {
  id: number;
  name: string;
  space: LocationSpace;
  /** Type as declared (`i32` …). */
  type: string;
  /** Workgroup key (`a0.c0.w1`) for LDS, `t<k>` for private, null for global and constant. */
  owner: string | null;
  init: number | 'undef';
  /** The initial write's event id, or -1 when the location is `undef`-initialised. */
  initEvent: number;
}

/** A problem that keeps the model from deciding a test (unsupported feature, ill-formed reference). */
export type ModelDiagnostic = Diagnostic & { code: ModelDiagnosticCode };

/** The model's codes (their wording: src/core/diagnostics.ts). */
export type ModelDiagnosticCode = Extract<DiagnosticCode, `MD${string}`>;

/** A model diagnostic at `span` (null: the whole test). */
export function modelDiag(
  code: ModelDiagnosticCode,
  span: Span | null,
  args: Record<string, string>,
): ModelDiagnostic {
  return { ...diag(code, span, args), code };
}

export interface Skeleton {
  test: Test;
  events: Event[];
  n: number;
  locs: LocInstance[];
  /** Outcome assumed for each cmpxchg of the test, in thread then program order. */
  casSuccess: readonly boolean[];
  /** Program order (transitive; within a thread). */
  po: Relation;
  /**
   * `po` plus initial write → every other event, plus barrier synchronisation: the part of hb fixed
   * before any choice (of every per-space hb when `oneAsMixed`).
   */
  hbBase: Relation;
  /**
   * Per class (`SPACE_CLASSES`): `hbBase` with only the barrier synchronisation between fences that
   * both order that class — the static part of that class's hb. Each entry is `hbBase` itself unless
   * some fence has `amdgpu-synchronize-as` tags (choice 33).
   */
  hbBaseSpace: Relation[];
  /**
   * `hbBase` without the barrier synchronisation of `-one-as` fences (and of fences that do not order
   * both global and LDS, choice 33): the static part of the hb
   * that orders accesses of different address spaces. The same object as `hbBase` unless
   * `oneAsMixed`.
   */
  hbBaseCross: Relation;
  /**
   * Some synchronising operation is `-one-as` and the accesses span several address-space classes,
   * or some fence's `amdgpu-synchronize-as` tags leave out a class an access uses, so hb is one
   * relation per class (docs/model.md, choices 6 and 33). When false every per-space hb is hb.
   */
  oneAsMixed: boolean;
  /** Address-space class per event (`SPACE_CLASSES` index of its location), -1 for fences and barriers. */
  spaceClass: Int8Array;
  /**
   * Neither operation is `-one-as` and both order the global and the LDS class: a synchronisation
   * edge between them orders accesses of different classes.
   */
  plainSync: Relation;
  /**
   * Per class: both operations order the class (`orders`). A synchronisation edge between them
   * through a location of the class orders the class's accesses. Every pair unless some fence has
   * `amdgpu-synchronize-as` tags.
   */
  syncClass: Relation[];
  /**
   * Per class: `syncClass` and neither operation `-one-as`: a synchronisation edge between them
   * through any location orders the class's accesses. `plainSync`'s pairs unless some fence has
   * `amdgpu-synchronize-as` tags.
   */
  plainSyncClass: Relation[];
  /** Same location instance (memory accesses and initial writes only; reflexive). */
  loc: Relation;
  /** RMW read half → write half. */
  rmw: Relation;
  /** Data dependency: read → write whose value is computed from the read's value. */
  data: Relation;
  /** `sincl(X,Y)`: Y's thread is in X's scope instance. */
  sincl: Relation;
  /** `incl(X,Y) = sincl(X,Y) ∧ sincl(Y,X)` (spec: "Inclusive Scopes"). */
  incl: Relation;
  /**
   * Same-location atomic accesses (initial writes included) with inclusive scopes: the pairs for
   * which value rule 2 applies and that never race.
   */
  ai: Relation;
  /**
   * `ai` without the pairs involving an `unordered` access: the pairs the coherence axioms (mo, fr,
   * RMW atomicity, psc) and synchronisation paths see. LLVM LangRef gives a per-address total order
   * only to monotonic and stronger operations (docs/model.md, choice 24a).
   */
  aiOrd: Relation;
  /** Per-thread-pair: rank of the narrowest scope whose instances contain both threads. */
  share: Int8Array;
  threadCount: number;
  reads: number[];
  writes: number[];
  writesByLoc: number[][];
  readsByLoc: number[][];
  /** Bitsets of events. */
  sets: {
    reads: Uint32Array;
    writes: Uint32Array;
    sc: Uint32Array;
    relWrites: Uint32Array;
    relFences: Uint32Array;
    atomicWrites: Uint32Array;
    atomicReads: Uint32Array;
    acqReads: Uint32Array;
    acqFences: Uint32Array;
    makeAvailable: Uint32Array;
  };
  diagnostics: ModelDiagnostic[];
  /** Release fence → acquire fence synchronising through workgroup barriers (part of `hbBase`). */
  barrierSync: Relation;
  /** Some barrier execution has undefined behaviour (seeds/001; see src/events/barriers.ts). */
  barrierUb: boolean;
  /** Results of `signal.isfirst` in this barrier execution: `thread:instr` → 0 or 1. */
  barrierIsfirst: Map<string, number>;
}

/** Number of cmpxchg instructions in a test (each doubles the number of variants). */
export function countCmpxchg(test: Test): number {
  let k = 0;
  for (const t of test.threads) for (const i of t.body) if (i.kind === 'cmpxchg') k++;
  return k;
}

interface Access {
  loc: string;
  instr: Instr;
}

function accessOf(i: Instr): Access | null {
  switch (i.kind) {
    case 'load':
    case 'store':
    case 'rmw':
    case 'cmpxchg':
    case 'avload':
    case 'avstore':
      return { loc: i.ptr.loc, instr: i };
    default:
      return null;
  }
}

/**
 * Builds the skeleton of `test` for one combination of cmpxchg outcomes (`casSuccess[k]` for the
 * k-th cmpxchg; missing entries mean success).
 */
export function buildSkeleton(test: Test, casSuccess: readonly boolean[] = [], barrierVariant = 0): Skeleton {
  // Built once per test and variant: the verdict, the search, the report and the explorer all ask
  // for it (a test is not changed once parsed; a skeleton is not changed once built).
  let built = skeletons.get(test);
  if (!built) {
    built = new Map();
    skeletons.set(test, built);
  }
  const key = `${barrierVariant}|${casSuccess.map((b) => (b ? 1 : 0)).join('')}`;
  let sk = built.get(key);
  if (!sk) {
    sk = build(test, casSuccess.slice(), barrierVariant);
    built.set(key, sk);
  }
  return sk;
}

/** The skeletons built so far, per test, by barrier variant and cmpxchg outcomes. */
const skeletons = new WeakMap<Test, Map<string, Skeleton>>();

function build(test: Test, casSuccess: readonly boolean[], barrierVariant: number): Skeleton {
  const barriers = analyseBarriers(test);
  const effect = barriers.effects[barrierVariant] ?? barriers.effects[0]!;
  const diagnostics: ModelDiagnostic[] = [];
  const declared = new Map(test.locations.map((l) => [l.name, l]));

  // Location instances: global/constant once, LDS once per workgroup, private once per thread.
  const locs: LocInstance[] = [];
  const locIndex = new Map<string, number>();
  const instanceKey = (name: string, t: number): string | null => {
    const l = declared.get(name);
    if (!l) return null;
    if (l.space === 'local') {
      const wg = workgroupKey(test.threads[t]!.placement);
      return wg === null ? null : `${name}@${wg}`;
    }
    if (l.space === 'private') return `${name}@t${t}`;
    return name;
  };
  const ensureLoc = (name: string, t: number): number => {
    const key = instanceKey(name, t);
    if (key === null) return -1;
    let id = locIndex.get(key);
    if (id === undefined) {
      const l = declared.get(name)!;
      id = locs.length;
      const owner =
        l.space === 'local'
          ? workgroupKey(test.threads[t]!.placement)
          : l.space === 'private'
            ? `t${t}`
            : null;
      locs.push({ id, name, space: l.space, type: l.type, owner, init: l.init, initEvent: -1 });
      locIndex.set(key, id);
    }
    return id;
  };
  // Every location a thread can name gets an instance (also for condition terms like `P1:@x`).
  for (const l of test.locations) {
    if (l.barrier) continue;
    if (l.space === 'local' || l.space === 'private') {
      test.threads.forEach((th, t) => {
        if (l.space === 'private' || th.placement.kind === 'device') ensureLoc(l.name, t);
      });
    } else ensureLoc(l.name, 0);
  }

  const events: Event[] = [];
  const blank = (kind: EventKind, thread: number, instr: number, span: Span | null): Event => ({
    id: events.length,
    kind,
    thread,
    instr,
    loc: -1,
    atomic: false,
    ordering: 'notatomic',
    scope: null,
    acquire: false,
    release: false,
    sc: false,
    oneAs: false,
    orders: ALL_CLASSES,
    makeAvailable: false,
    makeVisible: false,
    storeAvailable: false,
    loadVisible: false,
    rmw: -1,
    barrier: null,
    barrierId: null,
    span,
  });
  for (const l of locs) {
    if (l.init === 'undef') continue;
    // spec: "Each initialized global is assumed to have an initial system scoped atomic write".
    const e = blank('init', -1, -1, null);
    e.loc = l.id;
    e.atomic = true;
    e.ordering = 'monotonic';
    e.scope = 'system';
    e.storeAvailable = true;
    l.initEvent = e.id;
    events.push(e);
  }
  let cas = 0;
  test.threads.forEach((th, t) => {
    th.body.forEach((ins, k) => {
      const acc = accessOf(ins);
      let locId = -1;
      if (acc) {
        const l = declared.get(acc.loc);
        if (!l || l.barrier) {
          diagnostics.push(modelDiag('MD001', ins.span, { loc: acc.loc }));
          return;
        }
        if (l.space === 'local' && th.placement.kind === 'host') {
          diagnostics.push(modelDiag('MD002', ins.span, { thread: th.name, loc: acc.loc }));
          return;
        }
        locId = ensureLoc(acc.loc, t);
      }
      const clamp = (s: Scope): Scope => {
        // DESIGN: a syncscope wider than workgroup on LDS acts as workgroup.
        const l = acc ? declared.get(acc.loc) : undefined;
        return l?.space === 'local' ? narrowerScope(s, 'workgroup') : s;
      };
      const mem = (kind: 'read' | 'write', ordering: Ordering, scope: Scope | null, avNone: boolean) => {
        const e = blank(kind, t, k, ins.span);
        e.loc = locId;
        e.atomic = ordering !== 'notatomic';
        e.ordering = ordering;
        e.scope = scope === null ? null : clamp(scope);
        e.sc = ordering === 'seq_cst';
        e.oneAs = e.atomic && 'syncscope' in ins && ins.syncscope.oneAs;
        if (kind === 'read') {
          e.acquire = e.atomic && isAcquire(ordering);
          e.loadVisible = e.atomic;
          e.makeVisible = e.acquire && !avNone;
        } else {
          e.release = e.atomic && isRelease(ordering);
          e.storeAvailable = e.atomic;
          e.makeAvailable = e.release && !avNone;
        }
        events.push(e);
        return e;
      };
      switch (ins.kind) {
        case 'load':
          mem('read', ins.ordering, ins.ordering === 'notatomic' ? null : ins.syncscope.scope, ins.avNone);
          break;
        case 'store':
          mem('write', ins.ordering, ins.ordering === 'notatomic' ? null : ins.syncscope.scope, ins.avNone);
          break;
        case 'rmw': {
          const r = mem('read', ins.ordering, ins.syncscope.scope, ins.avNone);
          const w = mem('write', ins.ordering, ins.syncscope.scope, ins.avNone);
          r.rmw = w.id;
          w.rmw = r.id;
          break;
        }
        case 'cmpxchg': {
          const ok = casSuccess[cas] ?? true;
          cas++;
          const r = mem('read', ok ? ins.success : ins.failure, ins.syncscope.scope, ins.avNone);
          if (ok) {
            const w = mem('write', ins.success, ins.syncscope.scope, ins.avNone);
            r.rmw = w.id;
            w.rmw = r.id;
          }
          break;
        }
        case 'avload': {
          const e = mem('read', 'notatomic', ins.scope, false);
          e.loadVisible = true;
          break;
        }
        case 'avstore': {
          const e = mem('write', 'notatomic', ins.scope, false);
          e.storeAvailable = true;
          break;
        }
        case 'fence': {
          const e = blank('fence', t, k, ins.span);
          e.ordering = ins.ordering;
          e.scope = ins.syncscope.scope;
          e.acquire = isAcquire(ins.ordering);
          e.release = isRelease(ins.ordering);
          e.sc = ins.ordering === 'seq_cst';
          e.oneAs = ins.syncscope.oneAs;
          // LLVM SIMemoryLegalizer.cpp, getAtomicFenceInfo: "if (SynchronizeAS) OrderingAddrSpace =
          // *SynchronizeAS" — the tags replace the fence's ordering address spaces.
          if (ins.syncAs.length > 0)
            e.orders = ins.syncAs.reduce((m, a) => m | (1 << SPACE_CLASSES.indexOf(a)), 0);
          e.makeAvailable = e.release && !ins.avNone;
          e.makeVisible = e.acquire && !ins.avNone;
          events.push(e);
          break;
        }
        case 'barrier': {
          const e = blank('barrier', t, k, ins.span);
          e.barrier = ins.op;
          e.barrierId = ins.id;
          events.push(e);
          // The barrier execution model (src/events/barriers.ts) reports what it cannot model.
          const u = barriers.unsupported.find((x) => x.thread === t && x.instr === k);
          if (u && diagnostics.every((d) => d.code !== 'MD004'))
            diagnostics.push(modelDiag('MD004', ins.span, { what: u.message }));
          break;
        }
        case 'bin':
        case 'icmp':
        case 'select':
        case 'extract':
        // A wave barrier orders no memory (docs/model.md, choice 34): no event.
        case 'wavebarrier':
          break;
        default:
          assertNever(ins, 'instruction');
      }
    });
  });

  const n = events.length;
  const share = new Int8Array(Math.max(1, test.threads.length ** 2));
  for (let a = 0; a < test.threads.length; a++)
    for (let b = 0; b < test.threads.length; b++)
      share[a * test.threads.length + b] = shareRank(
        test.threads[a]!.placement,
        a,
        test.threads[b]!.placement,
        b,
      );

  const po = relation(n);
  const hbBase = relation(n);
  const locRel = relation(n);
  const rmw = relation(n);
  const sincl = relation(n);
  const incl = relation(n);
  const ai = relation(n);
  const aiOrd = relation(n);
  const T = test.threads.length;
  for (const x of events) {
    for (const y of events) {
      if (x.thread >= 0 && x.thread === y.thread && x.id < y.id) add(po, x.id, y.id);
      if (x.loc >= 0 && x.loc === y.loc) add(locRel, x.id, y.id);
      // The initial write is in every scope instance (DESIGN, "The initial write …").
      const s =
        x.kind === 'init' || y.kind === 'init'
          ? true
          : x.scope !== null && y.thread >= 0 && scopeRank(x.scope) <= share[x.thread * T + y.thread]!;
      if (s) add(sincl, x.id, y.id);
    }
    if (x.rmw >= 0 && x.kind === 'read') add(rmw, x.id, x.rmw);
  }
  for (const x of events) {
    for (const y of events) {
      const s = bitAt(sincl, x.id, y.id) && bitAt(sincl, y.id, x.id);
      if (s) add(incl, x.id, y.id);
      if (s && x.atomic && y.atomic && x.loc >= 0 && x.loc === y.loc) {
        add(ai, x.id, y.id);
        if (x.ordering !== 'unordered' && y.ordering !== 'unordered') add(aiOrd, x.id, y.id);
      }
      if (x.kind === 'init' && y.kind !== 'init') add(hbBase, x.id, y.id);
    }
  }
  for (let k = 0; k < po.bits.length; k++) hbBase.bits[k]! |= po.bits[k]!;
  if (barriers.unsupported.length > 0 && diagnostics.every((d) => d.code !== 'MD004'))
    diagnostics.push(modelDiag('MD004', null, { what: barriers.unsupported[0]!.message }));

  // -one-as (docs/model.md, choice 6): with accesses in several address-space classes and some
  // -one-as operation, hb is one relation per class; otherwise a -one-as scope acts as its plain form.
  const spaceClass = Int8Array.from(events, (e) => (e.loc >= 0 ? spaceClassOf(locs[e.loc]!.space) : -1));
  const classes = new Set<number>();
  for (const e of events) if (e.thread >= 0 && e.loc >= 0) classes.add(spaceClass[e.id]!);
  // amdgpu-synchronize-as (choice 33): a fence that leaves out a class some access uses needs the
  // per-class hb too, whatever the number of classes.
  let used = 0;
  for (const c of classes) used |= 1 << c;
  const masked = events.some((e) => (e.orders & used) !== used);
  const oneAsMixed = (classes.size > 1 && events.some((e) => e.oneAs)) || masked;
  const plainSync = relation(n);
  for (const x of events)
    for (const y of events)
      if (!x.oneAs && !y.oneAs && (x.orders & y.orders & CROSS_CLASSES) === CROSS_CLASSES)
        add(plainSync, x.id, y.id);
  const every = masked ? null : allPairs(n);
  const syncClass = SPACE_CLASSES.map((_, k) => {
    if (every) return every;
    const r = relation(n);
    for (const x of events)
      for (const y of events) if ((x.orders & y.orders & (1 << k)) !== 0) add(r, x.id, y.id);
    return r;
  });
  const plainSyncClass = SPACE_CLASSES.map((_, k) => {
    if (!masked) return plainSync;
    const r = relation(n);
    for (const x of events)
      for (const y of events)
        if (!x.oneAs && !y.oneAs && (x.orders & y.orders & (1 << k)) !== 0) add(r, x.id, y.id);
    return r;
  });

  const barrierSync = relation(n);
  const evAt = (t: number, k: number, kind: EventKind) =>
    events.find((e) => e.thread === t && e.instr === k && e.kind === kind)?.id ?? -1;
  for (const [t1, k1, t2, k2] of effect.sync) add(barrierSync, evAt(t1, k1, 'fence'), evAt(t2, k2, 'fence'));
  const barrierUb = barriers.ub;
  const barrierIsfirst = new Map<string, number>(effect.isfirst);
  // A barrier synchronisation between fences orders every address space against itself; when a
  // fence is -one-as it does not order accesses of different spaces (choice 6), so it stays out of
  // the cross-space hb.
  let hbBaseCross = hbBase;
  if (oneAsMixed) {
    hbBaseCross = relation(n);
    copyInto(hbBaseCross, hbBase);
    const plainBarrier = relation(n);
    intersectInto(plainBarrier, barrierSync, plainSync);
    if (!isEmpty(plainBarrier)) {
      unionInto(hbBaseCross, hbBaseCross, plainBarrier);
      closureInto(hbBaseCross, hbBaseCross);
    }
  }
  // Per class, the barrier synchronisation between fences that both order the class (choice 33).
  const hbBaseSpace = SPACE_CLASSES.map((_, k) => {
    if (!masked) return hbBase;
    const r = relation(n);
    copyInto(r, hbBase);
    const b = relation(n);
    intersectInto(b, barrierSync, syncClass[k]!);
    if (!isEmpty(b)) {
      unionInto(r, r, b);
      closureInto(r, r);
    }
    return r;
  });
  if (!isEmpty(barrierSync)) {
    unionInto(hbBase, hbBase, barrierSync);
    closureInto(hbBase, hbBase);
  }

  const data = dataDependencies(test, events, n);
  const reads = events.filter((e) => e.kind === 'read').map((e) => e.id);
  const writes = events.filter((e) => e.kind === 'write' || e.kind === 'init').map((e) => e.id);
  const writesByLoc = locs.map((l) => writes.filter((w) => events[w]!.loc === l.id));
  const readsByLoc = locs.map((l) => reads.filter((r) => events[r]!.loc === l.id));
  const set = (p: (e: Event) => boolean) =>
    bitset(
      n,
      events.filter(p).map((e) => e.id),
    );
  const isWrite = (e: Event) => e.kind === 'write' || e.kind === 'init';
  return {
    test,
    events,
    n,
    locs,
    casSuccess,
    po,
    hbBase,
    hbBaseSpace,
    hbBaseCross,
    oneAsMixed,
    spaceClass,
    plainSync,
    syncClass,
    plainSyncClass,
    loc: locRel,
    rmw,
    data,
    sincl,
    incl,
    ai,
    aiOrd,
    share,
    threadCount: T,
    reads,
    writes,
    writesByLoc,
    readsByLoc,
    sets: {
      reads: set((e) => e.kind === 'read'),
      writes: set(isWrite),
      sc: set((e) => e.sc),
      relWrites: set((e) => e.kind === 'write' && e.release),
      relFences: set((e) => e.kind === 'fence' && e.release),
      atomicWrites: set((e) => isWrite(e) && e.atomic),
      atomicReads: set((e) => e.kind === 'read' && e.atomic),
      acqReads: set((e) => e.kind === 'read' && e.acquire),
      acqFences: set((e) => e.kind === 'fence' && e.acquire),
      makeAvailable: set((e) => e.makeAvailable),
    },
    diagnostics,
    barrierSync,
    barrierUb,
    barrierIsfirst,
  };
}

/**
 * Address-space classes for `-one-as` ordering, as LLVM's memory legalizer groups them
 * (`SIAtomicAddrSpace`): constant memory is global memory; LDS and scratch are their own.
 */
export const SPACE_CLASSES = ['global', 'local', 'private'] as const;

/** Every class (`Event.orders` of an operation without `amdgpu-synchronize-as` tags). */
const ALL_CLASSES = 0b111;
/**
 * The classes a fence must order to order accesses of different classes against each other: global
 * and LDS (private memory is one thread's, so no other thread's access is ordered against it).
 */
const CROSS_CLASSES = 0b011;

/** The relation holding every pair. */
function allPairs(n: number): Relation {
  const r = relation(n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) add(r, i, j);
  return r;
}

/** The `SPACE_CLASSES` index of a location's address space. */
export function spaceClassOf(space: LocationSpace): number {
  return space === 'local' ? 1 : space === 'private' ? 2 : 0;
}

/** Number of distinct barrier executions (their effects on memory) the enumerator explores. */
export function countBarrierVariants(test: Test): number {
  return analyseBarriers(test).effects.length;
}

function bitAt(r: Relation, i: number, j: number): boolean {
  return ((r.bits[i * r.w + (j >>> 5)]! >>> (j & 31)) & 1) === 1;
}

/** Register dataflow: which read events each write's value is computed from. */
function dataDependencies(test: Test, events: Event[], n: number): Relation {
  const data = relation(n);
  test.threads.forEach((th, t) => {
    const deps = new Map<string, Set<number>>();
    const mine = events.filter((e) => e.thread === t);
    const at = (k: number, kind: EventKind) => mine.find((e) => e.instr === k && e.kind === kind);
    const of = (o: { kind: 'const' } | { kind: 'reg'; name: string }) =>
      o.kind === 'reg' ? (deps.get(o.name) ?? new Set<number>()) : new Set<number>();
    const union = (...s: Set<number>[]) => new Set(s.flatMap((x) => [...x]));
    const writeDeps = (w: Event | undefined, src: Set<number>) => {
      if (w) for (const r of src) add(data, r, w.id);
    };
    th.body.forEach((ins, k) => {
      switch (ins.kind) {
        case 'load':
        case 'avload': {
          const r = at(k, 'read');
          deps.set(ins.dst, new Set(r ? [r.id] : []));
          break;
        }
        case 'store':
        case 'avstore':
          writeDeps(at(k, 'write'), of(ins.value));
          break;
        case 'rmw': {
          const r = at(k, 'read');
          writeDeps(at(k, 'write'), union(of(ins.value), new Set(r ? [r.id] : [])));
          if (ins.dst) deps.set(ins.dst, new Set(r ? [r.id] : []));
          break;
        }
        case 'cmpxchg': {
          const r = at(k, 'read');
          writeDeps(at(k, 'write'), of(ins.desired));
          if (ins.dst) deps.set(ins.dst, union(of(ins.expected), new Set(r ? [r.id] : [])));
          break;
        }
        case 'bin':
        case 'icmp':
          deps.set(ins.dst, union(of(ins.a), of(ins.b)));
          break;
        case 'select':
          deps.set(ins.dst, union(of(ins.cond), of(ins.a), of(ins.b)));
          break;
        case 'extract':
          deps.set(ins.dst, deps.get(ins.src) ?? new Set());
          break;
        case 'fence':
        case 'barrier':
        case 'wavebarrier':
          break;
        default:
          assertNever(ins, 'instruction');
      }
    });
  });
  return data;
}
