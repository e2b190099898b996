/**
 * A brute-force reference for the Vulkan memory model, written from the text of the specification's
 * appendix "Memory Model" (KhronosGroup/Vulkan-Docs, appendices/memorymodel.adoc at commit 05d5444c)
 * and the choices docs/model-vulkan.md states, for the differential property test
 * reference.prop.test.ts. It shares nothing with models/vulkan.cat, the event skeleton
 * (events.ts) or the fast search (search.ts, model.ts): its own operations (an RMW is one operation
 * that reads and writes, as in the spec), every reads-from and coherence choice tried, each
 * relation of the appendix computed as a boolean matrix by following its sentences. Only for tiny
 * straight-line tests (loads, stores, RMWs, memory barriers, control barriers met by every
 * invocation of their workgroup); anything else throws. No Node APIs here.
 */

import { permutations } from '../core/permutations.ts';
import type { VkPlacement, VkRmwOp, VkScope, VulkanTest } from './ast.ts';

/** What a reference run finds: the final states, keyed by their values. */
export interface RefState {
  values: Record<string, number>;
  /** Consistent executions reaching the state. */
  count: number;
  /** Some execution reaching it has a data race. */
  race: boolean;
}

export interface RefOptions {
  /** Availability and visibility chains of more than one element (the device feature). */
  chains: boolean;
  /** From-reads through location order for every read (docs/model-vulkan.md, "From-reads"). */
  literalFr: boolean;
}

/** An operation of the spec: a memory access, a memory barrier or a control barrier. */
interface Op {
  thread: number;
  /** Position in the thread (program order). */
  index: number;
  read: boolean;
  write: boolean;
  atomic: boolean;
  /** A memory barrier (OpMemoryBarrier) or a control barrier (OpControlBarrier). */
  barrier: boolean;
  /** The control barrier's instance (its workgroup, id and occurrence), or null. */
  cbar: string | null;
  /** The location (the reference is the same name: no aliases here). */
  loc: string;
  /** Storage class of an access (-1 for a barrier). */
  sc: number;
  /** Storage-class semantics, a mask. */
  sem: number;
  acq: boolean;
  rel: boolean;
  scope: VkScope | null;
  /** Per-instruction availability (MakePointerAvailable, or implicit: an atomic write). */
  av: boolean;
  /** Per-instruction visibility (MakePointerVisible, or implicit: an atomic read). */
  vis: boolean;
  semav: boolean;
  semvis: boolean;
  nonpriv: boolean;
  dst: string | null;
  value: number;
  rmwOp: VkRmwOp | null;
}

const RANK: Record<VkScope, number> = { sg: 0, wg: 1, qf: 2, dv: 3 };
const INIT = -1;

/** The instance of scope rank `level` holding invocation `p` of thread `t` (3: the device). */
function instance(level: number, p: VkPlacement): string {
  if (level >= 3) return 'dv';
  if (level === 2) return `q${p.queueFamily}`;
  if (level === 1) return `q${p.queueFamily}w${p.workgroup}`;
  return `q${p.queueFamily}w${p.workgroup}s${p.subgroup}`;
}

function wrap(v: number): number {
  return v >>> 0;
}

function rmwValue(op: VkRmwOp, old: number, v: number): number {
  switch (op) {
    case 'xchg':
      return wrap(v);
    case 'add':
      return wrap(old + v);
    case 'sub':
      return wrap(old - v);
    case 'and':
      return wrap(old & v);
    case 'or':
      return wrap(old | v);
    case 'xor':
      return wrap(old ^ v);
  }
}

type Matrix = boolean[][];

function matrix(n: number, f: (a: number, b: number) => boolean = () => false): Matrix {
  return Array.from({ length: n }, (_, a) => Array.from({ length: n }, (_, b) => f(a, b)));
}

