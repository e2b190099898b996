/**
 * An open-addressing table from a numeric state key to its state id in the `Collector`: the product path of the
 * enumerator (enumerate.ts, `independentTail`) meets the same final states millions of times, and
 * a typed-array probe is several times cheaper than hashing the value vector into a `Map`.
 */
export class StateIndex {
  private keys: Float64Array;
  /** State id + 1 per slot, 0 when empty. */
  private ids: Int32Array;
  private size = 0;
  private mask: number;

  constructor(capacity = 1 << 12) {
    this.keys = new Float64Array(capacity).fill(Number.NaN);
    this.ids = new Int32Array(capacity);
    this.mask = capacity - 1;
  }

  /** Slot of `key` (an integer below 2^53): where it is, or the empty slot where it would go. */
  private slot(key: number): number {
    const lo = key >>> 0;
    const hi = (key / 4294967296) >>> 0;
    let h = Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b);
    h ^= h >>> 13;
    let i = h & this.mask;
    const keys = this.keys;
    while (true) {
      const k = keys[i]!;
      if (k === key || Number.isNaN(k)) return i;
      i = (i + 1) & this.mask;
    }
  }

  /** The state id stored for `key`, or -1. */
  get(key: number): number {
    return this.ids[this.slot(key)]! - 1;
  }

  set(key: number, id: number): void {
    const i = this.slot(key);
    if (this.ids[i] === 0) this.size++;
    this.keys[i] = key;
    this.ids[i] = id + 1;
    if (this.size * 2 > this.keys.length) this.grow();
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldIds = this.ids;
    this.keys = new Float64Array(oldKeys.length * 2).fill(Number.NaN);
    this.ids = new Int32Array(oldKeys.length * 2);
    this.mask = this.keys.length - 1;
    for (let i = 0; i < oldKeys.length; i++) {
      if (oldIds[i] === 0) continue;
      const j = this.slot(oldKeys[i]!);
      this.keys[j] = oldKeys[i]!;
      this.ids[j] = oldIds[i]!;
    }
  }
}
