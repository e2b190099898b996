/**
 * Thread symmetry for the enumerator (docs/model.md, "Symmetric threads").
 *
 * Two threads are interchangeable when swapping them maps the test to itself: the same code, the
 * same relation to every other thread in the scope hierarchy, and nothing a final state shows
 * belongs to either of them. Swaps compose, so interchangeable threads fall into classes, and every
 * permutation within each class is an automorphism of the test: it maps each consistent execution
 * to a consistent one with the same flags. The search explores one option per orbit of the group
 * that fixes the choices made so far and weights it by the orbit's size (`Enumeration.advance`).
 *
 * Two kinds of class:
 * - identical: the threads' code is the same, constants included. A permutation maps each
 *   execution to one with the same final state, so a weight is all a representative needs.
 * - relabelled: the threads differ only in the constants they store, in a test where every value
 *   only travels (loads, stores of constants, fences: nothing computes with a value or compares
 *   one) and every stored constant is unique. A permutation then also renames values, so an
 *   execution's images have renamed final states (`images`). Each member must store to a location
 *   whose coherence order the search chooses: the coherence choices come first and pin every
 *   member, so the representatives' weights cover the whole class group and the images are the
 *   state's images under all of it.
 */

import type { Instr, Test } from '../core/types.ts';
import type { Skeleton } from '../events/skeleton.ts';
import type { Observable } from './outcomes.ts';

export interface Symmetry {
  /** The class of each thread, or -1 for a thread no permutation moves. */
  classOf: Int32Array;
  /** Each class's threads, ascending. */
  members: Int32Array[];
  /** Per class: its members rename values (a relabelled class). */
  relabelled: boolean[];
  /** Order of the group of the relabelled classes (the product of their sizes' factorials). */
  relOrder: number;
  /**
   * The other states the orbit of a state's execution reaches, and how many of the orbit's
   * executions reach each of them (and the state itself) per execution of the representative's
   * weight; null without relabelled classes.
   */
  images: ((values: Float64Array) => { images: Float64Array[]; mult: number }) | null;
}

const VALUE_OPAQUE: ReadonlySet<Instr['kind']> = new Set(['load', 'store', 'fence', 'avload', 'avstore']);

function storedConst(i: Instr): number | null {
  if ((i.kind === 'store' || i.kind === 'avstore') && i.value.kind === 'const') return i.value.value;
  return null;
}

/** The code of a thread without source positions; `abstract`: stored constants left out. */
function signature(body: Instr[], abstract: boolean): string {
  return JSON.stringify(
    body.map((i) => (abstract && storedConst(i) !== null ? { ...i, value: null } : i)),
    (k, v) => (k === 'span' ? undefined : v),
  );
}

export function factorial(k: number): number {
  let f = 1;
  for (let i = 2; i <= k; i++) f *= i;
  return f;
}

/**
 * The symmetry classes of `test` (one variant, skeleton `sk`), or null when no two threads are
 * interchangeable. `relabel`: relabelled classes are allowed (their states' images are computed,
 * so no example execution can be kept for them). `coChosen(loc)`: the search chooses the coherence
 * order of that location instance.
 */
export function findSymmetry(
  test: Test,
  sk: Skeleton,
  obs: Observable[],
  relabel: boolean,
  coChosen: (loc: number) => boolean,
): Symmetry | null {
  const T = test.threads.length;
  if (T < 2) return null;
  const observed = new Uint8Array(T);
  for (const o of obs) if (o.kind === 'reg') observed[o.thread] = 1;
  const eligible = new Uint8Array(T);
  const storesCo = new Uint8Array(T);
  for (let t = 0; t < T; t++)
    eligible[t] =
      observed[t] || test.threads[t]!.body.some((i) => i.kind === 'barrier' || i.kind === 'cmpxchg') ? 0 : 1;
  for (const e of sk.events) {
    if (e.thread < 0 || e.loc < 0) continue;
    // LDS and private locations have one instance per workgroup or thread: permuting threads
    // would permute instances too.
    if (sk.locs[e.loc]!.owner !== null) eligible[e.thread] = 0;
    if (e.kind === 'write' && coChosen(e.loc)) storesCo[e.thread] = 1;
  }
  // Relabelling needs values that only travel, each stored constant unique and no initial value.
  let opaque = relabel;
  const consts = new Set<number>();
  for (const l of test.locations) if (typeof l.init === 'number') consts.add(l.init);
  for (const t of test.threads)
    for (const i of t.body) {
      if (!VALUE_OPAQUE.has(i.kind)) opaque = false;
      const c = storedConst(i);
      if (c === null) {
        if (i.kind === 'store' || i.kind === 'avstore') opaque = false;
        continue;
      }
      if (consts.has(c)) opaque = false;
      consts.add(c);
    }
  const sigs = test.threads.map((t) => signature(t.body, opaque));
  const kindOf = (t: number) => test.threads[t]!.placement.kind;
  const swappable = (a: number, b: number): boolean => {
    if (sigs[a] !== sigs[b] || kindOf(a) !== kindOf(b)) return false;
    for (let u = 0; u < T; u++)
      if (u !== a && u !== b && sk.share[a * T + u] !== sk.share[b * T + u]) return false;
    return true;
  };
  // Swaps that are automorphisms compose ((a c) = (a b)(b c)(a b)), so comparing with a class's
  // first member decides membership.
  const classes: number[][] = [];
  for (let t = 0; t < T; t++) {
    if (!eligible[t]) continue;
    const c = classes.find((m) => swappable(m[0]!, t));
    if (c) c.push(t);
    else classes.push([t]);
  }
  const kept: number[][] = [];
  const relabelled: boolean[] = [];
  for (const m of classes) {
    if (m.length < 2) continue;
    const stores = test.threads[m[0]!]!.body.some((i) => storedConst(i) !== null);
    const rel = opaque && stores;
    if (rel && !m.every((t) => storesCo[t])) continue;
    kept.push(m);
    relabelled.push(rel);
  }
  if (kept.length === 0) return null;
  const classOf = new Int32Array(T).fill(-1);
  kept.forEach((m, c) => {
    for (const t of m) classOf[t] = c;
  });
  let relOrder = 1;
  kept.forEach((m, c) => {
    if (relabelled[c]) relOrder *= factorial(m.length);
  });
  const members = kept.map((m) => Int32Array.from(m));
  return {
    classOf,
    members,
    relabelled,
    relOrder,
    images: relabelled.some((r) => r) ? relabeller(test, members, relabelled) : null,
  };
}

