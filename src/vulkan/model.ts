/**
 * The Vulkan model's relations computed directly over bitsets, for the fast search
 * (`search.ts`): the same definitions as `models/vulkan.cat`, section by section, organised so
 * that what depends only on the events is computed once per variant (`VkStatic`) and what depends
 * on the coherence order and on the reads that can synchronise is computed once per such choice
 * (`derive`). The cat file is the reference; `search.prop.test.ts` checks the two agree.
 * No Node APIs here.
 */
import {
  addIdentity,
  bitset,
  closureInto,
  composeInto,
  copyInto,
  intersectInto,
  inverseInto,
  minusInto,
  type Relation,
  relation,
  restrictInPlace,
  unionInto,
  wordsFor,
} from '../core/relation.ts';
import type { VkEvent, VkSkeleton } from './events.ts';

/** `[A] ; r ; [B]` into a new relation. */
function restrict(r: Relation, a: Uint32Array | null, b: Uint32Array | null): Relation {
  const out = relation(r.n);
  copyInto(out, r);
  const all = fullSet(r.n);
  restrictInPlace(out, a ?? all, b ?? all);
  return out;
}

function fullSet(n: number): Uint32Array {
  const s = new Uint32Array(wordsFor(n));
  for (let i = 0; i < n; i++) s[i >>> 5]! |= 1 << (i & 31);
  return s;
}

function seq(...rs: Relation[]): Relation {
  let acc = rs[0]!;
  for (let k = 1; k < rs.length; k++) {
    const d = relation(acc.n);
    composeInto(d, acc, rs[k]!);
    acc = d;
  }
  return acc;
}

function union(...rs: Relation[]): Relation {
  const d = relation(rs[0]!.n);
  for (const r of rs) unionInto(d, d, r);
  return d;
}

function inter(a: Relation, b: Relation): Relation {
  const d = relation(a.n);
  intersectInto(d, a, b);
  return d;
}

function minus(a: Relation, b: Relation): Relation {
  const d = relation(a.n);
  minusInto(d, a, b);
  return d;
}

function inv(a: Relation): Relation {
  const d = relation(a.n);
  inverseInto(d, a);
  return d;
}

function plus(a: Relation): Relation {
  const d = relation(a.n);
  closureInto(d, a);
  return d;
}

/** `r?` */
function opt(a: Relation): Relation {
  const d = relation(a.n);
  copyInto(d, a);
  addIdentity(d);
  return d;
}

/** `[S]` */
function idOn(n: number, s: Uint32Array): Relation {
  const d = relation(n);
  for (let i = 0; i < n; i++)
    if ((s[i >>> 5]! >>> (i & 31)) & 1) d.bits[i * d.w + (i >>> 5)]! |= 1 << (i & 31);
  return d;
}

/** `A * B` */
function product(n: number, a: Uint32Array, b: Uint32Array): Relation {
  const d = relation(n);
  for (let i = 0; i < n; i++) if ((a[i >>> 5]! >>> (i & 31)) & 1) d.bits.set(b, i * d.w);
  return d;
}

function orSets(...ss: Uint32Array[]): Uint32Array {
  const d = new Uint32Array(ss[0]!.length);
  for (const s of ss) for (let k = 0; k < d.length; k++) d[k]! |= s[k]!;
  return d;
}

function andSets(...ss: Uint32Array[]): Uint32Array {
  const d = ss[0]!.slice();
  for (const s of ss) for (let k = 0; k < d.length; k++) d[k]! &= s[k]!;
  return d;
}

function minusSets(a: Uint32Array, b: Uint32Array): Uint32Array {
  const d = a.slice();
  for (let k = 0; k < d.length; k++) d[k]! &= ~b[k]!;
  return d;
}

function isEmptySet(s: Uint32Array): boolean {
  for (let k = 0; k < s.length; k++) if (s[k] !== 0) return false;
  return true;
}

