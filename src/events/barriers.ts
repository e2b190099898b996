/**
 * The barrier execution model of seeds/001 ("AMDGPU Execution Synchronization", "Execution Model"
 * and the "Named Barriers" extensions), evaluated once per test.
 *
 * Barrier operations do not depend on memory values (the litmus language has no branches), so
 * every *barrier execution* — which operations each thread performs, a barrier-modification-order
 * per object and a barrier-participates-in relation — is enumerated up front, by brute force, and
 * only those satisfying every constraint are kept (seeds/001, footnote [0]: "there may be multiple
 * ways to build barrier-participates-in, however there is only one way to build it that also
 * satisfies all other relations and constraints"). A barrier execution's effect on memory is the
 * set of fence pairs it synchronises and the values of `signal.isfirst`; executions with the same
 * effect are one (the enumerator's variants are the distinct effects).
 *
 * No Node APIs here: the web page imports this file.
 */

import { type Scope, scopeRank, type Test } from '../core/types.ts';
import { clusterKey, shareRank, workgroupKey } from './placement-keys.ts';

type NodeKind = 'init' | 'join' | 'arrive' | 'drop' | 'wait';

interface BNode {
  thread: number;
  /** Instruction index in the thread body. */
  instr: number;
  kind: NodeKind;
  /** Barrier object key. */
  obj: string;
  /** init: the expected count k; arrive: the new expected count (signal.var), else null. */
  count: number | null;
  /** The register `signal.isfirst` writes, or null. */
  isfirst: string | null;
}

interface BObject {
  key: string;
  /**
   * Expected count of a hardware-initialised object (the workgroup and cluster barriers), or null
   * (named: needs init).
   */
  autoInit: number | null;
  named: boolean;
  /** The cluster barrier (-3): one arrive per workgroup and phase. */
  cluster: boolean;
}

/** The memory-visible effect of one barrier execution. */
export interface BarrierEffect {
  /** Release fence (thread, instr) → acquire fence (thread, instr) synchronising through barriers. */
  sync: [number, number, number, number][];
  /** `signal.isfirst` results: `thread:instr` → 0 or 1. */
  isfirst: Map<string, number>;
}

export interface BarrierAnalysis {
  /** The distinct effects of the barrier executions the enumerator explores (at least one). */
  effects: BarrierEffect[];
  /** Some barrier execution has undefined behaviour. */
  ub: boolean;
  /** Why (first reasons found, for reports and tests). */
  ubReasons: string[];
  /** Unsupported barrier operations (MD004). */
  unsupported: { thread: number; instr: number; message: string }[];
}

/** Upper bound on barrier executions examined before giving up (MD004). */
const BUDGET = 50_000;

const cache = new WeakMap<Test, BarrierAnalysis>();

/** `file:line` of thread `t`'s instruction `k`: UB reasons name the source line of each operation. */
function where(test: Test, t: number, k: number): string {
  const s = test.threads[t]!.body[k]!.span;
  return `${s.file}:${s.line}`;
}

export function analyseBarriers(test: Test): BarrierAnalysis {
  let a = cache.get(test);
  if (!a) {
    a = analyse(test, false);
    cache.set(test, a);
  }
  return a;
}

/**
 * The brute force alone, without the closed-form shortcut (the oracle of barriers.prop.test.ts);
 * `reduce: false` also visits every order of swappable arrives.
 */
export function analyseBarriersBrute(test: Test, reduce = true): BarrierAnalysis {
  return analyse(test, true, reduce);
}

