/**
 * The independent tail of the AMDGPU search (src/enumerate/enumerate.ts, docs/model.md): when the
 * last choice points are rf choices of reads whose sources, once the earlier choices are applied,
 * depend on the prefix and their own group alone, their consistent completions are the product of
 * the groups' accepted tuples. Here: where such a tail starts (`independentTail`, `sinkTail`), its
 * groups, each variant's plan of it, and the product's odometer, which records its executions
 * without visiting them one by one.
 */

import { has } from '../core/relation.ts';
import { quickCoherenceReject, type Workspace } from '../models/amdgpu.ts';
import type { ChoicePoint } from './choice.ts';
import type { Collector } from './collector.ts';
import type { EnumerationStats } from './enumerate.ts';
import { firstRace, type Observable } from './outcomes.ts';
import type { StateIndex } from './state-index.ts';

/** What of a variant's search the tail reads and writes (the search's `Variant` has more). */
export interface TailState {
  ws: Workspace;
  obs: Observable[];
  pairs: Int32Array;
  cps: ChoicePoint[];
  values: Float64Array;
  /** Depth after which hb is final (-1: before any choice). */
  hbFinalDepth: number;
  /**
   * Choice points from this index on form an independent tail (see `independentTail`): once the
   * earlier choices are applied, its executions are the product of per-read candidate lists.
   */
  tailStart: number;
  /** The independent tail's groups (reads and their observable slots). */
  tailGroups: { reads: Int32Array; slots: Int32Array }[];
  /**
   * The tail is one of hb sinks in a test that synchronises (`sinkTail`): each read is checked by
   * `Workspace.sinkReadOk` against the prefix's derived hb, and the first combination goes through
   * every axiom.
   */
  sinkTail: boolean;
  /** The tail's per-variant plan (`planTail`), made at the first product. */
  tailPlan: TailPlan | null;
  /** The product being enumerated for the current prefix, or null. */
  prod: Product | null;
  /** States met by this variant's products, by numeric key (see `Product.base`). */
  stateIndex: StateIndex;
  /** Ids of the prefix parts of the values (everything but the tail slots), for the keys. */
  prefixIds: Map<string, number>;
  /** Executions each recorded one stands for besides its weight: the relabelled classes' images. */
  relFactor: number;
}

/** The search a product runs in: where its executions go and what it counts. */
export interface ProductHost<S extends TailState> {
  readonly collector: Collector;
  readonly stats: EnumerationStats;
  /** The variant being searched. */
  readonly variant: number;
  readonly testName: string;
  /** Products started, and those over a sink tail (for tests). */
  products: number;
  sinkProducts: number;
  /** Checks and records the applied candidate (`trusted`: every axiom but `values` checked on the way). */
  emitLeaf(st: S, trusted?: boolean): void;
}

/**
 * One group of the independent tail: reads of one location related by hb (coherence links their
 * choices), or a single read. Its accepted choices are tuples of sources, one per read.
 */
interface TailGroup {
  reads: Int32Array;
  /** The observable slot of each read's register (`UNOBSERVED`: none shows it). */
  slots: Int32Array;
  /** Accepted tuples, flattened (tuple t is `tuples[t * reads.length …]`). */
  tuples: Int32Array;
  /** The value each read gets in each tuple (NaN: undef), flattened like `tuples`. */
  vals: Float64Array;
  /** Reads returning undef in each tuple. */
  undefs: Int32Array;
  /** Each tuple's index among the group's possible value tuples (for the state keys). */
  keyIndex: Float64Array;
  count: number;
}

/** What a variant's tail products share (`planTail`). */
export interface TailPlan {
  groups: TailPlanGroup[];
  /** Per event: a read of the tail. */
  tailRead: Uint8Array;
  /** Per observable slot: shown by a tail read. */
  tailSlot: Uint8Array;
}

/** A tail group's part of a variant's plan. */
interface TailPlanGroup {
  reads: Int32Array;
  slots: Int32Array;
  observed: boolean;
  /** Each read's choice depth and rf domain. */
  depths: Int32Array;
  doms: Int32Array[];
  /** The value each domain entry gives (NaN: undef). */
  vals: Float64Array[];
  /** Each domain entry's position among the read's distinct values (0 for an unobserved read). */
  keyPos: Int32Array[];
  /** Distinct values per read (1 for an unobserved read), and their product. */
  radixes: Int32Array;
  radix: number;
  /** Scratch: the domain index chosen per read. */
  cur: Int32Array;
}