/** What the model needs of one variant's events, computed once. */
export class VkStatic {
  readonly n: number;
  readonly R: Uint32Array;
  readonly W: Uint32Array;
  readonly IW: Uint32Array;
  readonly M: Uint32Array;
  readonly ATOM: Uint32Array;
  readonly RMWW: Uint32Array;
  /** The read and write event of each RMW (one operation of the spec). */
  readonly rmwPairs: [number, number][];
  readonly NPR: Uint32Array;
  readonly NPW: Uint32Array;
  readonly NONPRIV: Uint32Array;
  readonly F: Uint32Array;
  readonly CBAR: Uint32Array;
  readonly REL: Uint32Array;
  readonly ACQ: Uint32Array;
  readonly AVDEVICE: Uint32Array;
  readonly VISDEVICE: Uint32Array;
  readonly SC: Uint32Array[];
  readonly SEMSC: Uint32Array[];
  /** Availability / visibility operations at subgroup, workgroup, queue family, device scope or wider. */
  readonly AVS: Uint32Array[];
  readonly VISS: Uint32Array[];
  readonly po: Relation;
  readonly poOpt: Relation;
  readonly loc: Relation;
  readonly vloc: Relation;
  readonly int: Relation;
  readonly ssg: Relation;
  readonly swg: Relation;
  readonly sqf: Relation;
  readonly all: Relation;
  readonly ssw: Relation;
  readonly sswPlus: Relation;
  readonly inscope: Relation;
  readonly mutordatom: Relation;
  readonly sc2sem: Relation;
  readonly sem2sc: Relation;
  /** X → the availability operations that take write X in (models/vulkan.cat `avinc`). */
  readonly avinc: Relation;
  /** A visibility operation → the reads it makes writes visible to (`visinc`). */
  readonly visinc: Relation;
  /** `[W & NONPRIV] ; (po? & avinc)`: a chain's first element for X. */
  readonly av1: Relation;
  /** `(po? & visinc) ; [R & NONPRIV]`: a chain's last element for Y. */
  readonly vis1: Relation;
  readonly swBarrier: Relation;
  /** Distinct (classes, semantics) pairs of the non-empty storage-class sets whose semantics some event has. */
  readonly ithbSets: { cls: Uint32Array; sem: Uint32Array }[];
  /** Non-empty storage-class sets with no event having all of them in its semantics (ithb = ssw+). */
  readonly someEmptySem: boolean;
  readonly ww: Relation;
  readonly wAtomW: Relation;
  readonly events: VkEvent[];

