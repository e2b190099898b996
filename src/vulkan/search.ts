/**
 * The fast search of the Vulkan model: the consistent executions `models/vulkan.cat` allows, found
 * without evaluating the cat model at every node (the cat file stays the reference;
 * `search.prop.test.ts` checks both give the same reports).
 *
 * What makes it fast is the shape of the model: happens-before, the availability and visibility
 * chains, location order, visible-to and the data races depend on the reads-from choice only
 * through the reads that can synchronise (atomic reads that acquire, or are followed by an acquire
 * barrier of their storage class). So the search chooses, per variant: the coherence order of every
 * location; then the synchronising reads' writes, after which it computes every derived relation
 * once (`model.ts`); then the other reads' writes, each checked on its own against what is fixed —
 * visible-to, RMW atomicity, and whether its reads-from and from-reads edges close a cycle of
 * locord ∪ rf ∪ fr ∪ asmo (a cycle through the new edges must pass through the read).
 *
 * An explicit-stack search in slices, like the AMDGPU search, so budgets and Ctrl-C apply between
 * slices. No Node APIs here.
 */
import type { CatVariantInput } from '../cat/enumerate.ts';
import { Orderings } from '../core/permutations.ts';
import { add, has, isAcyclic, type Relation, relation, remove } from '../core/relation.ts';
import { noRaceStats, VariantDriver } from '../enumerate/driver.ts';
import type { VkSkeleton } from './events.ts';
import { describeBlocked } from './explain.ts';
import type { VkFront } from './front.ts';
import { coDerived, contractOperations, derive, type VkDerived, VkStatic } from './model.ts';
import type { VkSearchResult } from './report.ts';

export interface VkSearchOptions {
  /** Availability/visibility chains of more than one element (off: `--no-av-vis-chains`). */
  chains: boolean;
  /** From-reads as the spec's sentence reads for every read (docs/model-vulkan.md, "From-reads"). */
  literalFr: boolean;
  maxExecutions: number;
  timeoutMs: number;
  maxStates: number;
  keepExamples: boolean;
}

type Choice =
  | { kind: 'co'; loc: number; perms: Orderings }
  /** `all`: the writes the read may read by their known values; `domain`: those still possible. */
  | { kind: 'rf'; read: number; all: Int32Array; domain: Int32Array; sync: boolean };

/** The search of every variant of a Vulkan test under the Vulkan model. */
export class VkSearch extends VariantDriver<VariantSearch> {
  readonly front: VkFront;
  readonly opts: VkSearchOptions;

  constructor(front: VkFront, opts: VkSearchOptions) {
    super(front.labels, opts, front.variantCount, noRaceStats());
    this.front = front;
    this.opts = opts;
  }

  protected start(v: number): VariantSearch {
    return new VariantSearch(this.front, v, this.opts);
  }

  protected advance(s: VariantSearch, budget: number): number {
    return s.advance(budget, this);
  }

  record(vs: VariantSearch, values: Float64Array, race: boolean): void {
    this.recordExecution(vs.index, vs.input.ub, values, race, false, () => ({
      variant: vs.index,
      rf: vs.rfSrc.slice(),
      co: vs.coRank.slice(),
    }));
  }

  /** The result in the shape reports take. */
  result(): VkSearchResult {
    const stop =
      this.front.boundReached && (this.stop ?? 'done') === 'done' ? 'bound' : (this.stop ?? 'interrupted');
    return {
      collector: this.collector,
      stats: this.stats,
      stop,
      ub: this.ub,
      ubReasons: [...this.ubVariants].flatMap((v) =>
        describeBlocked(this.front.vtest, this.front.variants[v]!),
      ),
    };
  }
}

/** The search state of one variant. */
class VariantSearch {
  finished = false;
  readonly input: CatVariantInput;
  readonly sk: VkSkeleton;
  readonly s: VkStatic;
  readonly rfSrc: Int32Array;
  readonly coRank: Int32Array;
  private readonly cps: Choice[];
  private readonly cur: Int32Array;
  private depth = 0;
  /** Index of the last co choice and of the last synchronising read's choice (-1: none). */
  private readonly lastCo: number;
  private readonly lastSync: number;
  private readonly co: Relation;
  private readonly rf: Relation;
  /** fr out of each read (rows of reads only). */
  private readonly fr: Relation;
  private d: VkDerived | null = null;
  private asmoRs: ReturnType<typeof coDerived> | null = null;
  private readonly values: Float64Array;
  private readonly n: number;
  private readonly w: number;
  private readonly reach: Uint32Array;
  private readonly frontier: Uint32Array;
  private readonly next: Uint32Array;
  /** Per read: 1 when a choice of it may close a cycle with other reads' edges (`markRisky`). */
  private readonly risky: Uint8Array;
  /** The other event of an RMW (-1: not an RMW's). */
  private readonly mate: Int32Array;
  /** The choice after which every derived relation is fixed (-1: before any choice). */
  private readonly phaseEnd: number;

