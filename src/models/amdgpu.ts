/**
 * The AMDGPU memory model as named axioms over one candidate execution.
 *
 * Two layers (DESIGN.md, "The AMDGPU model, made precise"):
 * - the base LLVM layer — scoped synchronises-with with inclusive scopes, HRF-indirect
 *   happens-before, coherence, RMW atomicity, scoped seq_cst, no-thin-air;
 * - the AMDGPU layer (spec/amdgpu-memory-model.rst) — availability and visibility operations with
 *   their scope instances, location order, may-see and the value rules including `undef`.
 *
 * A candidate is a skeleton (one per cmpxchg outcome combination) plus an rf choice per read (a
 * write, or -1 for `undef`) and a coherence order per location (a rank per write). `Workspace`
 * derives every relation into preallocated bitsets; each axiom reads them and returns a `Witness`
 * or null. Axioms flagged `monotone` can only go from satisfied to violated as rf edges are added,
 * so the enumerator checks them on partial candidates to prune.
 *
 * No Node APIs here: the web page imports this file.
 */

import {
  add,
  addIdentity,
  bitset,
  clear,
  closureInto,
  composeInto,
  copyInto,
  equals,
  findCycle,
  has,
  intersectInto,
  inverseInto,
  isAcyclic,
  isEmpty,
  isIrreflexive,
  type Relation,
  relation,
  restrictInPlace,
  unionInto,
} from '../core/relation.ts';
import { scopeRank } from '../core/types.ts';
import { compile, conditionConstants, Evaluator } from '../events/program.ts';
import { type Skeleton, SPACE_CLASSES } from '../events/skeleton.ts';
import type { EdgeName, ValueRule, Witness } from './types.ts';

export interface ModelOptions {
  /** `acyclic(po ∪ rf)`; on by default (DESIGN: "No thin air … an option on by default"). */
  noThinAir: boolean;
  /**
   * `literal`: the value rules exactly as the spec states them. `repaired`: rule 2's check leaves
   * out writes location-ordered before R and before another write R may see (DESIGN, value rules).
   */
  valueRules: 'literal' | 'repaired';
}

export const DEFAULT_OPTIONS: ModelOptions = { noThinAir: true, valueRules: 'literal' };

export type AxiomId =
  | 'no-thin-air'
  | 'hb-acyclic'
  | 'coherence'
  | 'rmw-atomicity'
  | 'scoped-sc'
  | 'co-respects-lo'
  | 'value-rules'
  | 'values';

export interface Axiom {
  id: AxiomId;
  description: string;
  /** Needs the AMDGPU layer (availability, visibility, location order). */
  layer: 'base' | 'amdgpu';
  /** Can only become violated as rf edges are added: checked on partial candidates. */
  monotone: boolean;
  check(ws: Workspace, opts: ModelOptions): Witness | null;
}

const NO_LEVEL = 6;

/**
 * Preallocated derivation state for one skeleton. `setCandidate` takes the choices; `deriveBase`
 * and `deriveAmd` compute the relations the axioms read.
 */
export class Workspace {
  readonly n: number;
  /** rf source per read event (-1 undef, -2 not chosen yet); unused for other events. */
  readonly rfSrc: Int32Array;
  /**
   * How many executions the current candidate stands for: the product, over the locations whose
   * coherence orders the enumerator collapsed (docs/model.md, "Collapsed coherence orders"), of the
   * number of orders each one represents. 1 unless the optimised enumerator collapsed something.
   */
  coWeight = 1;
  /** Coherence rank per write event within its location (-1 not placed). */
  readonly coRank: Int32Array;

  // Static, per skeleton.
  private readonly relHead: Relation; // release op → head write of its release sequence
  private readonly acqTail: Relation; // read → acquire op it synchronises through
  private readonly sinclT: Relation;
  private readonly scRows: Uint32Array;

  // Derived per candidate.
  readonly rf: Relation;
  readonly rfA: Relation;
  readonly co: Relation;
  readonly mo: Relation;
  readonly fr: Relation;
  readonly sw: Relation;
  /**
   * Happens-before. When the skeleton is `oneAsMixed` this is the hb that orders accesses of
   * different address-space classes (built without the edges of `-one-as` synchronisation); pairs
   * about one class use `hbSpace` (docs/model.md, choice 6).
   */
  readonly hb: Relation;
  /**
   * hb per address-space class (`SPACE_CLASSES`): the relation for every question about a location
   * of that class (availability, visibility, location order, may-see, coherence, races). Each entry
   * is `hb` itself unless the skeleton is `oneAsMixed`.
   */
  readonly hbSpace: readonly Relation[];
  readonly eco: Relation;
  readonly psc: Relation;
  /** AV(W, X): X is an availability operation on W. */
  readonly av: Relation;
  /** Widest level (scope rank) at which Y makes W visible, `NO_LEVEL` when Y is no visibility op on W. */
  readonly visLevel: Int8Array;
  /** lo(W, Y), with both halves of an RMW counted as one access. */
  readonly lo: Relation;
  /** Scratch relations for axioms. */
  readonly s1: Relation;
  readonly s2: Relation;
  /** Number of seq_cst events. */
  readonly scCount: number;
  private readonly hbT: Relation;
  private readonly visOps: Relation;
  private readonly visSet: Uint32Array;
  /** Scope rank per event (6 for plain accesses). */
  private readonly rank: Int8Array;
  /** Per location: events that can be visibility operations on its writes. */
  private readonly eligible: Uint32Array[];
  private readonly writesAt: Uint32Array[];
  private readonly readsAt: Uint32Array[];
  private readonly rmwPairs: [number, number][];
  private readonly t1: Relation;
  private readonly t2: Relation;
  private readonly t3: Relation;
  /** Register values; after the `values` axiom, its valuations (`Evaluator.valuations`). */
  readonly evaluator: Evaluator;
  private readonly coCache: Int32Array;
  private readonly coT: Relation;
  /** The rf and co choices of the last `deriveBase` (`baseCurrent`). */
  private readonly baseRf: Int32Array;
  private readonly baseCo: Int32Array;
  /** Per class, hb⁻¹ while hb is static (one relation shared by every class without synchronize-as). */
  private readonly hbStaticT: Relation[];
  /** Per-space hb is in use (`sk.oneAsMixed`). */
  private readonly mixed: boolean;
  /** sw edges whose synchronising operations are both plain (mixed skeletons only). */
  private readonly swPlain: Relation;
  /**
   * Per class: the sw edges that order that class (mixed skeletons only): plain ones between
   * operations that both order the class, and `-one-as` ones through a location of the class.
   */
  private readonly swSpace: Relation[];
  /** Per class c: sw through locations of class c whose synchronising operations both order c. */
  private readonly swVia: Relation[];
  /** Per class: bitset of the accesses (initial writes included) of that class. */
  private readonly classEvents: Uint32Array[];
  /** Per class: `ai` restricted to accesses of that class. */
  private readonly aiSpace: Relation[];
  /** The writes, grouped by the class whose hb decides their availability and visibility. */
  private readonly writeGroups: { cls: number; writes: number[] }[];
  /** Classes some access uses. */
  private readonly classesUsed: number[];
  /** Every event (a bitset with every bit set). */
  private readonly allEvents: Uint32Array;
  /**
   * Atomic reads whose value rule is not implied by coherence: those that could return undef, and
   * those of a location with unordered accesses (outside coherence). For the others rule 2 always
   * applies and reading outside may-see is a coherence cycle (lo ⊆ hb between same-location
   * atomics with inclusive scopes).
   */
  readonly valueCheckReads: number[];
  /** Atomic reads that may return undef (`undefPossible`): checked by `undefForced` while searching. */
  readonly undefReads: number[];
  /**
   * hb is static, there are no RMWs and at most one seq_cst event (or one location and no seq_cst
   * fence), and all accesses to each
   * location are atomic with pairwise inclusive scopes. Then the base axioms reduce to C11
   * coherence, which is exactly the absence of the short cycles `quickCoherenceReject` looks for
   * (coherence ⟺ irreflexive(hb ; eco?), RC11 §3), plus no-thin-air.
   */
  readonly coherenceLocal: boolean;
  /**
   * `coherenceLocal` without its first condition: every access to each location atomic with
   * pairwise inclusive scopes, no RMW, at most one seq_cst event (or one location and no seq_cst
   * fence), one address-space class — but hb
   * may depend on rf (release/acquire). Then no execution races or reads undef, and the base axioms
   * are coherence over the dynamic hb (see `sinkReadOk`).
   */
  readonly atomicLocal: boolean;
  /** No read is po-before a write, so po ∪ rf is acyclic whatever rf is. */
  readonly thinAirImpossible: boolean;
  /** Same-location write pairs not both atomic with incl (for the others lo ⊆ hb ⊆ mo by coherence). */
  readonly loCheckPairs: Int32Array;
  /** No release or no acquire operation: hb never depends on the choices. */
  readonly syncFree: boolean;
  /**
   * The test synchronises, but no candidate's verdict depends on it: one location, every access
   * atomic with pairwise inclusive scopes, coherence deciding every value (see the constructor).
   * The enumerator then searches with sw dropped (`ignoreMootSync`).
   */
  readonly syncMoot: boolean;
  /** sw was dropped (`ignoreMootSync` and sync moot, or every read that could synchronise undef). */
  readonly syncDropped: boolean = false;
  private hbReady = false;
  private ecoReady = false;
  private amdReady = false;
  /** Whether failing axioms should compute a witness (off while pruning). */
  witnesses = true;