  constructor(sk: VkSkeleton) {
    const n = sk.n;
    this.n = n;
    this.events = sk.events;
    const set = (p: (e: VkEvent) => boolean) =>
      bitset(
        n,
        sk.events.filter(p).map((e) => e.id),
      );
    const access = (e: VkEvent) => e.kind === 'read' || e.kind === 'write' || e.kind === 'init';
    this.R = set((e) => e.kind === 'read');
    this.W = set((e) => e.kind === 'write' || e.kind === 'init');
    this.IW = set((e) => e.kind === 'init');
    this.M = set(access);
    this.ATOM = set((e) => access(e) && e.atomic);
    this.RMWW = set((e) => e.kind === 'write' && e.rmw >= 0);
    this.rmwPairs = sk.events.flatMap((e) =>
      e.kind === 'read' && e.rmw >= 0 ? [[e.id, e.rmw] as [number, number]] : [],
    );
    this.NONPRIV = set((e) => access(e) && e.nonpriv);
    this.NPR = set((e) => e.kind === 'read' && e.nonpriv);
    this.NPW = set((e) => e.kind === 'write' && e.nonpriv);
    this.F = set((e) => e.fence);
    this.CBAR = set((e) => e.cbar);
    this.REL = set((e) => e.release);
    this.ACQ = set((e) => e.acquire);
    this.AVDEVICE = set((e) => e.kind === 'avdevice');
    this.VISDEVICE = set((e) => e.kind === 'visdevice');
    this.SC = [0, 1, 2, 3].map((k) => set((e) => e.sc === k));
    this.SEMSC = [0, 1, 2, 3].map((k) => set((e) => ((e.semsc >> k) & 1) === 1));
    // Scope at least sg / wg / qf / dv.
    const rank = { sg: 3, wg: 2, qf: 1, dv: 0 } as const;
    const wide = (r: number) => (e: VkEvent) => e.scope !== null && rank[e.scope] <= r;
    this.AVS = [3, 2, 1, 0].map((r) => set((e) => (e.av || e.semav) && wide(r)(e)));
    this.VISS = [3, 2, 1, 0].map((r) => set((e) => (e.vis || e.semvis) && wide(r)(e)));
    this.po = sk.po;
    this.poOpt = opt(sk.po);
    this.loc = sk.loc;
    this.vloc = sk.vloc;
    this.int = sk.int;
    this.ssg = sk.ssg;
    this.swg = sk.swg;
    this.sqf = sk.sqf;
    const everything = fullSet(n);
    this.all = product(n, everything, everything);
    this.ssw = sk.ssw;
    this.sswPlus = plus(sk.ssw);
    this.inscope = sk.inscope;
    const id = idOn(n, everything);
    this.mutordatom = minus(
      inter(inter(inter(sk.loc, sk.vloc), sk.inscope), product(n, this.ATOM, this.ATOM)),
      id,
    );
    this.sc2sem = union(...[0, 1, 2, 3].map((k) => product(n, this.SC[k]!, this.SEMSC[k]!)));
    this.sem2sc = inv(this.sc2sem);
    const W = this.W;
    const R = this.R;
    const own = inter(sk.loc, sk.vloc);
    // avinc = ([W] ; (loc & vloc) ; [AV & W]) | ((sc2sem ; [SEMAV]) \ id)
    this.avinc = union(
      seq(
        idOn(n, W),
        own,
        idOn(
          n,
          andSets(
            set((e) => e.av),
            W,
          ),
        ),
      ),
      minus(
        seq(
          this.sc2sem,
          idOn(
            n,
            set((e) => e.semav),
          ),
        ),
        id,
      ),
    );
    // visinc = ([VIS & R] ; (loc & vloc) ; [R]) | (([SEMVIS] ; sem2sc) \ id)
    this.visinc = union(
      seq(
        idOn(
          n,
          andSets(
            set((e) => e.vis),
            R,
          ),
        ),
        own,
        idOn(n, R),
      ),
      minus(
        seq(
          idOn(
            n,
            set((e) => e.semvis),
          ),
          this.sem2sc,
        ),
        id,
      ),
    );
    this.av1 = seq(idOn(n, this.NPW), inter(this.poOpt, this.avinc));
    this.vis1 = seq(inter(this.poOpt, this.visinc), idOn(n, this.NPR));
    // sw-barrier: [REL & F] ; po? ; [CBAR] ; (syncbar \ id) ; [CBAR] ; po? ; [ACQ & F], & inscope.
    this.swBarrier = inter(
      seq(
        idOn(n, andSets(this.REL, this.F)),
        this.poOpt,
        idOn(n, this.CBAR),
        minus(sk.syncbar, id),
        idOn(n, this.CBAR),
        this.poOpt,
        idOn(n, andSets(this.ACQ, this.F)),
      ),
      sk.inscope,
    );
    const seen = new Set<string>();
    const ithbSets: { cls: Uint32Array; sem: Uint32Array }[] = [];
    let someEmptySem = false;
    for (let mask = 1; mask < 16; mask++) {
      const ks = [0, 1, 2, 3].filter((k) => (mask >> k) & 1);
      const cls = orSets(...ks.map((k) => this.SC[k]!));
      const sem = andSets(...ks.map((k) => this.SEMSC[k]!));
      if (isEmptySet(sem)) {
        someEmptySem = true;
        continue;
      }
      const key = `${cls.join(',')}|${sem.join(',')}`;
      if (seen.has(key)) continue;
      seen.add(key);
      ithbSets.push({ cls, sem });
    }
    this.ithbSets = ithbSets;
    this.someEmptySem = someEmptySem;
    this.ww = product(n, this.W, this.W);
    this.wAtomW = product(n, andSets(this.W, this.ATOM), andSets(this.W, this.ATOM));
  }
}

/** The relations that depend on co and on the synchronising reads' rf. */
export interface VkDerived {
  asmo: Relation;
  hb: Relation;
  locord: Relation;
  /** visible-to, W → R. */
  visto: Relation;
  /** `(W * W) & locord`. */
  wwLocord: Relation;
  /** A data race exists among the executed events. */
  race: boolean;
  finalUndef: Uint32Array;
}

function hasBit(r: Relation, a: number, b: number): boolean {
  return ((r.bits[a * r.w + (b >>> 5)]! >>> (b & 31)) & 1) === 1;
}

function setBit(r: Relation, a: number, b: number, on: boolean): void {
  const k = a * r.w + (b >>> 5);
  if (on) r.bits[k]! |= 1 << (b & 31);
  else r.bits[k]! &= ~(1 << (b & 31));
}

/**
 * `(rmwop ; r ; rmwop) \ rmwop` in place (models/vulkan.cat): what relates one event of an RMW
 * relates both, and nothing relates the two.
 */
export function liftToOperations(r: Relation, pairs: readonly [number, number][]): void {
  const w = r.w;
  for (const [a, b] of pairs) {
    for (let m = 0; m < w; m++) {
      const row = r.bits[a * w + m]! | r.bits[b * w + m]!;
      r.bits[a * w + m] = row;
      r.bits[b * w + m] = row;
    }
    for (let x = 0; x < r.n; x++) {
      const on = hasBit(r, x, a) || hasBit(r, x, b);
      setBit(r, x, a, on);
      setBit(r, x, b, on);
    }
    for (const x of [a, b]) for (const y of [a, b]) setBit(r, x, y, false);
  }
}

