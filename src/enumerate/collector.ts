/**
 * Final states of an enumeration, stored by columns: the values of state i are
 * `values[i·k … i·k+k)` of one growing typed array, its count, flags and hash sit in parallel
 * typed arrays, and an open-addressing table of state ids finds a state from its values. The value
 * store is the narrowest that holds every value recorded so far — bytes, then 16-bit, 32-bit
 * integers, then doubles — so a state costs about `k + 21` bytes in the common case of small
 * values (CO 7's 262 144 states of 14 values: about 9 MiB), instead of a record, a typed array and
 * a `Map` bucket each (about 0.9 KiB per state before); a state of wider values widens the store.
 */

/** One final state with the number of executions reaching it (a view for reports and tests). */
export interface StateRecord {
  values: Float64Array;
  count: number;
  /** Some execution reaching this state has a data race. */
  race: boolean;
  /** Some execution reaching this state has a read returning undef. */
  undef: boolean;
  /** The first execution found for this state. */
  example: ExecutionRecord;
}

/** Enough to rebuild one execution: the cmpxchg variant and the choices. */
export interface ExecutionRecord {
  variant: number;
  rf: Int32Array;
  co: Int32Array;
}

/** The example of a state recorded without examples. */
export const NO_EXAMPLE: ExecutionRecord = { variant: -1, rf: new Int32Array(0), co: new Int32Array(0) };

const RACE = 1;
const UNDEF = 2;

/** A value store; in the integer ones the least value stands for undef (NaN). */
type Store = Int8Array | Int16Array | Int32Array | Float64Array;

/** The stores, narrowest first, with the values each holds besides undef. */
const STORES = [
  { make: (n: number): Store => new Int8Array(n), lo: -127, hi: 127, undef: -128 },
  { make: (n: number): Store => new Int16Array(n), lo: -32767, hi: 32767, undef: -32768 },
  { make: (n: number): Store => new Int32Array(n), lo: -2147483647, hi: 2147483647, undef: -2147483648 },
  {
    make: (n: number): Store => new Float64Array(n),
    lo: Number.NEGATIVE_INFINITY,
    hi: Number.POSITIVE_INFINITY,
    undef: Number.NaN,
  },
] as const;

/** Aggregates consistent executions into final states, identified by ids 0, 1, … in order found. */
export class Collector {
  /** Number of final states. */
  size = 0;
  /** Consistent executions recorded (the sum of the counts). */
  executions = 0;
  /**
   * A state beyond `maxStates` was found and not kept (nor its executions): the search filling this
   * collector stops on it (`max-states`), with at most `maxStates` states.
   */
  overflow = false;
  private readonly k: number;
  private vals: Store;
  /** The kind of `vals` (index in STORES), the values it holds, and its code of undef. */
  private kind = 0;
  private lo: number = STORES[0].lo;
  private hi: number = STORES[0].hi;
  private undefCode: number = STORES[0].undef;
  /** Per column, over the states recorded: least and greatest number, whether some is fractional or undef. */
  private readonly colMin: Float64Array;
  private readonly colMax: Float64Array;
  private readonly colFrac: Uint8Array;
  private readonly colUndef: Uint8Array;
  private counts: Float64Array;
  private flags: Uint8Array;
  private hashes: Int32Array;
  /** Open addressing: state id + 1, 0 for an empty slot. */
  private table: Int32Array;
  private mask: number;
  private readonly examples: ExecutionRecord[] = [];

  /**
   * `keepExamples: false` records no example execution per state (saves memory on huge runs).
   * `maxStates`: a new state beyond so many is not kept (`overflow`).
   */
  constructor(
    readonly labels: string[],
    readonly keepExamples = true,
    readonly maxStates = Number.POSITIVE_INFINITY,
  ) {
    this.k = labels.length;
    const cap = 64;
    this.vals = STORES[0].make(cap * Math.max(1, this.k));
    this.colMin = new Float64Array(this.k).fill(Number.POSITIVE_INFINITY);
    this.colMax = new Float64Array(this.k).fill(Number.NEGATIVE_INFINITY);
    this.colFrac = new Uint8Array(this.k);
    this.colUndef = new Uint8Array(this.k);
    this.counts = new Float64Array(cap);
    this.flags = new Uint8Array(cap);
    this.hashes = new Int32Array(cap);
    this.table = new Int32Array(cap * 2);
    this.mask = cap * 2 - 1;
  }

  /** The id of the state with these values, or -1. */
  lookup(values: Float64Array): number {
    const slot = this.slot(values, hashValues(values));
    return this.table[slot]! - 1;
  }

