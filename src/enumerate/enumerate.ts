/**
 * Candidate executions of a test, enumerated depth-first with pruning: per location a coherence
 * order (respecting program order), then per read an rf source (a same-location write that is not
 * po-after it, or `undef` when the value rules could ever give it). After every rf choice the
 * monotone base axioms are checked on the partial candidate, so a violated axiom cuts the whole
 * subtree. Complete candidates go through every axiom; consistent ones go to a `Collector`.
 *
 * The search is an explicit-stack loop so it can run in slices (`step`), which lets the CLI honour
 * Ctrl-C and time budgets between slices and report what was found so far.
 */

import { has } from '../core/relation.ts';
import type { Test } from '../core/types.ts';
import { buildSkeleton, countBarrierVariants, countCmpxchg, type Skeleton } from '../events/skeleton.ts';
import {
  checkCandidate,
  checkHbFinal,
  checkPartial,
  checkValuesOnly,
  coForcedRmw,
  DEFAULT_OPTIONS,
  type ModelOptions,
  noThinAirOk,
  quickCoherenceReject,
  readValueOk,
  rmwBetween,
  undefPossible,
  type Verdict,
  Workspace,
} from '../models/amdgpu.ts';
import type { Collector } from './collector.ts';
import { VariantDriver } from './driver.ts';
import { SLICE_EXECUTIONS } from './limits.ts';
import {
  firstRace,
  type Observable,
  type ObservableError,
  type ObserveMode,
  observables,
  observe,
  racePairs,
} from './outcomes.ts';
import { StateIndex } from './state-index.ts';
import { findSymmetry, type Symmetry } from './symmetry.ts';

export { Collector, type ExecutionRecord, NO_EXAMPLE, type StateRecord } from './collector.ts';

/** Records one consistent execution of `ws` (weighted by `ws.coWeight`); returns its state's id. */
export function collect(
  c: Collector,
  ws: Workspace,
  variant: number,
  values: Float64Array,
  race: boolean,
  undef: boolean,
): number {
  return c.record(values, ws.coWeight, race, undef, () => ({
    variant,
    rf: ws.rfSrc.slice(),
    co: ws.coRank.slice(),
  }));
}

export interface EnumerateOptions {
  model: ModelOptions;
  /** Check monotone axioms on partial candidates (the reference enumerator does not). */
  prune: boolean;
  /** Stop after this many consistent executions. */
  maxExecutions: number;
  /** Stop after this many milliseconds. */
  timeoutMs: number;
  /**
   * Keep at most this many distinct final states: the search stops when it finds one more
   * (`Collector.overflow`, checked per execution), so a test of exactly so many is decided. Bounds
   * memory and report size.
   */
  maxStates: number;
  /**
   * `filtered`: rf domains leave out writes po-after the read and undef where the value rules can
   * never give it (both always forbidden). `all`: every same-location write and undef (for --explain).
   */
  domains: 'filtered' | 'all';
  /** Record one example execution per final state (needed for graphs; costs memory). */
  keepExamples: boolean;
  /** What a final state shows (`ObserveMode`). */
  observe: ObserveMode;
  /** Called for every complete candidate the model rejects (with the workspace still loaded). */
  onReject: ((ws: Workspace, verdict: Verdict, variant: number) => void) | null;
  /**
   * Called for every consistent complete candidate (with the workspace still loaded): with
   * `onReject`, a caller sees every candidate one by one (the explorer's list of executions).
   */
  onAccept: ((ws: Workspace, variant: number) => void) | null;
  /**
   * Search only one variant, with the first choice points fixed to these domain indices (a slice
   * of the search for one worker task; see `splitSearch`).
   */
  only: { variant: number; prefix: number[] } | null;
  /**
   * Explore one execution per orbit of the test's thread symmetries and weight it
   * (src/enumerate/symmetry.ts; pruned searches of one variant, no witnesses, no slices).
   */
  symmetry: boolean;
}

export const DEFAULT_ENUMERATE: EnumerateOptions = {
  model: DEFAULT_OPTIONS,
  prune: true,
  maxExecutions: Number.POSITIVE_INFINITY,
  timeoutMs: Number.POSITIVE_INFINITY,
  maxStates: Number.POSITIVE_INFINITY,
  domains: 'filtered',
  keepExamples: true,
  observe: 'all',
  onReject: null,
  onAccept: null,
  only: null,
  symmetry: true,
};

export type StopReason = 'done' | 'max-executions' | 'max-states' | 'timeout' | 'interrupted';

export interface EnumerationStats {
  /** Search-tree nodes visited (each a choice applied). */
  nodes: number;
  /** Complete candidates checked against every axiom. */
  explored: number;
  /** Consistent executions. */
  consistent: number;
}

