/**
 * The report of a Vulkan test's run, in the shape every `gpumm run` report has (the zod schema of
 * `src/enumerate/report.ts`, printed by `formatReport`): states with their condition truths,
 * flags, herd7's names, expectations — gpumm's `expect:` lines and the Khronos `SATISFIABLE` /
 * `NOSOLUTION` lines. No Node APIs here.
 */
import { md5Hex } from '../core/md5.ts';
import { assertNever } from '../core/types.ts';
import { isUndef } from '../core/values.ts';
import type { Collector } from '../enumerate/collector.ts';
import type { EnumerationStats } from '../enumerate/enumerate.ts';
import { decidedAnswers, expectationOutcome } from '../enumerate/expectations.ts';
import { herdNames, herdTestName } from '../enumerate/herd.ts';
import { conditionVerdict } from '../enumerate/outcomes.ts';
import { type Report, tallyStates, withStateTable } from '../enumerate/report.ts';
import type { KhronosAssertion, KhronosPred, VkCond, VkTerm, VulkanTest } from './ast.ts';
import { UNSET } from './events.ts';
import { condOnValues, vkTermLabel } from './front.ts';
import { printVkCond } from './print.ts';

/** What one search of a Vulkan test found (one per chains setting the test needs). */
export interface VkSearchResult {
  collector: Collector;
  stats: EnumerationStats & { racy: number; raceFree: number };
  stop: Report['stop'];
  /** Some recorded execution deadlocks at a barrier. */
  ub: boolean;
  ubReasons: string[];
}

/** Whether a Khronos predicate holds of an execution with (`racy`) or without a data race. */
export function predHolds(p: KhronosPred, racy: boolean): boolean {
  switch (p.kind) {
    case 'consistent':
      return true;
    case 'racefree':
      return !racy;
    case 'racy':
      return racy;
    case 'not':
      return !predHolds(p.arg, racy);
    case 'and':
      return p.args.every((a) => predHolds(a, racy));
    case 'or':
      return p.args.some((a) => predHolds(a, racy));
    default:
      return assertNever(p, 'predicate');
  }
}

/** A Khronos assertion's verdict from the search of its chains setting. */
export function assertionHolds(a: KhronosAssertion, r: VkSearchResult): boolean {
  const sat =
    (r.stats.racy > 0 && predHolds(a.pred, true)) || (r.stats.raceFree > 0 && predHolds(a.pred, false));
  return a.expect === 'SATISFIABLE' ? sat : !sat;
}

/** herd's spelling of a Vulkan condition (`1:r0=1 /\ not (x=2)`). */
function herdVkCond(
  c: VkCond,
  names: ReadonlyMap<string, string>,
  above: 'top' | 'and' | 'or' = 'top',
): string {
  const term = (t: VkTerm) =>
    t.kind === 'const' ? String(t.value) : (names.get(vkTermLabel(t)!) ?? vkTermLabel(t)!);
  switch (c.kind) {
    case 'true':
    case 'false':
      return c.kind;
    case 'cmp': {
      const op = c.op === '==' || c.op === '!=' ? '=' : c.op;
      const atom = `${term(c.lhs)}${op}${term(c.rhs)}`;
      return c.op === '!=' ? `not (${atom})` : atom;
    }
    case 'not':
      return `not (${herdVkCond(c.arg, names)})`;
    case 'and':
    case 'or': {
      if (c.args.length === 0) return c.kind === 'and' ? 'true' : 'false';
      const body = c.args.map((a) => herdVkCond(a, names, c.kind)).join(c.kind === 'and' ? ' /\\ ' : ' \\/ ');
      return above === 'and' && c.kind === 'or' ? `(${body})` : body;
    }
    default:
      return assertNever(c, 'condition');
  }
}

/**
 * MD5 of the test's initial state and code, as herd hashes a test (not its name, comments or
 * condition): of the canonical JSON of its locations, initial registers, threads (placement and
 * instructions, without positions) and system-synchronizes-with pairs.
 */
