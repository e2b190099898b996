/**
 * How a check's verdict reads, with the assumptions it needs: `sound (assuming: cu-in-order-reads)`.
 * A module of its own, with no imports, so the explorer's page shows verdicts without loading the checker.
 */

/** The verdict with the named assumptions (src/sim/assumptions.ts) it needs. */
export function verdictText(r: { verdict: string; assumptions: readonly string[] }): string {
  return r.assumptions.length > 0 ? `${r.verdict} (assuming: ${r.assumptions.join(', ')})` : r.verdict;
}