type ChoicePoint =
  | { kind: 'co'; loc: number; domain: Int32Array }
  | {
      kind: 'rf';
      read: number;
      domain: Int32Array;
      /**
       * The RMW write of `read` when its source is forced by coherence (`coForcedRmw`): once the
       * location's coherence order is placed, only the write just before it (or undef) is tried.
       */
      rmwOf: number;
      /**
       * Forced like the next choice point (both `rmwOf`): the partial checks wait for the last of
       * the run, which checks the same monotone axioms on more of the candidate.
       */
      defer: boolean;
    };

interface Variant {
  /** Its search is over (`VariantDriver`). */
  finished: boolean;
  sk: Skeleton;
  ws: Workspace;
  obs: Observable[];
  pairs: Int32Array;
  cps: ChoicePoint[];
  cur: Int32Array;
  depth: number;
  placed: Uint8Array;
  nextRank: Int32Array;
  /** Same-location writes po-before each write (they must come first in co). */
  poPred: Int32Array[];
  values: Float64Array;
  leafDone: boolean;
  /** Depth after which hb is final (-1: before any choice). */
  hbFinalDepth: number;
  /** The hb-final checks failed before any choice: no candidate of this variant is consistent. */
  dead: boolean;
  /**
   * Coherence-local variant with nothing left for the hb-final checks (no read can be undef, all
   * writes atomic and inclusive): the quick checks on the way down already decided everything.
   */
  hbFinalTrivial: boolean;
  /** rf domains were filtered by the (static) value rules. */
  staticValues: boolean;
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
  /**
   * Depth on the current path from which hb is final before `hbFinalDepth` (-1: not known): deeper
   * choices cannot change it, so only their value rules need a look.
   */
  hbFinalFrom: number;
  /** The tail's per-variant plan (`tailPlan`), made at the first product. */
  tailPlan: TailPlan | null;
  /** The product being enumerated for the current prefix, or null. */
  prod: Product | null;
  /** States met by this variant's products, by numeric key (see `Product.base`). */
  stateIndex: StateIndex;
  /** Ids of the prefix parts of the values (everything but the tail slots), for the keys. */
  prefixIds: Map<string, number>;
  /** Thread symmetry the search reduces by (`symmetry.ts`), or null. */
  sym: Symmetry | null;
  /** Per thread: some choice on the current path fixed it (no longer permuted). */
  pinned: Uint8Array;
  /** Threads pinned by the choice at each depth (two slots: the reader, the source), or -1. */
  pinAt: Int32Array;
  /** Product of the orbit sizes of the choices down to each depth (index 0: none). */
  symW: Float64Array;
  /** `ws.coWeight` before the orbit weights (collapsed coherence orders). */
  baseWeight: number;
  /** Executions each recorded one stands for besides its weight: the relabelled classes' images. */
  relFactor: number;
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

/** What a variant's tail products share (`Enumeration.tailPlan`). */
interface TailPlan {
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
interface Product {
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
 * Number of variants of `test`: every combination of cmpxchg outcomes, times every distinct barrier
 * execution (src/events/barriers.ts).
 */
export function variantCount(test: Test): number {
  return 2 ** countCmpxchg(test) * countBarrierVariants(test);
}

/** The cmpxchg outcome combination of variant `v` (bit k: the k-th cmpxchg fails). */
export function variantOutcomes(test: Test, v: number): boolean[] {
  const k = countCmpxchg(test);
  return Array.from({ length: k }, (_, i) => ((v >>> i) & 1) === 0);
}

/** The skeleton of variant `v`: cmpxchg outcomes in the low bits, then the barrier execution. */
export function variantSkeleton(test: Test, v: number): Skeleton {
  const k = countCmpxchg(test);
  return buildSkeleton(test, variantOutcomes(test, v % 2 ** k), Math.floor(v / 2 ** k));
}

/**
 * Whether the coherence orders of a location's non-initial `writes` are indistinguishable, so the
 * enumerator may explore one and count it k! times (docs/model.md, "Collapsed coherence orders").
 * Needs static hb and location order (`syncFree`, derived). Every write non-atomic: they are outside
 * `ai`, so mo, fr, eco, coherence, RMW atomicity and psc never see their order; no two of them
 * location-ordered: co-respects-lo holds or fails alike for every order, and the final value is
 * `undef` whichever comes last. Nothing else reads co.
 */
export function collapsibleCo(ws: Workspace, writes: number[]): boolean {
  if (writes.length < 2) return false;
  const { sk } = ws;
  for (const w of writes) if (sk.events[w]!.atomic) return false;
  for (const a of writes) for (const b of writes) if (a !== b && has(ws.lo, a, b)) return false;
  return true;
}

/** rf sources the optimised enumerator offers read `r`: same-location writes not po-after it, then undef if possible. */
export function rfDomain(sk: Skeleton, r: number): number[] {
  const e = sk.events[r]!;
  const out: number[] = [];
  for (const w of sk.writesByLoc[e.loc]!) if (!has(sk.po, r, w)) out.push(w);
  if (undefPossible(sk, r)) out.push(-1);
  return out;
}

/** Skeleton, workspace and observables of a variant, shared by both enumerators. */
export function prepareVariant(
  test: Test,
  v: number,
  errors?: ObservableError[],
  observe: ObserveMode = 'all',
  ignoreMootSync = false,
) {
  const sk = variantSkeleton(test, v);
  const ws = new Workspace(sk, { ignoreMootSync });
  const obs = observables(sk, ws.evaluator.programs, errors, observe);
  return { sk, ws, obs, pairs: racePairs(sk) };
}

/**
 * Processes a complete candidate loaded in `ws`: checks every axiom and, when consistent, records
 * it. Returns the model's verdict.
 */
export function leaf(
  ws: Workspace,
  obs: Observable[],
  pairs: Int32Array,
  values: Float64Array,
  variant: number,
  model: ModelOptions,
  out: Collector,
  trusted = false,
): Verdict {
  const v = trusted ? checkValuesOnly(ws, model) : checkCandidate(ws, model);
  if (!v.consistent) return v;
  let undef = false;
  for (const r of ws.sk.reads) if (ws.rfSrc[r] === -1) undef = true;
  const race = firstRace(ws, pairs) >= 0;
  // One execution per valuation: the solutions of a value cycle (docs/model.md, "Values out of
  // thin air"), or the one computed valuation.
  const ev = ws.evaluator;
  for (let k = 0; k < ev.count; k++) {
    if (k > 0) ev.loadSolution(k);
    observe(ws, obs, values);
    collect(out, ws, variant, values, race, undef);
  }
  return v;
}

/** A resumable enumeration of one test's consistent executions. */
export class Enumeration extends VariantDriver<Variant, EnumerationStats> {
  readonly errors: ObservableError[];
  /** Independent-tail products started (how often the product path ran; for tests). */
  products = 0;
  /** Of those, products over a tail of hb sinks in a test that synchronises (`sinkTail`). */
  sinkProducts = 0;
  /** The search reduced by thread symmetry (`symmetry.ts`): with relabelled classes or without. */
  symmetric: 'no' | 'identical' | 'relabelled' = 'no';
  private readonly prefix: number[];

