/**
 * What is known of values before any choice: the value each write stores when it is a constant
 * (initial values, stores of constants), and the constraints a variant's path and the test's
 * filter put directly on what a read returns (`bne r0, 0, L` taken, `filter (P1:r0 == 1)`). A read
 * can only read a write whose known value meets its constraints; the searches skip the others
 * up front instead of finding out at every complete candidate. No Node APIs here.
 */
import type { IcmpPred } from '../core/types.ts';
import { icmp, wrap } from '../core/values.ts';
import { CMP_PRED, type VkCond, type VulkanTest } from './ast.ts';
import type { VkSkeleton } from './events.ts';

interface Constraint {
  pred: IcmpPred;
  c: number;
  /** Whether the read value is the comparison's left operand. */
  left: boolean;
  expect: boolean;
}

/** The value each write of `sk` stores when known before any choice, NaN otherwise. */
export function staticWriteValues(sk: VkSkeleton): Float64Array {
  const out = new Float64Array(sk.n).fill(Number.NaN);
  for (const l of sk.locs) out[l.initEvent] = wrap(l.init, 32);
  for (const p of sk.programs)
    for (const s of p.steps) if (s.k === 'store' && s.ev >= 0 && s.a.c) out[s.ev] = wrap(s.a.v, 32);
  return out;
}

/** The constraints on each read's value (indexed by event). */
export function readConstraints(sk: VkSkeleton, test: VulkanTest): Constraint[][] {
  const out: Constraint[][] = Array.from({ length: sk.n }, () => []);
  sk.programs.forEach((p, t) => {
    const readOf = new Map<number, number>();
    for (const s of p.steps) if (s.k === 'read' && s.ev >= 0 && s.dst >= 0) readOf.set(s.dst, s.ev);
    for (const s of p.steps) {
      if (s.k !== 'assume') continue;
      if (!s.a.c && s.b.c && readOf.has(s.a.r))
        out[readOf.get(s.a.r)!]!.push({ pred: s.pred, c: s.b.v, left: true, expect: s.expect });
      else if (s.a.c && !s.b.c && readOf.has(s.b.r))
        out[readOf.get(s.b.r)!]!.push({ pred: s.pred, c: s.a.v, left: false, expect: s.expect });
    }
    // The filter's top-level conjuncts `Pt:r op c` on a register last assigned by a read.
    const th = test.threads[t]!;
    const visit = (c: VkCond) => {
      if (c.kind === 'and') c.args.forEach(visit);
      if (c.kind !== 'cmp') return;
      const pairs: [typeof c.lhs, typeof c.rhs, boolean][] = [
        [c.lhs, c.rhs, true],
        [c.rhs, c.lhs, false],
      ];
      for (const [reg, k, left] of pairs) {
        if (reg.kind !== 'reg' || reg.thread !== th.name || k.kind !== 'const') continue;
        const slot = sk.finalSlot[t]!.get(reg.reg);
        if (slot === undefined || !readOf.has(slot)) continue;
        out[readOf.get(slot)!]!.push({ pred: CMP_PRED[c.op], c: k.value, left, expect: true });
      }
    };
    if (test.filter) visit(test.filter);
  });
  return out;
}

/** Whether value `v` meets every constraint. */
export function meets(cs: readonly Constraint[], v: number): boolean {
  for (const k of cs) {
    const r = k.left ? icmp(k.pred, v, k.c, 32) : icmp(k.pred, k.c, v, 32);
    if ((r === 1) !== k.expect) return false;
  }
  return true;
}

/** The writes among `writes` read `r` may read, by their known values. */
export function rfDomainOf(
  known: Float64Array,
  constraints: Constraint[][],
): (r: number, writes: number[]) => number[] {
  return (r, writes) => {
    const cs = constraints[r]!;
    if (cs.length === 0) return writes;
    return writes.filter((w) => Number.isNaN(known[w]!) || meets(cs, known[w]!));
  };
}
