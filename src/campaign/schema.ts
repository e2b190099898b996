/**
 * A campaign's results file (`gpumm campaign … --out results.jsonl`): JSON lines, one object each.
 *
 * - The first line is the campaign's `header`: what was run (targets, lowerings, budgets, the shard).
 *   Every shard of one campaign has the same header but for `shard`; `gpumm campaign merge` refuses
 *   files whose headers differ otherwise.
 * - Then one `test` line per test, written as the test finishes (in any order), keyed by `hash`, the
 *   MD5 of the test's source text: a resumed campaign skips the hashes already in the file.
 * - Then, with `--mutate`, one `mutation` line per target and mode (after every test line).
 *
 * How the file is read (src/campaign/read.ts, the one reader of `--resume`, `merge` and `report`):
 *
 * - A line is whole when its line break is there: a campaign writes each line with its line break in one
 *   call, so a last line without one is a write cut short by a kill — torn, even when what is there
 *   parses. It is left out with a warning (CL1021); a resumed campaign truncates it before appending and
 *   runs its test again.
 * - Every other line that is not UTF-8, not JSON or not a line of this schema, a first line that is not
 *   the header, a second header, a test line after a mutation line, and an empty file are errors
 *   (CL1020): damage no kill leaves, never skipped silently.
 * - Blank lines (only spaces, tabs or a `\r`) are skipped, and a `\r` before a line break is allowed:
 *   a file that passed through an editor or Windows reads the same.
 */

import * as z from 'zod';
import { CheckSchema } from '../check/check.ts';
import { MutantSchema, ScoreSchema } from '../check/mutate.ts';

/** The version of this format; a reader refuses other versions. */
export const CAMPAIGN_FORMAT = 1;

/** `i/n`: the i-th of n shards (0 ≤ i < n). */
export const ShardSchema = z.object({ index: z.number().int().min(0), count: z.number().int().min(1) });
export type Shard = z.infer<typeof ShardSchema>;

export const HeaderSchema = z.object({
  kind: z.literal('header'),
  format: z.literal(CAMPAIGN_FORMAT),
  /** The targets as given (`--targets`), each checked in every mode it has. */
  targets: z.array(z.string()),
  lowerings: z.array(z.enum(['doc', 'llc'])),
  /** `gpumm gen` options when the tests were generated (`--gen SPEC`); null for files. */
  gen: z.string().nullable(),
  /** Per-test budgets. */
  timeoutMs: z.number().nullable(),
  maxStates: z.number().int(),
  mutate: z.boolean(),
  /**
   * The whole campaign's tests, before sharding: how many, and the MD5 of their sorted hashes (one per
   * line). Shards of one campaign share it; a resume or merge of another set of tests is refused, and a
   * merge holding fewer tests says so.
   */
  testSet: z.object({ count: z.number().int().min(0), digest: z.string().regex(/^[0-9a-f]{32}$/) }),
  shard: ShardSchema,
  /** gpumm's version that wrote the file. */
  version: z.string(),
});
export type Header = z.infer<typeof HeaderSchema>;

/** The model's verdict on a test's condition. */
export const ModelVerdictSchema = z.object({
  /** `allowed`: some execution the model allows makes the condition true; `unknown`: only through undef. */
  verdict: z.enum(['allowed', 'forbidden', 'unknown', 'undecided', 'no-condition']),
  /** Why the model could not decide (a budget, a diagnostic); null otherwise. */
  reason: z.string().nullable(),
  states: z.number().int(),
  racy: z.boolean(),
  ms: z.number(),
});
export type ModelVerdict = z.infer<typeof ModelVerdictSchema>;

/**
 * One hardware check as a campaign records it: a `gpumm check --json` result less the model's and
 * machine's state lists (kept out to keep the file small; rerun `gpumm check` on the test for them).
 */
export const CampaignCheckSchema = CheckSchema.pick({
  target: true,
  mode: true,
  lowering: true,
  verdict: true,
  reason: true,
  forbidden: true,
  assumptions: true,
  hwText: true,
}).extend({ ms: z.number() });
export type CampaignCheck = z.infer<typeof CampaignCheckSchema>;

export const TestLineSchema = z.object({
  kind: z.literal('test'),
  /** MD5 of the test's source text (src/core/md5.ts): the key of resume, shards and merge. */
  hash: z.string().regex(/^[0-9a-f]{32}$/),
  test: z.string(),
  /** The file it was read from, or `gen:NAME` for a generated test. */
  file: z.string(),
  /** The test's source: a generated test's text, so a report can link to it; null for files. */
  source: z.string().nullable(),
  model: ModelVerdictSchema,
  checks: z.array(CampaignCheckSchema),
  /** Wall time of the whole test (model and checks). */
  ms: z.number(),
});
export type TestLine = z.infer<typeof TestLineSchema>;

export const MutationLineSchema = z.object({
  kind: z.literal('mutation'),
  target: z.string(),
  mode: z.string(),
  tests: z.number().int(),
  score: ScoreSchema,
  mutants: z.array(MutantSchema),
});
export type MutationLine = z.infer<typeof MutationLineSchema>;

export const LineSchema = z.discriminatedUnion('kind', [HeaderSchema, TestLineSchema, MutationLineSchema]);
export type Line = z.infer<typeof LineSchema>;