/** An odometer over the accepted tuples of the independent tail's groups. */
export interface Product {
  /** The groups some observable shows: the odometer runs over these. */
  groups: TailGroup[];
  /**
   * Executions per combination of `groups`: the product of the tuple counts of the groups nothing
   * observes (`observe: 'condition'`), which are counted, not enumerated.
   */
  mult: number;
  /** Some tuple of an unobserved group reads undef (so every state reached has an undef read). */
  collapsedUndef: boolean;
  digits: Int32Array;
  /** Reads of the current combination that return undef. */
  undefReads: number;
  /**
   * State keys: `base + Σ keyIndex[g][digit_g] × weight[g]`, where base = prefix id × Π radix (every
   * group's values are one of its radix possible value tuples). NaN: too many to key; every
   * combination then goes through the collector's hash.
   */
  base: number;
  tailKey: number;
  weight: Float64Array;
  /** Some prefix read returns undef. */
  baseUndef: boolean;
  race: boolean;
  done: boolean;
}

/**
 * Starts the product of the independent tail for the applied prefix: each group's accepted tuples
 * are those the search would accept read by read (the quick coherence check for atomic reads, with
 * the group's earlier reads applied; with static value rules and no thin air possible, nothing
 * else can reject a choice).
 */
export function startProduct<S extends TailState>(host: ProductHost<S>, st: S): Product {
  const { ws, cps } = st;
  host.products++;
  if (st.sinkTail) host.sinkProducts++;
  // Every store writes a constant (the evaluator's simple case): one run gives every written
  // value, so the plan (domains, values, key positions) is fixed for the variant.
  if (!st.tailPlan) st.tailPlan = planTail(st);
  const plan = st.tailPlan;
  // A sink tail is checked against the prefix's hb, derived with the tail unset.
  if (st.sinkTail) ws.deriveBase();
  const groups: TailGroup[] = [];
  const collapsed: TailGroup[] = [];
  let radix = 1;
  const radices: number[] = [];
  for (const pg of plan.groups) {
    const group = groupTuples(st, pg);
    if (!pg.observed) {
      collapsed.push(group);
      continue;
    }
    radices.push(pg.radix);
    radix *= pg.radix;
    groups.push(group);
  }
  const weight = new Float64Array(groups.length);
  for (let g = groups.length - 1, w = 1; g >= 0; g--) {
    weight[g] = w;
    w *= radices[g]!;
  }
  const prod: Product = {
    groups,
    mult: collapsed.reduce((m, g) => m * g.count, 1),
    collapsedUndef: collapsed.some((g) => g.undefs.some((u) => u > 0)),
    digits: new Int32Array(groups.length),
    undefReads: 0,
    base: Number.NaN,
    tailKey: 0,
    weight,
    baseUndef: false,
    race: false,
    done: groups.some((g) => g.count === 0) || collapsed.some((g) => g.count === 0),
  };
  if (prod.done) return prod;
  // The first combination goes through the ordinary leaf (values, race, final memory, example).
  for (const g of [...groups, ...collapsed])
    for (let k = 0; k < g.reads.length; k++) ws.rfSrc[g.reads[k]!] = g.tuples[k]!;
  host.stats.nodes += cps.length - st.tailStart;
  if (st.sinkTail && host.sinkProducts <= SINK_FULL_CHECKS) {
    // hb depends on the tail here: the first combinations of the first products go through every
    // axiom, a check of `sinkReadOk`/`suffixSwOk` in every run (later ones are trusted: the
    // full check costs half the time of a product — value rules, derived hb).
    const before = host.stats.consistent;
    host.emitLeaf(st, false);
    if (host.stats.consistent === before)
      throw new Error(`internal: a sink-tail product's first combination is inconsistent (${host.testName})`);
  } else host.emitLeaf(st);
  prod.race = firstRace(ws, st.pairs) >= 0;
  for (const r of ws.sk.reads) if (ws.rfSrc[r] === -1 && !plan.tailRead[r]) prod.baseUndef = true;
  groups.forEach((g, i) => {
    prod.undefReads += g.undefs[0]!;
    prod.tailKey += g.keyIndex[0]! * weight[i]!;
  });
  const values = st.values;
  if (prod.mult > 1) {
    // The first combination's other executions: the unobserved groups' other tuples.
    const extra = (prod.mult - 1) * ws.coWeight;
    host.collector.bump(
      host.collector.lookup(values),
      extra,
      prod.race,
      prod.baseUndef || prod.undefReads > 0 || prod.collapsedUndef,
    );
    host.stats.consistent += extra * st.relFactor;
  }
  let prefix = '';
  for (let k = 0; k < values.length; k++) if (!plan.tailSlot[k]) prefix += `${values[k]},`;
  let pid = st.prefixIds.get(prefix);
  if (pid === undefined) {
    pid = st.prefixIds.size;
    st.prefixIds.set(prefix, pid);
  }
  if ((pid + 1) * radix < 2 ** 53) {
    prod.base = pid * radix;
    // The first combination's record is the collector's newest or an existing one.
    const id = host.collector.lookup(values);
    if (id >= 0) st.stateIndex.set(prod.base + prod.tailKey, id);
  }
  return prod;
}