function closure(m: Matrix): Matrix {
  const r = m.map((row) => row.slice());
  const n = r.length;
  for (let k = 0; k < n; k++)
    for (let a = 0; a < n; a++) if (r[a]![k]) for (let b = 0; b < n; b++) if (r[k]![b]) r[a]![b] = true;
  return r;
}

function acyclic(m: Matrix): boolean {
  const c = closure(m);
  return c.every((row, a) => !row[a]);
}

/** The operations of `t`, in thread order. */
function operations(t: VulkanTest): Op[] {
  if (t.ssw.length > 0 || t.locations.some((l) => l.sameAs !== null))
    throw new Error('reference: no ssw or aliases');
  const ops: Op[] = [];
  const occurrences = new Map<string, number>();
  t.threads.forEach((th, thread) => {
    th.body.forEach((i) => {
      const base = {
        thread,
        index: ops.filter((o) => o.thread === thread).length,
        read: false,
        write: false,
        atomic: false,
        barrier: false,
        cbar: null,
        loc: '',
        sc: -1,
        sem: 0,
        acq: false,
        rel: false,
        scope: null,
        av: false,
        vis: false,
        semav: false,
        semvis: false,
        nonpriv: false,
        dst: null,
        value: 0,
        rmwOp: null,
      };
      switch (i.kind) {
        case 'ld':
          ops.push({
            ...base,
            read: true,
            atomic: i.atomic,
            loc: i.loc,
            sc: i.sc,
            sem: i.semsc,
            acq: i.acquire,
            scope: i.scope,
            // Atomics implicitly have availability/visibility operations at their scope
            // ("Descriptions (Informative)"); MakePointerVisible needs a non-private pointer.
            vis: i.vis || i.atomic,
            semvis: i.semvis,
            nonpriv: i.nonpriv || i.vis || i.atomic,
            dst: i.dst,
          });
          return;
        case 'st':
          if (i.value.kind !== 'const') throw new Error('reference: stores of constants only');
          ops.push({
            ...base,
            write: true,
            atomic: i.atomic,
            loc: i.loc,
            sc: i.sc,
            sem: i.semsc,
            rel: i.release,
            scope: i.scope,
            av: i.av || i.atomic,
            semav: i.semav,
            nonpriv: i.nonpriv || i.av || i.atomic,
            value: wrap(i.value.value),
          });
          return;
        case 'rmw':
          if (i.value.kind !== 'const') throw new Error('reference: RMWs of constants only');
          ops.push({
            ...base,
            read: true,
            write: true,
            atomic: true,
            loc: i.loc,
            sc: i.sc,
            sem: i.semsc,
            acq: i.acquire,
            rel: i.release,
            scope: i.scope,
            av: true,
            vis: true,
            semav: i.semav,
            semvis: i.semvis,
            nonpriv: true,
            dst: i.dst,
            value: wrap(i.value.value),
            rmwOp: i.op,
          });
          return;
        case 'membar':
        case 'cbar': {
          let cbar: string | null = null;
          if (i.kind === 'cbar') {
            if (i.quorum !== null || i.execScope !== 'wg')
              throw new Error('reference: workgroup barriers only');
            const key = `${thread}#${i.id}`;
            const k = occurrences.get(key) ?? 0;
            occurrences.set(key, k + 1);
            cbar = `${instance(1, th.placement)}#${i.id}#${k}`;
          }
          ops.push({
            ...base,
            barrier: true,
            cbar,
            sem: i.semsc,
            acq: i.acquire,
            rel: i.release,
            scope: i.scope,
            semav: i.semav,
            semvis: i.semvis,
          });
          return;
        }
        default:
          throw new Error(`reference: no ${i.kind}`);
      }
    });
  });
  // Every invocation of a workgroup meets each barrier instance (none waits forever).
  const instances = new Set(ops.flatMap((o) => (o.cbar ? [o.cbar] : [])));
  for (const c of instances) {
    const wg = c.split('#')[0]!;
    const members = t.threads.flatMap((th, k) => (instance(1, th.placement) === wg ? [k] : []));
    if (!members.every((k) => ops.some((o) => o.thread === k && o.cbar === c)))
      throw new Error('reference: a barrier some invocation of its workgroup never reaches');
  }
  return ops;
}

