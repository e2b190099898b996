/**
 * An open-addressing table from a numeric state key to its record: the product path of the
 * enumerator (enumerate.ts, `independentTail`) meets the same final states millions of times, and
 * a typed-array probe is several times cheaper than hashing the value vector into a `Map`.
 */
import type { StateRecord } from './enumerate.ts';

export class StateIndex {
  private keys: Float64Array;
  private recs: (StateRecord | undefined)[];
  private size = 0;
  private mask: number;

  constructor(capacity = 1 << 12) {
    this.keys = new Float64Array(capacity).fill(Number.NaN);
    this.recs = new Array(capacity);
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

  get(key: number): StateRecord | undefined {
    return this.recs[this.slot(key)];
  }

  set(key: number, rec: StateRecord): void {
    const i = this.slot(key);
    if (this.recs[i] === undefined) this.size++;
    this.keys[i] = key;
    this.recs[i] = rec;
    if (this.size * 2 > this.keys.length) this.grow();
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldRecs = this.recs;
    this.keys = new Float64Array(oldKeys.length * 2).fill(Number.NaN);
    this.recs = new Array(oldKeys.length * 2);
    this.mask = this.keys.length - 1;
    for (let i = 0; i < oldKeys.length; i++) {
      const r = oldRecs[i];
      if (r === undefined) continue;
      const j = this.slot(oldKeys[i]!);
      this.keys[j] = oldKeys[i]!;
      this.recs[j] = r;
    }
  }
}