  /**
   * Records `count` executions reaching the state with these values (a copy is kept); returns its
   * id, or -1 for a new state beyond `maxStates` (not kept: `overflow`). `example` is called only
   * for a new state, and only when examples are kept.
   */
  record(
    values: Float64Array,
    count: number,
    race: boolean,
    undef: boolean,
    example?: () => ExecutionRecord,
  ): number {
    if (!this.images) return this.put(values, count, race, undef, example);
    const id = this.put(values, 0, race, undef, example);
    if (id >= 0) this.spread(id, count, race, undef);
    return id;
  }

  /** Counts `count` more executions reaching state `id` (none for -1: a state not kept). */
  bump(id: number, count: number, race: boolean, undef: boolean): void {
    if (id < 0) return;
    if (this.images) this.spread(id, count, race, undef);
    else this.add(id, count, race, undef);
  }

  /**
   * From now on, each execution recorded stands for its images under a symmetry of the test
   * (src/enumerate/symmetry.ts): `fn` gives a state's other images and how many executions reach
   * each image (the state included) per execution recorded.
   */
  setImages(fn: (values: Float64Array) => { images: Float64Array[]; mult: number }): void {
    this.images = fn;
  }

  private images: ((values: Float64Array) => { images: Float64Array[]; mult: number }) | null = null;
  /** Per state id: the ids of its images (computed when it is first counted), and their weight. */
  private imageIds: (Int32Array | undefined)[] = [];
  private imageMult: number[] = [];

  private spread(id: number, count: number, race: boolean, undef: boolean): void {
    let ids = this.imageIds[id];
    if (!ids) {
      const { images, mult } = this.images!(this.valuesOf(id).slice());
      ids = Int32Array.from(images, (v) => this.put(v, 0, race, undef));
      this.imageIds[id] = ids;
      this.imageMult[id] = mult;
    }
    const k = count * this.imageMult[id]!;
    this.add(id, k, race, undef);
    for (let i = 0; i < ids.length; i++) if (ids[i]! >= 0) this.add(ids[i]!, k, race, undef);
  }

  private put(
    values: Float64Array,
    count: number,
    race: boolean,
    undef: boolean,
    example?: () => ExecutionRecord,
  ): number {
    const h = hashValues(values);
    const slot = this.slot(values, h);
    const found = this.table[slot]! - 1;
    if (found >= 0) {
      this.add(found, count, race, undef);
      return found;
    }
    const id = this.size;
    if (id >= this.maxStates) {
      this.overflow = true;
      return -1;
    }
    if (id === this.counts.length) this.growStore();
    this.store(values, id * this.k);
    this.counts[id] = count;
    this.flags[id] = (race ? RACE : 0) | (undef ? UNDEF : 0);
    this.hashes[id] = h;
    this.executions += count;
    if (this.keepExamples) this.examples.push(example ? example() : NO_EXAMPLE);
    this.size++;
    this.table[slot] = id + 1;
    if (this.size * 2 > this.table.length) this.growTable();
    return id;
  }

  private add(id: number, count: number, race: boolean, undef: boolean): void {
    this.executions += count;
    this.counts[id] = this.counts[id]! + count;
    if (race) this.flags[id]! |= RACE;
    if (undef) this.flags[id]! |= UNDEF;
  }

  /** Writes a new state's values at `at`, widening the store first if they need it. */
  private store(values: Float64Array, at: number): void {
    const { k, colMin, colMax, colFrac, colUndef } = this;
    let wide = false;
    for (let j = 0; j < k; j++) {
      const v = values[j]!;
      if (Number.isNaN(v)) {
        colUndef[j] = 1;
        continue;
      }
      if (v < colMin[j]!) colMin[j] = v;
      if (v > colMax[j]!) colMax[j] = v;
      const whole = Number.isInteger(v);
      if (!whole) colFrac[j] = 1;
      if (v < this.lo || v > this.hi || (!whole && this.kind < STORES.length - 1)) wide = true;
    }
    if (wide) this.widen();
    const { vals, undefCode } = this;
    for (let j = 0; j < k; j++) {
      const v = values[j]!;
      vals[at + j] = Number.isNaN(v) ? undefCode : v;
    }
  }