  /**
   * `ignoreMootSync`: in a test where synchronisation cannot change a verdict (`syncMoot`, or every
   * read that could synchronise must return undef), drop sw from every derivation (the
   * enumerator's pruned search; docs/model.md "Release and acquire on one location", "Synchronisation
   * only undef reads could complete"). Off for everything that shows or explains an execution.
   */
  constructor(
    readonly sk: Skeleton,
    opts: { ignoreMootSync?: boolean } = {},
  ) {
    const n = sk.n;
    this.n = n;
    this.rfSrc = new Int32Array(n).fill(-2);
    this.valueOkSrc = new Int32Array(n).fill(-3);
    this.valueOkEpoch = new Int32Array(n).fill(-1);
    this.coRank = new Int32Array(n).fill(-1);
    this.coCache = new Int32Array(n).fill(-2);
    this.baseRf = new Int32Array(n).fill(-3);
    this.baseCo = new Int32Array(n).fill(-3);
    this.coT = relation(n);
    const staticT = relation(n);
    this.hbStaticT = SPACE_CLASSES.map((_, k) => (sk.hbBaseSpace[k] === sk.hbBase ? staticT : relation(n)));
    const mk = () => relation(n);
    this.mixed = sk.oneAsMixed;
    this.rf = mk();
    this.rfA = mk();
    this.co = mk();
    this.mo = mk();
    this.fr = mk();
    this.sw = mk();
    this.hb = mk();
    this.hbSpace = SPACE_CLASSES.map(() => (this.mixed ? mk() : this.hb));
    this.swPlain = mk();
    this.swSpace = this.mixed ? SPACE_CLASSES.map(() => mk()) : [];
    this.swVia = this.mixed ? SPACE_CLASSES.map(() => mk()) : [];
    this.allEvents = bitset(
      n,
      sk.events.map((e) => e.id),
    );
    this.classEvents = SPACE_CLASSES.map((_, k) =>
      bitset(
        n,
        sk.events.filter((e) => sk.spaceClass[e.id] === k).map((e) => e.id),
      ),
    );
    this.classesUsed = SPACE_CLASSES.map((_, k) => k).filter((k) =>
      sk.events.some((e) => sk.spaceClass[e.id] === k),
    );
    this.aiSpace = this.mixed
      ? SPACE_CLASSES.map((_, k) => {
          const r = mk();
          copyInto(r, sk.aiOrd);
          restrictInPlace(r, this.classEvents[k]!, this.classEvents[k]!);
          return r;
        })
      : [];
    this.writeGroups = this.mixed
      ? this.classesUsed.map((cls) => ({ cls, writes: sk.writes.filter((x) => sk.spaceClass[x] === cls) }))
      : [{ cls: 0, writes: sk.writes }];
    this.eco = mk();
    this.psc = mk();
    this.av = mk();
    this.lo = mk();
    this.s1 = mk();
    this.s2 = mk();
    this.scCount = sk.events.filter((e) => e.sc).length;
    this.hbT = mk();
    this.visOps = mk();
    this.visSet = new Uint32Array(this.hbT.w);
    this.rank = Int8Array.from(sk.events, (e) => (e.scope === null ? NO_LEVEL : scopeRank(e.scope)));
    this.eligible = sk.locs.map((l) =>
      bitset(
        n,
        sk.events
          .filter((e) => e.thread >= 0 && e.scope !== null)
          .filter((e) => (e.kind === 'read' && e.loadVisible && e.loc === l.id) || e.makeVisible)
          .map((e) => e.id),
      ),
    );
    this.writesAt = sk.writesByLoc.map((ws) => bitset(n, ws));
    this.readsAt = sk.readsByLoc.map((rs) => bitset(n, rs));
    this.rmwPairs = sk.reads.filter((r) => sk.events[r]!.rmw >= 0).map((r) => [r, sk.events[r]!.rmw]);
    this.t1 = mk();
    this.t2 = mk();
    this.t3 = mk();
    this.visLevel = new Int8Array(n * n);
    this.sinclT = mk();
    inverseInto(this.sinclT, sk.sincl);
    this.scRows = sk.sets.sc;

    // [RelW] ∪ [RelF];po;[AtomicW]   (C++ release sequences headed by a write or a fence)
    this.relHead = mk();
    // [AcqR] ∪ [AtomicR];po;[AcqF]
    this.acqTail = mk();
    for (const e of sk.events) {
      if (e.kind === 'write' && e.release) add(this.relHead, e.id, e.id);
      if (e.kind === 'read' && e.acquire) add(this.acqTail, e.id, e.id);
    }
    for (const a of sk.events) {
      for (const b of sk.events) {
        if (!has(sk.po, a.id, b.id)) continue;
        // Unordered accesses are outside the modification order, so they synchronise with nothing.
        if (a.kind === 'fence' && a.release && b.kind === 'write' && ordered(b))
          add(this.relHead, a.id, b.id);
        if (a.kind === 'read' && ordered(a) && b.kind === 'fence' && b.acquire) add(this.acqTail, a.id, b.id);
      }
    }
    this.evaluator = new Evaluator(sk, compile(sk), conditionConstants(sk.test.condition?.cond));
    this.undefReads = sk.reads.filter((r) => sk.events[r]!.atomic && undefPossible(sk, r));
    this.valueCheckReads = sk.reads.filter(
      (r) => sk.events[r]!.atomic && (undefPossible(sk, r) || !coherenceDecides(sk, r)),
    );
    const pairs: number[] = [];
    for (const l of sk.writesByLoc)
      for (const a of l) for (const b of l) if (a !== b && !has(sk.aiOrd, a, b)) pairs.push(a, b);
    this.loCheckPairs = Int32Array.from(pairs);
    // Scoped seq_cst adds nothing to coherence when at most one event is seq_cst, or when the test
    // has one location and no seq_cst fence: every psc edge (hb? ; eco ; hb?) then relates accesses
    // of that location, and on one location of atomic inclusive accesses coherence already makes
    // hb ∪ eco acyclic (SC per location).
    const scFree =
      this.scCount < 2 || (sk.locs.length === 1 && !sk.events.some((e) => e.kind === 'fence' && e.sc));
    let inclusive = true;
    for (let l = 0; inclusive && l < sk.locs.length; l++) {
      const acc = [...sk.writesByLoc[l]!, ...sk.readsByLoc[l]!];
      for (const a of acc) for (const b of acc) if (a !== b && !has(sk.aiOrd, a, b)) inclusive = false;
    }
    const local = scFree && inclusive && this.rmwPairs.length === 0;
    this.atomicLocal = local && !this.mixed;
    // Release and acquire on one location (docs/model.md): with one location whose accesses are all
    // atomic with pairwise inclusive scopes, coherence decides every value and no location order
    // needs checking, a candidate is consistent with sw exactly when it is without: sw ⊆ (po ∪
    // rf)⁺ (release sequences run through RMWs, po-ordered pairs), and coherence over the static hb
    // already makes hb ∪ eco acyclic on the accesses (order them by the coherence position of the
    // write they are or read from: static hb never lowers it, eco always raises it), so the hb that
    // sw adds closes no cycle either. RMW atomicity and no-thin-air do not mention hb.
    this.syncMoot =
      scFree &&
      inclusive &&
      !this.mixed &&
      sk.locs.length === 1 &&
      this.valueCheckReads.length === 0 &&
      this.loCheckPairs.length === 0 &&
      !(isEmpty(this.relHead) || isEmpty(this.acqTail));
    // Also moot: every read that could synchronise must return undef (`mustReadUndef`), so no rf
    // edge ever ends at an acquire or continues a release sequence. A candidate where one reads a
    // write fails that read's value rule with or without sw (the hb without sw lies in the bound).
    if (opts.ignoreMootSync && (this.syncMoot || this.syncReadsUndef())) {
      clear(this.relHead);
      clear(this.acqTail);
      this.hbMaxRel = null;
      this.syncDropped = true;
    }
    this.syncFree = isEmpty(this.relHead) || isEmpty(this.acqTail);
    this.coherenceLocal = this.syncFree && local;
    let nta = true;
    for (const r of sk.reads) for (const w of sk.writes) if (has(sk.po, r, w)) nta = false;
    this.thinAirImpossible = nta;
  }