  constructor(
    front: VkFront,
    readonly index: number,
    private readonly opts: VkSearchOptions,
  ) {
    this.input = front.variant(index);
    this.sk = front.skeleton(index);
    this.s = new VkStatic(this.sk);
    const sk = this.sk;
    const n = sk.n;
    this.n = n;
    this.w = Math.max(1, (n + 31) >>> 5);
    this.rfSrc = new Int32Array(n).fill(-2);
    this.coRank = new Int32Array(n).fill(-1);
    this.co = relation(n);
    this.rf = relation(n);
    this.fr = relation(n);
    this.values = new Float64Array(front.labels.length);
    this.reach = new Uint32Array(this.w);
    this.frontier = new Uint32Array(this.w);
    this.next = new Uint32Array(this.w);
    this.risky = new Uint8Array(n).fill(1);
    this.mate = new Int32Array(n).fill(-1);
    for (const [a, b] of this.s.rmwPairs) {
      this.mate[a] = b;
      this.mate[b] = a;
    }
    const cps: Choice[] = [];
    sk.writesByLoc.forEach((ws, loc) => {
      if (ws.length === 0) return;
      const init = ws.filter((x) => sk.events[x]!.kind === 'init');
      const rest = ws.filter((x) => sk.events[x]!.kind !== 'init');
      cps.push({ kind: 'co', loc, perms: new Orderings(init, rest) });
    });
    this.lastCo = cps.length - 1;
    // Reads that can synchronise: atomic reads that acquire, or that an acquire barrier follows.
    const syncRead = (r: number) => {
      const e = sk.events[r]!;
      if (!e.atomic) return false;
      if (e.acquire) return true;
      return sk.events.some((f) => f.fence && f.acquire && f.thread === e.thread && has(sk.po, r, f.id));
    };
    const domainOf = (r: number) => {
      const all = sk.writesByLoc[sk.events[r]!.loc]!;
      return Int32Array.from(this.input.rfDomain ? this.input.rfDomain(r, all) : all);
    };
    const sync = sk.reads.filter(syncRead);
    const rest = sk.reads.filter((r) => !syncRead(r));
    for (const r of sync) {
      const all = domainOf(r);
      cps.push({ kind: 'rf', read: r, all, domain: all, sync: true });
    }
    this.lastSync = cps.length - 1;
    for (const r of rest) {
      const all = domainOf(r);
      cps.push({ kind: 'rf', read: r, all, domain: all, sync: false });
    }
    this.cps = cps;
    this.cur = new Int32Array(cps.length).fill(-1);
    this.phaseEnd = Math.max(this.lastCo, this.lastSync);
  }

  /** Applies choice `idx` of choice point `k`; false when it is ruled out at once. */
  private apply(k: number, idx: number): boolean {
    const cp = this.cps[k]!;
    if (cp.kind === 'co') {
      const perm = cp.perms.at(idx);
      const ws = this.sk.writesByLoc[cp.loc]!;
      for (const a of ws) for (const b of ws) remove(this.co, a, b);
      for (let i = 0; i < perm.length; i++) {
        this.coRank[perm[i]!] = i;
        for (let j = i + 1; j < perm.length; j++) add(this.co, perm[i]!, perm[j]!);
      }
      return true;
    }
    const r = cp.read;
    const w = cp.domain[idx]!;
    this.rfSrc[r] = w;
    add(this.rf, w, r);
    if (cp.sync) return true;
    // `narrow` kept only the writes that pass visible-to and RMW atomicity on their own: what is
    // left to check is a cycle through other reads' edges.
    this.addFr(r, w);
    return this.risky[r] === 0 || !this.cycleThrough(r);
  }

  private undo(k: number): void {
    const cp = this.cps[k]!;
    if (cp.kind === 'co') return;
    const r = cp.read;
    const w = this.rfSrc[r]!;
    if (w >= 0) remove(this.rf, w, r);
    this.rfSrc[r] = -2;
    this.fr.bits.fill(0, r * this.w, r * this.w + this.w);
  }