  constructor(
    readonly test: Test,
    readonly opts: EnumerateOptions = DEFAULT_ENUMERATE,
  ) {
    const errors: ObservableError[] = [];
    const first = prepareVariant(test, 0, errors, opts.observe);
    super(
      first.obs.map((o) => o.label),
      opts,
      opts.only ? opts.only.variant + 1 : variantCount(test),
      { nodes: 0, explored: 0, consistent: 0 },
      opts.only ? opts.only.variant : 0,
    );
    this.errors = errors;
    this.prefix = opts.only ? opts.only.prefix : [];
  }

  /** Where the depth-first search of `st` is (each choice point's subtrees assumed equally large). */
  protected override within(st: Variant): number {
    let within = 0;
    if (st.depth >= 0) {
      let scale = 1;
      for (let d = 0; d <= st.depth && d < st.cps.length; d++) {
        const size = st.cps[d]!.domain.length;
        const at = Math.max(0, st.cur[d]!);
        within += (scale * at) / size;
        scale /= size;
      }
    }
    return within;
  }

  protected start(v: number): Variant {
    const st = this.makeVariant(v);
    const sym = st.sym;
    if (sym) this.symmetric = sym.relabelled.some((r) => r) ? 'relabelled' : 'identical';
    if (sym?.images) this.collector.setImages(sym.images);
    return st;
  }

  protected advance(st: Variant, budget: number): number {
    const used = this.advanceVariant(st, budget);
    st.finished = used.finished;
    return used.nodes;
  }

  /** The choice points of variant `v`, in search order. */
  choicePoints(v: number): ChoicePoint[] {
    return this.makeVariant(v).cps;
  }