  /**
   * Whether read `r`, an hb sink (nothing is po-after it), may read from write `w` of its location,
   * given the rest of the candidate derived by `deriveBase` with `r` unset (`atomicLocal` case).
   * Reading from `w` adds rf w → r and possibly sw X → r from release heads X of `w`: edges into
   * r only, so every new cycle of `irreflexive(hb ; eco?)` runs through r and leaves it by fr, to
   * writes coherence-after `w`. It closes exactly when such a write (CoWR), or a read of such a
   * write (CoRR), happens before r. The sw edges need no look: what they put before r is hb-before
   * (or at) `w`, and a same-location write hb-before `w` is coherence-before it (CoWW), a read
   * hb-before `w` reads from one (CoRW) — the prefix already passed both. No-thin-air cannot fail
   * through a sink. Checked against the reference enumerator (enumerate.prop.test.ts).
   */
  sinkReadOk(r: number, w: number): boolean {
    const { sk, hb, coRank, rfSrc } = this;
    const loc = sk.events[r]!.loc;
    const rank = coRank[w]!;
    for (const w2 of sk.writesByLoc[loc]!) if (w2 !== w && coRank[w2]! > rank && has(hb, w2, r)) return false;
    for (const r2 of sk.readsByLoc[loc]!) {
      const s = rfSrc[r2]!;
      if (r2 !== r && s >= 0 && coRank[s]! > rank && has(hb, r2, r)) return false;
    }
    return true;
  }

  /**
   * With `reads[0…k)`, the earlier tail reads of its thread, applied: whether tail read `reads[k]`
   * may read from `w` as far as those reads' sw edges go (`sinkReadOk` checks the rest). A tail read
   * `reads[i]` that synchronises with a release head `h` of its source puts before `reads[k]`
   * (po-after it) `h` and everything hb-before `h` in the prefix; a same-location write there
   * coherence-after `w`, or a read there of such a write, closes a cycle of `irreflexive(hb ; eco?)`
   * (CoWR, CoRR). On `reads[k]`'s own location that cannot happen once CoRR holds between the two
   * reads, but on another location it can (the sw edge carries a newer write of that location
   * before `reads[k]`).
   */
  suffixSwOk(reads: Int32Array, k: number, w: number): boolean {
    const { sk, hb, coRank, rfSrc, relHead, acqTail, n } = this;
    const r = reads[k]!;
    const loc = sk.events[r]!.loc;
    const rank = coRank[w]!;
    for (let i = 0; i < k; i++) {
      const ri = reads[i]!;
      const si = rfSrc[ri]!;
      // sw into ri: relHead ; rfA ; acqTail ∩ incl, with no RMW (`atomicLocal`) and no fence
      // after ri (only reads follow it), so acqTail(ri) is ri itself when it is an acquire.
      if (si < 0 || !has(acqTail, ri, ri) || !has(sk.aiOrd, si, ri)) continue;
      for (let h = 0; h < n; h++) {
        if (!has(relHead, h, si) || !has(sk.incl, h, ri)) continue;
        for (const w2 of sk.writesByLoc[loc]!)
          if (w2 !== w && coRank[w2]! > rank && (w2 === h || has(hb, w2, h))) return false;
        for (const r2 of sk.readsByLoc[loc]!) {
          const s = rfSrc[r2]!;
          if (r2 !== r && s >= 0 && coRank[s]! > rank && has(hb, r2, h)) return false;
        }
      }
    }
    return true;
  }

  /**
   * Whether read `r` returns undef in every execution of this variant, whatever the choices: some
   * write `W` of its location is not atomic with inclusive scopes with it (`ai`) and can be ordered
   * with it by hb in no execution. Then `W` is never hb-after `r` and never hidden from it (hiding
   * needs `W` lo-before a write lo-before `r`, and lo ⊆ hb), so `r` may see `W` in every execution;
   * value rule 2 then fails (`W` is not atomic-inclusive with `r`), and rule 1 or 3 gives undef
   * (`W` is not location-ordered before `r`) — with the repaired rules too (they drop only writes
   * lo-before `r`). "Can be ordered": by the closure of hb's static part and every synchronisation
   * some rf choice could make (`hbBound` with every read open); with `-one-as` across address
   * spaces that bounds every per-space hb too. Checked against the reference enumerator
   * (enumerate.prop.test.ts).
   */
  mustReadUndef(r: number): boolean {
    if (!this.hbMaxRel) {
      const n = this.n;
      this.hbMaxRel = this.hbBound(true, relation(n), relation(n), relation(n), relation(n));
    }
    return this.racesForever(r, this.hbMaxRel);
  }

  /** The test synchronises, but every read that could (`canSynchronise`) must return undef. */
  private syncReadsUndef(): boolean {
    if (isEmpty(this.relHead) || isEmpty(this.acqTail)) return false;
    return this.sk.reads.every((r) => !this.canSynchronise(r) || this.mustReadUndef(r));
  }

  /**
   * Whether a write of `r`'s location (not `r`'s own RMW write) is not atomic-inclusive with `r` and
   * unordered with it in `bound`, an upper bound of hb: then `r` returns undef (`mustReadUndef`).
   */
  private racesForever(r: number, bound: Relation): boolean {
    const { sk } = this;
    for (const w of sk.writesByLoc[sk.events[r]!.loc]!) {
      if (sk.events[w]!.rmw === r || has(sk.ai, r, w)) continue;
      if (!has(bound, w, r) && !has(bound, r, w)) return true;
    }
    return false;
  }

  /** hb's closure over every rf choice (`hbBound` with every read open), made once. */
  private hbMaxRel: Relation | null = null;
  private upRf: Relation | null = null;
  private upT: Relation | null = null;
  private upSw: Relation | null = null;
  private upHb: Relation | null = null;

  /**
   * Whether read `r`'s rf choice can change sw: it is (or is followed by) an acquire (`acqTail`), or
   * the read of an RMW, whose write continues the release sequence of its source.
   */
  canSynchronise(r: number): boolean {
    for (let x = 0; x < this.n; x++) if (has(this.acqTail, r, x) || has(this.sk.rmw, r, x)) return true;
    return false;
  }

  /**
   * During the search, an upper bound of hb over every completion of the choices made so far: the
   * closure of hbBase and the synchronisation that the chosen rf edges, and every source still
   * possible for the reads not chosen yet (-2), can make. With `-one-as` across address spaces it
   * bounds every per-space hb too (each is the closure of hbBase or less and part of sw).
   */
  hbUpper(): Relation {
    const n = this.n;
    if (!this.upRf || !this.upT || !this.upSw || !this.upHb) {
      this.upRf = relation(n);
      this.upT = relation(n);
      this.upSw = relation(n);
      this.upHb = relation(n);
    }
    return this.hbBound(false, this.upRf, this.upT, this.upSw, this.upHb);
  }