/**
 * `rmwop ; (r \ rmwop) ; rmwop` contracted to one node per RMW (its read event; the write event's
 * row and column cleared) in place: acyclic exactly when the models/vulkan.cat relation is.
 */
export function contractOperations(r: Relation, pairs: readonly [number, number][]): void {
  const w = r.w;
  for (const [a, b] of pairs) {
    setBit(r, a, b, false);
    setBit(r, b, a, false);
    for (let m = 0; m < w; m++) {
      r.bits[a * w + m]! |= r.bits[b * w + m]!;
      r.bits[b * w + m] = 0;
    }
    for (let x = 0; x < r.n; x++)
      if (hasBit(r, x, b)) {
        setBit(r, x, b, false);
        setBit(r, x, a, true);
      }
    setBit(r, a, a, false);
  }
}

/** asmo = co & mutordatom & (W * W); the release sequences `rs` (both depend on co only). */
export function coDerived(s: VkStatic, co: Relation): { asmo: Relation; rs: Relation } {
  const n = s.n;
  const asmo = inter(inter(co, s.mutordatom), s.ww);
  const wAtom = andSets(s.W, s.ATOM);
  const head = idOn(n, wAtom);
  // rs = [W & ATOM] | [W & ATOM] ; ((asmo ; [RMW]) \ (asmo ; [W \ RMW] ; co))
  const later = minus(seq(asmo, idOn(n, s.RMWW)), seq(asmo, idOn(n, minusSets(s.W, s.RMWW)), co));
  const rs = union(head, seq(head, later));
  return { asmo, rs };
}

