/**
 * Limits of a run shared by the CLI and the explorer page, in a module of their own so that the
 * page's thread imports them without the search.
 */

/**
 * Default `--max-states`: a report of a million states is about 100 MB of text and needs about
 * 1 GB to build; beyond that the run stops cleanly (exit 3) instead of exhausting memory
 * (docs/benchmarks.md, "Tests of up to 24 events").
 */
export const DEFAULT_MAX_STATES = 1_000_000;

/**
 * Executions after which a slice of a search ends whatever nodes it has left, so the budgets (looked
 * at between slices) are honoured when one candidate stands for many executions (the solutions of
 * value cycles, docs/model.md "Values out of thin air").
 */
export const SLICE_EXECUTIONS = 65_536;

/** After this long, `runTest` reports the projected total time of a run. */
export const PROGRESS_MS = 300;

/**
 * Most events (instructions, and the initial write of each location copy) a test the model decides
 * may have. Relations are n×n bitsets and some checks are cubic in n: a test of 2,048 events takes
 * a few seconds and about 0.5 GB before the search starts, one of 200,000 events would need tens of
 * GB and could not be stopped by `--timeout` (the budgets apply to the search, which had not begun).
 * Past it the model refuses the test up front (MD007, exit 3).
 */
export const MAX_MODEL_EVENTS = 2048;
