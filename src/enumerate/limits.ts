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

/** After this long, `runTest` reports the projected total time of a run. */
export const PROGRESS_MS = 300;