/** Every relation of the model that depends on co and rf (`rf` holds at least the synchronising reads). */
export function derive(
  s: VkStatic,
  co: Relation,
  rf: Relation,
  chains: boolean,
  asmoRs = coDerived(s, co),
): VkDerived {
  const n = s.n;
  const { asmo, rs } = asmoRs;
  const rsrf = seq(rs, rf);
  const I = (x: Uint32Array) => idOn(n, x);
  const relW = andSets(s.REL, s.W, s.ATOM);
  const acqR = andSets(s.ACQ, s.R, s.ATOM);
  const relF = andSets(s.REL, s.F);
  const acqF = andSets(s.ACQ, s.F);
  const wAtom = andSets(s.W, s.ATOM);
  const rAtom = andSets(s.R, s.ATOM);
  const rsrfMo = inter(rsrf, s.mutordatom);
  const swAtomic = inter(seq(I(relW), rsrf, I(acqR)), s.mutordatom);
  const swFA = inter(seq(I(relF), inter(s.po, s.sem2sc), I(wAtom), rsrfMo, I(acqR)), s.inscope);
  const swAF = inter(seq(I(relW), rsrfMo, I(rAtom), inter(s.po, s.sc2sem), I(acqF)), s.inscope);
  const ffParts = [0, 1, 2, 3].map((k) =>
    seq(
      I(andSets(relF, s.SEMSC[k]!)),
      s.po,
      I(andSets(wAtom, s.SC[k]!)),
      rsrfMo,
      I(andSets(rAtom, s.SC[k]!)),
      s.po,
      I(andSets(acqF, s.SEMSC[k]!)),
    ),
  );
  const swFF = inter(union(...ffParts), s.inscope);
  const sw = union(swAtomic, swFA, swAF, swFF, s.swBarrier);
  // hb = po | ithb<SC> for every non-empty SC.
  const hb = relation(n);
  copyInto(hb, s.po);
  if (s.someEmptySem) unionInto(hb, hb, s.sswPlus);
  const relSet = s.REL;
  const acqSet = s.ACQ;
  for (const { cls, sem } of s.ithbSets) {
    const clsSem = orSets(cls, sem);
    const step = union(
      s.ssw,
      seq(I(sem), sw, I(sem)),
      seq(I(clsSem), s.po, I(andSets(relSet, sem))),
      seq(I(andSets(acqSet, sem)), s.po, I(clsSem)),
    );
    closureInto(step, step);
    unionInto(hb, hb, step);
  }
  // Availability chains for a write X (avD: X → the elements acting at level D) and visibility
  // chains for a read Y (visD: the elements acting at level D → Y), as models/vulkan.cat.
  const [AVSG, AVWG, AVQF, AVSH] = s.AVS as [Uint32Array, Uint32Array, Uint32Array, Uint32Array];
  const [VISSG, VISWG, VISQF, VISSH] = s.VISS as [Uint32Array, Uint32Array, Uint32Array, Uint32Array];
  const hbS = inter(hb, s.ssg);
  const hbW = inter(hb, s.swg);
  const hbQ = inter(hb, s.sqf);
  const avStep = (...parts: Relation[]) => (chains ? union(s.av1, inter(union(...parts), s.avinc)) : s.av1);
  const visStep = (...parts: Relation[]) =>
    chains ? union(s.vis1, inter(union(...parts), s.visinc)) : s.vis1;
  const avsg = seq(s.av1, I(AVSG));
  const avwg = seq(avStep(seq(avsg, hbS)), I(AVWG));
  const avqf = seq(avStep(seq(avsg, hbS), seq(avwg, hbW)), I(AVQF));
  const avsh = seq(avStep(seq(avsg, hbS), seq(avwg, hbW), seq(avqf, hbQ)), I(AVSH));
  const vissg = seq(I(VISSG), s.vis1);
  const viswg = seq(I(VISWG), visStep(seq(hbS, vissg)));
  const visqf = seq(I(VISQF), visStep(seq(hbS, vissg), seq(hbW, viswg)));
  const vissh = seq(I(VISSH), visStep(seq(hbS, vissg), seq(hbW, viswg), seq(hbQ, visqf)));
  const NPW = I(s.NPW);
  const waw = (avd: Relation, hbSame: Relation) => seq(avd, hbSame, NPW);
  const raw = (avd: Relation, hbSame: Relation, visd: Relation) => seq(avd, hbSame, visd);
  const domain = union(
    waw(avsg, hbS),
    waw(avwg, hbW),
    waw(avqf, hbQ),
    waw(avsh, hb),
    raw(avsg, hbS, vissg),
    raw(avwg, hbW, viswg),
    raw(avqf, hbQ, visqf),
    raw(avsh, hb, vissh),
  );
  const locord = inter(
    s.loc,
    union(
      inter(inter(hb, s.int), s.vloc),
      seq(I(s.NPR), hb, I(s.NONPRIV)),
      seq(I(s.R), s.sswPlus, I(s.M)),
      inter(s.vloc, domain),
      seq(I(s.W), hb, I(s.AVDEVICE), hb, I(s.W)),
      seq(I(s.W), hb, I(s.AVDEVICE), hb, I(s.VISDEVICE), hb, I(s.R)),
    ),
  );
  liftToOperations(locord, s.rmwPairs);
  const wwLocord = inter(s.ww, locord);
  // visto = ([W] ; locord ; [R]) \ ([W] ; locord ; [W] ; locord)
  const visto = minus(restrict(locord, s.W, s.R), seq(wwLocord, locord));
  // dr = ((W * M) | (M * W)) & loc \ id \ mutordatom \ (locord | locord^-1) \ (IW * _) \ (_ * IW)
  const nonInit = minusSets(s.M, s.IW);
  const ordered = union(s.mutordatom, locord, inv(locord));
  let race = false;
  for (let i = 0; i < n && !race; i++) {
    if (!((nonInit[i >>> 5]! >>> (i & 31)) & 1)) continue;
    for (let j = i + 1; j < n; j++) {
      if (!((nonInit[j >>> 5]! >>> (j & 31)) & 1)) continue;
      const w = s.loc.w;
      if (!((s.loc.bits[i * w + (j >>> 5)]! >>> (j & 31)) & 1)) continue;
      const iw = (s.W[i >>> 5]! >>> (i & 31)) & 1;
      const jw = (s.W[j >>> 5]! >>> (j & 31)) & 1;
      if (!iw && !jw) continue;
      if ((ordered.bits[i * w + (j >>> 5)]! >>> (j & 31)) & 1) continue;
      race = true;
      break;
    }
  }
  // final-undef = range((((W \ IW) * W) & loc \ id) \ locord \ asmo)
  const other = minus(
    minus(minus(inter(product(n, minusSets(s.W, s.IW), s.W), s.loc), idOn(n, fullSet(n))), locord),
    asmo,
  );
  const finalUndef = new Uint32Array(wordsFor(n));
  for (let i = 0; i < n; i++)
    for (let m = 0; m < other.w; m++) finalUndef[m]! |= other.bits[i * other.w + m]!;
  return { asmo, hb, locord, visto, wwLocord, race, finalUndef };
}