function analyse(test: Test, bruteOnly: boolean, reduce = true): BarrierAnalysis {
  const unsupported: BarrierAnalysis['unsupported'] = [];
  const ubReasons = new Set<string>();
  const objects = new Map<string, BObject>();
  // Every thread's barrier operations; `nodes` keeps those of one lane per wavefront (below).
  const laneNodes: BNode[][] = test.threads.map(() => []);
  const wgSize = new Map<string, number>();
  const clusterWgs = new Map<string, string[]>();
  const rep = waveRepresentatives(test);
  test.threads.forEach((th, t) => {
    const wg = workgroupKey(th.placement);
    // seeds/001: the expected count is "the number of waves in the workgroup"; the lanes of a
    // wavefront are one wave (docs/model.md, choice 35).
    if (wg !== null && rep[t] === t) wgSize.set(wg, (wgSize.get(wg) ?? 0) + 1);
    const cl = clusterKey(th.placement);
    if (cl !== null && wg !== null && !clusterWgs.get(cl)?.includes(wg))
      clusterWgs.set(cl, [...(clusterWgs.get(cl) ?? []), wg]);
  });
  test.threads.forEach((th, t) => {
    const wg = workgroupKey(th.placement);
    // Barrier-joined-before (seeds/001): the last join in program order, not followed by a drop.
    let joined: string | null = null;
    const wgObj = (): string => {
      const key = `wg:${wg}`;
      // seeds/001 "s_barrier GFX12", init -1: "Automatically initialized by the hardware when a
      // workgroup is launched. The expected count of this barrier is set to the number of waves in
      // the workgroup" (the wavefronts of the test's threads, docs/model.md choices 7 and 35).
      if (!objects.has(key))
        objects.set(key, { key, autoInit: wgSize.get(wg!) ?? 1, named: false, cluster: false });
      return key;
    };
    const clusterObj = (): string => {
      const cl = clusterKey(th.placement)!;
      const key = `cluster:${cl}`;
      // seeds/001 "s_barrier GFX12", init -3: "Automatically initialized by the hardware when a
      // workgroup is launched as part of a workgroup cluster. The expected count of this barrier is
      // set to the number of workgroups in the workgroup cluster" (the workgroups of the test's
      // threads, docs/model.md choice 7).
      if (!objects.has(key))
        objects.set(key, { key, autoInit: clusterWgs.get(cl)?.length ?? 1, named: false, cluster: true });
      return key;
    };
    const namedObj = (name: string): string => {
      // Named-barrier objects are LDS globals: one per workgroup (docs/model.md choice 5).
      const key = `${name}@${wg}`;
      if (!objects.has(key)) objects.set(key, { key, autoInit: null, named: true, cluster: false });
      return key;
    };
    const push = (
      k: number,
      kind: NodeKind,
      obj: string,
      count: number | null = null,
      isfirst: string | null = null,
    ) => laneNodes[t]!.push({ thread: t, instr: k, kind, obj, count, isfirst });
    th.body.forEach((ins, k) => {
      if (ins.kind !== 'barrier') return;
      if (wg === null) {
        unsupported.push({
          thread: t,
          instr: k,
          message: `barrier operation ${ins.op} in host thread ${th.name}`,
        });
        return;
      }
      const id = ins.id;
      switch (ins.op) {
        case 'barrier':
          // seeds/001 "s_barrier GFX6-11": s_barrier is "arrive then wait" on the workgroup barrier.
          push(k, 'arrive', wgObj());
          push(k, 'wait', wgObj());
          break;
        case 'signal':
        case 'signal_isfirst':
          if (id === -1) push(k, 'arrive', wgObj(), null, ins.op === 'signal_isfirst' ? ins.dst : null);
          // seeds/001 arrive on -3: "only one wave per workgroup may arrive at the barrier on behalf
          // of its entire workgroup. However, any wave within the workgroup cluster can then wait on
          // this barrier object."
          else if (id === -3)
            push(k, 'arrive', clusterObj(), null, ins.op === 'signal_isfirst' ? ins.dst : null);
          else if (id === 0 && ins.op === 'signal') {
            // seeds/001: "This is a no-op on the NULL barrier (barrier object 0)".
          } else
            unsupported.push({
              thread: t,
              instr: k,
              message:
                id !== null && id > 0
                  ? `${ins.op} ${id}: a named barrier is named by its object here (use s.barrier.signal.var)`
                  : `${ins.op} ${id}: the workgroup (-1), cluster (-3) and named barriers are modelled`,
            });
          break;
        case 'wait':
          if (id === -1) push(k, 'wait', wgObj());
          else if (id === -3) push(k, 'wait', clusterObj());
          else if (id !== null && id >= 0) {
            // seeds/001: "For named barrier objects, this instruction always waits on the last named
            // barrier object that the thread has joined, even if it is different from the barrier
            // object passed to the instruction."
            if (joined !== null) push(k, 'wait', joined);
            else if (id > 0)
              // seeds/001 "Join and Wait Ordering": "There is a barrier join J such that J -> W in
              // barrier-joined-before … otherwise, the behavior is undefined."
              ubReasons.add(
                `${th.name} waits on named barrier ${id} without having joined one (${where(test, t, k)})`,
              );
            // id 0 without a join: "This is a no-op on the NULL barrier".
          } else
            unsupported.push({
              thread: t,
              instr: k,
              message: `wait ${id}: the workgroup (-1), cluster (-3) and named barriers are modelled`,
            });
          break;
        case 'init':
          // seeds/001: "Barrier init takes an additional unsigned positive integer argument k."
          push(k, 'init', namedObj(ins.object!), ins.count);
          break;
        case 'join':
          // seeds/001 "Barrier join": "Allow the thread that executes the operation to wait on a barrier object."
          push(k, 'join', namedObj(ins.object!));
          joined = namedObj(ins.object!);
          break;
        case 'signal_var':
          // seeds/001 "Barrier arrive": "an additional argument to arrive can also update the expected
          // count of the barrier object before the arrive count is incremented".
          push(k, 'arrive', namedObj(ins.object!), ins.count !== null && ins.count > 0 ? ins.count : null);
          break;
        case 'leave':
          // seeds/001 s_barrier_leave: "Drops the named barrier object BO if and only if there is a
          // barrier join J such that J is barrier-joined-before this barrier drop operation."
          if (joined !== null) {
            push(k, 'drop', joined);
            joined = null;
          }
          // seeds/001 "Join and Drop Ordering": "There is a barrier join J such that J -> D in
          // barrier-joined-before; otherwise, the behavior is undefined."
          else ubReasons.add(`${th.name} leaves a named barrier it has not joined (${where(test, t, k)})`);
          break;
      }
    });
  });
  // seeds/001: "s_barrier instructions are convergent within a wave, and thus can only be performed
  // in wave-uniform control flow": the lanes of a wavefront perform the same barrier operations
  // (the parser refuses tests where they differ, LT3023), once for the wave. The first lane of each
  // wavefront performs them; the fences of every lane are placed against its own copy.
  const nodes = laneNodes.map((ns, t) => (rep[t] === t ? ns : []));
  const sig = (ns: BNode[]) => ns.map((b) => `${b.kind} ${b.obj} ${b.count}`).join('|');
  laneNodes.forEach((ns, t) => {
    // Built tests skip the parser's check (LT3023): refuse rather than guess.
    if (rep[t] !== t && sig(ns) !== sig(laneNodes[rep[t]!]!))
      unsupported.push({
        thread: t,
        instr: ns[0]?.instr ?? 0,
        message: `${test.threads[t]!.name} is a lane of ${test.threads[rep[t]!]!.name}'s wavefront but performs other barrier operations`,
      });
  });
  const lanes: Lanes = { rep, nodes: laneNodes };
  const empty: BarrierEffect = { sync: [], isfirst: new Map() };
  if (unsupported.length > 0 || nodes.every((ns) => ns.length === 0))
    return { effects: [empty], ub: ubReasons.size > 0, ubReasons: [...ubReasons], unsupported };
  const quick = bruteOnly || ubReasons.size > 0 ? null : closedForm(test, nodes, objects, lanes);
  if (quick) return { effects: [withLanes(quick, lanes)], ub: false, ubReasons: [], unsupported };
  const r = search(test, nodes, objects, ubReasons, reduce, lanes);
  if (r === null)
    return {
      effects: [empty],
      ub: false,
      ubReasons: [],
      unsupported: [{ thread: 0, instr: 0, message: `more than ${BUDGET} barrier executions` }],
    };
  return { ...r, effects: r.effects.map((e) => withLanes(e, lanes)), unsupported };
}