  /** fr edges of read r reading w (needs the derived relations). */
  private addFr(r: number, w: number): void {
    const d = this.d!;
    const W = this.w;
    const row = r * W;
    const fr = this.fr.bits;
    fr.fill(0, row, row + W);
    const e = this.sk.events[w]!;
    if (e.kind === 'init') {
      // A read of the initial value is from-read before every other write to the location.
      for (const x of this.sk.writesByLoc[e.loc]!) if (x !== w) fr[row + (x >>> 5)]! |= 1 << (x & 31);
      return;
    }
    if (this.opts.literalFr || has(d.locord, w, r)) {
      const wl = d.wwLocord.bits;
      for (let m = 0; m < W; m++) fr[row + m]! |= wl[w * W + m]!;
    }
    const as = d.asmo.bits;
    for (let m = 0; m < W; m++) fr[row + m]! |= as[w * W + m]!;
  }

  /** visible-to and RMW atomicity for read r reading w. */
  private localChecks(r: number, w: number): boolean {
    const d = this.d!;
    const e = this.sk.events[r]!;
    const W = this.w;
    if (!e.atomic) {
      // A non-atomic read with a write visible to it reads one of them.
      let any = false;
      for (let x = 0; x < this.n && !any; x++) if (has(d.visto, x, r)) any = true;
      if (any && !has(d.visto, w, r)) return false;
    }
    if (e.rmw >= 0) {
      // rmw & (fr ; asmo): no write C with r fr C and C asmo (r's write). Acyclicity over
      // operations forbids it too (the RMW from-reads C, which precedes it); checked here early.
      const wr = e.rmw;
      const fr = this.fr.bits;
      const as = d.asmo;
      for (let c = 0; c < this.n; c++)
        if ((fr[r * W + (c >>> 5)]! >>> (c & 31)) & 1 && has(as, c, wr)) return false;
    }
    return true;
  }

  /**
   * Whether r now lies on a cycle of locord ∪ asmo ∪ rf ∪ fr, over operations: the two events of
   * an RMW are one node (the edges between them do not count; models/vulkan.cat, "consistency").
   */
  private cycleThrough(r: number): boolean {
    const d = this.d!;
    const W = this.w;
    const lo = d.locord.bits;
    const as = d.asmo.bits;
    const rf = this.rf.bits;
    const fr = this.fr.bits;
    const reach = this.reach;
    const frontier = this.frontier;
    const mate = this.mate;
    reach.fill(0);
    frontier.fill(0);
    const edgesOut = (x: number, into: Uint32Array) => {
      const xw = x * W;
      for (let k = 0; k < W; k++) into[k]! |= lo[xw + k]! | as[xw + k]! | rf[xw + k]! | fr[xw + k]!;
      // The edges from x to its RMW mate are inside the operation.
      const y = mate[x]!;
      if (y >= 0) into[y >>> 5]! &= ~(1 << (y & 31));
    };
    edgesOut(r, frontier);
    const rm = mate[r]!;
    if (rm >= 0) edgesOut(rm, frontier);
    const hit = (x: number) => x >= 0 && (reach[x >>> 5]! >>> (x & 31)) & 1;
    for (;;) {
      let fresh = false;
      // Reaching one event of an RMW reaches the operation.
      for (const [a, b] of this.s.rmwPairs) {
        const on = ((frontier[a >>> 5]! >>> (a & 31)) | (frontier[b >>> 5]! >>> (b & 31))) & 1;
        if (on) {
          frontier[a >>> 5]! |= 1 << (a & 31);
          frontier[b >>> 5]! |= 1 << (b & 31);
        }
      }
      for (let m = 0; m < W; m++) {
        const f = frontier[m]! & ~reach[m]!;
        frontier[m] = f;
        if (f !== 0) fresh = true;
        reach[m]! |= f;
      }
      if (hit(r) || hit(rm)) return true;
      if (!fresh) return false;
      const next = this.next;
      next.fill(0);
      for (let m = 0; m < W; m++) {
        let bits = frontier[m]!;
        while (bits !== 0) {
          const low = bits & -bits;
          edgesOut((m << 5) + 31 - Math.clz32(low), next);
          bits ^= low;
        }
      }
      frontier.set(next);
    }
  }

