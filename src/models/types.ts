/**
 * Shapes shared by models: a model is a list of named axioms, each checking one candidate
 * execution and returning a witness when it rejects it.
 */

/** Names of the relations that appear in witnesses, explanations and graphs. */
export type EdgeName = 'po' | 'rf' | 'co' | 'mo' | 'fr' | 'sw' | 'hb' | 'eco' | 'lo' | 'rmw' | 'psc';

/** Why an axiom rejects a candidate. Event ids refer to the candidate's skeleton. */
export type Witness =
  /** A cycle `events[0] → events[1] → … → events[0]`, `edges[k]` naming the edge out of `events[k]`. */
  | { kind: 'cycle'; events: number[]; edges: EdgeName[] }
  /** An RMW whose read and write are separated in mo by another write. */
  | { kind: 'rmw'; read: number; write: number; source: number; between: number }
  /** Two writes location-ordered one way and coherence-ordered the other. */
  | { kind: 'lo-co'; first: number; second: number }
  /** A read whose rf choice is not what the value rule says. */
  | { kind: 'value'; read: number; rule: ValueRule; chosen: number; maySee: number[]; locBefore: number[] }
  /** A cmpxchg whose value read contradicts the outcome the candidate assumed. */
  | { kind: 'cas'; read: number }
  /**
   * Register values that depend on themselves through rf (only without no-thin-air), with no
   * solution in the solving domain that meets the cmpxchg outcomes assumed (docs/model.md).
   */
  | { kind: 'value-cycle' };

/** The value rule that applies to a read (spec: amdgpu-memory-model.rst, the five value bullets). */
export type ValueRule = 1 | 2 | 3 | 4 | 5;