/** The lanes of each wavefront: its first thread (`rep`) and every thread's own barrier operations. */
interface Lanes {
  rep: number[];
  nodes: BNode[][];
}

/**
 * For each thread, the first thread of the test in the same wavefront (same agent, cluster,
 * workgroup and wavefront coordinates); host threads are their own.
 */
export function waveRepresentatives(test: Test): number[] {
  const first = new Map<string, number>();
  return test.threads.map((th, t) => {
    const p = th.placement;
    if (p.kind === 'host') return t;
    const key = `${workgroupKey(p)}.f${p.wavefront}`;
    const r = first.get(key);
    if (r !== undefined) return r;
    first.set(key, t);
    return t;
  });
}

/** The wavefront's `signal.isfirst` result is every lane's. */
function withLanes(e: BarrierEffect, lanes: Lanes): BarrierEffect {
  if (lanes.rep.every((r, t) => r === t)) return e;
  const isfirst = new Map(e.isfirst);
  lanes.nodes.forEach((ns, t) => {
    const r = lanes.rep[t]!;
    if (r === t) return;
    ns.forEach((b, i) => {
      const v = e.isfirst.get(`${r}:${lanes.nodes[r]![i]!.instr}`);
      if (b.isfirst !== null && v !== undefined) isfirst.set(`${t}:${b.instr}`, v);
    });
  });
  return { sync: e.sync, isfirst };
}