  /** After the last synchronising read: every derived relation, and the checks over all so far. */
  private derivePhase(): boolean {
    this.d = derive(this.s, this.co, this.rf, this.opts.chains, this.asmoRs!);
    const d = this.d;
    // co extends location order between writes.
    const W = this.w;
    const co = this.co.bits;
    const wl = d.wwLocord.bits;
    for (let i = 0; i < this.n; i++)
      for (let j = 0; j < this.n; j++)
        if ((wl[i * W + (j >>> 5)]! >>> (j & 31)) & 1 && (co[j * W + (i >>> 5)]! >>> (i & 31)) & 1)
          return false;
    // fr, visible-to and atomicity of the synchronising reads, then acyclicity of everything so far.
    for (let k = this.lastCo + 1; k <= this.lastSync; k++) {
      const cp = this.cps[k]! as Extract<Choice, { kind: 'rf' }>;
      const w = this.rfSrc[cp.read]!;
      this.addFr(cp.read, w);
      if (!this.localChecks(cp.read, w)) return false;
    }
    const g = relation(this.n);
    const gb = g.bits;
    const lo = d.locord.bits;
    const as = d.asmo.bits;
    const rf = this.rf.bits;
    const fr = this.fr.bits;
    for (let k = 0; k < gb.length; k++) gb[k] = lo[k]! | as[k]! | rf[k]! | fr[k]!;
    contractOperations(g, this.s.rmwPairs);
    if (!isAcyclic(g)) return false;
    return this.narrow();
  }

  /**
   * With the derived relations fixed: each remaining read keeps the writes it may read on its own
   * (visible-to, RMW atomicity, no cycle with what is fixed), and the reads with fewest choices go
   * first. False when some read has none left.
   */
  private narrow(): boolean {
    const rest: Extract<Choice, { kind: 'rf' }>[] = [];
    for (let k = this.phaseEnd + 1; k < this.cps.length; k++) {
      const cp = this.cps[k]! as Extract<Choice, { kind: 'rf' }>;
      const keep: number[] = [];
      for (const w of cp.all) {
        this.rfSrc[cp.read] = w;
        add(this.rf, w, cp.read);
        this.addFr(cp.read, w);
        if (this.localChecks(cp.read, w) && !this.cycleThrough(cp.read)) keep.push(w);
        remove(this.rf, w, cp.read);
        this.fr.bits.fill(0, cp.read * this.w, cp.read * this.w + this.w);
      }
      this.rfSrc[cp.read] = -2;
      if (keep.length === 0) return false;
      rest.push({ ...cp, domain: Int32Array.from(keep) });
    }
    rest.sort((a, b) => a.domain.length - b.domain.length || a.read - b.read);
    for (let k = 0; k < rest.length; k++) this.cps[this.phaseEnd + 1 + k] = rest[k]!;
    this.markRisky(rest);
    return true;
  }