/**
 * What a variant's products share: per tail group, each read's rf domain and choice depth, the
 * value each source gives (constant stores) and its position among the read's distinct values
 * (for the state keys; an unobserved read's value is no part of the key).
 */
function planTail(st: TailState): TailPlan {
  const { ws, cps } = st;
  ws.evaluator.run(ws.rfSrc);
  const depthOf = new Int32Array(ws.sk.n).fill(-1);
  const tailRead = new Uint8Array(ws.sk.n);
  for (let d = st.tailStart; d < cps.length; d++) {
    const r = (cps[d] as { read: number }).read;
    depthOf[r] = d;
    tailRead[r] = 1;
  }
  const tailSlot = new Uint8Array(st.values.length);
  for (const g of st.tailGroups) for (const k of g.slots) if (k >= 0) tailSlot[k] = 1;
  const groups = st.tailGroups.map((g) => {
    const depths = Int32Array.from(g.reads, (r) => depthOf[r]!);
    const doms = Array.from(depths, (d) => cps[d]!.domain);
    const vals = doms.map((dom) =>
      Float64Array.from(dom, (src) => (src >= 0 ? ws.evaluator.writeVal[src]! : Number.NaN)),
    );
    const radixes = new Int32Array(g.reads.length);
    const keyPos = vals.map((vs, k) => {
      const pos = new Int32Array(vs.length);
      if (g.slots[k]! < 0) {
        radixes[k] = 1;
        return pos;
      }
      const distinct: number[] = [];
      for (let j = 0; j < vs.length; j++) {
        let at = 0;
        while (at < distinct.length && !Object.is(distinct[at], vs[j])) at++;
        if (at === distinct.length) distinct.push(vs[j]!);
        pos[j] = at;
      }
      radixes[k] = distinct.length;
      return pos;
    });
    let radix = 1;
    for (const r of radixes) radix *= r;
    return {
      reads: g.reads,
      slots: g.slots,
      observed: g.slots.some((x) => x >= 0),
      depths,
      doms,
      vals,
      keyPos,
      radixes,
      radix,
      cur: new Int32Array(g.reads.length),
    };
  });
  return { groups, tailRead, tailSlot };
}

/**
 * A group's accepted tuples for the applied prefix: those the search would accept read by read
 * (`sinkReadOk` and `suffixSwOk` in a sink tail, else the quick coherence check for atomic reads
 * with the group's earlier reads applied), by a depth-first walk over the reads' domains.
 */
