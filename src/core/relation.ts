/**
 * Binary relations over events `0..n-1` as flat bitsets: row `i` is `w = ⌈n/32⌉` words of a
 * `Uint32Array`, bit `j` of row `i` set when `(i, j)` is in the relation.
 *
 * Every operation writes into a caller-supplied destination so hot paths allocate nothing per
 * candidate. Litmus tests almost always have at most 32 events (one word per row) and rarely more
 * than 64, so composition and closure have specialised one-word and two-word kernels.
 * No Node APIs here: the web page imports this file.
 */

/** A relation over `n` elements stored row-major in `bits` (`n * w` words). */
export interface Relation {
  readonly n: number;
  /** Words per row: `⌈n/32⌉` (at least 1). */
  readonly w: number;
  readonly bits: Uint32Array;
}

/** Words needed for a row of `n` bits. */
export function wordsFor(n: number): number {
  return Math.max(1, (n + 31) >>> 5);
}

/** A new empty relation over `n` elements. */
export function relation(n: number): Relation {
  const w = wordsFor(n);
  return { n, w, bits: new Uint32Array(n * w) };
}

/** A relation built from a list of pairs. */
export function fromPairs(n: number, pairs: readonly (readonly [number, number])[]): Relation {
  const r = relation(n);
  for (const [i, j] of pairs) add(r, i, j);
  return r;
}

/** The pairs of `r` in row-major order. */
export function toPairs(r: Relation): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < r.n; i++) for (let j = 0; j < r.n; j++) if (has(r, i, j)) out.push([i, j]);
  return out;
}

export function has(r: Relation, i: number, j: number): boolean {
  return ((r.bits[i * r.w + (j >>> 5)]! >>> (j & 31)) & 1) === 1;
}

export function add(r: Relation, i: number, j: number): void {
  r.bits[i * r.w + (j >>> 5)]! |= 1 << (j & 31);
}

export function remove(r: Relation, i: number, j: number): void {
  r.bits[i * r.w + (j >>> 5)]! &= ~(1 << (j & 31));
}

export function clear(r: Relation): void {
  r.bits.fill(0);
}

export function copyInto(dst: Relation, src: Relation): void {
  dst.bits.set(src.bits);
}

/** A fresh copy of `r`. */
export function cloneRelation(r: Relation): Relation {
  return { n: r.n, w: r.w, bits: r.bits.slice() };
}

export function equals(a: Relation, b: Relation): boolean {
  const x = a.bits;
  const y = b.bits;
  for (let k = 0; k < x.length; k++) if (x[k] !== y[k]) return false;
  return true;
}

export function isEmpty(r: Relation): boolean {
  const x = r.bits;
  for (let k = 0; k < x.length; k++) if (x[k] !== 0) return false;
  return true;
}

/** Number of pairs. */
export function size(r: Relation): number {
  let c = 0;
  const x = r.bits;
  for (let k = 0; k < x.length; k++) c += popcount(x[k]!);
  return c;
}