  /**
   * Which remaining reads can close a cycle with other reads' edges: a read is *safe* when no
   * choice of it lies on a cycle of what is fixed plus every edge any choice of the other reads
   * could add; a safe read needs no cycle check during the search.
   */
  private markRisky(rest: Extract<Choice, { kind: 'rf' }>[]): void {
    // With RMWs, cycles run through operations of two events: every read is checked.
    if (this.s.rmwPairs.length > 0) {
      this.risky.fill(1);
      return;
    }
    const W = this.w;
    const n = this.n;
    const d = this.d!;
    const h = new Uint32Array(n * W);
    const lo = d.locord.bits;
    const as = d.asmo.bits;
    const rf = this.rf.bits;
    const fr = this.fr.bits;
    for (let k = 0; k < h.length; k++) h[k] = lo[k]! | as[k]! | rf[k]! | fr[k]!;
    const base = h.slice();
    // Every edge a choice of a remaining read may add.
    const frOf = (r: number, w: number): Uint32Array => {
      this.addFr(r, w);
      const out = fr.slice(r * W, r * W + W);
      fr.fill(0, r * W, r * W + W);
      return out;
    };
    const edges = rest.map((cp) => Array.from(cp.domain, (w) => ({ w, fr: frOf(cp.read, w) })));
    rest.forEach((cp, k) => {
      for (const e of edges[k]!) {
        h[e.w * W + (cp.read >>> 5)]! |= 1 << (cp.read & 31);
        for (let m = 0; m < W; m++) h[cp.read * W + m]! |= e.fr[m]!;
      }
    });
    this.risky.fill(0);
    const reach = this.reach;
    const frontier = this.frontier;
    const next = this.next;
    rest.forEach((cp, k) => {
      const r = cp.read;
      // h without r's own choices: r's row back to the fixed edges, no rf edge into r.
      const hr = h.slice();
      for (let m = 0; m < W; m++) hr[r * W + m] = base[r * W + m]!;
      for (const e of edges[k]!)
        if (!((base[e.w * W + (r >>> 5)]! >>> (r & 31)) & 1)) hr[e.w * W + (r >>> 5)]! &= ~(1 << (r & 31));
      for (const e of edges[k]!) {
        hr[e.w * W + (r >>> 5)]! |= 1 << (r & 31);
        reach.fill(0);
        for (let m = 0; m < W; m++) frontier[m] = base[r * W + m]! | e.fr[m]!;
        let cyclic = false;
        for (;;) {
          let fresh = false;
          for (let m = 0; m < W; m++) {
            const f = frontier[m]! & ~reach[m]!;
            frontier[m] = f;
            if (f !== 0) fresh = true;
            reach[m]! |= f;
          }
          if ((reach[r >>> 5]! >>> (r & 31)) & 1) {
            cyclic = true;
            break;
          }
          if (!fresh) break;
          next.fill(0);
          for (let m = 0; m < W; m++) {
            let bits = frontier[m]!;
            while (bits !== 0) {
              const low = bits & -bits;
              const x = (m << 5) + 31 - Math.clz32(low);
              for (let q = 0; q < W; q++) next[q]! |= hr[x * W + q]!;
              bits ^= low;
            }
          }
          frontier.set(next);
        }
        if (!((base[e.w * W + (r >>> 5)]! >>> (r & 31)) & 1)) hr[e.w * W + (r >>> 5)]! &= ~(1 << (r & 31));
        if (cyclic) {
          this.risky[r] = 1;
          break;
        }
      }
    });
  }

  private clearSyncFr(): void {
    for (let k = this.lastCo + 1; k <= this.lastSync; k++) {
      const cp = this.cps[k]! as Extract<Choice, { kind: 'rf' }>;
      this.fr.bits.fill(0, cp.read * this.w, cp.read * this.w + this.w);
    }
  }

  /** Advances by up to `budget` nodes; returns the nodes used. */
  advance(budget: number, en: VkSearch): number {
    const cps = this.cps;
    if (this.asmoRs === null && this.lastCo < 0) this.asmoRs = coDerived(this.s, this.co);
    if (this.phaseEnd < 0 && this.d === null && !this.derivePhase()) {
      this.finished = true;
      return 1;
    }
    if (cps.length === 0) {
      // No choice at all: the one candidate.
      this.leaf(en);
      this.finished = true;
      return 1;
    }
    let used = 0;
    while (used < budget && !en.stop && en.stats.consistent < en.sliceEnd) {
      const k = this.depth;
      const cp = cps[k]!;
      const size = cp.kind === 'co' ? cp.perms.size : cp.domain.length;
      if (this.cur[k]! >= 0) this.undo(k);
      const idx = this.cur[k]! + 1;
      if (idx >= size) {
        this.cur[k] = -1;
        if (k === 0) {
          this.finished = true;
          return used;
        }
        this.depth--;
        continue;
      }
      this.cur[k] = idx;
      used++;
      en.stats.nodes++;
      if (!this.apply(k, idx)) continue;
      if (k === this.lastCo) this.asmoRs = coDerived(this.s, this.co);
      if (k === this.phaseEnd) {
        this.clearSyncFr();
        if (!this.derivePhase()) continue;
      }
      if (k === cps.length - 1) this.leaf(en);
      else this.depth++;
    }
    return used;
  }

  /** A complete consistent candidate: values, the filter, and the record. */
  private leaf(en: VkSearch): void {
    en.stats.explored++;
    const ev = this.input.evaluator;
    const d = this.d!;
    // One execution per valuation: a value cycle (load buffering through data dependencies, which
    // the model does not forbid) takes each of its solutions (docs/model-vulkan.md, "Values").
    const n = ev.valuations(this.rfSrc);
    for (let k = 0; k < n; k++) {
      if (k > 0) ev.loadSolution(k);
      if (this.input.observe(this.values, this.coRank, d.finalUndef)) en.record(this, this.values, d.race);
    }
  }
}