function groupTuples(st: TailState, pg: TailPlanGroup): TailGroup {
  const { ws } = st;
  const { reads, doms, depths, cur } = pg;
  const n = reads.length;
  const tuples: number[] = [];
  const vals: number[] = [];
  const undefs: number[] = [];
  const keyIndex: number[] = [];
  cur.fill(-1);
  let i = 0;
  while (i >= 0) {
    const r = reads[i]!;
    const dom = doms[i]!;
    let j = cur[i]! + 1;
    for (; j < dom.length; j++) {
      const src = dom[j]!;
      ws.rfSrc[r] = src;
      const reject = st.sinkTail
        ? !ws.sinkReadOk(r, src) || !ws.suffixSwOk(reads, i, src)
        : depths[i]! <= st.hbFinalDepth && src >= 0 && quickCoherenceReject(ws, r, src);
      if (!reject) break;
    }
    if (j === dom.length) {
      ws.rfSrc[r] = -2;
      cur[i] = -1;
      i--;
      continue;
    }
    cur[i] = j;
    if (i + 1 < n) {
      i++;
      continue;
    }
    // A complete tuple.
    let u = 0;
    let key = 0;
    for (let k = 0; k < n; k++) {
      const jk = cur[k]!;
      const src = doms[k]![jk]!;
      tuples.push(src);
      vals.push(pg.vals[k]![jk]!);
      if (src === -1) u++;
      key = key * pg.radixes[k]! + pg.keyPos[k]![jk]!;
    }
    undefs.push(u);
    keyIndex.push(key);
  }
  return {
    reads,
    slots: pg.slots,
    tuples: Int32Array.from(tuples),
    vals: Float64Array.from(vals),
    undefs: Int32Array.from(undefs),
    keyIndex: Float64Array.from(keyIndex),
    count: undefs.length,
  };
}

/** Applies tuple `t` of group `g`: its sources and values. */
function applyTuple(st: TailState, g: TailGroup, t: number): void {
  const n = g.reads.length;
  for (let k = 0; k < n; k++) {
    st.ws.rfSrc[g.reads[k]!] = g.tuples[t * n + k]!;
    const slot = g.slots[k]!;
    if (slot >= 0) st.values[slot] = g.vals[t * n + k]!;
  }
}

/** Advances the odometer by up to `budget` combinations, recording each; returns how many. */
export function runProduct<S extends TailState>(host: ProductHost<S>, st: S, budget: number): number {
  const prod = st.prod!;
  const { ws, values } = st;
  const { groups, digits, weight } = prod;
  const n = groups.length;
  const keyed = !Number.isNaN(prod.base);
  const index = st.stateIndex;
  const k = ws.coWeight * prod.mult;
  const collector = host.collector;
  const variant = host.variant;
  let used = 0;
  while (!prod.done && used < budget && !collector.overflow) {
    // Next combination: increment the last group's tuple, carrying left.
    let i = n - 1;
    for (; i >= 0; i--) {
      const g = groups[i]!;
      const d = digits[i]!;
      prod.undefReads -= g.undefs[d]!;
      if (d + 1 < g.count) {
        digits[i] = d + 1;
        prod.tailKey += (g.keyIndex[d + 1]! - g.keyIndex[d]!) * weight[i]!;
        prod.undefReads += g.undefs[d + 1]!;
        applyTuple(st, g, d + 1);
        break;
      }
      digits[i] = 0;
      prod.tailKey += (g.keyIndex[0]! - g.keyIndex[d]!) * weight[i]!;
      prod.undefReads += g.undefs[0]!;
      applyTuple(st, g, 0);
    }
    if (i < 0) {
      prod.done = true;
      break;
    }
    used++;
    const undef = prod.baseUndef || prod.undefReads > 0 || prod.collapsedUndef;
    if (!keyed) {
      collector.record(values, k, prod.race, undef, () => ({
        variant,
        rf: ws.rfSrc.slice(),
        co: ws.coRank.slice(),
      }));
      continue;
    }
    const key = prod.base + prod.tailKey;
    const id = index.get(key);
    if (id >= 0) collector.bump(id, k, prod.race, undef);
    else {
      const added = collector.record(values, k, prod.race, undef, () => ({
        variant,
        rf: ws.rfSrc.slice(),
        co: ws.coRank.slice(),
      }));
      if (added >= 0) index.set(key, added);
    }
  }
  host.stats.nodes += used;
  host.stats.explored += used;
  host.stats.consistent += used * k * st.relFactor;
  return used;
}