  private makeVariant(v: number): Variant {
    // The pruned search drops sw where it cannot change a verdict (`Workspace.syncMoot`); runs that
    // explain rejected candidates keep it, so their witnesses show the synchronisation.
    const { sk, ws, obs, pairs } = prepareVariant(
      this.test,
      v,
      undefined,
      this.opts.observe,
      this.opts.prune && !this.opts.onReject && !this.opts.onAccept,
    );
    const cps: ChoicePoint[] = [];
    const placed = new Uint8Array(sk.n);
    const nextRank = new Int32Array(sk.locs.length);
    // When nothing can synchronise, hb, location order and may-see are fixed, so each read's value
    // rule is known before the search: keep only the choices it allows.
    const staticValues = this.opts.prune && this.opts.domains === 'filtered' && ws.syncFree;
    if (staticValues) {
      ws.rfSrc.fill(-2);
      ws.deriveBase();
      ws.deriveAmd();
    }
    ws.rfSrc.fill(-2);
    ws.coRank.fill(-1);
    ws.coWeight = 1;
    sk.locs.forEach((l, li) => {
      const writes = sk.writesByLoc[li]!.filter((w) => w !== l.initEvent);
      if (l.initEvent >= 0) {
        ws.coRank[l.initEvent] = 0;
        placed[l.initEvent] = 1;
        nextRank[li] = 1;
      }
      if (writes.length === 1) {
        ws.coRank[writes[0]!] = nextRank[li]!;
        placed[writes[0]!] = 1;
      } else if (staticValues && collapsibleCo(ws, writes)) {
        // Collapsed coherence orders (docs/model.md): one representative order stands for all k!.
        for (const w of writes) {
          ws.coRank[w] = nextRank[li]!++;
          placed[w] = 1;
        }
        for (let k = 2; k <= writes.length; k++) ws.coWeight *= k;
      } else
        for (let k = 0; k < writes.length; k++)
          cps.push({ kind: 'co', loc: li, domain: Int32Array.from(writes) });
    });
    // Atomic reads first: once they are chosen, hb is final (non-atomic reads never synchronise).
    // Among them, reads followed in their thread by reads only last, so that they can form a sink
    // tail (`sinkTail`).
    const sink = (r: number) => !sk.events.some((e) => has(sk.po, r, e.id) && e.kind !== 'read');
    const atomicReads = sk.reads.filter((r) => sk.events[r]!.atomic);
    // When value rules must be checked (a read may return undef, or coherence does not decide it)
    // in a test that synchronises, the atomic reads whose choice can change sw come first: hb is
    // final after them, and each later read's value rule is checked as soon as it is chosen rather
    // than all at the end (no sink tail is possible then).
    const syncFirst = !ws.syncFree && ws.valueCheckReads.length > 0;
    const early = syncFirst ? atomicReads.filter((r) => ws.canSynchronise(r)) : atomicReads;
    const late = syncFirst ? atomicReads.filter((r) => !ws.canSynchronise(r)) : [];
    const reads = [
      ...early.filter((r) => !sink(r)),
      ...early.filter(sink),
      ...late,
      ...sk.reads.filter((r) => !sk.events[r]!.atomic),
    ];
    const hbFinalDepth = cps.length + early.length - 1;
    for (const r of reads) {
      let dom = this.opts.domains === 'all' ? [...sk.writesByLoc[sk.events[r]!.loc]!, -1] : rfDomain(sk, r);
      // A read that returns undef in every execution (a write it can never be ordered with races
      // it): only undef is worth trying (`Workspace.mustReadUndef`).
      if (this.opts.domains === 'filtered' && dom.includes(-1) && ws.mustReadUndef(r)) dom = [-1];
      if (staticValues) {
        const allowed = ws.valueRule(r, this.opts.model, ws.maySee(r, [])).allowed;
        dom = dom.filter((c) => (allowed.length === 0 ? c === -1 : allowed.includes(c)));
      }
      cps.push({
        kind: 'rf',
        read: r,
        domain: Int32Array.from(dom),
        rmwOf: this.opts.prune && coForcedRmw(sk, r) ? sk.events[r]!.rmw : -1,
        defer: false,
      });
    }
    for (let i = 0; i + 1 < cps.length; i++) {
      const a = cps[i]!;
      const b = cps[i + 1]!;
      if (a.kind === 'rf' && b.kind === 'rf' && a.rmwOf >= 0 && b.rmwOf >= 0) a.defer = true;
    }
    const poPred = sk.events.map((e) =>
      Int32Array.from(e.kind === 'write' ? sk.writesByLoc[e.loc]!.filter((w) => has(sk.po, w, e.id)) : []),
    );
    const hbFinalTrivial = this.staticTrivial(ws);
    const productOk =
      this.opts.prune &&
      !this.opts.onReject &&
      !this.opts.onAccept &&
      this.opts.maxExecutions === Number.POSITIVE_INFINITY;
    const sinks =
      productOk && !ws.syncFree && this.opts.domains === 'filtered' ? sinkTail(ws, obs, cps) : cps.length;
    const tailStart =
      sinks < cps.length
        ? sinks
        : productOk && staticValues && hbFinalTrivial
          ? independentTail(ws, obs, cps)
          : cps.length;
    // A worker slice fixes the first choices (`only.prefix`): the product starts after them.
    const start = Math.min(cps.length, Math.max(tailStart, this.prefix.length));
    const sym =
      this.opts.symmetry &&
      productOk &&
      !this.opts.only &&
      this.opts.domains === 'filtered' &&
      variantCount(this.test) === 1
        ? findSymmetry(this.test, sk, obs, !this.opts.keepExamples, (l) =>
            cps.some((cp) => cp.kind === 'co' && cp.loc === l),
          )
        : null;
    return {
      finished: false,
      sk,
      ws,
      obs,
      pairs,
      cps,
      cur: new Int32Array(cps.length).fill(-1),
      depth: 0,
      placed,
      nextRank,
      poPred,
      values: new Float64Array(obs.length),
      leafDone: false,
      hbFinalDepth,
      dead: hbFinalDepth < 0 && this.opts.prune && !this.hbFinalCheck(ws),
      hbFinalTrivial,
      staticValues,
      tailStart: start,
      tailGroups:
        start >= cps.length
          ? []
          : sinks < cps.length
            ? sinkGroups(ws, obs, cps, start)
            : tailGroups(ws, obs, cps, start),
      sinkTail: sinks < cps.length,
      hbFinalFrom: -1,
      tailPlan: null,
      prod: null,
      stateIndex: new StateIndex(),
      prefixIds: new Map(),
      sym,
      pinned: new Uint8Array(sk.threadCount),
      pinAt: new Int32Array(2 * cps.length).fill(-1),
      symW: new Float64Array(cps.length + 1).fill(1),
      baseWeight: ws.coWeight,
      relFactor: sym ? sym.relOrder : 1,
    };
  }