/**
 * A shortcut for the common case, equal to the brute force there (barriers.prop.test.ts): only
 * workgroup barriers, no `isfirst`, each thread alternating arrive and wait starting with an arrive,
 * and no wait left waiting. Then phase j consists of every thread's j-th arrive (a thread cannot
 * arrive again before its wait of phase j completes, and phase j needs every member), each thread's
 * m-th wait takes phase m, and an arrive of phase j barrier-executes-before every wait of a phase
 * ≥ j. Returns null outside that case.
 */
function closedForm(
  test: Test,
  nodes: BNode[][],
  objects: Map<string, BObject>,
  lanes: Lanes,
): BarrierEffect | null {
  for (const o of objects.values()) if (o.named || o.cluster) return null;
  for (const ns of nodes) {
    let arrived = false;
    for (const b of ns) {
      if (b.isfirst !== null) return null;
      if (b.kind === 'arrive') {
        if (arrived) return null;
        arrived = true;
      } else if (b.kind === 'wait') {
        if (!arrived) return null;
        arrived = false;
      } else return null;
    }
  }
  const members = new Map<string, number[]>();
  nodes.forEach((_ns, t) => {
    const wg = workgroupKey(test.threads[t]!.placement);
    if (wg === null || lanes.rep[t] !== t) return;
    const key = `wg:${wg}`;
    members.set(key, [...(members.get(key) ?? []), t]);
  });
  const completed = new Map<string, number>();
  for (const [key, ts] of members) {
    if (!objects.has(key)) continue;
    completed.set(key, Math.min(...ts.map((t) => nodes[t]!.filter((b) => b.kind === 'arrive').length)));
  }
  // Every wait's phase must complete (else UB: leave it to the brute force).
  for (const ns of nodes) {
    let m = 0;
    for (const b of ns) if (b.kind === 'wait' && m++ >= completed.get(b.obj)!) return null;
  }
  const sync: [number, number, number, number][] = [];
  const fences = (pred: (o: string) => boolean) =>
    test.threads.flatMap((th, t) =>
      th.body.flatMap((ins, k) =>
        ins.kind === 'fence' && pred(ins.ordering) ? [{ t, k, scope: ins.syncscope.scope }] : [],
      ),
    );
  const rel = fences((o) => o === 'release' || o === 'acq_rel' || o === 'seq_cst');
  const acq = fences((o) => o === 'acquire' || o === 'acq_rel' || o === 'seq_cst');
  const share = (a: number, b: number) =>
    shareRank(test.threads[a]!.placement, a, test.threads[b]!.placement, b);
  for (const f1 of rel)
    for (const f2 of acq) {
      if (f1.t === f2.t) continue;
      if (scopeRank(f1.scope) > share(f1.t, f2.t) || scopeRank(f2.scope) > share(f2.t, f1.t)) continue;
      // Each lane's own copy of its wavefront's operations (positions in its own body).
      const a1 = lanes.nodes[f1.t]!.filter((b) => b.kind === 'arrive');
      const w2 = lanes.nodes[f2.t]!.filter((b) => b.kind === 'wait');
      const j = a1.findIndex((b) => b.instr > f1.k);
      let m = -1;
      w2.forEach((b, i) => {
        if (b.instr < f2.k) m = i;
      });
      if (j >= 0 && m >= j && a1[j]!.obj === w2[m]!.obj) sync.push([f1.t, f1.k, f2.t, f2.k]);
    }
  return { sync, isfirst: new Map() };
}

interface Exec {
  effect: BarrierEffect;
  ub: boolean;
}