/**
 * Where the independent tail of `cps` starts (`cps.length`: none). A suffix of rf choice points is
 * an independent tail when hb is static and coherence local (`coherenceLocal`, no-thin-air implied by
 * coherence (`thinAirImpliedByCoherence`),
 * static value rules, nothing left for the hb-final checks, every store a constant and no RMW or
 * cmpxchg — the evaluator's simple case) and each of its reads is a plain load whose register
 * nothing else uses (its value reaches only its own observable). Its reads fall into groups: reads
 * of one location related by hb, linked transitively (`tailGroups`). Once the earlier choices are
 * applied, which sources a group may take depends on the prefix and the group alone (a coherence
 * cycle through two reads, `irreflexive(hb ; eco?)`, needs them on one location and related by hb;
 * `quickCoherenceReject` decides coherence exactly in this case), the race flag and final memory do
 * not depend on the tail, and each read changes only its own observable: the consistent
 * completions are the product of the groups' accepted tuples. Checked against the reference
 * enumerator (enumerate.prop.test.ts).
 */
export function independentTail(ws: Workspace, obs: Observable[], cps: ChoicePoint[]): number {
  if (!ws.coherenceLocal || !ws.evaluator.simple || !ws.syncFree || !thinAirImpliedByCoherence(ws))
    return cps.length;
  let start = cps.length;
  for (let i = cps.length - 1; i >= 0; i--) {
    const cp = cps[i]!;
    if (cp.kind !== 'rf' || tailSlot(ws, obs, cp.read) === NOT_IN_TAIL) break;
    start = i;
  }
  // A product of one read is no cheaper than the search.
  return cps.length - start >= 2 ? start : cps.length;
}

/** Sink-tail products whose first combination goes through every axiom (`startProduct`). */
const SINK_FULL_CHECKS = 64;

/**
 * Where a tail of hb sinks starts in a test that synchronises (`cps.length`: none): a suffix of rf
 * choice points whose reads are plain loads nothing else uses (`tailSlot`), each followed in its
 * thread only by reads of the tail (so an rf or sw edge into it adds hb edges into the tail reads
 * of its thread only, and no tail read is hb-before anything else), in a test whose accesses are
 * all atomic and inclusive per location (`atomicLocal`: no races, no undef, coherence decides every
 * value) and whose every store is a constant. A read's acceptable sources then depend on the
 * prefix and the earlier tail reads of its thread alone (`Workspace.sinkReadOk`,
 * `Workspace.suffixSwOk`); tail reads of two threads are never related by hb, so each thread's
 * tail reads form one group of the product (`sinkGroups`).
 */
export function sinkTail(ws: Workspace, obs: Observable[], cps: ChoicePoint[]): number {
  const { sk } = ws;
  if (!ws.atomicLocal || !ws.evaluator.simple || ws.valueCheckReads.length > 0 || ws.loCheckPairs.length > 0)
    return cps.length;
  const inTail = new Uint8Array(sk.n);
  let start = cps.length;
  for (let i = cps.length - 1; i >= 0; i--) {
    const cp = cps[i]!;
    if (cp.kind !== 'rf' || tailSlot(ws, obs, cp.read) === NOT_IN_TAIL || cp.domain.includes(-1)) break;
    if (sk.events.some((e) => has(sk.po, cp.read, e.id) && !inTail[e.id])) break;
    inTail[cp.read] = 1;
    start = i;
  }
  return cps.length - start >= 2 ? start : cps.length;
}

/** The groups of a sink tail `cps[start…]`: the tail reads of each thread, in program order. */
export function sinkGroups(
  ws: Workspace,
  obs: Observable[],
  cps: ChoicePoint[],
  start: number,
): { reads: Int32Array; slots: Int32Array }[] {
  const byThread: number[][] = [];
  const order: number[] = [];
  for (const cp of cps.slice(start)) {
    const r = (cp as { read: number }).read;
    const t = ws.sk.events[r]!.thread;
    if (!byThread[t]) {
      byThread[t] = [];
      order.push(t);
    }
    byThread[t]!.push(r);
  }
  return order.map((t) => {
    // Program order within the thread (cps keep the skeleton's order, which is po's).
    const reads = byThread[t]!.sort((a, b) => (has(ws.sk.po, a, b) ? -1 : has(ws.sk.po, b, a) ? 1 : 0));
    return { reads: Int32Array.from(reads), slots: Int32Array.from(reads, (r) => tailSlot(ws, obs, r)) };
  });
}