  /**
   * Whether event `e` is its orbit's representative among the options of a choice: its thread is
   * fixed, or the first of its class not yet pinned (`symmetry.ts`).
   */
  private symRep(st: Variant, e: number): boolean {
    const sym = st.sym!;
    const t = st.sk.events[e]!.thread;
    if (t < 0 || st.pinned[t] || sym.classOf[t]! < 0) return true;
    const m = sym.members[sym.classOf[t]!]!;
    for (let i = 0; i < m.length; i++) {
      if (m[i] === t) return true;
      if (!st.pinned[m[i]!]) return false;
    }
    return true;
  }

  /**
   * The weight of choosing event `e` (the size of its orbit among the choice's options, for an
   * identical class), then pins its thread at `slot`.
   */
  private symTake(st: Variant, d: number, slot: number, e: number): number {
    const sym = st.sym!;
    const t = e >= 0 ? st.sk.events[e]!.thread : -1;
    if (t < 0 || st.pinned[t] || sym.classOf[t]! < 0) return 1;
    const m = sym.members[sym.classOf[t]!]!;
    let free = 0;
    for (let i = 0; i < m.length; i++) if (!st.pinned[m[i]!]) free++;
    st.pinned[t] = 1;
    st.pinAt[2 * d + slot] = t;
    // A relabelled class's orbits are its images, spread by the collector (`relFactor`).
    return sym.relabelled[sym.classOf[t]!] ? 1 : free;
  }

  /** Releases the threads pinned by the choice at depth `d`. */
  private symRelease(st: Variant, d: number): void {
    for (let slot = 2 * d; slot < 2 * d + 2; slot++) {
      const t = st.pinAt[slot]!;
      if (t >= 0) {
        st.pinned[t] = 0;
        st.pinAt[slot] = -1;
      }
    }
  }

  private staticTrivial(ws: Workspace): boolean {
    if (!ws.coherenceLocal || ws.valueCheckReads.length > 0 || ws.loCheckPairs.length > 0) return false;
    // hb, availability, visibility and lo are static here: derive them once for races and final values.
    ws.rfSrc.fill(-2);
    ws.deriveBase();
    ws.deriveAmd();
    return true;
  }

  private hbFinalCheck(ws: Workspace): boolean {
    return checkPartial(ws, this.opts.model) && checkHbFinal(ws, this.opts.model);
  }

  /** `trusted`: every axiom but `values` was checked on the way down (with pruning). */
  private emitLeaf(st: Variant, trusted = this.opts.prune): void {
    this.stats.explored++;
    const v = leaf(st.ws, st.obs, st.pairs, st.values, this.v, this.opts.model, this.collector, trusted);
    if (v.consistent) {
      this.stats.consistent += st.ws.coWeight * st.relFactor * st.ws.evaluator.count;
      this.opts.onAccept?.(st.ws, this.v);
    } else if (this.opts.onReject) this.opts.onReject(st.ws, v, this.v);
  }