function search(
  test: Test,
  nodes: BNode[][],
  objects: Map<string, BObject>,
  staticUb: Set<string>,
  reduce: boolean,
  lanes: Lanes,
): { effects: BarrierEffect[]; ub: boolean; ubReasons: string[] } | null {
  const T = nodes.length;
  const flat: BNode[] = nodes.flat();
  const N = flat.length;
  const index = new Map<BNode, number>(flat.map((b, i) => [b, i]));
  const ubReasons = new Set(staticUb);
  const found = new Map<string, Exec>();
  const at = (b: BNode) => where(test, b.thread, b.instr);
  let budget = BUDGET;

  // Fences, for the memory effect.
  type F = { thread: number; instr: number; scope: Scope };
  const relF: F[] = [];
  const acqF: F[] = [];
  test.threads.forEach((th, t) => {
    th.body.forEach((ins, k) => {
      if (ins.kind !== 'fence') return;
      const f = { thread: t, instr: k, scope: ins.syncscope.scope };
      if (ins.ordering === 'release' || ins.ordering === 'acq_rel' || ins.ordering === 'seq_cst')
        relF.push(f);
      if (ins.ordering === 'acquire' || ins.ordering === 'acq_rel' || ins.ordering === 'seq_cst')
        acqF.push(f);
    });
  });
  const share = (a: number, b: number) =>
    shareRank(test.threads[a]!.placement, a, test.threads[b]!.placement, b);
  const inclF = (x: F, y: F) =>
    scopeRank(x.scope) <= share(x.thread, y.thread) && scopeRank(y.scope) <= share(y.thread, x.thread);

  // 1. Each thread performs its barrier operations up to, and including, the first wait that never
  //    completes (a "stuck" wait), or all of them.
  const stuckChoices: number[][] = nodes.map((ns) => [
    -1,
    ...ns.flatMap((b, i) => (b.kind === 'wait' ? [i] : [])),
  ]);
  const stuck = new Array<number>(T).fill(-1);

  const objKeys = [...objects.keys()];

  const evaluate = (): boolean => {
    const executed = (b: BNode) => {
      const s = stuck[b.thread]!;
      return s < 0 || nodes[b.thread]!.indexOf(b) <= s;
    };
    const isStuck = (b: BNode) => stuck[b.thread]! >= 0 && nodes[b.thread]![stuck[b.thread]!] === b;
    // 2. A barrier-modification-order per object: "All barrier modification operations on a barrier
    //    object BO occur in a strict total order … If A -> B in thread-barrier-order<BO>, then A -> B
    //    is also in barrier-modification-order<BO>." Enumerated as the interleavings of the threads'
    //    modification operations.
    const perObj = objKeys.map((key) => {
      const byThread = nodes
        .map((ns) => ns.filter((b) => b.obj === key && b.kind !== 'wait' && b.kind !== 'join' && executed(b)))
        .filter((l) => l.length > 0);
      return { key, byThread };
    });
    const orders: BNode[][][] = [];
    for (const o of perObj) {
      const ord = interleavings(o.byThread, budget, reduce ? objects.get(o.key)! : null);
      if (ord === null) return false;
      orders.push(ord);
    }
    const waits = flat.filter((b) => b.kind === 'wait' && executed(b));
    const chosen: BNode[][] = [];
    const recObj = (i: number): boolean => {
      if (i === orders.length) return assign(chosen, waits, isStuck, executed);
      for (const o of orders[i]!) {
        chosen[i] = o;
        if (!recObj(i + 1)) return false;
      }
      return true;
    };
    return recObj(0);
  };

  // 3.–5. Simulate each object along its order, choose barrier-participates-in, check constraints.
  const assign = (
    order: BNode[][],
    waits: BNode[],
    isStuck: (b: BNode) => boolean,
    executed: (b: BNode) => boolean,
  ): boolean => {
    const reasons: string[] = [];
    type Phase = { obj: string; ops: BNode[]; complete: boolean };
    const phases: Phase[] = [];
    const isfirst = new Map<string, number>();
    const bmoPos = new Map<BNode, number>();
    order.forEach((ord, oi) => {
      const obj = objects.get(objKeys[oi]!)!;
      let expected = obj.autoInit ?? 0;
      let arrived = 0;
      let initialised = obj.autoInit !== null;
      let cur: Phase = { obj: obj.key, ops: [], complete: false };
      // Cluster barrier: the workgroups that have arrived in the current phase.
      let arrivedWgs: { wg: string; b: BNode }[] = [];
      ord.forEach((b, pos) => {
        bmoPos.set(b, pos);
        if (!initialised && b.kind !== 'init') {
          // seeds/001: "The first element in barrier-modification-order<BO> is always a barrier
          // init, otherwise the behavior is undefined."; "It is undefined behavior to operate on an
          // uninitialized barrier object."
          reasons.push(`${objKeys[oi]} is used before it is initialised (${at(b)})`);
          initialised = true;
          expected = Number.POSITIVE_INFINITY;
        }
        if (b.kind === 'init') {
          // "Sets the expected count of the barrier object to k. Resets the arrive count … to zero."
          if (cur.ops.length > 0) phases.push(cur);
          cur = { obj: obj.key, ops: [], complete: false };
          initialised = true;
          expected = b.count ?? 1;
          arrived = 0;
          return;
        }
        if (b.kind === 'drop') {
          // "Decrements expected count … A barrier drop cannot cause the expected count of the
          // barrier object to become negative; otherwise, the behavior is undefined."
          expected--;
          if (expected < 0) reasons.push(`a drop makes the expected count of ${obj.key} negative (${at(b)})`);
        } else {
          // arrive: "the new expected count cannot be less than or equal to the arrive count,
          // otherwise the behavior is undefined."
          if (b.count !== null) {
            if (b.count <= arrived)
              reasons.push(
                `signal.var sets the expected count of ${obj.key} to ${b.count} ≤ arrive count ${arrived} (${at(b)})`,
              );
            expected = b.count;
          }
          // signal.isfirst: "sets SCC=1 if this wave is the first to signal the barrier".
          if (b.isfirst !== null) isfirst.set(`${b.thread}:${b.instr}`, arrived === 0 ? 1 : 0);
          if (obj.cluster) {
            // "only one wave per workgroup may arrive at the barrier on behalf of its entire
            // workgroup": a second arrive of one workgroup in a phase is undefined (choice 7).
            const wg = workgroupKey(test.threads[b.thread]!.placement)!;
            const first = arrivedWgs.find((x) => x.wg === wg);
            if (first)
              reasons.push(
                `two waves of workgroup ${wg} arrive at the cluster barrier in one phase (${at(first.b)}, ${at(b)})`,
              );
            arrivedWgs = [...arrivedWgs, { wg, b }];
          }
          arrived++;
        }
        cur.ops.push(b);
        // "When an operation causes arrive count to be equal to expected count, the barrier is
        // completed, and the arrive count is reset to zero." (A drop with nothing arrived completes
        // nothing: docs/model.md choice 7.)
        if (arrived > 0 && arrived === expected) {
          cur.complete = true;
          phases.push(cur);
          cur = { obj: obj.key, ops: [], complete: false };
          arrived = 0;
          arrivedWgs = [];
        }
      });
      if (cur.ops.length > 0) phases.push(cur);
    });
    const done = phases.filter((p) => p.complete);
    const tbo = (a: BNode, b: BNode) =>
      a.thread === b.thread && nodes[a.thread]!.indexOf(a) < nodes[a.thread]!.indexOf(b);
    // Barrier-participates-in for a wait W is a whole completed phase S with: X, W on the same
    // object; "W -> X not in thread-barrier-order<BO>"; "X does not barrier-participate-in another
    // distinct barrier wait W' in the same thread as W"; S "a continuous, uninterrupted interval of
    // barrier-modification-order" starting at arrive count zero and ending where arrive and
    // expected count become equal (a completed phase, docs/model.md choice 7).
    const candidates = (w: BNode) => done.filter((p) => p.obj === w.obj && p.ops.every((x) => !tbo(w, x)));
    const live = waits.filter((w) => !isStuck(w));
    const stuckWaits = waits.filter(isStuck);
    const bpi = new Map<BNode, Phase>();
    const used = new Set<string>();
    const key = (p: Phase, t: number) => `${phases.indexOf(p)}:${t}`;
    const check = (): { ok: boolean; closure: Uint8Array } => {
      // Barrier-executes-before: (program-order ∪ barrier-participates-in)+ over executed operations.
      const ex = flat.map((b) => executed(b));
      const R = new Uint8Array(N * N);
      // Program order (flat lists each thread's operations in program order; an s.barrier's arrive
      // comes before its wait).
      for (let i = 0; i < N; i++)
        for (let j = 0; j < N; j++) {
          const a = flat[i]!;
          const b = flat[j]!;
          if (ex[i] && ex[j] && a.thread === b.thread && i < j) R[i * N + j] = 1;
        }
      for (const [w, p] of bpi) for (const x of p.ops) R[index.get(x)! * N + index.get(w)!] = 1;
      for (let k = 0; k < N; k++)
        for (let i = 0; i < N; i++)
          if (R[i * N + k]) for (let j = 0; j < N; j++) if (R[k * N + j]) R[i * N + j] = 1;
      for (let i = 0; i < N; i++) if (R[i * N + i]) return { ok: false, closure: R }; // no thin air
      // "Barrier-executes-before is consistent with barrier-modification-order<BO>".
      for (const ord of order)
        for (let i = 0; i < ord.length; i++)
          for (let j = i + 1; j < ord.length; j++)
            if (R[index.get(ord[j]!)! * N + index.get(ord[i]!)!]) return { ok: false, closure: R };
      // "Barrier phase separation": no X on BO with A -> X -> W in barrier-executes-before and X
      // barrier-phase-with a non-empty set of operations that does not include W.
      const group = new Map<BNode, number>();
      for (const [w, p] of bpi) {
        group.set(w, phases.indexOf(p));
        for (const x of p.ops) group.set(x, phases.indexOf(p));
      }
      // "Join and Wait Ordering": "J must barrier-executes-before at least one operation X that
      // barrier-participates-in W; otherwise, the behavior is undefined." Read as one of the
      // constraints barrier-participates-in must satisfy (footnote [0]): a wait never takes a phase
      // its join does not execute before; when no phase is left, the wait never completes (UB).
      // (docs/model.md choice 7.)
      for (const [w, p] of bpi) {
        if (!objects.get(w.obj)!.named) continue;
        const js = nodes[w.thread]!.filter((j) => j.kind === 'join' && j.obj === w.obj && tbo(j, w));
        const j = js[js.length - 1];
        if (!j || !p.ops.some((x) => R[index.get(j)! * N + index.get(x)!])) return { ok: false, closure: R };
      }
      for (const [w, p] of bpi)
        for (const a of p.ops)
          for (const x of flat) {
            if (x.obj !== w.obj || !group.has(x) || group.get(x) === phases.indexOf(p)) continue;
            if (R[index.get(a)! * N + index.get(x)!] && R[index.get(x)! * N + index.get(w)!])
              return { ok: false, closure: R };
          }
      return { ok: true, closure: R };
    };
    const finish = (): boolean => {
      if (--budget < 0) return false;
      const { ok, closure: R } = check();
      if (!ok) return true;
      const be = (a: BNode, b: BNode) => R[index.get(a)! * N + index.get(b)!] === 1;
      // A stuck wait must really never complete: no completed phase could be given to it.
      for (const w of stuckWaits)
        for (const p of candidates(w)) {
          if (used.has(key(p, w.thread))) continue;
          bpi.set(w, p);
          const c = check().ok;
          bpi.delete(w);
          if (c) return true;
        }
      const why = [...reasons];
      // "It is undefined behavior for a barrier wait to never complete."
      for (const w of stuckWaits)
        why.push(`a wait of ${test.threads[w.thread]!.name} never completes (${at(w)})`);
      // "Barrier drop races": for A -> D in thread-barrier-order<BO>, A barrier-participates-in no
      // wait, or in some wait W with W -> D in barrier-executes-before.
      for (const d of flat)
        if (d.kind === 'drop' && executed(d))
          for (const a of nodes[d.thread]!) {
            if (a.kind !== 'arrive' || a.obj !== d.obj || !tbo(a, d)) continue;
            const ws = [...bpi].filter(([, p]) => p.ops.includes(a)).map(([w]) => w);
            if (ws.length > 0 && !ws.some((w) => be(w, d)))
              why.push(
                `${test.threads[d.thread]!.name} drops ${d.obj} before a phase it arrived at completes (drop race: arrive ${at(a)}, drop ${at(d)})`,
              );
          }
      // The memory effect: "a release fence po-before an arrive and an acquire fence po-after a wait
      // that the arrive barrier-executes-before synchronise when their scopes are inclusive" (DESIGN).
      const sync: [number, number, number, number][] = [];
      for (const f1 of relF)
        for (const f2 of acqF) {
          if (f1.thread === f2.thread || !inclF(f1, f2)) continue;
          // A lane's i-th barrier operation is its wavefront's (the first lane's) i-th.
          const wave1 = nodes[lanes.rep[f1.thread]!]!;
          const wave2 = nodes[lanes.rep[f2.thread]!]!;
          const ok = lanes.nodes[f1.thread]!.some(
            (a1, i) =>
              a1.kind === 'arrive' &&
              executed(wave1[i]!) &&
              a1.instr > f1.instr &&
              lanes.nodes[f2.thread]!.some(
                (w2, j) =>
                  w2.kind === 'wait' && bpi.has(wave2[j]!) && w2.instr < f2.instr && be(wave1[i]!, wave2[j]!),
              ),
          );
          if (ok) sync.push([f1.thread, f1.instr, f2.thread, f2.instr]);
        }
      const effect: BarrierEffect = { sync, isfirst: new Map(isfirst) };
      const ub = why.length > 0;
      for (const r of why) ubReasons.add(r);
      const k = `${ub ? 'U' : 'D'}|${JSON.stringify(sync)}|${JSON.stringify([...isfirst].sort())}`;
      if (!found.has(k)) found.set(k, { effect, ub });
      return true;
    };
    const rec = (i: number): boolean => {
      if (i === live.length) return finish();
      const w = live[i]!;
      for (const p of candidates(w)) {
        const u = key(p, w.thread);
        if (used.has(u)) continue;
        used.add(u);
        bpi.set(w, p);
        const go = rec(i + 1);
        bpi.delete(w);
        used.delete(u);
        if (!go) return false;
      }
      return true;
    };
    return rec(0);
  };

  const recStuck = (t: number): boolean => {
    if (t === T) return evaluate();
    for (const s of stuckChoices[t]!) {
      stuck[t] = s;
      if (!recStuck(t + 1)) return false;
    }
    stuck[t] = -1;
    return true;
  };
  if (!recStuck(0)) return null;
  const all = [...found.values()];
  const defined = all.filter((e) => !e.ub);
  const ub = all.some((e) => e.ub) || staticUb.size > 0;
  // The enumerator explores the defined barrier executions; when every one is undefined, it explores
  // those (so a report still shows states).
  const pick = defined.length > 0 ? defined : all;
  const effects = pick.length > 0 ? pick.map((e) => e.effect) : [{ sync: [], isfirst: new Map() }];
  return { effects, ub, ubReasons: ub ? [...ubReasons] : [] };
}