/**
 * Images of a state under the relabelled classes' group: with S the members whose constants the
 * state shows, each injective class-preserving map of S gives one image (the identity gives the
 * state), reached by (m − |S ∩ class|)! permutations per class.
 */
function relabeller(
  test: Test,
  members: Int32Array[],
  relabelled: boolean[],
): (values: Float64Array) => { images: Float64Array[]; mult: number } {
  // constants[c][p]: the constants member p of class c stores, in program order.
  const constants = members.map((m, c) =>
    relabelled[c]
      ? Array.from(m, (t) => test.threads[t]!.body.map(storedConst).filter((v): v is number => v !== null))
      : [],
  );
  const owner = new Map<number, { c: number; p: number; j: number }>();
  constants.forEach((byMember, c) => {
    byMember.forEach((vs, p) => {
      vs.forEach((v, j) => {
        owner.set(v, { c, p, j });
      });
    });
  });
  return (values) => {
    // The members each class's constants in the state belong to, in order of appearance.
    const shown: number[][] = members.map(() => []);
    for (const v of values) {
      const o = owner.get(v);
      if (o && !shown[o.c]!.includes(o.p)) shown[o.c]!.push(o.p);
    }
    let mult = 1;
    members.forEach((m, c) => {
      if (relabelled[c]) mult *= factorial(m.length - shown[c]!.length);
    });
    const active = shown.map((_, c) => c).filter((c) => shown[c]!.length > 0);
    const images: Float64Array[] = [];
    // maps[c][k]: the member the k-th shown member of class c goes to.
    const maps = members.map(() => [] as number[]);
    const emit = () => {
      let identity = true;
      for (const c of active) {
        const s = shown[c]!;
        for (let k = 0; k < s.length; k++) if (maps[c]![k] !== s[k]) identity = false;
      }
      if (identity) return;
      const out = Float64Array.from(values, (v) => {
        const o = owner.get(v);
        if (!o) return v;
        const to = maps[o.c]![shown[o.c]!.indexOf(o.p)]!;
        return constants[o.c]![to]![o.j]!;
      });
      images.push(out);
    };
    const place = (a: number, k: number) => {
      if (a === active.length) return emit();
      const c = active[a]!;
      if (k === shown[c]!.length) return place(a + 1, 0);
      for (let p = 0; p < members[c]!.length; p++) {
        if (maps[c]!.slice(0, k).includes(p)) continue;
        maps[c]![k] = p;
        place(a, k + 1);
      }
      maps[c]!.length = k;
    };
    place(0, 0);
    return { images, mult };
  };
}

/**
 * What of a variant's search the symmetry reduction reads and writes: the threads pinned on the
 * current path (the search's `Variant` has more).
 */
export interface SymState {
  sym: Symmetry | null;
  sk: Skeleton;
  /** Per thread: some choice on the current path fixed it (no longer permuted). */
  pinned: Uint8Array;
  /** Threads pinned by the choice at each depth (two slots: the reader, the source), or -1. */
  pinAt: Int32Array;
}

/**
 * Whether event `e` is its orbit's representative among the options of a choice: its thread is
 * fixed, or the first of its class not yet pinned.
 */
export function symRep(st: SymState, e: number): boolean {
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
export function symTake(st: SymState, d: number, slot: number, e: number): number {
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
export function symRelease(st: SymState, d: number): void {
  for (let slot = 2 * d; slot < 2 * d + 2; slot++) {
    const t = st.pinAt[slot]!;
    if (t >= 0) {
      st.pinned[t] = 0;
      st.pinAt[slot] = -1;
    }
  }
}