/**
 * No-thin-air (`acyclic(po ∪ rf)`) needs no check of its own: no read is po-before a write, or every
 * read is po-before writes of its own location only. Then every edge of a po ∪ rf cycle stays on one
 * location, so the cycle lies in hb ∪ rf over one location's accesses — atomic with inclusive scopes
 * here (`coherenceLocal`) — and coherence already forbids it.
 */
function thinAirImpliedByCoherence(ws: Workspace): boolean {
  if (ws.thinAirImpossible) return true;
  const { sk } = ws;
  for (const r of sk.reads)
    for (const w of sk.writes) if (has(sk.po, r, w) && sk.events[r]!.loc !== sk.events[w]!.loc) return false;
  return true;
}

/** The groups of the tail `cps[start…]`: reads of one location related by hb, linked transitively. */
export function tailGroups(
  ws: Workspace,
  obs: Observable[],
  cps: ChoicePoint[],
  start: number,
): { reads: Int32Array; slots: Int32Array }[] {
  const reads = cps.slice(start).map((cp) => (cp as { read: number }).read);
  const group = reads.map((_, i) => i);
  const find = (i: number): number => {
    let r = i;
    while (group[r] !== r) r = group[r]!;
    return r;
  };
  for (let i = 0; i < reads.length; i++)
    for (let j = i + 1; j < reads.length; j++) {
      const a = reads[i]!;
      const b = reads[j]!;
      if (ws.sk.events[a]!.loc !== ws.sk.events[b]!.loc) continue;
      const hb = ws.hbOf(a);
      if (has(hb, a, b) || has(hb, b, a)) group[find(i)] = find(j);
    }
  const out: { reads: number[] }[] = [];
  const at = new Map<number, number>();
  reads.forEach((r, i) => {
    const g = find(i);
    if (!at.has(g)) {
      at.set(g, out.length);
      out.push({ reads: [] });
    }
    out[at.get(g)!]!.reads.push(r);
  });
  return out.map((g) => ({
    reads: Int32Array.from(g.reads),
    slots: Int32Array.from(g.reads, (r) => tailSlot(ws, obs, r)),
  }));
}

/** `tailSlot`: the read cannot be part of an independent tail. */
const NOT_IN_TAIL = -1;
/** `tailSlot`: the read can, and no observable shows its register (`observe: 'condition'`). */
const UNOBSERVED = -2;

/**
 * The observable slot of read `r`'s register when `r` is a plain load whose register no other step
 * uses (`UNOBSERVED` when no observable shows it), else `NOT_IN_TAIL`.
 */
function tailSlot(ws: Workspace, obs: Observable[], r: number): number {
  const e = ws.sk.events[r]!;
  if (e.rmw >= 0 || e.thread < 0) return NOT_IN_TAIL;
  const prog = ws.evaluator.programs[e.thread]!;
  const step = prog.steps.find((s) => s.k === 'read' && s.ev === r);
  if (step?.k !== 'read' || step.dst < 0 || step.okDst >= 0) return NOT_IN_TAIL;
  const dst = step.dst;
  const uses = (o: { c: boolean; r?: number }) => !o.c && o.r === dst;
  for (const s of prog.steps) {
    if (s === step) continue;
    if ('dst' in s && s.dst === dst) return NOT_IN_TAIL;
    if (s.k === 'store' && uses(s.a as { c: boolean; r?: number })) return NOT_IN_TAIL;
    if ((s.k === 'bin' || s.k === 'icmp') && (uses(s.a as never) || uses(s.b as never))) return NOT_IN_TAIL;
    if (s.k === 'select' && (uses(s.cond as never) || uses(s.a as never) || uses(s.b as never)))
      return NOT_IN_TAIL;
    if (s.k === 'copy' && s.src === dst) return NOT_IN_TAIL;
    if (s.k === 'rmw' || s.k === 'cas') return NOT_IN_TAIL;
  }
  const slot = obs.findIndex((o) => o.kind === 'reg' && o.thread === e.thread && o.reg === dst);
  return slot >= 0 ? slot : UNOBSERVED;
}