export function vkTestHash(t: VulkanTest): string {
  const noSpan = (_k: string, v: unknown) => (_k === 'span' ? undefined : v);
  return md5Hex(JSON.stringify([t.locations, t.regInits, t.threads, t.ssw], noSpan));
}

/**
 * Builds the report of a Vulkan test from its main search and, for Khronos `NOCHAINS` lines, the
 * search without availability/visibility chains (`nochains`, or null when the test has none).
 */
export function buildVulkanReport(
  test: VulkanTest,
  main: VkSearchResult,
  nochains: VkSearchResult | null,
  extra: {
    model: Report['model'];
    estimate: number;
    ms: number;
    explanations?: Report['explanations'];
  },
): Report {
  const c = main.collector;
  const labels = c.labels;
  const written = labels.flatMap((l, k) => (l.startsWith('@') ? [k] : []));
  const cond = test.condition ? condOnValues(test.condition.cond, labels) : () => 'true' as const;
  const tally = tallyStates(
    c,
    cond,
    (vals) => written.some((k) => isUndef(vals[k]!)),
    (v) => (v === UNSET ? null : isUndef(v) ? 'undef' : v),
  );
  const verdict = test.condition ? conditionVerdict(test, tally.truths) : null;
  const names = herdNames(test, labels);
  const stop = main.stop === 'done' && nochains && nochains.stop !== 'done' ? nochains.stop : main.stop;
  const complete = stop === 'done';
  const ub = main.ub;
  const flags = { race: tally.race, undef: tally.undef, undefFinal: tally.undefFinal, ub };
  const decided = decidedAnswers(
    complete,
    test.condition && verdict ? { quantifier: test.condition.quantifier, verdict } : null,
    flags,
  );
  const expectations: Report['expectations'] = test.expects.map((e) => {
    const actual =
      e.key === 'condition'
        ? (verdict ?? 'none')
        : e.key === 'race'
          ? tally.race
            ? 'racy'
            : 'race-free'
          : e.key === 'undef'
            ? tally.undef
              ? 'undef'
              : 'no-undef'
            : ub
              ? 'ub'
              : 'no-ub';
    return expectationOutcome(e, actual, decided[e.key]);
  });
  for (const a of test.assertions) {
    const r = a.nochains ? nochains : main;
    const holds = r !== null && assertionHolds(a, r);
    const text = `${a.expect}${a.nochains ? ' NOCHAINS' : ''} ${a.text}`;
    expectations.push({
      key: 'assertion',
      expected: text,
      actual: holds ? text : 'the opposite',
      ok: complete && holds,
      decided: complete,
    });
  }
  const herdText = test.condition ? herdVkCond(test.condition.cond, names) : 'true';
  const q = test.condition?.quantifier;
  const report: Report = {
    test: test.name,
    file: test.file,
    complete,
    stop,
    model: extra.model,
    observables: labels,
    states: [],
    condition: test.condition
      ? {
          text: `${q === 'not exists' ? '~exists' : q} (${printVkCond(test.condition.cond)})`,
          quantifier: test.condition.quantifier,
          verdict: verdict ?? 'unknown',
        }
      : null,
    witnesses: { positive: tally.positive, negative: tally.negative, unknown: tally.unknown },
    flags,
    decided,
    ubReasons: ub ? main.ubReasons : [],
    expectations,
    stats: {
      nodes: main.stats.nodes,
      explored: main.stats.explored,
      consistent: main.stats.consistent,
      estimate: extra.estimate,
      ms: extra.ms,
    },
    explanations: extra.explanations ?? [],
    herd: {
      name: herdTestName(test.name),
      kind: q === 'exists' ? 'Allowed' : q === 'not exists' ? 'Forbidden' : 'Required',
      names: Object.fromEntries(labels.map((l) => [l, names.get(l)!])),
      condition: q ? `${q === 'not exists' ? '~exists' : q} (${herdText})` : 'forall (true)',
      hash: vkTestHash(test),
    },
  };
  return withStateTable(report, tally.table);
}
