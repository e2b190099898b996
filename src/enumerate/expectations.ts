/**
 * How an `expect:` line of a test fared, in the words the CLI report and the explorer both print
 * (a module of its own, free of the report's schemas, so the page's thread imports it alone).
 */

/** An `expect:` line's outcome, as a report records it. */
export interface ExpectationOutcome {
  ok: boolean;
  actual: string;
}

/**
 * `ok`, `FAILED (got …)`, or — when a budget or Ctrl-C stopped the run before the line could be
 * checked — `undecided (… so far)`: not a failure (it printed "FAILED (got holds, incomplete)"
 * under "expect: condition holds").
 */
export function expectationText(e: ExpectationOutcome, complete: boolean): string {
  if (e.ok) return 'ok';
  return complete ? `FAILED (got ${e.actual})` : `undecided (the run stopped; ${e.actual} so far)`;
}