  /**
   * The closure of hbBase and the sw that rf can make, where rf holds the chosen edges and, for each
   * read not chosen yet (every read when `allOpen`), every write of its location not po-after it;
   * into `hb` (`rf`, `t`, `sw` are scratch).
   */
  private hbBound(allOpen: boolean, rf: Relation, t: Relation, sw: Relation, hb: Relation): Relation {
    const { sk, rfSrc } = this;
    rf.bits.fill(0);
    for (const r of sk.reads) {
      const s = allOpen ? -2 : rfSrc[r]!;
      if (s >= 0) add(rf, s, r);
      else if (s === -2)
        for (const w of sk.writesByLoc[sk.events[r]!.loc]!) if (!has(sk.po, r, w)) add(rf, w, r);
    }
    intersectInto(rf, rf, sk.aiOrd);
    this.swInto(sw, rf, t, hb);
    unionInto(hb, sk.hbBase, sw);
    closureInto(hb, hb);
    return hb;
  }

  /**
   * sw = relHead ; rs ; rf ; acqTail, kept where incl, with the release sequence rs = (rf ; rmw)*
   * and `rf` over atomic-inclusive pairs; leaves `t2` = relHead ; rs (`t1` is scratch).
   */
  private swInto(sw: Relation, rf: Relation, t1: Relation, t2: Relation): void {
    composeInto(t1, rf, this.sk.rmw);
    closureInto(t1, t1);
    addIdentity(t1);
    composeInto(t2, this.relHead, t1);
    composeInto(t1, t2, rf);
    composeInto(sw, t1, this.acqTail);
    intersectInto(sw, sw, this.sk.incl);
  }

  private upLow: Relation | null = null;

  /**
   * Whether hb can no longer change: `up` (from `hbUpper`) equals the closure of hbBase and the sw
   * of the choices made (derived by `deriveBase`), so every hb in use is final. False (not known)
   * when the last `deriveBase` was of other choices (`baseCurrent`): the search skips derivations
   * (a deferred RMW read), and an hb derived on another path may equal `up` although the open
   * reads can still add to or leave out of this path's hb what that one holds.
   */
  hbFinalNow(up: Relation): boolean {
    if (!this.baseCurrent()) return false;
    if (!this.mixed) return equals(up, this.hb);
    // With amdgpu-synchronize-as a per-class hb can still grow by an edge the union already holds.
    if (this.sk.hbBaseSpace[0] !== this.sk.hbBase) return false;
    if (!this.upLow) this.upLow = relation(this.n);
    const low = this.upLow;
    unionInto(low, this.sk.hbBase, this.sw);
    closureInto(low, low);
    return equals(up, low);
  }

  /**
   * Whether some chosen read of `reads` that returns a write's value must in fact return undef
   * whatever the choices still open (`mustReadUndef` with `up`, an upper bound of hb from
   * `hbUpper`): a write of its location that is not atomic-inclusive with it and unordered with it
   * in `up` is unordered with it in every completion.
   */
  undefForced(up: Relation, reads: readonly number[]): boolean {
    for (const r of reads) if (this.rfSrc[r]! >= 0 && this.racesForever(r, up)) return true;
    return false;
  }

  /** Copies a complete or partial candidate in. */
  setCandidate(rfSrc: Int32Array, coRank: Int32Array): void {
    this.rfSrc.set(rfSrc);
    this.coRank.set(coRank);
  }

  /** co and mo from the coherence ranks; they change rarely (deep in the search), so cache them. */
  refreshCo(): void {
    const { sk, co, mo } = this;
    // co and mo change only when the coherence ranks do (rarely, deep in the search).
    let coSame = true;
    const cr = this.coRank;
    const cc = this.coCache;
    for (let i = 0; i < cr.length; i++) {
      if (cr[i] !== cc[i]) {
        coSame = false;
        break;
      }
    }
    if (!coSame) {
      cc.set(cr);
      co.bits.fill(0);
      for (const ws of sk.writesByLoc) {
        for (const a of ws) {
          const ra = cr[a]!;
          if (ra < 0) continue;
          for (const b of ws) {
            const rb = cr[b]!;
            if (rb > ra) add(co, a, b);
          }
        }
      }
      intersectInto(mo, co, sk.aiOrd);
      inverseInto(this.coT, co);
    }
  }

  /**
   * Whether rf, co, sw and hb (`deriveBase`) are of the current choices. The relations stay as the
   * last derivation left them while the choices change; what reads them without deriving first
   * relies on them being final (hb final on the search path, `checkHbFinal`) or asks this.
   */
  baseCurrent(): boolean {
    const { rfSrc, coRank, baseRf, baseCo } = this;
    for (let i = 0; i < rfSrc.length; i++)
      if (rfSrc[i] !== baseRf[i] || coRank[i] !== baseCo[i]) return false;
    return true;
  }

  /** rf, co, mo, fr, sw, hb, eco from the current choices. */
  deriveBase(): void {
    const { sk, rf, rfA, mo, fr, sw, hb, t1, t2 } = this;
    this.baseRf.set(this.rfSrc);
    this.baseCo.set(this.coRank);
    rf.bits.fill(0);
    for (const r of sk.reads) {
      const s = this.rfSrc[r]!;
      if (s >= 0) add(rf, s, r);
    }
    // spec (DESIGN): every rf edge on a synchronisation path goes between atomics with incl.
    intersectInto(rfA, rf, sk.aiOrd);
    this.refreshCo();
    // fr = rf⁻¹ ; mo over same-location atomic pairs with incl.
    inverseInto(t1, rfA);
    composeInto(fr, t1, mo);
    intersectInto(fr, fr, sk.aiOrd);

    if (this.syncFree) {
      this.deriveStaticHb();
      this.ecoReady = false;
      return;
    }
    // Release sequence: (rfA ; rmw)*, then sw = relHead ; rs ; rfA ; acqTail, kept where incl(A, B).
    this.swInto(sw, rfA, t1, t2);

    // hb = (po ∪ init ∪ barrier-sync ∪ sw)+ (hbBase holds the first three), transitive across
    // scopes (spec: amdgpu-usage "Memory Scopes", "happens-before relation is transitive over the
    // synchonizes-with relation independent of scope").
    if (this.mixed) this.deriveSpaceHb();
    else if (isEmpty(sw)) copyInto(hb, sk.hbBase);
    else {
      unionInto(hb, sk.hbBase, sw);
      closureInto(hb, hb);
    }
    this.ecoReady = false;
    this.amdReady = false;
  }

  /**
   * Per-space hb (docs/model.md, choice 6), with `t2` = relHead ; release sequence and `sw` derived.
   * LLVM AMDGPUUsage "Memory Scopes": a `-one-as` scope is the same as its plain scope "but only
   * synchronizes with other operations within the same address space". A synchronisation edge whose
   * release or acquire operation is `-one-as` orders only accesses of the class of the location it
   * synchronises through; it joins that class's hb and never the cross-space `hb`.
   */
  private deriveSpaceHb(): void {
    const { sk, sw, hb, rfA, t1, t2, t3, swPlain } = this;
    intersectInto(swPlain, sw, sk.plainSync);
    if (isEmpty(swPlain)) copyInto(hb, sk.hbBaseCross);
    else {
      unionInto(hb, sk.hbBaseCross, swPlain);
      closureInto(hb, hb);
    }
    // sw through class c: relHead ; rs ; (rfA into reads of class c) ; acqTail, where the scopes are
    // inclusive and both synchronising operations order class c (amdgpu-synchronize-as, choice 33):
    // an acquire fence that does not order the flag's class does not wait for the flag's read (the
    // legalizer drops that counter wait), so it synchronises through nothing of that class.
    for (const c of this.classesUsed) {
      const via = this.swVia[c]!;
      copyInto(t3, rfA);
      restrictInPlace(t3, this.allEvents, this.classEvents[c]!);
      composeInto(t1, t2, t3);
      composeInto(via, t1, this.acqTail);
      intersectInto(via, via, sk.incl);
      intersectInto(via, via, sk.syncClass[c]!);
    }
    for (const k of this.classesUsed) {
      const swk = this.swSpace[k]!;
      const hk = this.hbSpace[k]!;
      copyInto(swk, this.swVia[k]!);
      // Plain (not -one-as) sw through a location of any class c orders class k when both
      // synchronising operations order k (and c, above).
      for (const c of this.classesUsed) {
        if (c === k) continue;
        intersectInto(t3, this.swVia[c]!, sk.plainSyncClass[k]!);
        unionInto(swk, swk, t3);
      }
      unionInto(hk, sk.hbBaseSpace[k]!, swk);
      closureInto(hk, hk);
    }
  }