  /** Replaces the store by the narrowest that holds every value recorded (the new state's too). */
  private widen(): void {
    let kind = this.kind;
    const fits = (st: (typeof STORES)[number]) => {
      for (let j = 0; j < this.k; j++)
        if (
          this.colFrac[j] === 1
            ? st.lo !== Number.NEGATIVE_INFINITY
            : this.colMin[j]! < st.lo || this.colMax[j]! > st.hi
        )
          return false;
      return true;
    };
    while (!fits(STORES[kind]!)) kind++;
    const st = STORES[kind]!;
    const vals = st.make(this.vals.length);
    for (let i = 0; i < this.size * this.k; i++) {
      const x = this.vals[i]!;
      vals[i] = x === this.undefCode || Number.isNaN(x) ? st.undef : x;
    }
    this.vals = vals;
    this.kind = kind;
    this.lo = st.lo;
    this.hi = st.hi;
    this.undefCode = st.undef;
  }

  /** The values of state `id` (a copy). */
  valuesOf(id: number): Float64Array {
    const out = new Float64Array(this.k);
    this.readValues(id, out);
    return out;
  }

  /** Writes the values of state `id` into `out` (undef as NaN). */
  readValues(id: number, out: Float64Array): void {
    const { k, vals, undefCode } = this;
    for (let j = 0, at = id * k; j < k; j++) {
      const x = vals[at + j]!;
      out[j] = x === undefCode ? Number.NaN : x;
    }
  }

  countOf(id: number): number {
    return this.counts[id]!;
  }

  raceOf(id: number): boolean {
    return (this.flags[id]! & RACE) !== 0;
  }

  undefOf(id: number): boolean {
    return (this.flags[id]! & UNDEF) !== 0;
  }

  exampleOf(id: number): ExecutionRecord {
    return this.examples[id] ?? NO_EXAMPLE;
  }

  /** Column `k` of state `id` (the store read in place, for reports that print every state). */
  valueAt(id: number, k: number): number {
    const x = this.vals[id * this.k + k]!;
    return x === this.undefCode ? Number.NaN : x;
  }

  /**
   * State ids ordered by their values, observable by observable in label order (the order reports
   * print them in), numerically, undef after every number, ties (none: states are distinct) by id.
   * Each value becomes a small key — its offset from the column's least value when the column holds
   * integers of a small range (the common case), else its rank among the column's distinct values —
   * and the keys of a state are packed, first column in the highest bits, into a few 32-bit words;
   * a least-significant-digit radix sort over those words orders the states. The store is read
   * twice, row by row (a million states of dozens of values take a few tens of milliseconds).
   */
  idsByValues(): Int32Array {
    const { k, vals, undefCode } = this;
    const n = this.size;
    const ids = new Int32Array(n);
    for (let i = 0; i < n; i++) ids[i] = i;
    if (n < 2 || k === 0) return ids;
    const cols = this.columnKeys();
    // Columns of more than one key, packed most significant first: word and shift of each.
    const word = new Int32Array(k);
    const shift = new Int32Array(k);
    let words = 0;
    let room = 0;
    for (let j = 0; j < k; j++) {
      const b = cols[j]!.bits;
      if (b === 0) continue;
      if (b > room) {
        words++;
        room = 32;
      }
      room -= b;
      word[j] = words - 1;
      shift[j] = room;
    }
    if (words === 0) return ids;
    const packed = new Uint32Array(words * n);
    for (let i = 0, at = 0; i < n; i++, at += k)
      for (let j = 0; j < k; j++) {
        const c = cols[j]!;
        if (c.bits === 0) continue;
        const x = vals[at + j]!;
        const o = word[j]! * n + i;
        packed[o] = packed[o]! | (c.key(x === undefCode ? Number.NaN : x) << shift[j]!);
      }
    return radixSort(ids, packed, words, n);
  }

  /**
   * The sort keys of each column: ascending numbers get ascending keys, equal numbers (0 and -0
   * too) one key, undef the last one.
   */
  private columnKeys(): ColumnKey[] {
    const { k, vals, undefCode, colMin, colMax, colFrac, colUndef } = this;
    const n = this.size;
    const bitsFor = (keys: number) => (keys <= 1 ? 0 : 32 - Math.clz32(keys - 1));
    return Array.from({ length: k }, (_, j): ColumnKey => {
      const lo = colMin[j]!;
      const hi = colMax[j]!;
      if (lo > hi) return { bits: 0, key: () => 0 };
      if (colFrac[j] === 0 && hi - lo <= 2 * n + 1024) {
        const undefKey = hi - lo + 1;
        return { bits: bitsFor(undefKey + colUndef[j]!), key: (v) => (Number.isNaN(v) ? undefKey : v - lo) };
      }
      // Wide or fractional values: ranks among the distinct numbers.
      const sorted = new Float64Array(n);
      let d = 0;
      for (let i = 0; i < n; i++) {
        const x = vals[i * k + j]!;
        if (x !== undefCode && !Number.isNaN(x)) sorted[d++] = x;
      }
      const distinct = sorted.subarray(0, d).sort();
      d = 0;
      for (let i = 0; i < distinct.length; i++)
        if (d === 0 || distinct[i] !== distinct[d - 1]) distinct[d++] = distinct[i]!;
      return {
        bits: bitsFor(d + colUndef[j]!),
        key: (v) => {
          if (Number.isNaN(v)) return d;
          let a = 0;
          let b = d - 1;
          while (a < b) {
            const mid = (a + b) >>> 1;
            if (distinct[mid]! < v) a = mid + 1;
            else b = mid;
          }
          return a;
        },
      };
    });
  }

