/**
 * What the listings of candidate executions share, whatever the test's language: the candidate as
 * the session keeps it, the caps, the run of a listing in slices with its progress, and the
 * histogram built from a report and the outcomes only rejected candidates reach.
 */

import type { EdgeKind } from '../../../src/enumerate/graph.ts';
import type { Truth } from '../../../src/enumerate/outcomes.ts';
import { type Report, stateText } from '../../../src/enumerate/report.ts';
import type { CandidateInfo, EditorDiagnostic, OutcomeBar } from './protocol.ts';

/** At most this many candidates are listed (the list says when there are more). */
export const MAX_LISTED = 2000;
/** Time allowed for listing candidates (an unpruned search) after the verdict. */
export const LIST_MS = 3000;

/** One candidate as the session keeps it: enough to rebuild and draw it. */
export interface Candidate {
  variant: number;
  rf: Int32Array;
  co: Int32Array;
  info: CandidateInfo;
  /**
   * Which valuation of its register values the entry shows: 0, or the solution of a value cycle
   * (docs/model.md, "Values out of thin air"), each listed as its own execution.
   */
  solution: number;
  /** Cat models: the failing check's name, text and witness events. */
  cat: { name: string; text: string; witness: number[] } | null;
}

/** A listing: its candidates, the condition on each one's final state, and whether it stopped early. */
export interface Listing {
  candidates: Candidate[];
  truths: Map<Candidate, Truth | 'unset'>;
  partial: boolean;
}

/** Progress of a run: the search for the verdict, then the unpruned listing of candidates. */
export interface Progress {
  phase?: 'search' | 'listing';
  fraction: number;
  states: number;
  executions: number;
  elapsedMs: number;
}

/** A final state's values by label, `undef` for NaN; a label `shown` maps to null is left out. */
export function valuesRecord(
  labels: readonly string[],
  vals: ArrayLike<number>,
  shown: (v: number) => number | 'undef' | null = (v) => (Number.isNaN(v) ? 'undef' : v),
): Record<string, number | 'undef'> {
  const out: Record<string, number | 'undef'> = {};
  labels.forEach((l, k) => {
    const v = shown(vals[k]!);
    if (v !== null) out[l] = v;
  });
  return out;
}

/** The histogram: the report's states, then the outcomes only rejected candidates reach. */
export function histogramOf(
  report: Report,
  forbidden: readonly { state: string; truth: Truth | 'unset' }[],
): OutcomeBar[] {
  const bars: OutcomeBar[] = report.states.map((s) => ({
    state: stateText(s.values),
    category: s.race ? 'racy' : s.undef || s.undefFinal || s.condition === 'unknown' ? 'undef' : 'allowed',
    count: s.count,
    condition: s.condition,
  }));
  const allowed = new Set(bars.map((b) => b.state));
  const extra = new Map<string, OutcomeBar>();
  for (const f of forbidden) {
    if (allowed.has(f.state)) continue;
    const b = extra.get(f.state);
    if (b) b.count++;
    else extra.set(f.state, { state: f.state, category: 'forbidden', count: 1, condition: f.truth });
  }
  return [...bars, ...[...extra.values()].sort((a, b) => a.state.localeCompare(b.state))];
}

/** The forbidden candidates' outcomes of a listing, for `histogramOf`. */
export function forbiddenOutcomes(l: Listing): { state: string; truth: Truth | 'unset' }[] {
  return l.candidates.flatMap((c) =>
    !c.info.consistent && c.info.state !== null ? [{ state: c.info.state, truth: l.truths.get(c)! }] : [],
  );
}

/** Runs a listing to its end (or its cap), telling its progress; true when it listed everything. */
export function drain(
  en: { step(n: number): boolean; progress(): number; stop: string | null },
  listed: () => number,
  onProgress: (p: Progress) => void,
): boolean {
  const t0 = performance.now();
  while (!en.step(256))
    onProgress({
      phase: 'listing',
      fraction: en.progress(),
      states: 0,
      executions: listed(),
      elapsedMs: performance.now() - t0,
    });
  return en.stop === 'done';
}

/** What a run gives the page: the diagnostics that stopped it, or its report and listing. */
export type ModelRun<L> =
  | { diagnostics: EditorDiagnostic[] }
  | { report: Report; listing: L; edgeKinds: EdgeKind[] };
