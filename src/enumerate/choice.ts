/**
 * A choice point of the AMDGPU search (src/enumerate/enumerate.ts): the next write of a location's
 * coherence order, or the rf source of a read. The tail products (tail.ts) read them too.
 */

/** One choice point; `domain` holds the options in the order they are tried. */
export type ChoicePoint =
  | { kind: 'co'; loc: number; domain: Int32Array }
  | {
      kind: 'rf';
      read: number;
      domain: Int32Array;
      /**
       * The RMW write of `read` when its source is forced by coherence (`coForcedRmw`): once the
       * location's coherence order is placed, only the write just before it (or undef) is tried.
       */
      rmwOf: number;
      /**
       * Forced like the next choice point (both `rmwOf`): the partial checks wait for the last of
       * the run, which checks the same monotone axioms on more of the candidate.
       */
      defer: boolean;
    };