  /** Every state as a record, in the order found (one object per state: for reports and tests). */
  records(): StateRecord[] {
    return Array.from({ length: this.size }, (_, id) => ({
      values: this.valuesOf(id),
      count: this.countOf(id),
      race: this.raceOf(id),
      undef: this.undefOf(id),
      example: this.exampleOf(id),
    }));
  }

  /** The table slot holding the state with these values, or the empty slot where it would go. */
  private slot(values: Float64Array, h: number): number {
    const { table, hashes, vals, k } = this;
    let i = h & this.mask;
    while (true) {
      const e = table[i]!;
      if (e === 0) return i;
      const id = e - 1;
      if (hashes[id] === h && sameValues(values, vals, id * k, k, this.undefCode)) return i;
      i = (i + 1) & this.mask;
    }
  }

  private growStore(): void {
    const cap = this.counts.length * 2;
    const grow = <T extends Store | Uint8Array>(a: T, n: number): T => {
      const b = new (a.constructor as new (n: number) => T)(n);
      b.set(a);
      return b;
    };
    this.vals = grow(this.vals, cap * Math.max(1, this.k));
    this.counts = grow(this.counts, cap);
    this.flags = grow(this.flags, cap);
    this.hashes = grow(this.hashes, cap);
  }

  private growTable(): void {
    this.table = new Int32Array(this.table.length * 2);
    this.mask = this.table.length - 1;
    for (let id = 0; id < this.size; id++) {
      let i = this.hashes[id]! & this.mask;
      while (this.table[i] !== 0) i = (i + 1) & this.mask;
      this.table[i] = id + 1;
    }
  }
}

/** How a column's values become sort keys: `bits` wide (0: one key only, the column needs none). */
interface ColumnKey {
  bits: number;
  key(v: number): number;
}

/**
 * `ids` sorted by their keys `packed` (`words` 32-bit words per id, word w of id i at `w·n + i`,
 * word 0 most significant), ties in the order given: stable counting passes over 16-bit digits,
 * least significant first, skipping a digit every id shares.
 */
function radixSort(ids: Int32Array, packed: Uint32Array, words: number, n: number): Int32Array {
  let from: Int32Array = ids;
  let to: Int32Array = new Int32Array(n);
  const start = new Int32Array((1 << 16) + 1);
  for (let w = words - 1; w >= 0; w--)
    for (const s of [0, 16]) {
      const base = w * n;
      start.fill(0);
      for (let i = 0; i < n; i++) start[((packed[base + i]! >>> s) & 0xffff) + 1]!++;
      if (start[((packed[base]! >>> s) & 0xffff) + 1] === n) continue;
      for (let b = 0; b < 1 << 16; b++) start[b + 1]! += start[b]!;
      for (let i = 0; i < n; i++) {
        const id = from[i]!;
        to[start[(packed[base + id]! >>> s) & 0xffff]!++] = id;
      }
      [from, to] = [to, from];
    }
  return from;
}

/** Values equal position by position, undef (NaN; `undefCode` in the store) equal to undef. */
function sameValues(values: Float64Array, store: Store, at: number, k: number, undefCode: number): boolean {
  for (let j = 0; j < k; j++) {
    const a = values[j]!;
    const x = store[at + j]!;
    const b = x === undefCode ? Number.NaN : x;
    if (a !== b && !(Number.isNaN(a) && Number.isNaN(b))) return false;
  }
  return true;
}

/** FNV-1a over the values (undef hashes as one fixed value), mixed for the table's low bits. */
function hashValues(values: Float64Array): number {
  let h = 0x811c9dc5;
  for (let k = 0; k < values.length; k++) {
    const v = values[k]!;
    const x = Number.isNaN(v) ? 0x7fc00000 : (v | 0) ^ ((v / 4294967296) | 0);
    h = Math.imul(h ^ x, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h & 0x7fffffff;
}
