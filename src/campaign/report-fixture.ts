/**
 * Results lines written by hand for the report's tests (src/campaign/report.test.ts,
 * src/cli/campaign-report.test.ts): valid per src/campaign/schema.ts, and chosen so that every count of
 * the summary is known. Kept apart from the runner, so the report is tested without running a campaign.
 *
 * Two targets, both lowerings: per target, mode and lowering the checks are
 *
 * | check             | MP+rel+acq | `<script>…` (HOSTILE) | SB+sc    | counts                    |
 * |-------------------|------------|-----------------------|----------|---------------------------|
 * | gfx942 cu doc     | sound      | UNSOUND (2 steps)     | sound    | 2 sound, 1 UNSOUND        |
 * | gfx942 cu llc     | UNSOUND (3)| undecided             |          | 1 UNSOUND, 1 undecided    |
 * | gfx1200 wgp doc   | sound      | sound                 |          | 2 sound                   |
 * | gfx1200 wgp llc   | unsupported| unsupported           |          | 2 unsupported             |
 *
 * The model: MP+rel+acq forbidden, the hostile test allowed, SB+sc unknown.
 */

import type { ResultsLines } from './read.ts';
import type { CampaignCheck, Header, Line, MutationLine, TestLine } from './schema.ts';

/** A test name that would run a script in a page, and recolour a terminal, were it not escaped. */
export const HOSTILE = '<script>alert(1)</script>\x1b[31m';

export const HEADER: Header = {
  kind: 'header',
  format: 1,
  targets: ['gfx942', 'gfx1200'],
  lowerings: ['doc', 'llc'],
  gen: null,
  timeoutMs: 60_000,
  maxStates: 1_000_000,
  mutate: true,
  testSet: { count: 7, digest: '0123456789abcdef0123456789abcdef' },
  shard: { index: 0, count: 2 },
  version: '0.1.0',
};

function check(
  target: string,
  mode: string,
  lowering: 'doc' | 'llc',
  verdict: CampaignCheck['verdict'],
): CampaignCheck {
  return {
    target,
    mode,
    lowering,
    verdict,
    reason: verdict === 'unsupported' ? 'MC2001 no llc-22' : null,
    forbidden: null,
    assumptions: [],
    hwText: target === 'gfx1200' ? 'seed' : null,
    ms: 1,
  };
}

function unsound(
  target: string,
  mode: string,
  lowering: 'doc' | 'llc',
  values: Record<string, number | 'undef'>,
  steps: { thread: string; kind: 'issue' | 'perform'; text: string; detail: string }[],
): CampaignCheck {
  return {
    ...check(target, mode, lowering, 'UNSOUND'),
    reason: 'the machine reaches a forbidden outcome',
    forbidden: {
      values,
      placement: 'P0 and P1 on different CUs',
      trace: steps.map((s, k) => ({ ...s, line: k + 1 })),
      idleWaits: [],
    },
  };
}

export const MP: TestLine = {
  kind: 'test',
  hash: '0123456789abcdef0123456789abcdef',
  test: 'MP+rel+acq',
  file: 'litmus/catalogue/MP+rel+acq.litmus',
  source: null,
  model: { verdict: 'forbidden', reason: null, states: 3, racy: false, ms: 20 },
  checks: [
    check('gfx942', 'cu', 'doc', 'sound'),
    unsound('gfx942', 'cu', 'llc', { '1:r0': 1, '1:r1': 0 }, [
      { thread: 'P0', kind: 'issue', text: 'global_store_dword', detail: '@x = 1' },
      { thread: 'P0', kind: 'perform', text: 'global_store_dword', detail: '@y = 1 reaches L2' },
      { thread: 'P1', kind: 'issue', text: 'global_load_dword', detail: 'reads @x = 0 from its L1' },
    ]),
    check('gfx1200', 'wgp', 'doc', 'sound'),
    check('gfx1200', 'wgp', 'llc', 'unsupported'),
  ],
  ms: 120,
};