  /**
   * Starts the product of the independent tail for the applied prefix: each group's accepted tuples
   * are those the search would accept read by read (the quick coherence check for atomic reads, with
   * the group's earlier reads applied; with static value rules and no thin air possible, nothing
   * else can reject a choice).
   */
  private startProduct(st: Variant): Product {
    const { ws, cps } = st;
    this.products++;
    if (st.sinkTail) this.sinkProducts++;
    // Every store writes a constant (the evaluator's simple case): one run gives every written
    // value, so the plan (domains, values, key positions) is fixed for the variant.
    if (!st.tailPlan) st.tailPlan = this.tailPlan(st);
    const plan = st.tailPlan;
    // A sink tail is checked against the prefix's hb, derived with the tail unset.
    if (st.sinkTail) ws.deriveBase();
    const groups: TailGroup[] = [];
    const collapsed: TailGroup[] = [];
    let radix = 1;
    const radices: number[] = [];
    for (const pg of plan.groups) {
      const group = this.groupTuples(st, pg);
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
    this.stats.nodes += cps.length - st.tailStart;
    if (st.sinkTail && this.sinkProducts <= SINK_FULL_CHECKS) {
      // hb depends on the tail here: the first combinations of the first products go through every
      // axiom, a check of `sinkReadOk`/`suffixSwOk` in every run (later ones are trusted: the
      // full check costs half the time of a product — value rules, derived hb).
      const before = this.stats.consistent;
      this.emitLeaf(st, false);
      if (this.stats.consistent === before)
        throw new Error(
          `internal: a sink-tail product's first combination is inconsistent (${this.test.name})`,
        );
    } else this.emitLeaf(st);
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
      this.collector.bump(
        this.collector.lookup(values),
        extra,
        prod.race,
        prod.baseUndef || prod.undefReads > 0 || prod.collapsedUndef,
      );
      this.stats.consistent += extra * st.relFactor;
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
      const id = this.collector.lookup(values);
      if (id >= 0) st.stateIndex.set(prod.base + prod.tailKey, id);
    }
    return prod;
  }

  /**
   * What a variant's products share: per tail group, each read's rf domain and choice depth, the
   * value each source gives (constant stores) and its position among the read's distinct values
   * (for the state keys; an unobserved read's value is no part of the key).
   */
  private tailPlan(st: Variant): TailPlan {
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
  private groupTuples(st: Variant, pg: TailPlanGroup): TailGroup {
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
  private applyTuple(st: Variant, g: TailGroup, t: number): void {
    const n = g.reads.length;
    for (let k = 0; k < n; k++) {
      st.ws.rfSrc[g.reads[k]!] = g.tuples[t * n + k]!;
      const slot = g.slots[k]!;
      if (slot >= 0) st.values[slot] = g.vals[t * n + k]!;
    }
  }

  /** Advances the odometer by up to `budget` combinations, recording each; returns how many. */
  private runProduct(st: Variant, budget: number): number {
    const prod = st.prod!;
    const { ws, values } = st;
    const { groups, digits, weight } = prod;
    const n = groups.length;
    const keyed = !Number.isNaN(prod.base);
    const index = st.stateIndex;
    const k = ws.coWeight * prod.mult;
    const collector = this.collector;
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
          this.applyTuple(st, g, d + 1);
          break;
        }
        digits[i] = 0;
        prod.tailKey += (g.keyIndex[0]! - g.keyIndex[d]!) * weight[i]!;
        prod.undefReads += g.undefs[0]!;
        this.applyTuple(st, g, 0);
      }
      if (i < 0) {
        prod.done = true;
        break;
      }
      used++;
      const undef = prod.baseUndef || prod.undefReads > 0 || prod.collapsedUndef;
      if (!keyed) {
        this.collector.record(values, k, prod.race, undef, () => ({
          variant: this.v,
          rf: ws.rfSrc.slice(),
          co: ws.coRank.slice(),
        }));
        continue;
      }
      const key = prod.base + prod.tailKey;
      const id = index.get(key);
      if (id >= 0) this.collector.bump(id, k, prod.race, undef);
      else {
        const added = this.collector.record(values, k, prod.race, undef, () => ({
          variant: this.v,
          rf: ws.rfSrc.slice(),
          co: ws.coRank.slice(),
        }));
        if (added >= 0) index.set(key, added);
      }
    }
    this.stats.nodes += used;
    this.stats.explored += used;
    this.stats.consistent += used * k * st.relFactor;
    return used;
  }

