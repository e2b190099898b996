/**
 * Candidate executions of a test, enumerated depth-first with pruning: per location a coherence
 * order (respecting program order), then per read an rf source (a same-location write that is not
 * po-after it, or `undef` when the value rules could ever give it). After every rf choice the
 * monotone base axioms are checked on the partial candidate, so a violated axiom cuts the whole
 * subtree. Complete candidates go through every axiom; consistent ones go to a `Collector`.
 *
 * The search is an explicit-stack loop so it can run in slices: the `VariantDriver` (driver.ts, shared
 * with the cat and Vulkan searches) looks at Ctrl-C and the budgets between slices and reports what
 * was found so far. The independent tail's products are in tail.ts, the thread-symmetry reduction
 * in symmetry.ts, the choice points' shape in choice.ts.
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
import type { ChoicePoint } from './choice.ts';
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
import { findSymmetry, type SymState, symRelease, symRep, symTake } from './symmetry.ts';
import {
  independentTail,
  type ProductHost,
  runProduct,
  sinkGroups,
  sinkTail,
  startProduct,
  type TailState,
  tailGroups,
} from './tail.ts';

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

/** One variant's search: its choice points, where the depth-first walk is, and its tail and symmetry state. */
interface Variant extends TailState, SymState {
  /** Its search is over (`VariantDriver`). */
  finished: boolean;
  cur: Int32Array;
  depth: number;
  placed: Uint8Array;
  nextRank: Int32Array;
  /** Same-location writes po-before each write (they must come first in co). */
  poPred: Int32Array[];
  leafDone: boolean;
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
   * Depth on the current path from which hb is final before `hbFinalDepth` (-1: not known): deeper
   * choices cannot change it, so only their value rules need a look.
   */
  hbFinalFrom: number;
  /** Product of the orbit sizes of the choices down to each depth (index 0: none). */
  symW: Float64Array;
  /** `ws.coWeight` before the orbit weights (collapsed coherence orders). */
  baseWeight: number;
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
  /** The search reduced by thread symmetry (`symmetry.ts`): with relabelled classes or without. */
  symmetric: 'no' | 'identical' | 'relabelled' = 'no';
  private readonly prefix: number[];
  /** What the tail products (tail.ts) see of this search. */
  private readonly host: ProductHost<Variant>;

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
    const search = this;
    this.host = {
      collector: this.collector,
      stats: this.stats,
      get variant() {
        return search.v;
      },
      testName: test.name,
      products: 0,
      sinkProducts: 0,
      emitLeaf: (st, trusted) => this.emitLeaf(st, trusted),
    };
  }

  /** Independent-tail products started (how often the product path ran; for tests). */
  get products(): number {
    return this.host.products;
  }

  /** Of those, products over a tail of hb sinks in a test that synchronises (`sinkTail`). */
  get sinkProducts(): number {
    return this.host.sinkProducts;
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

  /** The depth-first loop over choice points; see the module comment. */
  private advanceVariant(st: Variant, budget: number): { nodes: number; finished: boolean } {
    const { cps, cur, ws, placed, nextRank, poPred, sym } = st;
    const last = cps.length - 1;
    const prune = this.opts.prune;
    if (st.dead) return { nodes: 0, finished: true };
    if (st.tailStart === 0) {
      // Every choice is in the independent tail: one product.
      if (!st.leafDone) {
        st.prod ??= startProduct(this.host, st);
        const used = runProduct(this.host, st, budget);
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
        nodes += runProduct(this.host, st, budget - nodes);
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
        symRelease(st, d);
        if (cp.kind === 'rf') symTake(st, d, 0, cp.read);
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
          if (ok && sym && !symRep(st, w)) ok = false;
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
          if (src >= 0 && sym && !symRep(st, src)) continue;
          break;
        }
      }
      if (k >= dom.length) {
        if (sym) symRelease(st, d);
        cur[d] = -1;
        st.depth--;
        continue;
      }
      cur[d] = k;
      nodes++;
      this.stats.nodes++;
      if (sym) {
        const orbit = symTake(st, d, 1, dom[k]!);
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
        st.prod = startProduct(this.host, st);
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