/** All final states of `t` under the Vulkan model, by trying every reads-from and coherence choice. */
export function referenceStates(t: VulkanTest, o: RefOptions): Map<string, RefState> {
  const ops = operations(t);
  const n = ops.length;
  const place = (a: number) => t.threads[ops[a]!.thread]!.placement;
  const init = (loc: string) => t.locations.find((l) => l.name === loc)?.init ?? 0;
  const locs = [
    ...new Set([
      ...t.locations.map((l) => l.name),
      ...ops.filter((x) => x.read || x.write).map((x) => x.loc),
    ]),
  ];

  // "A is in the instance of B's memory scope".
  const inInstanceOf = (a: number, b: number): boolean => {
    const s = ops[b]!.scope;
    return s !== null && instance(RANK[s], place(a)) === instance(RANK[s], place(b));
  };
  const inscope = (a: number, b: number) => inInstanceOf(a, b) && inInstanceOf(b, a);
  // "Program-Order": earlier in the same invocation.
  const po = matrix(n, (a, b) => ops[a]!.thread === ops[b]!.thread && ops[a]!.index < ops[b]!.index);
  const poEq = (a: number, b: number) => a === b || po[a]![b]!;
  // "Atomic Operation": potentially-mutually-ordered (same locations, same reference, each in the
  // instance of the other's scope, not the same operation); all are device operations.
  const mutord = matrix(
    n,
    (a, b) => a !== b && ops[a]!.atomic && ops[b]!.atomic && ops[a]!.loc === ops[b]!.loc && inscope(a, b),
  );

  const reads = ops.flatMap((x, k) => (x.read ? [k] : []));
  const writesOf = (loc: string) => ops.flatMap((x, k) => (x.write && x.loc === loc ? [k] : []));
  const rfChoices = reads.map((r) => [INIT, ...writesOf(ops[r]!.loc).filter((w) => w !== r)]);
  const coChoices = locs.map((l) => permutations(writesOf(l)));
  const states = new Map<string, RefState>();

  const rf = new Array<number>(n).fill(INIT);
  const coPos = new Array<number>(n).fill(-1);
  const co = locs.map(() => [] as number[]);

  const visit = (): void => {
    // Values: a read returns its write's value (the initial value for INIT); an RMW writes its
    // operation's result. A value depending on itself (a reads-from cycle through RMWs) has none.
    const val = new Array<number | undefined>(n).fill(undefined);
    const readVal = (r: number, depth: number): number | undefined => {
      const s = rf[r]!;
      return s === INIT ? wrap(init(ops[r]!.loc)) : writeVal(s, depth + 1);
    };
    const writeVal = (w: number, depth: number): number | undefined => {
      if (depth > n) return undefined;
      const x = ops[w]!;
      if (val[w] !== undefined) return val[w];
      if (x.rmwOp === null) val[w] = x.value;
      else {
        const old = readVal(w, depth);
        if (old !== undefined) val[w] = rmwValue(x.rmwOp, old, x.value);
      }
      return val[w];
    };
    const readValues = reads.map((r) => readVal(r, 0));
    if (readValues.some((v) => v === undefined)) return;

    // "Scoped Modification Order": the coherence order between mutually ordered atomic writes.
    const asmo = matrix(
      n,
      (a, b) => mutord[a]![b]! && ops[a]!.write && ops[b]!.write && coPos[a]! < coPos[b]!,
    );
    // "Release Sequence": A, then the RMWs continuously after it in A's scoped modification order.
    const rs = (a: number): number[] => {
      const smo = co[locs.indexOf(ops[a]!.loc)]!.filter((w) => w === a || mutord[a]![w]!);
      const out = [a];
      for (const w of smo.slice(smo.indexOf(a) + 1)) {
        if (ops[w]!.rmwOp === null) break;
        out.push(w);
      }
      return out;
    };
    const readsRs = (r: number, x: number) => rf[r] !== INIT && rs(x).includes(rf[r]!);
    const relBarrier = (a: number) => ops[a]!.barrier && ops[a]!.rel;
    const acqBarrier = (b: number) => ops[b]!.barrier && ops[b]!.acq;
    const atomicWrite = (x: number) => ops[x]!.atomic && ops[x]!.write;
    const atomicRead = (x: number) => ops[x]!.atomic && ops[x]!.read;
    const inSem = (sc: number, a: number) => ((ops[a]!.sem >> sc) & 1) === 1;
    // "Synchronizes-With", its five rules.
    const sw = matrix(n, (a, b) => {
      const A = ops[a]!;
      const B = ops[b]!;
      if (atomicWrite(a) && A.rel && atomicRead(b) && B.acq && mutord[a]![b]! && readsRs(b, a)) return true;
      if (!inscope(a, b)) return false;
      if (relBarrier(a) && atomicRead(b) && B.acq) {
        for (let x = 0; x < n; x++)
          if (atomicWrite(x) && po[a]![x] && mutord[x]![b] && readsRs(b, x) && inSem(ops[x]!.sc, a))
            return true;
      }
      if (atomicWrite(a) && A.rel && acqBarrier(b)) {
        for (let x = 0; x < n; x++)
          if (atomicRead(x) && po[x]![b] && mutord[x]![a] && readsRs(x, a) && inSem(ops[x]!.sc, b))
            return true;
      }
      if (relBarrier(a) && acqBarrier(b)) {
        for (let x = 0; x < n; x++) {
          if (!atomicWrite(x) || !po[a]![x] || !inSem(ops[x]!.sc, a) || !inSem(ops[x]!.sc, b)) continue;
          for (let y = 0; y < n; y++)
            if (atomicRead(y) && po[y]![b] && mutord[x]![y] && readsRs(y, x)) return true;
        }
        // The control-barrier rule: A before (or equal to) control barrier C in one invocation, C
        // before (or equal to) B in another, both executing the same barrier instance.
        for (let c1 = 0; c1 < n; c1++) {
          if (ops[c1]!.cbar === null || !poEq(a, c1)) continue;
          for (let c2 = 0; c2 < n; c2++)
            if (c2 !== c1 && ops[c2]!.cbar === ops[c1]!.cbar && poEq(c2, b)) return true;
        }
      }
      return false;
    });
    // "Inter-Thread-Happens-Before" for each non-empty set SC of storage classes, then
    // "Happens-Before": program order or some ithb<SC>.
    const hb = po.map((row) => row.slice());
    for (let SC = 1; SC < 16; SC++) {
      const all = (a: number) => (ops[a]!.sem & SC) === SC;
      const inClass = (a: number) => (ops[a]!.read || ops[a]!.write) && ((SC >> ops[a]!.sc) & 1) === 1;
      const releaser = (b: number) => ops[b]!.rel && (ops[b]!.barrier || atomicWrite(b)) && all(b);
      const acquirer = (a: number) => ops[a]!.acq && (ops[a]!.barrier || atomicRead(a)) && all(a);
      const ithb = closure(
        matrix(
          n,
          (a, b) =>
            (sw[a]![b]! && all(a) && all(b)) ||
            (po[a]![b]! && (inClass(a) || all(a)) && releaser(b)) ||
            (po[a]![b]! && acquirer(a) && (inClass(b) || all(b))),
        ),
      );
      for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) if (ithb[a]![b]) hb[a]![b] = true;
    }

    // "Availability and Visibility": an availability operation takes in the write X when its
    // source scope holds X's reference and location: a per-instruction one of a write through the
    // same reference to the same location, one of MakeAvailable semantics when X's storage class
    // is in its semantics (and it is not X's own: it comes before the operation that carries it).
    const avTakes = (e: number, x: number) =>
      (ops[e]!.av && ops[e]!.write && ops[e]!.loc === ops[x]!.loc) ||
      (ops[e]!.semav && e !== x && inSem(ops[x]!.sc, e));
    const visTakes = (e: number, y: number) =>
      (ops[e]!.vis && ops[e]!.read && ops[e]!.loc === ops[y]!.loc) ||
      (ops[e]!.semvis && e !== y && inSem(ops[y]!.sc, e));
    const rank = (e: number) => RANK[ops[e]!.scope!];
    /** Domain (level, instance) in the destination of av op `e` / the source of vis op `e`. */
    const reaches = (e: number, level: number, inst: string) =>
      level <= rank(e) && instance(level, place(e)) === inst;
    const maxLen = o.chains ? 4 : 1;
    // An operation's destination (source) scope holds the domain of its scope instance and those of
    // the smaller instances holding its agent ("Availability and Visibility Semantics"): as an
    // element of a chain it may act at any of those levels. Element N+1 of an availability chain
    // acts at a broader level than element N and is performed in the instance of element N's level;
    // element N of a visibility chain acts at a broader level than element N+1 and is performed in
    // the instance of element N+1's level. The availability chain ends, and the visibility chain
    // starts, acting at the level of the domain D they share.
    /** The last elements of availability chains for X that make X available to domain D. */
    const avChainEnds = (x: number, level: number, inst: string): number[] => {
      const ends: number[] = [];
      const extend = (e: number, at: number, len: number) => {
        if (at === level && reaches(e, level, inst)) ends.push(e);
        if (len >= maxLen) return;
        for (let f = 0; f < n; f++) {
          if (!avTakes(f, x) || !hb[e]![f] || instance(at, place(f)) !== instance(at, place(e))) continue;
          for (let next = at + 1; next <= rank(f); next++) extend(f, next, len + 1);
        }
      };
      for (let e = 0; e < n; e++)
        if (avTakes(e, x) && ops[e]!.scope !== null && poEq(x, e))
          for (let at = 0; at <= rank(e); at++) extend(e, at, 1);
      return ends;
    };
    /** The first elements of visibility chains for Y that make writes available in D visible to Y. */
    const visChainStarts = (y: number, level: number, inst: string): number[] => {
      const starts: number[] = [];
      // Built backwards from the element program-ordered before (or equal to) Y.
      const extend = (v: number, at: number, len: number) => {
        if (at === level && reaches(v, level, inst)) starts.push(v);
        if (len >= maxLen) return;
        for (let u = 0; u < n; u++) {
          if (!visTakes(u, y) || !hb[u]![v] || instance(at, place(u)) !== instance(at, place(v))) continue;
          for (let prev = at + 1; prev <= rank(u); prev++) extend(u, prev, len + 1);
        }
      };
      for (let v = 0; v < n; v++)
        if (visTakes(v, y) && ops[v]!.scope !== null && poEq(v, y))
          for (let at = 0; at <= rank(v); at++) extend(v, at, 1);
      return starts;
    };

    // "Location-Ordered".
    const access = (a: number) => ops[a]!.read || ops[a]!.write;
    const locord = matrix(n, (x, y) => {
      if (x === y || !access(x) || !access(y) || ops[x]!.loc !== ops[y]!.loc) return false;
      const X = ops[x]!;
      const Y = ops[y]!;
      if (X.thread === Y.thread && hb[x]![y]) return true;
      if (X.read && X.nonpriv && Y.nonpriv && hb[x]![y]) return true;
      if (!(X.write && X.nonpriv && Y.nonpriv)) return false;
      // Through a memory domain both invocations share: subgroup, workgroup, queue family
      // instance or the shader domain.
      for (let level = 0; level <= 3; level++) {
        const inst = instance(level, place(x));
        if (instance(level, place(y)) !== inst) continue;
        const ends = avChainEnds(x, level, inst);
        if (Y.write && ends.some((e) => hb[e]![y])) return true;
        if (Y.read) {
          const starts = visChainStarts(y, level, inst);
          if (ends.some((e) => starts.some((v) => hb[e]![v]))) return true;
        }
      }
      return false;
    });

    // Visible-to (non-atomic reads; docs/model-vulkan.md, "Visible-to"): a read that a write is
    // visible-to reads one of those writes.
    for (const y of reads) {
      if (ops[y]!.atomic) continue;
      const visible = ops.flatMap((X, x) =>
        X.write && locord[x]![y] && !ops.some((Z, z) => Z.write && z !== x && locord[x]![z] && locord[z]![y])
          ? [x]
          : [],
      );
      if (visible.length > 0 && !visible.includes(rf[y]!)) return;
    }
    // Coherence order extends location order between writes (docs/model-vulkan.md, "Final values").
    for (let a = 0; a < n; a++)
      for (let b = 0; b < n; b++)
        if (locord[a]![b] && ops[a]!.write && ops[b]!.write && coPos[a]! > coPos[b]!) return;
    // "Acyclicity": location order, scoped modification order, reads-from and from-reads. From-reads:
    // a read of the initial value before every write to the location; a read of S before the
    // writes after S in S's scoped modification order, and those after S in location order when S
    // is location-ordered before the read (docs/model-vulkan.md, "From-reads").
    const fr = matrix(n, (r, w) => {
      if (r === w || !ops[r]!.read || !ops[w]!.write || ops[r]!.loc !== ops[w]!.loc) return false;
      const s = rf[r]!;
      if (s === INIT) return true;
      return asmo[s]![w]! || (locord[s]![w]! && (o.literalFr || locord[s]![r]!));
    });
    const union = matrix(n, (a, b) => locord[a]![b]! || asmo[a]![b]! || rf[b] === a || fr[a]![b]!);
    if (!acyclic(union)) return;

    // "Data Race".
    let race = false;
    for (let x = 0; x < n && !race; x++)
      for (let y = x + 1; y < n && !race; y++) {
        const X = ops[x]!;
        const Y = ops[y]!;
        if (!access(x) || !access(y) || X.loc !== Y.loc || !(X.write || Y.write)) continue;
        if (mutord[x]![y]) continue;
        if (!locord[x]![y] && !locord[y]![x]) race = true;
      }

    // The final state: registers, then each location's coherence-last write (undef when another
    // write is neither location-ordered nor scoped-modification-ordered before it).
    const values: Record<string, number> = {};
    reads.forEach((r, k) => {
      if (ops[r]!.dst !== null) values[`${t.threads[ops[r]!.thread]!.name}:${ops[r]!.dst}`] = readValues[k]!;
    });
    locs.forEach((l, k) => {
      const ws = co[k]!;
      if (ws.length === 0) values[`@${l}`] = wrap(init(l));
      else {
        const last = ws[ws.length - 1]!;
        const ordered = ws.every((w) => w === last || locord[w]![last] || asmo[w]![last]);
        values[`@${l}`] = ordered ? writeVal(last, 0)! : Number.NaN;
      }
    });
    const key = JSON.stringify(Object.entries(values).sort());
    const prior = states.get(key);
    if (prior) {
      prior.count++;
      prior.race ||= race;
    } else states.set(key, { values, count: 1, race });
  };

  const chooseCo = (k: number): void => {
    if (k === locs.length) {
      visit();
      return;
    }
    for (const perm of coChoices[k]!) {
      co[k] = perm;
      perm.forEach((w, i) => {
        coPos[w] = i;
      });
      chooseCo(k + 1);
    }
  };
  const chooseRf = (k: number): void => {
    if (k === reads.length) {
      chooseCo(0);
      return;
    }
    for (const s of rfChoices[k]!) {
      rf[reads[k]!] = s;
      chooseRf(k + 1);
    }
  };
  chooseRf(0);
  return states;
}