/**
 * Arrives of different threads next to each other in one phase can be swapped without changing
 * anything the constraints or the effect see (phases and their members; barrier-executes-before, as
 * no path joins two arrives of one phase: a path from an arrive needs a wait on a completed phase;
 * two arrives setting the same expected count see the same arrive counts between them) — unless
 * one reports `isfirst` or they set different counts.
 */
function swappable(a: BNode, b: BNode): boolean {
  return (
    a.kind === 'arrive' &&
    b.kind === 'arrive' &&
    a.isfirst === null &&
    b.isfirst === null &&
    a.count === b.count
  );
}

/**
 * The interleavings of per-thread sequences, or null when there are more than `max`. With `obj`,
 * only one order per class of swappable adjacent arrives (threads ascending): an arrive is not placed
 * right after a swappable arrive of a higher thread in the same phase. The phase is followed as
 * `assign` simulates it (init, drop and arrive counts; completion when arrive and expected counts
 * meet).
 */
function interleavings(seqs: BNode[][], max: number, obj: BObject | null): BNode[][] | null {
  const out: BNode[][] = [];
  const pos = seqs.map(() => 0);
  const acc: BNode[] = [];
  const total = seqs.reduce((s, q) => s + q.length, 0);
  // Simulation state after each prefix of `acc`: expected count, arrive count, initialised, and
  // whether the last operation completed a phase.
  const expected: number[] = [obj?.autoInit ?? 0];
  const arrived: number[] = [0];
  const initialised: boolean[] = [obj?.autoInit !== null && obj?.autoInit !== undefined];
  const completed: boolean[] = [true];
  const push = (b: BNode) => {
    const d = acc.length;
    let e = expected[d]!;
    let a = arrived[d]!;
    let init = initialised[d]!;
    if (!init && b.kind !== 'init') {
      init = true;
      e = Number.POSITIVE_INFINITY;
    }
    let done = false;
    if (b.kind === 'init') {
      init = true;
      e = b.count ?? 1;
      a = 0;
    } else {
      if (b.kind === 'drop') e--;
      else {
        if (b.count !== null) e = b.count;
        a++;
      }
      if (a > 0 && a === e) {
        done = true;
        a = 0;
      }
    }
    acc.push(b);
    expected[d + 1] = e;
    arrived[d + 1] = a;
    initialised[d + 1] = init;
    completed[d + 1] = done;
  };
  const rec = () => {
    if (out.length > max) return;
    if (acc.length === total) {
      out.push(acc.slice());
      return;
    }
    seqs.forEach((q, i) => {
      if (pos[i]! < q.length && out.length <= max) {
        const b = q[pos[i]!]!;
        const x = acc[acc.length - 1];
        if (obj && x && !completed[acc.length]! && swappable(x, b) && x.thread > b.thread) return;
        push(b);
        pos[i]!++;
        rec();
        pos[i]!--;
        acc.pop();
      }
    });
  };
  rec();
  return out.length > max ? null : out;
}