  /** The hb that decides questions about access `e`'s location (`hb` for fences and barriers). */
  hbOf(e: number): Relation {
    const k = this.sk.spaceClass[e]!;
    return k >= 0 ? this.hbSpace[k]! : this.hb;
  }

  /** Every hb relation in use is irreflexive. */
  hbIrreflexive(): boolean {
    if (!isIrreflexive(this.hb)) return false;
    if (this.mixed) for (const k of this.classesUsed) if (!isIrreflexive(this.hbSpace[k]!)) return false;
    return true;
  }

  /**
   * The edges whose closure is a reflexive hb (for the `hb-acyclic` witness): hbBase ∪ sw, or, for
   * a per-space hb, hbBase ∪ its own edges.
   */
  hbEdges(into: Relation): Relation {
    unionInto(into, this.sk.hbBase, this.sw);
    if (!this.mixed) return into;
    for (const k of this.classesUsed) {
      if (isIrreflexive(this.hbSpace[k]!)) continue;
      unionInto(into, this.sk.hbBaseSpace[k]!, this.swSpace[k]!);
      return into;
    }
    return into;
  }

  /** `into` = hb ∩ aiOrd, each same-location pair under the hb of its class. */
  hbSameLocAtomic(into: Relation): Relation {
    if (!this.mixed) {
      intersectInto(into, this.hb, this.sk.aiOrd);
      return into;
    }
    into.bits.fill(0);
    for (const k of this.classesUsed) {
      intersectInto(this.t3, this.hbSpace[k]!, this.aiSpace[k]!);
      unionInto(into, into, this.t3);
    }
    return into;
  }

  /** When no operation can synchronise: sw is empty and hb is po plus the initial writes. */
  deriveStaticHb(): void {
    if (this.hbReady) return;
    this.sw.bits.fill(0);
    copyInto(this.hb, this.sk.hbBaseCross);
    if (this.mixed)
      for (let k = 0; k < this.hbSpace.length; k++) copyInto(this.hbSpace[k]!, this.sk.hbBaseSpace[k]!);
    // Every per-space hb is hbBase here (the one of same-location pairs), unless
    // amdgpu-synchronize-as gives each class its own barrier synchronisation (choice 33).
    this.hbStaticT.forEach((t, k) => {
      if (k === 0 || t !== this.hbStaticT[0]) inverseInto(t, this.sk.hbBaseSpace[k]!);
    });
    this.hbReady = true;
  }

  /** Per-space hb⁻¹ of access `e`'s class while hb is static (`syncFree`). */
  hbInverse(e: number): Relation {
    const k = this.sk.spaceClass[e]!;
    return this.hbStaticT[k >= 0 ? k : 0]!;
  }

  /** co⁻¹ for the current coherence ranks (after `refreshCo`). */
  coInverse(): Relation {
    return this.coT;
  }

  /** Bitset of the writes to location `l`. */
  writesAtLoc(l: number): Uint32Array {
    return this.writesAt[l]!;
  }

  /** eco = (rf ∪ mo ∪ fr)+ over same-location atomic pairs with incl (only psc needs it). */
  private deriveEco(): void {
    if (this.ecoReady) return;
    const { eco, rfA, mo, fr } = this;
    unionInto(eco, rfA, mo);
    unionInto(eco, eco, fr);
    closureInto(eco, eco);
    this.ecoReady = true;
  }

  /**
   * psc = ([SC] ; (hb ∪ hb? ; eco ; hb?) ; [SC]) ∩ incl, without the identity. With per-space hb,
   * each hb step relates a pair by the hb of its class when both are accesses of one class, by the
   * cross-space hb otherwise (docs/model.md, choice 6).
   */
  derivePsc(): Relation {
    this.deriveEco();
    const { eco, psc, t1, t2, sk } = this;
    let hb = this.hb;
    if (this.mixed) {
      hb = this.s2;
      copyInto(hb, this.hb);
      for (const k of this.classesUsed) {
        copyInto(t1, this.hbSpace[k]!);
        restrictInPlace(t1, this.classEvents[k]!, this.classEvents[k]!);
        unionInto(hb, hb, t1);
      }
    }
    copyInto(t1, hb);
    addIdentity(t1);
    composeInto(t2, t1, eco);
    composeInto(psc, t2, t1);
    unionInto(psc, psc, hb);
    restrictInPlace(psc, this.scRows, this.scRows);
    intersectInto(psc, psc, sk.incl);
    for (let i = 0; i < this.n; i++) psc.bits[i * psc.w + (i >>> 5)]! &= ~(1 << (i & 31));
    return psc;
  }

  /** Availability, visibility and location order (needs `deriveBase`). */
  deriveAmd(): void {
    // Availability, visibility and location order depend on hb alone: when hb (each per-space hb
    // with `-one-as` across spaces) is what it was at the last derivation, they are too.
    if (this.amdReady) return;
    this.amdReady = this.syncFree;
    if (this.amdHbSame()) return;
    this.amdEpoch++;
    this.av.bits.fill(0);
    this.visLevel.fill(NO_LEVEL);
    this.lo.bits.fill(0);
    // Everything about a write W uses the hb of W's address-space class (docs/model.md, choice 6):
    // the chain of availability and visibility operations carries W's space only.
    for (const g of this.writeGroups) this.deriveAmdFor(g.writes, this.hbSpace[g.cls]!);
    // DESIGN: an RMW is after W when either the write clause or the read clause holds.
    const { sk, lo } = this;
    for (const [r, u] of this.rmwPairs) {
      for (const W of sk.writes) {
        if (W === u) continue;
        if (has(lo, W, r) || has(lo, W, u)) {
          add(lo, W, r);
          add(lo, W, u);
        }
      }
    }
  }

  /** Counts the derivations of availability, visibility and location order (`deriveAmd`). */
  amdEpoch = 0;
  /**
   * Per read: the source its value rule last accepted, and the `amdEpoch` it was accepted in (the
   * rule depends on hb and location order alone, so it stands while they do; `checkHbFinal`).
   */
  readonly valueOkSrc: Int32Array;
  readonly valueOkEpoch: Int32Array;

  /** hb (and each per-space hb) at the last `deriveAmd`, beside the relations it copies. */
  private amdHb: { now: Relation[]; last: Relation[] } | null = null;

  /** Whether hb is what it was at the last `deriveAmd` (and records it if not). */
  private amdHbSame(): boolean {
    if (!this.amdHb) {
      const now = this.mixed ? [this.hb, ...this.classesUsed.map((k) => this.hbSpace[k]!)] : [this.hb];
      this.amdHb = { now, last: now.map((r) => relation(r.n)) };
    } else {
      let same = true;
      for (let i = 0; same && i < this.amdHb.now.length; i++)
        same = equals(this.amdHb.last[i]!, this.amdHb.now[i]!);
      if (same) return true;
    }
    const { now, last } = this.amdHb;
    for (let i = 0; i < now.length; i++) copyInto(last[i]!, now[i]!);
    return false;
  }