export function popcount(v: number): number {
  let x = v - ((v >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** `dst = a ∪ b` (any of the three may alias). */
export function unionInto(dst: Relation, a: Relation, b: Relation): void {
  const d = dst.bits;
  const x = a.bits;
  const y = b.bits;
  for (let k = 0; k < d.length; k++) d[k] = x[k]! | y[k]!;
}

/** `dst = a ∩ b` (any of the three may alias). */
export function intersectInto(dst: Relation, a: Relation, b: Relation): void {
  const d = dst.bits;
  const x = a.bits;
  const y = b.bits;
  for (let k = 0; k < d.length; k++) d[k] = x[k]! & y[k]!;
}

/** `dst = a ∖ b` (any of the three may alias). */
export function minusInto(dst: Relation, a: Relation, b: Relation): void {
  const d = dst.bits;
  const x = a.bits;
  const y = b.bits;
  for (let k = 0; k < d.length; k++) d[k] = x[k]! & ~y[k]!;
}

/** True when `a ⊆ b`. */
export function isSubset(a: Relation, b: Relation): boolean {
  const x = a.bits;
  const y = b.bits;
  for (let k = 0; k < x.length; k++) if ((x[k]! & ~y[k]!) !== 0) return false;
  return true;
}

/** True when `a ∩ b` is non-empty. */
export function intersects(a: Relation, b: Relation): boolean {
  const x = a.bits;
  const y = b.bits;
  for (let k = 0; k < x.length; k++) if ((x[k]! & y[k]!) !== 0) return true;
  return false;
}

/** `dst = a ; b` (relational composition). `dst` must not alias `a` or `b`. */
export function composeInto(dst: Relation, a: Relation, b: Relation): void {
  const n = a.n;
  const w = a.w;
  const d = dst.bits;
  const x = a.bits;
  const y = b.bits;
  if (w === 1) {
    for (let i = 0; i < n; i++) {
      let row = x[i]!;
      let acc = 0;
      while (row !== 0) {
        const low = row & -row;
        acc |= y[31 - Math.clz32(low)]!;
        row ^= low;
      }
      d[i] = acc;
    }
    return;
  }
  if (w === 2) {
    for (let i = 0; i < n; i++) {
      let acc0 = 0;
      let acc1 = 0;
      for (let word = 0; word < 2; word++) {
        let row = x[2 * i + word]!;
        while (row !== 0) {
          const low = row & -row;
          const k = (word << 5) + 31 - Math.clz32(low);
          acc0 |= y[2 * k]!;
          acc1 |= y[2 * k + 1]!;
          row ^= low;
        }
      }
      d[2 * i] = acc0;
      d[2 * i + 1] = acc1;
    }
    return;
  }
  d.fill(0);
  for (let i = 0; i < n; i++) {
    const di = i * w;
    for (let word = 0; word < w; word++) {
      let row = x[di + word]!;
      while (row !== 0) {
        const low = row & -row;
        const k = (word << 5) + 31 - Math.clz32(low);
        const yk = k * w;
        for (let m = 0; m < w; m++) d[di + m]! |= y[yk + m]!;
        row ^= low;
      }
    }
  }
}

/** `dst = a⁻¹`. `dst` must not alias `a`. */
export function inverseInto(dst: Relation, a: Relation): void {
  const n = a.n;
  const w = a.w;
  const d = dst.bits;
  const x = a.bits;
  d.fill(0);
  for (let i = 0; i < n; i++) {
    for (let word = 0; word < w; word++) {
      let row = x[i * w + word]!;
      while (row !== 0) {
        const low = row & -row;
        const j = (word << 5) + 31 - Math.clz32(low);
        d[j * w + (i >>> 5)]! |= 1 << (i & 31);
        row ^= low;
      }
    }
  }
}

/** `dst = a⁺` (transitive closure, Warshall on bit rows). `dst` may alias `a`. */
export function closureInto(dst: Relation, a: Relation): void {
  if (dst !== a) dst.bits.set(a.bits);
  const n = a.n;
  const w = a.w;
  const d = dst.bits;
  if (w === 1) {
    for (let k = 0; k < n; k++) {
      const rowK = d[k]!;
      if (rowK === 0) continue;
      const bit = 1 << k;
      for (let i = 0; i < n; i++) if ((d[i]! & bit) !== 0) d[i]! |= rowK;
    }
    return;
  }
  if (w === 2) {
    for (let k = 0; k < n; k++) {
      const k0 = d[2 * k]!;
      const k1 = d[2 * k + 1]!;
      if ((k0 | k1) === 0) continue;
      const word = k >>> 5;
      const bit = 1 << (k & 31);
      for (let i = 0; i < n; i++) {
        if ((d[2 * i + word]! & bit) !== 0) {
          d[2 * i]! |= k0;
          d[2 * i + 1]! |= k1;
        }
      }
    }
    return;
  }
  for (let k = 0; k < n; k++) {
    const word = k >>> 5;
    const bit = 1 << (k & 31);
    const kw = k * w;
    for (let i = 0; i < n; i++) {
      const iw = i * w;
      if ((d[iw + word]! & bit) !== 0) for (let m = 0; m < w; m++) d[iw + m]! |= d[kw + m]!;
    }
  }
}

/** Adds the identity to `r` in place. */
export function addIdentity(r: Relation): void {
  for (let i = 0; i < r.n; i++) add(r, i, i);
}

/** True when no `(i, i)` is in `r`. */
export function isIrreflexive(r: Relation): boolean {
  for (let i = 0; i < r.n; i++) if (has(r, i, i)) return false;
  return true;
}

/**
 * Acyclicity by sink peeling: repeatedly drop elements with no edge into the remaining set.
 * `scratch` (at least `w` words) avoids allocation; the relation is not modified.
 */
export function isAcyclic(r: Relation, scratch?: Uint32Array): boolean {
  const n = r.n;
  const w = r.w;
  const x = r.bits;
  if (w === 1) {
    let alive = n === 32 ? 0xffffffff : (1 << n) - 1;
    let changed = true;
    while (changed && alive !== 0) {
      changed = false;
      let rest = alive;
      while (rest !== 0) {
        const low = rest & -rest;
        const i = 31 - Math.clz32(low);
        if ((x[i]! & alive) === 0) {
          alive &= ~low;
          changed = true;
        }
        rest ^= low;
      }
    }
    return alive === 0;
  }
  const alive = scratch && scratch.length >= w ? scratch : new Uint32Array(w);
  alive.fill(0xffffffff, 0, w);
  if ((n & 31) !== 0) alive[w - 1] = (1 << (n & 31)) - 1;
  let left = n;
  let changed = true;
  while (changed && left > 0) {
    changed = false;
    for (let i = 0; i < n; i++) {
      if (((alive[i >>> 5]! >>> (i & 31)) & 1) === 0) continue;
      let out = 0;
      for (let m = 0; m < w; m++) out |= x[i * w + m]! & alive[m]!;
      if (out === 0) {
        alive[i >>> 5]! &= ~(1 << (i & 31));
        left--;
        changed = true;
      }
    }
  }
  return left === 0;
}

/**
 * A cycle of `r` as a list of elements `[e0, e1, …, ek]` with each `(ei, ei+1)` and `(ek, e0)` in
 * `r`, or null when `r` is acyclic. Used for witnesses, not on hot paths.
 */
export function findCycle(r: Relation): number[] | null {
  const n = r.n;
  const colour = new Uint8Array(n); // 0 white, 1 on stack, 2 done
  const parent = new Int32Array(n).fill(-1);
  const next = new Int32Array(n); // next successor to scan
  for (let root = 0; root < n; root++) {
    if (colour[root] !== 0) continue;
    const stack = [root];
    colour[root] = 1;
    next[root] = 0;
    while (stack.length > 0) {
      const v = stack[stack.length - 1]!;
      let advanced = false;
      while (next[v]! < n) {
        const u = next[v]!;
        next[v] = u + 1;
        if (!has(r, v, u)) continue;
        if (colour[u] === 1) {
          const cycle = [u];
          let x = v;
          const back: number[] = [];
          while (x !== u) {
            back.push(x);
            x = parent[x]!;
          }
          back.reverse();
          return cycle.concat(back);
        }
        if (colour[u] === 0) {
          colour[u] = 1;
          parent[u] = v;
          next[u] = 0;
          stack.push(u);
          advanced = true;
          break;
        }
      }
      if (!advanced) {
        colour[v] = 2;
        stack.pop();
      }
    }
  }
  return null;
}

/** Restricts `r` in place to pairs whose source is in `rows` and target in `cols` (bitsets of `w` words). */
export function restrictInPlace(r: Relation, rows: Uint32Array, cols: Uint32Array): void {
  const n = r.n;
  const w = r.w;
  const x = r.bits;
  for (let i = 0; i < n; i++) {
    const keep = ((rows[i >>> 5]! >>> (i & 31)) & 1) === 1;
    for (let m = 0; m < w; m++) x[i * w + m] = keep ? x[i * w + m]! & cols[m]! : 0;
  }
}

/** A set of elements as a bitset of `⌈n/32⌉` words. */
export function bitset(n: number, members: Iterable<number>): Uint32Array {
  const s = new Uint32Array(wordsFor(n));
  for (const i of members) s[i >>> 5]! |= 1 << (i & 31);
  return s;
}

export function inSet(s: Uint32Array, i: number): boolean {
  return ((s[i >>> 5]! >>> (i & 31)) & 1) === 1;
}
