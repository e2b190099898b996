/**
 * How an `expect:` line of a test fared, in the words the CLI report and the explorer both print
 * (a module of its own, free of the report's schemas, so the page's thread imports it alone), and
 * which answers of a run that stopped early are final anyway.
 */

/** An `expect:` line's outcome, as a report records it. */
export interface ExpectationOutcome {
  ok: boolean;
  actual: string;
  /** `actual` is final (older reports have no such field: final when the run completed). */
  decided?: boolean;
}

/** Which answers of a run are final: the condition's verdict and each flag. */
export interface Decided {
  condition: boolean;
  race: boolean;
  undef: boolean;
  undefFinal: boolean;
  ub: boolean;
}

/**
 * The answers a run has proved. A complete search proves them all. A stopped one (a budget, Ctrl-C)
 * proves what a single execution it found shows: `exists` holds once a state satisfies the
 * proposition, `~exists` and `forall` fail once a state satisfies it or fails it (the verdict
 * `conditionVerdict` gives then is the same whatever else a longer search finds), and a race, an
 * undef read, a location ending undef or undefined behaviour, once found, stay found; their absence
 * is proved only by the whole search. `ubStatic`: the test's undefined behaviour does not depend on
 * the executions (the AMDGPU barrier analysis), so it is final either way. docs/output.md.
 */
export function decidedAnswers(
  complete: boolean,
  condition: { quantifier: 'exists' | 'not exists' | 'forall'; verdict: string } | null,
  flags: { race: boolean; undef: boolean; undefFinal: boolean; ub: boolean },
  ubStatic = false,
): Decided {
  if (complete) return { condition: true, race: true, undef: true, undefFinal: true, ub: true };
  return {
    condition:
      condition !== null && condition.verdict === (condition.quantifier === 'exists' ? 'holds' : 'fails'),
    race: flags.race,
    undef: flags.undef,
    undefFinal: flags.undefFinal,
    ub: ubStatic || flags.ub,
  };
}

/**
 * The outcome of an `expect:` line whose answer on the run is `actual`, final when `decided`: it
 * holds only when it is proved.
 */
export function expectationOutcome<K extends string>(
  e: { key: K; value: string },
  actual: string,
  decided: boolean,
): { key: K; expected: string; actual: string; ok: boolean; decided: boolean } {
  return { key: e.key, expected: e.value, actual, ok: decided && actual === e.value, decided };
}

/**
 * `ok`, `FAILED (got …)`, or — when a budget or Ctrl-C stopped the run before the line could be
 * decided — `undecided (… so far)`: not a failure (it printed "FAILED (got holds, incomplete)"
 * under "expect: condition holds"). A line a stopped run decided says so.
 */
export function expectationText(e: ExpectationOutcome, complete: boolean): string {
  const decided = e.decided ?? complete;
  const early = 'proved before the run stopped';
  if (e.ok) return complete ? 'ok' : `ok (${early})`;
  if (!decided) return `undecided (the run stopped; ${e.actual} so far)`;
  return complete ? `FAILED (got ${e.actual})` : `FAILED (got ${e.actual}, ${early})`;
}