  /** Availability, visibility and location order of `writes`, with `hb` their happens-before. */
  private deriveAmdFor(writes: readonly number[], hb: Relation): void {
    const { sk, av, lo, n, visLevel, t3, hbT } = this;
    const ev = sk.events;
    const w = av.w;
    const A = av.bits;
    const H = hb.bits;
    const SI = sk.sincl.bits;
    const IN = sk.incl.bits;
    const PO = sk.po.bits;
    const rank = this.rank;
    inverseInto(hbT, hb);
    const HT = hbT.bits;
    // t3 = hb ∩ sincl restricted to MakeAvailable targets: Z hb X with X in Z's scope instance.
    intersectInto(t3, hb, sk.sincl);
    const ma = sk.sets.makeAvailable;
    const T3 = t3.bits;
    for (let i = 0; i < n; i++) for (let m = 0; m < w; m++) T3[i * w + m]! &= ma[m]!;

    for (const W of writes) {
      const e = ev[W]!;
      const row = W * w;
      // spec: "X is W itself, and W is a store-available operation"
      if (e.storeAvailable) A[row + (W >>> 5)]! |= 1 << (W & 31);
      // spec: "X is a MakeAvailable operation that follows W in program order"
      for (let m = 0; m < w; m++) A[row + m]! |= PO[row + m]! & ma[m]!;
      // spec: "X is a MakeAvailable operation whose scope instance includes W, and there is an
      // availability operation Z on W such that Z happens-before X, and Z's scope instance includes X."
      const ST = this.sinclT.bits;
      for (;;) {
        let changed = false;
        for (let m0 = 0; m0 < w; m0++) {
          let bits = A[row + m0]!;
          while (bits !== 0) {
            const low = bits & -bits;
            const z = (m0 << 5) + 31 - Math.clz32(low);
            bits ^= low;
            for (let m = 0; m < w; m++) {
              const nw = T3[z * w + m]! & ST[row + m]! & ~A[row + m]!;
              if (nw !== 0) {
                A[row + m]! |= nw;
                changed = true;
              }
            }
          }
        }
        if (!changed) break;
      }
    }

    // Visibility (spec: "Visibility Operation"). Level = scope rank of the widest instance, anchored
    // at Y's thread, in which Y makes W visible (it also does in every narrower one containing Y).
    const T = sk.threadCount;
    const vis = this.visSet;
    for (const W of writes) {
      const locW = ev[W]!.loc;
      const base = W * n;
      const elig = this.eligible[locW]!;
      const row = W * w;
      vis.fill(0);
      // Clause 1: an availability op X on W with X hb Y and inclusive scopes; level = common scope,
      // i.e. max(rank X, rank Y) minimised over X.
      for (let m0 = 0; m0 < w; m0++) {
        let ys = elig[m0]!;
        while (ys !== 0) {
          const low = ys & -ys;
          const y = (m0 << 5) + 31 - Math.clz32(low);
          ys ^= low;
          let best = NO_LEVEL;
          for (let m = 0; m < w; m++) {
            let xs = A[row + m]! & HT[y * w + m]! & IN[y * w + m]!;
            while (xs !== 0) {
              const lx = xs & -xs;
              const x = (m << 5) + 31 - Math.clz32(lx);
              xs ^= lx;
              if (rank[x]! < best) best = rank[x]!;
            }
          }
          if (best < NO_LEVEL) {
            visLevel[base + y] = Math.max(best, rank[y]!);
            vis[y >>> 5]! |= 1 << (y & 31);
          }
        }
      }
      // Clause 2: a visibility op X on W with X hb Y, Y in X's visibility instance S1, X in Y's
      // instance S2; level = that of S1 ∩ S2. Iterate to a fixpoint (levels only widen).
      for (;;) {
        let changed = false;
        for (let m0 = 0; m0 < w; m0++) {
          let xs = vis[m0]!;
          while (xs !== 0) {
            const lx = xs & -xs;
            const x = (m0 << 5) + 31 - Math.clz32(lx);
            xs ^= lx;
            const lvx = visLevel[base + x]!;
            const tx = ev[x]!.thread;
            for (let m = 0; m < w; m++) {
              let ys = H[x * w + m]! & elig[m]!;
              while (ys !== 0) {
                const ly = ys & -ys;
                const y = (m << 5) + 31 - Math.clz32(ly);
                ys ^= ly;
                if (lvx > sk.share[tx * T + ev[y]!.thread]!) continue; // Y not in S1
                if (((SI[y * w + (x >>> 5)]! >>> (x & 31)) & 1) === 0) continue; // X not in S2
                const lvl = Math.max(lvx, rank[y]!);
                if (lvl < visLevel[base + y]!) {
                  visLevel[base + y] = lvl;
                  vis[y >>> 5]! |= 1 << (y & 31);
                  changed = true;
                }
              }
            }
          }
        }
        if (!changed) break;
      }
      this.visOps.bits.set(vis, row);
    }

    // Location order (spec: "Location Order"): exactly the three clauses, not closed transitively.
    const L = lo.bits;
    const V = this.visOps.bits;
    for (const W of writes) {
      const e = ev[W]!;
      const row = W * w;
      const wl = this.writesAt[e.loc]!;
      const rl = this.readsAt[e.loc]!;
      if (e.kind === 'init') {
        // spec: the initial write is "location-ordered before any other read or write to that same location".
        for (let m = 0; m < w; m++) L[row + m] = wl[m]! | rl[m]!;
        L[row + (W >>> 5)]! &= ~(1 << (W & 31));
        continue;
      }
      // spec: "A write W is location-ordered before an access Y to the same address if W is
      // program-ordered before Y."
      for (let m = 0; m < w; m++) L[row + m] = PO[row + m]! & (wl[m]! | rl[m]!);
      // spec: "… before a write W1 … if there exists an availability operation Z on W such that Z
      // happens-before W1, and W1 is included in Z's scope instance."
      for (let m0 = 0; m0 < w; m0++) {
        let zs = A[row + m0]!;
        while (zs !== 0) {
          const lz = zs & -zs;
          const z = (m0 << 5) + 31 - Math.clz32(lz);
          zs ^= lz;
          for (let m = 0; m < w; m++) L[row + m]! |= H[z * w + m]! & SI[z * w + m]! & wl[m]!;
        }
      }
      // spec: "… before a read R … if there exists a visibility operation Z on write W such that Z is
      // R itself, or Z precedes R in program order."
      for (let m0 = 0; m0 < w; m0++) {
        let zs = V[row + m0]!;
        L[row + m0]! |= zs & rl[m0]!;
        while (zs !== 0) {
          const lz = zs & -zs;
          const z = (m0 << 5) + 31 - Math.clz32(lz);
          zs ^= lz;
          for (let m = 0; m < w; m++) L[row + m]! |= PO[z * w + m]! & rl[m]!;
        }
      }
      L[row + (W >>> 5)]! &= ~(1 << (W & 31));
    }
  }

  /** The writes read `r` may see (spec: "R may see any write to the same byte, except: …"). */
  maySee(r: number, out: number[]): number[] {
    const { sk, lo } = this;
    const hb = this.hbOf(r);
    out.length = 0;
    const loc = sk.events[r]!.loc;
    const ws = sk.writesByLoc[loc]!;
    for (const w1 of ws) {
      // spec: "If a read R happens-before a write W3, then R may not see W3."
      if (has(hb, r, w1)) continue;
      // spec: "If a write W1 is location-ordered before a write W2, and W2 is location-ordered
      // before a read R, then R may not see W1."
      let hidden = false;
      for (const w2 of ws) {
        if (w2 !== w1 && has(lo, w1, w2) && has(lo, w2, r)) {
          hidden = true;
          break;
        }
      }
      if (!hidden) out.push(w1);
    }
    return out;
  }

