/**
 * Final states of an enumeration, stored by columns: the values of state i are
 * `values[i·k … i·k+k)` of one growing `Float64Array`, its count, flags and hash sit in parallel
 * typed arrays, and an open-addressing table of state ids finds a state from its values. A state
 * costs about `8k + 21` bytes (CO 7's 262 144 states of 14 values: about 35 MiB) instead of a
 * record, a typed array and a `Map` bucket each (about 0.9 KiB per state before).
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
  private vals: Float64Array;
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
    this.vals = new Float64Array(cap * Math.max(1, this.k));
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
    this.vals.set(values, id * this.k);
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

  /** The values of state `id` (a view into the store: copy it to keep it past the next record). */
  valuesOf(id: number): Float64Array {
    return this.vals.subarray(id * this.k, (id + 1) * this.k);
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

  /**
   * State ids ordered by their values, observable by observable in label order (the order reports
   * print them in), numerically, undef after every number; sorted over the typed store, so a
   * million states take well under a second.
   */
  idsByValues(): Int32Array {
    const { k, vals } = this;
    const ids = Int32Array.from({ length: this.size }, (_, i) => i);
    return ids.sort((a, b) => {
      for (let j = 0; j < k; j++) {
        const u = vals[a * k + j]!;
        const v = vals[b * k + j]!;
        if (u === v) continue;
        const nu = Number.isNaN(u);
        const nv = Number.isNaN(v);
        if (nu && nv) continue;
        if (nu || nv) return nu ? 1 : -1;
        return u < v ? -1 : 1;
      }
      return a - b;
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
      if (hashes[id] === h && sameValues(values, vals, id * k, k)) return i;
      i = (i + 1) & this.mask;
    }
  }

  private growStore(): void {
    const cap = this.counts.length * 2;
    const grow = <T extends Float64Array | Uint8Array | Int32Array>(a: T, n: number): T => {
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

/** Values equal position by position, undef (NaN) equal to undef. */
function sameValues(values: Float64Array, store: Float64Array, at: number, k: number): boolean {
  for (let j = 0; j < k; j++) {
    const a = values[j]!;
    const b = store[at + j]!;
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
