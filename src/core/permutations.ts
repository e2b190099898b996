/** Every ordering of `xs` (n! arrays; the reference enumerators take coherence orders of a few writes from it). */
export function permutations(xs: readonly number[]): number[][] {
  if (xs.length <= 1) return [xs.slice()];
  const out: number[][] = [];
  xs.forEach((x, i) => {
    for (const p of permutations([...xs.slice(0, i), ...xs.slice(i + 1)])) out.push([x, ...p]);
  });
  return out;
}

/**
 * The orderings `head` then a permutation of `xs`, by index, in `permutations(xs)`'s order, without
 * building them: a search over a location's coherence orders asks for the k-th one when it needs it,
 * so a location with many writes costs no memory up front (3,000 writes overflowed the stack, a dozen
 * took gigabytes) and the search's budgets stop it. `size` is n! (Infinity past 170 writes); indices
 * stay exact up to 2^53, far beyond what any budget lets a search reach.
 */
export class Orderings {
  readonly size: number;
  private readonly out: Int32Array;
  private readonly left: number[] = [];
  /** (n - 1 - j)! for each position j of the permuted part. */
  private readonly weights: Float64Array;

  constructor(
    private readonly head: readonly number[],
    private readonly xs: readonly number[],
  ) {
    const n = xs.length;
    this.out = Int32Array.from([...head, ...xs]);
    this.weights = new Float64Array(n);
    let f = 1;
    for (let j = n - 1; j >= 0; j--) {
      this.weights[j] = f;
      f *= n - j;
    }
    this.size = f;
  }

  /** The k-th ordering (0 ≤ k < size). The array is reused: valid until the next call. */
  at(k: number): Int32Array {
    const { xs, out, left, weights } = this;
    left.length = 0;
    for (const x of xs) left.push(x);
    let rest = k;
    for (let j = 0; j < xs.length; j++) {
      const w = weights[j]!;
      // Past 170 writes the leading weights overflow: those positions keep their first choice.
      const d = w === Number.POSITIVE_INFINITY ? 0 : Math.floor(rest / w);
      if (d > 0) rest -= d * w;
      out[this.head.length + j] = left.splice(d, 1)[0]!;
    }
    return out;
  }
}