  /**
   * Which value rule applies to read `r` and what it allows: `{ rule, allowed }` where `allowed`
   * lists the writes it may return, or is empty when it returns undef.
   */
  valueRule(r: number, opts: ModelOptions, maySee: number[]): { rule: ValueRule; allowed: number[] } {
    const { sk, lo } = this;
    let anyLo = false;
    for (const w of sk.writesByLoc[sk.events[r]!.loc]!) if (has(lo, w, r)) anyLo = true;
    // spec: "If no write is location-ordered before a read R, then R returns undef."
    if (!anyLo) return { rule: 1, allowed: [] };
    // spec: "if the set consisting of R and all writes that R may see contains only atomic
    // operations with inclusive scopes, then R returns the value written by one of those writes."
    let checked = maySee;
    if (opts.valueRules === 'repaired') {
      checked = maySee.filter((w) => !(has(lo, w, r) && maySee.some((w2) => w2 !== w && has(lo, w, w2))));
    }
    let allAtomicIncl = sk.events[r]!.atomic;
    for (let i = 0; allAtomicIncl && i < checked.length; i++) {
      const a = checked[i]!;
      if (!has(sk.ai, r, a)) allAtomicIncl = false;
      for (let j = i + 1; allAtomicIncl && j < checked.length; j++)
        if (!has(sk.ai, a, checked[j]!)) allAtomicIncl = false;
    }
    if (allAtomicIncl && maySee.length > 0) return { rule: 2, allowed: maySee };
    // spec: "Otherwise, if R may see some write that is not location-ordered before R, then R returns undef."
    if (maySee.some((w) => !has(lo, w, r))) return { rule: 3, allowed: [] };
    // spec: "Otherwise, if R may see exactly one write W, then R returns the value written by W."
    if (maySee.length === 1) return { rule: 4, allowed: maySee };
    // spec: "Otherwise, R returns undef."
    return { rule: 5, allowed: [] };
  }
}

const NO_WITNESS: Witness = { kind: 'cycle', events: [], edges: [] };

function cycleWitness(ws: Workspace, r: Relation, parts: [EdgeName, Relation][]): Witness {
  // Pruning only needs to know that an axiom fails: skip the (slow) cycle search.
  if (!ws.witnesses) return NO_WITNESS;
  const c = findCycle(r) ?? [];
  const edges = c.map((a, k) => {
    const b = c[(k + 1) % c.length]!;
    const part = parts.find(([, rel]) => has(rel, a, b));
    return part ? part[0] : ('hb' as EdgeName);
  });
  return { kind: 'cycle', events: c, edges };
}

const seen: number[] = [];

/** The model: axioms in the order they are checked (cheap and most explanatory first). */
export const AMDGPU_AXIOMS: readonly Axiom[] = [
  {
    id: 'no-thin-air',
    description: 'acyclic(po ∪ rf): no read depends on a write that depends on it',
    layer: 'base',
    monotone: true,
    check(ws, opts) {
      if (!opts.noThinAir) return null;
      const s = ws.s1;
      unionInto(s, ws.sk.po, ws.rf);
      if (isAcyclic(s)) return null;
      return cycleWitness(ws, s, [
        ['po', ws.sk.po],
        ['rf', ws.rf],
      ]);
    },
  },
  {
    id: 'hb-acyclic',
    description: 'happens-before is irreflexive',
    layer: 'base',
    monotone: true,
    check(ws) {
      if (ws.hbIrreflexive()) return null;
      const s = ws.hbEdges(ws.s1);
      // hbBase also holds init and barrier-sync edges (between threads): those read as hb, not po.
      return cycleWitness(ws, s, [
        ['po', ws.sk.po],
        ['sw', ws.sw],
        ['hb', ws.sk.hbBase],
      ]);
    },
  },
  {
    id: 'coherence',
    description: 'acyclic(hb ∪ rf ∪ mo ∪ fr) over same-location atomic accesses with inclusive scopes',
    layer: 'base',
    monotone: true,
    check(ws) {
      const s = ws.hbSameLocAtomic(ws.s1);
      const hbl = ws.s2;
      copyInto(hbl, s);
      unionInto(s, s, ws.rfA);
      unionInto(s, s, ws.mo);
      unionInto(s, s, ws.fr);
      if (isAcyclic(s)) return null;
      return cycleWitness(ws, s, [
        ['rf', ws.rfA],
        ['mo', ws.mo],
        ['fr', ws.fr],
        ['hb', hbl],
      ]);
    },
  },
  {
    id: 'rmw-atomicity',
    description: 'no write inclusive with both lies in mo between an RMW and the write it reads',
    layer: 'base',
    monotone: true,
    check(ws) {
      // Stated over the derived relations, apart from the search's rank-based `rmwBetween`, so that
      // the reference enumerator checks that shortcut.
      const { sk } = ws;
      for (const r of sk.reads) {
        const u = sk.events[r]!.rmw;
        const src = ws.rfSrc[r]!;
        if (u < 0 || src < 0 || !has(ws.rfA, src, r)) continue;
        for (const x of sk.writesByLoc[sk.events[r]!.loc]!) {
          if (has(ws.mo, src, x) && has(ws.mo, x, u))
            return { kind: 'rmw', read: r, write: u, source: src, between: x };
        }
      }
      return null;
    },
  },
  {
    id: 'scoped-sc',
    description: 'acyclic(psc): seq_cst events with inclusive scopes, related by hb ∪ hb?;eco;hb?',
    layer: 'base',
    monotone: true,
    check(ws) {
      if (ws.scCount < 2) return null;
      const psc = ws.derivePsc();
      if (isAcyclic(psc)) return null;
      return cycleWitness(ws, psc, [['psc', psc]]);
    },
  },
  {
    id: 'co-respects-lo',
    description: 'coherence order agrees with location order between writes',
    layer: 'amdgpu',
    monotone: true,
    check(ws) {
      const { sk } = ws;
      for (const ws2 of sk.writesByLoc) {
        for (const a of ws2)
          for (const b of ws2)
            if (a !== b && has(ws.lo, a, b) && has(ws.co, b, a))
              return { kind: 'lo-co', first: a, second: b };
      }
      return null;
    },
  },
  {
    id: 'value-rules',
    description: 'every read returns what the value rules allow: a write it may see, or undef',
    layer: 'amdgpu',
    monotone: false,
    check(ws, opts) {
      for (const r of ws.sk.reads) {
        const ms = ws.maySee(r, seen);
        const { rule, allowed } = ws.valueRule(r, opts, ms);
        const c = ws.rfSrc[r]!;
        const ok = allowed.length === 0 ? c === -1 : allowed.includes(c);
        if (!ok) {
          const locBefore = ws.sk.writesByLoc[ws.sk.events[r]!.loc]!.filter((w) => has(ws.lo, w, r));
          return { kind: 'value', read: r, rule, chosen: c, maySee: [...ms], locBefore };
        }
      }
      return null;
    },
  },
  {
    id: 'values',
    description:
      'register values exist (computed, or solving the equations of a value cycle) and agree with the cmpxchg outcomes assumed',
    layer: 'amdgpu',
    monotone: false,
    check(ws) {
      // A value depending on itself (out of thin air) takes every solution of its cycle
      // (docs/model.md, "Values out of thin air"): one execution per solution.
      if (ws.evaluator.valuations(ws.rfSrc) > 0) return null;
      if (ws.evaluator.status === 'cas-mismatch') return { kind: 'cas', read: ws.evaluator.mismatch };
      return { kind: 'value-cycle' };
    },
  },
];

/** Result of checking one complete candidate. */
export interface Verdict {
  consistent: boolean;
  axiom: AxiomId | null;
  witness: Witness | null;
}

/**
 * Checks a complete candidate already loaded into `ws`: derives everything and returns the first
 * violated axiom. On success the evaluator holds the register and write values.
 */
export function checkCandidate(
  ws: Workspace,
  opts: ModelOptions,
  axioms: readonly Axiom[] = AMDGPU_AXIOMS,
): Verdict {
  ws.deriveBase();
  let amd = false;
  for (const a of axioms) {
    if (a.layer === 'amdgpu' && !amd) {
      ws.deriveAmd();
      amd = true;
    }
    const w = a.check(ws, opts);
    if (w) return { consistent: false, axiom: a.id, witness: w };
  }
  return { consistent: true, axiom: null, witness: null };
}

/** Checks only the monotone base axioms (for pruning partial candidates). */
export function checkPartial(ws: Workspace, opts: ModelOptions): boolean {
  ws.deriveBase();
  ws.witnesses = false;
  let ok = true;
  for (const a of BASE_MONOTONE) {
    if (a.check(ws, opts)) {
      ok = false;
      break;
    }
  }
  ws.witnesses = true;
  return ok;
}

const BASE_MONOTONE = AMDGPU_AXIOMS.filter((a) => a.layer === 'base' && a.monotone);

const seenOne: number[] = [];