  /** The depth-first loop over choice points; see the module comment. */
  private advanceVariant(st: Variant, budget: number): { nodes: number; finished: boolean } {
    const { cps, cur, ws, placed, nextRank, poPred, sym } = st;
    const last = cps.length - 1;
    const prune = this.opts.prune;
    if (st.dead) return { nodes: 0, finished: true };
    if (st.tailStart === 0) {
      // Every choice is in the independent tail: one product.
      if (!st.leafDone) {
        st.prod ??= this.startProduct(st);
        const used = this.runProduct(st, budget);
        if (!st.prod || st.prod.done) {
          st.prod = null;
          st.leafDone = true;
          return { nodes: used, finished: true };
        }
        return { nodes: used, finished: false };
      }
      return { nodes: 0, finished: true };
    }
    if (cps.length === 0) {
      if (!st.leafDone) this.emitLeaf(st);
      st.leafDone = true;
      return { nodes: 1, finished: true };
    }
    let nodes = 0;
    // Budgets are looked at between slices (`step`): a slice also ends after SLICE_EXECUTIONS
    // executions, as one candidate may stand for many (the solutions of value cycles), and a slice
    // of 4 096 nodes could then run far past --timeout.
    const executionsUntil = this.stats.consistent + SLICE_EXECUTIONS;
    while (nodes < budget && this.stats.consistent < executionsUntil) {
      if (st.prod) {
        // The prefix up to tailStart - 1 is applied: enumerate the tail's product, then go on at
        // depth tailStart - 1 as if its subtree were done.
        nodes += this.runProduct(st, budget - nodes);
        if (!st.prod.done) return { nodes, finished: false };
        st.prod = null;
        for (let i = st.tailStart; i < cps.length; i++) ws.rfSrc[(cps[i] as { read: number }).read] = -2;
        continue;
      }
      if (st.depth < 0) return { nodes, finished: true };
      const d = st.depth;
      const cp = cps[d]!;
      const dom = cp.domain;
      // Undo the choice currently applied at this depth.
      if (cur[d]! >= 0) {
        if (cp.kind === 'co') {
          const w = dom[cur[d]!]!;
          placed[w] = 0;
          ws.coRank[w] = -1;
          nextRank[cp.loc]!--;
        } else ws.rfSrc[cp.read] = -2;
      }
      // Symmetry (`symmetry.ts`): an rf choice fixes its reader's thread before its options'
      // orbits are taken; only the first option of each orbit is explored.
      if (sym) {
        this.symRelease(st, d);
        if (cp.kind === 'rf') this.symTake(st, d, 0, cp.read);
      }
      let k = cur[d]! + 1;
      const fixed = d < this.prefix.length;
      if (fixed) k = cur[d]! >= 0 ? dom.length : this.prefix[d]!;
      if (cp.kind === 'co') {
        for (; k < dom.length; k++) {
          const w = dom[k]!;
          let ok = placed[w] === 0;
          const preds = poPred[w]!;
          for (let p = 0; ok && p < preds.length; p++) if (!placed[preds[p]!]) ok = false;
          if (ok && sym && !this.symRep(st, w)) ok = false;
          if (ok) break;
          if (fixed) k = dom.length - 1;
        }
      } else if (!fixed && (cp.rmwOf >= 0 || sym)) {
        // An RMW read (`rmwOf`): the location's coherence order is placed (co choices come first),
        // and every source but the write just before the RMW's own, and undef, breaks atomicity or
        // coherence. With symmetry: sources that are not their orbit's representative.
        const want = cp.rmwOf >= 0 ? ws.coRank[cp.rmwOf]! - 1 : -1;
        for (; k < dom.length; k++) {
          const src = dom[k]!;
          if (src >= 0 && cp.rmwOf >= 0 && ws.coRank[src] !== want) continue;
          if (src >= 0 && sym && !this.symRep(st, src)) continue;
          break;
        }
      }
      if (k >= dom.length) {
        if (sym) this.symRelease(st, d);
        cur[d] = -1;
        st.depth--;
        continue;
      }
      cur[d] = k;
      nodes++;
      this.stats.nodes++;
      if (sym) {
        const orbit = this.symTake(st, d, 1, dom[k]!);
        st.symW[d + 1] = st.symW[d]! * orbit;
        ws.coWeight = st.baseWeight * st.symW[d + 1]!;
      }
      if (cp.kind === 'co') {
        const w = dom[k]!;
        placed[w] = 1;
        ws.coRank[w] = nextRank[cp.loc]!;
        nextRank[cp.loc]!++;
      } else {
        const src = dom[k]!;
        ws.rfSrc[cp.read] = src;
        if (prune) {
          if (d > st.hbFinalDepth) {
            // A read that cannot change hb (non-atomic, or atomic with no acquire and no RMW):
            // hb and location order are already final (and with static values its domain holds
            // only what the value rule allows). An atomic one has coherence to keep besides.
            if (!st.staticValues && !readValueOk(ws, this.opts.model, cp.read)) continue;
            if (src >= 0 && ws.sk.events[cp.read]!.atomic && !checkPartial(ws, this.opts.model)) continue;
            if (src >= 0 && !ws.thinAirImpossible && !noThinAirOk(ws, this.opts.model)) continue;
          } else if (src >= 0 && !cp.defer) {
            if (rmwBetween(ws, cp.read, src) >= 0 || quickCoherenceReject(ws, cp.read, src)) continue;
            if (ws.coherenceLocal) {
              if (!ws.thinAirImpossible && !noThinAirOk(ws, this.opts.model)) continue;
            } else if (!checkPartial(ws, this.opts.model)) continue;
          }
          if (d < st.hbFinalDepth && !ws.syncFree && ws.valueCheckReads.length > 0) {
            // A new choice at or above the depth where hb became final on this path: not known now.
            if (st.hbFinalFrom >= d) st.hbFinalFrom = -1;
            if (st.hbFinalFrom < 0) {
              const up = ws.hbUpper();
              // A chosen read's value that the rest can no longer save from a race: undef only.
              if (src >= 0 && ws.undefForced(up, ws.undefReads)) continue;
              // hb final already (nothing open can add to it): the value rules of the reads chosen
              // so far are decided.
              if (src < 0 && !checkPartial(ws, this.opts.model)) continue;
              if (ws.hbFinalNow(up)) {
                if (!checkHbFinal(ws, this.opts.model)) continue;
                st.hbFinalFrom = d;
              }
            } else if (!checkHbFinal(ws, this.opts.model)) continue; // hb final since hbFinalFrom
          }
        }
      }
      if (prune && d === st.hbFinalDepth && !st.hbFinalTrivial) {
        if (!checkPartial(ws, this.opts.model) || !checkHbFinal(ws, this.opts.model)) continue;
      }
      if (d === last) {
        this.emitLeaf(st);
        // The budgets counting what a leaf adds stop the search at once, not at the slice's end.
        if (this.stats.consistent >= this.opts.maxExecutions || this.collector.overflow)
          return { nodes, finished: false };
        continue;
      }
      if (d + 1 === st.tailStart) {
        st.prod = this.startProduct(st);
        continue;
      }
      st.depth = d + 1;
      cur[d + 1] = -1;
    }
    return { nodes, finished: false };
  }
}

/**
 * Splits the search of `test` into slices for worker tasks: per variant, every valid assignment
 * of the first choice points, going deeper until there are at least `target` slices (or no more
 * choice points). Each slice is `{ variant, prefix }` for `EnumerateOptions.only`.
 */
export function splitSearch(
  test: Test,
  target: number,
  maxDepth = 6,
): { variant: number; prefix: number[] }[] {
  const variants = variantCount(test);
  let depth = 0;
  let out: { variant: number; prefix: number[] }[] = [];
  for (;;) {
    out = [];
    let deepest = true;
    for (let v = 0; v < variants; v++) {
      const sk = variantSkeleton(test, v);
      const en = new Enumeration(test, { ...DEFAULT_ENUMERATE, only: { variant: v, prefix: [] } });
      const cps = en.choicePoints(v);
      const d = Math.min(depth, cps.length);
      if (d < cps.length) deepest = false;
      // Valid prefixes: co positions must place unplaced writes whose po-predecessors are placed.
      const placed = new Uint8Array(sk.n);
      for (const l of sk.locs) if (l.initEvent >= 0) placed[l.initEvent] = 1;
      const rec = (i: number, acc: number[]) => {
        if (i === d) {
          out.push({ variant: v, prefix: acc.slice() });
          return;
        }
        const cp = cps[i]!;
        for (let k = 0; k < cp.domain.length; k++) {
          if (cp.kind === 'co') {
            const w = cp.domain[k]!;
            if (placed[w]) continue;
            if (sk.writesByLoc[sk.events[w]!.loc]!.some((p) => has(sk.po, p, w) && !placed[p])) continue;
            placed[w] = 1;
            acc.push(k);
            rec(i + 1, acc);
            acc.pop();
            placed[w] = 0;
          } else {
            acc.push(k);
            rec(i + 1, acc);
            acc.pop();
          }
        }
      };
      rec(0, []);
    }
    if (out.length >= target || deepest || depth >= maxDepth) return out;
    depth++;
  }
}

/** Enumerates a test to completion (or budget) and returns the enumeration. */
export function enumerate(test: Test, opts: Partial<EnumerateOptions> = {}): Enumeration {
  return new Enumeration(test, { ...DEFAULT_ENUMERATE, ...opts }).run();
}

/**
 * Size of the candidate space the optimised enumerator searches before pruning: per variant, the
 * product of per-location co orders respecting po and per-read rf domains.
 */
/**
 * (Σ k)! / ∏ k! for the counts k, as a product of binomials so that it grows to Infinity rather than
 * dividing Infinity by Infinity (171 writes to a location in one thread made the estimate NaN).
 */
export function multinomial(counts: Iterable<number>): number {
  let out = 1;
  let n = 0;
  for (const k of counts) {
    // C(n + k, k) = ∏_{j=1..k} (n + j) / j
    for (let j = 1; j <= k; j++) out = (out * (n + j)) / j;
    n += k;
  }
  return out;
}

export function estimateCandidates(test: Test): number {
  let total = 0;
  const variants = variantCount(test);
  for (let v = 0; v < Math.min(variants, 64); v++) {
    const sk = variantSkeleton(test, v);
    let c = 1;
    sk.locs.forEach((l, li) => {
      const writes = sk.writesByLoc[li]!.filter((w) => w !== l.initEvent);
      // Linear extensions of per-thread chains: m! / ∏ (per-thread count)!
      const perThread = new Map<number, number>();
      for (const w of writes)
        perThread.set(sk.events[w]!.thread, (perThread.get(sk.events[w]!.thread) ?? 0) + 1);
      c *= multinomial(perThread.values());
    });
    for (const r of sk.reads) c *= rfDomain(sk, r).length;
    total += c;
  }
  return variants > 64 ? (total * variants) / 64 : total;
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
function sinkGroups(
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
function tailGroups(
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