export const HOSTILE_TEST: TestLine = {
  kind: 'test',
  hash: 'fedcba9876543210fedcba9876543210',
  test: HOSTILE,
  file: 'gen:hostile',
  source: `AMDGPU ${HOSTILE}\n; </pre><script>alert(2)</script>\n`,
  model: { verdict: 'allowed', reason: null, states: 4, racy: false, ms: 30 },
  checks: [
    unsound('gfx942', 'cu', 'doc', { '0:r0': 'undef', '1:r0': 2 }, [
      { thread: 'P0', kind: 'issue', text: 'buffer_wbl2 <img src=x onerror=alert(3)>', detail: '' },
      { thread: 'P1', kind: 'perform', text: 'global_load_dword', detail: 'reads "@x" & more' },
    ]),
    check('gfx942', 'cu', 'llc', 'undecided'),
    check('gfx1200', 'wgp', 'doc', 'sound'),
    check('gfx1200', 'wgp', 'llc', 'unsupported'),
  ],
  ms: 3000,
};

export const SB: TestLine = {
  kind: 'test',
  hash: '00000000000000000000000000000001',
  test: 'SB+sc',
  file: 'litmus/catalogue/SB+sc.litmus',
  source: null,
  model: { verdict: 'unknown', reason: null, states: 4, racy: true, ms: 2 },
  checks: [check('gfx942', 'cu', 'doc', 'sound')],
  ms: 5,
};

function mutant(row: string, status: 'killed' | 'survived' | 'undecided'): MutationLine['mutants'][number] {
  return {
    row,
    position: 1,
    instruction: 'buffer_wbl2',
    mutation: 'drop buffer_wbl2',
    kind: 'drop',
    status,
    killedBy: status === 'killed' ? 'MP+rel+acq' : null,
    class: status === 'survived' ? 'test-missing' : null,
    assumptions: [],
    survives: status === 'killed' ? null : 'no test reaches it',
  };
}

/**
 * The mutation line of one shard (gfx942, CU mode): `a` killed, `b` survived, `c` undecided — score
 * 1 killed of 3 − 1 undecided = 1/2.
 */
export const MUTATION: MutationLine = {
  kind: 'mutation',
  target: 'gfx942',
  mode: 'cu',
  tests: 3,
  score: {
    mutants: 3,
    killed: 1,
    undecided: 1,
    redundant: 0,
    progressOnly: 0,
    noCountedInstruction: 0,
    assumption: 0,
    testMissing: 1,
    value: 0.5,
  },
  mutants: [mutant('a', 'killed'), mutant('b', 'survived'), mutant('c', 'undecided')],
};

/**
 * The other shard's line for the same target and mode, over its one test (MP, which shard 0 holds too):
 * it kills `b`, and `c` survives there. Merged, `a` and `b` are killed and `c` stays undecided: 2 of
 * 3 − 1 = 100%, over the 3 distinct tests of both shards.
 */
export const MUTATION_2: MutationLine = {
  ...MUTATION,
  tests: 1,
  score: { ...MUTATION.score, killed: 1, undecided: 0, testMissing: 2, value: 1 / 3 },
  mutants: [mutant('a', 'survived'), mutant('b', 'killed'), mutant('c', 'survived')],
};

/** Lines as a results file holds them: one JSON object a line, each line ended. */
export function jsonl(lines: readonly Line[]): string {
  return lines.map((l) => `${JSON.stringify(l)}\n`).join('');
}

/** The fixture's one shard: header, the three tests and the mutation line. */
export const SHARD_0: Line[] = [HEADER, MP, HOSTILE_TEST, SB, MUTATION];

/** The other shard: its header, MP again and its mutation line. */
export const SHARD_1: Line[] = [{ ...HEADER, shard: { index: 1, count: 2 } }, MP, MUTATION_2];

/** Lines as one file read by src/campaign/read.ts holds them, by kind (the lines are in order). */
export function fileOf(lines: readonly Line[]): ResultsLines {
  return {
    header: lines.find((l) => l.kind === 'header') ?? null,
    tests: lines.filter((l) => l.kind === 'test'),
    mutations: lines.filter((l) => l.kind === 'mutation'),
  };
}