/** Whether read `r`'s current rf choice is what its value rule allows (needs `deriveAmd`). */
export function readValueOk(ws: Workspace, opts: ModelOptions, r: number): boolean {
  const ms = ws.maySee(r, seenOne);
  const { allowed } = ws.valueRule(r, opts, ms);
  const c = ws.rfSrc[r]!;
  return allowed.length === 0 ? c === -1 : allowed.includes(c);
}

/**
 * Checks made once happens-before is final (every atomic read and every co choice made; the rf
 * sources of non-atomic reads never create synchronisation): derives the AMDGPU layer, then
 * co-respects-lo and the value rules of the atomic reads. The derivation stays valid for the
 * non-atomic reads chosen afterwards (see `readValueOk`).
 */
export function checkHbFinal(ws: Workspace, opts: ModelOptions): boolean {
  ws.deriveAmd();
  const pairs = ws.loCheckPairs;
  for (let k = 0; k < pairs.length; k += 2) {
    const a = pairs[k]!;
    const b = pairs[k + 1]!;
    if (has(ws.lo, a, b) && has(ws.co, b, a)) return false;
  }
  // Reads after the hb-final depth are not chosen yet (-2): each is checked when it is. A read whose
  // source was accepted under the same derivation needs no second look.
  for (const r of ws.valueCheckReads) {
    const c = ws.rfSrc[r]!;
    if (c === -2 || (ws.valueOkSrc[r] === c && ws.valueOkEpoch[r] === ws.amdEpoch)) continue;
    if (!readValueOk(ws, opts, r)) return false;
    ws.valueOkSrc[r] = c;
    ws.valueOkEpoch[r] = ws.amdEpoch;
  }
  return true;
}

/** No-thin-air alone, for choices that cannot affect any other base axiom (non-atomic reads). */
export function noThinAirOk(ws: Workspace, opts: ModelOptions): boolean {
  if (!opts.noThinAir) return true;
  const { rf, sk } = ws;
  rf.bits.fill(0);
  for (const r of sk.reads) {
    const s = ws.rfSrc[r]!;
    if (s >= 0) add(rf, s, r);
  }
  unionInto(ws.s1, sk.po, rf);
  return isAcyclic(ws.s1);
}

/**
 * The last axiom alone (register values), for candidates whose every other axiom the pruning
 * enumerator has already checked on the way down (hb, lo and values are then already derived).
 */
export function checkValuesOnly(ws: Workspace, opts: ModelOptions): Verdict {
  const a = AMDGPU_AXIOMS[AMDGPU_AXIOMS.length - 1]!;
  const w = a.check(ws, opts);
  return w
    ? { consistent: false, axiom: a.id, witness: w }
    : { consistent: true, axiom: null, witness: null };
}

/**
 * A fast, sound pre-check for rf choice `src → r` when hb does not depend on the choices
 * (`syncFree`): the short coherence cycles CoWR, CoRW and CoRR through the new edge. Accepting is
 * not proof of consistency (the full monotone check still runs); rejecting is.
 */
export function quickCoherenceReject(ws: Workspace, r: number, src: number): boolean {
  const { sk, co } = ws;
  if (!ws.syncFree) return false;
  const hb = ws.hbOf(r);
  const AI = sk.aiOrd.bits;
  const w = hb.w;
  if (((AI[src * w + (r >>> 5)]! >>> (r & 31)) & 1) === 0) return false;
  ws.refreshCo();
  ws.deriveStaticHb();
  const H = hb.bits;
  const HT = ws.hbInverse(r).bits;
  const C = co.bits;
  const CT = ws.coInverse().bits;
  const writes = ws.writesAtLoc(sk.events[r]!.loc);
  for (let m = 0; m < w; m++) {
    const both = AI[r * w + m]! & AI[src * w + m]! & writes[m]!;
    // CoWR: r reads src, but a write hb-before r is co-after src.
    if ((HT[r * w + m]! & C[src * w + m]! & both) !== 0) return true;
    // CoRW: r reads src, but r hb-precedes src or a write co-before src.
    const srcBit = m === src >>> 5 ? 1 << (src & 31) : 0;
    if ((H[r * w + m]! & (CT[src * w + m]! | srcBit) & both) !== 0) return true;
  }
  for (const r2 of sk.readsByLoc[sk.events[r]!.loc]!) {
    const s2 = ws.rfSrc[r2]!;
    if (r2 === r || s2 < 0 || !has(sk.aiOrd, s2, r2) || !has(sk.aiOrd, r2, r) || !has(sk.aiOrd, s2, src))
      continue;
    // CoRR: reads ordered by hb must not read co-decreasing writes (fr needs incl too: incl is
    // not transitive, so each edge of the cycle is checked).
    if (has(hb, r2, r) && has(co, src, s2) && has(sk.aiOrd, r, s2)) return true;
    if (has(hb, r, r2) && has(co, s2, src) && has(sk.aiOrd, r2, src)) return true;
  }
  return false;
}

/**
 * The `rmw-atomicity` test for one rf choice `src → r`, for the search: when `r` is an RMW read
 * reading an atomic-inclusive write (rfA), a write mo-after `src` and mo-before the RMW's write, or
 * -1. mo is co ∩ aiOrd with co read off the coherence ranks, so no derivation is needed; unplaced
 * writes (rank -1) are in no co pair yet. The axiom keeps its own statement over the derived
 * relations, which the reference enumerator uses to check this one.
 */
export function rmwBetween(ws: Workspace, r: number, src: number): number {
  const { sk, coRank } = ws;
  const u = sk.events[r]!.rmw;
  if (u < 0 || src < 0 || !has(sk.aiOrd, src, r)) return -1;
  const rs = coRank[src]!;
  const ru = coRank[u]!;
  if (rs < 0 || ru < 0) return -1;
  for (const x of sk.writesByLoc[sk.events[r]!.loc]!) {
    const rx = coRank[x]!;
    if (rx > rs && rx < ru && has(sk.aiOrd, src, x) && has(sk.aiOrd, x, u)) return x;
  }
  return -1;
}

/**
 * Whether RMW read `r` can read only the write just before its own in coherence order (or undef):
 * `r` is po-before its write `u`, and coherence decides its value (`r` and every write to the
 * location pairwise atomic with inclusive scopes). A source coherence-after `u` closes hb ; eco
 * (r po u, u co src rf r); one coherence-before that write leaves a write mo-between source and `u`
 * (`rmw-atomicity`).
 */
export function coForcedRmw(sk: Skeleton, r: number): boolean {
  const u = sk.events[r]!.rmw;
  return u >= 0 && has(sk.po, r, u) && coherenceDecides(sk, r);
}

/** An atomic access of ordering monotonic or stronger (the initial write included). */
function ordered(e: { atomic: boolean; ordering: string; kind: string }): boolean {
  return e.kind === 'init' || (e.atomic && e.ordering !== 'unordered');
}

/**
 * Whether coherence alone keeps read `r` inside may-see: `r` and every write to its location are
 * pairwise in `aiOrd` (then rule 2 applies and a source outside may-see is a coherence cycle).
 * Unordered accesses are outside coherence, so their value rule is always checked.
 */
function coherenceDecides(sk: Skeleton, r: number): boolean {
  const ws = sk.writesByLoc[sk.events[r]!.loc]!;
  for (const a of ws) {
    if (!has(sk.aiOrd, r, a)) return false;
    for (const b of ws) if (!has(sk.aiOrd, a, b)) return false;
  }
  return true;
}

/**
 * Whether read `r` can ever return undef. It cannot when its location has an initial write
 * (always location-ordered before it, so rule 1 never applies) and the read and every write to the
 * location are atomic with pairwise inclusive scopes (rule 2 then always applies).
 */
export function undefPossible(sk: Skeleton, r: number): boolean {
  const e = sk.events[r]!;
  const l = sk.locs[e.loc]!;
  if (l.initEvent < 0 || !e.atomic) return true;
  const ws = sk.writesByLoc[e.loc]!;
  for (const a of ws) {
    if (!has(sk.ai, r, a)) return true;
    for (const b of ws) if (!has(sk.ai, a, b)) return true;
  }
  return false;
}
