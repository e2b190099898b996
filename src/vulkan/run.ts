/**
 * Running a Vulkan test under the Vulkan model: its front (`front.ts`), a search — the fast one
 * (`search.ts`) or a cat model (`models/vulkan.cat`, or a user's) through the cat enumerator — once
 * per availability/visibility chains setting the test needs (Khronos `NOCHAINS` lines), `--explain`
 * through the cat model, and the report (`report.ts`). The searches run in slices so a caller can
 * interrupt them (Ctrl-C) and show progress. No Node APIs here.
 */
import type { Model } from '../cat/ast.ts';
import { CatEnumeration, DEFAULT_CAT } from '../cat/enumerate.ts';
import { explainFront } from '../cat/report.ts';
import { isUndef } from '../core/values.ts';
import type { Report } from '../enumerate/report.ts';
import { stateText } from '../enumerate/report.ts';
import { type SearchProgress, tick } from '../enumerate/verdict.ts';
import type { VulkanTest } from './ast.ts';
import { UNSET } from './events.ts';
import { describeBlocked, VULKAN_AXIOM_WORDS } from './explain.ts';
import { condOnValues, DEFAULT_VK_FRONT, type VkFront, vulkanFront } from './front.ts';
import { buildVulkanReport, type VkSearchResult } from './report.ts';
import { VkSearch, type VkSearchOptions } from './search.ts';

export interface VkRunOptions extends VkSearchOptions {
  /** `fast`: the fast search (src/vulkan/search.ts); `cat`: `model` through the cat enumerator. */
  engine: 'fast' | 'cat';
  /** The cat model: the one `engine: 'cat'` runs, and the one `--explain` asks (models/vulkan.cat). */
  model: Model | null;
  /** Loops that are not await loops jump back at most this many times. */
  unroll: number;
  /** What a final state shows (`--observe`): every register a read writes, or the condition's terms only. */
  observe: 'all' | 'condition';
  explain: boolean;
}

export const DEFAULT_VK_RUN: VkRunOptions = {
  engine: 'fast',
  model: null,
  unroll: DEFAULT_VK_FRONT.unroll,
  observe: DEFAULT_VK_FRONT.observe,
  chains: true,
  literalFr: false,
  maxExecutions: Number.POSITIVE_INFINITY,
  timeoutMs: Number.POSITIVE_INFINITY,
  maxStates: Number.POSITIVE_INFINITY,
  keepExamples: false,
  explain: false,
};

/** The cat variants (`if "name"`) the options select. */
export function vkVariants(o: Pick<VkRunOptions, 'literalFr'>, chains: boolean): Set<string> {
  const v = new Set<string>();
  if (!chains) v.add('nochains');
  if (o.literalFr) v.add('literal-fr');
  return v;
}

/** A search of one chains setting: the fast search or the cat enumerator, steppable. */
interface Stepper {
  step(budget: number): boolean;
  interrupt(): void;
  progress(): number;
  result(): VkSearchResult;
  readonly collector: VkSearchResult['collector'];
  readonly stats: VkSearchResult['stats'];
}

function stepper(front: VkFront, o: VkRunOptions, chains: boolean): Stepper {
  front.boundReached = false;
  if (o.engine === 'fast')
    return new VkSearch(front, {
      chains,
      literalFr: o.literalFr,
      maxExecutions: o.maxExecutions,
      timeoutMs: o.timeoutMs,
      maxStates: o.maxStates,
      keepExamples: o.keepExamples,
    });
  if (!o.model) throw new Error('a cat run needs a model');
  const en = new CatEnumeration(front, o.model, {
    ...DEFAULT_CAT,
    variants: vkVariants(o, chains),
    maxExecutions: o.maxExecutions,
    timeoutMs: o.timeoutMs,
    maxStates: o.maxStates,
    keepExamples: o.keepExamples,
  });
  return {
    step: (b) => en.step(b),
    interrupt: () => en.interrupt(),
    progress: () => en.progress(),
    collector: en.collector,
    stats: en.stats,
    result: () => ({
      collector: en.collector,
      stats: en.stats,
      stop: front.boundReached && (en.stop ?? 'done') === 'done' ? 'bound' : (en.stop ?? 'interrupted'),
      ub: en.ub,
      ubReasons: [...en.ubVariants].flatMap((v) => describeBlocked(front.vtest, front.variants[v]!)),
    }),
  };
}

/** `--explain`: the candidates the condition selects and the Vulkan cat model rejects, and why. */
export function explainVulkan(test: VulkanTest, front: VkFront, o: VkRunOptions): Report['explanations'] {
  if (!test.condition || !o.model) return [];
  const holds = condOnValues(test.condition.cond, front.labels);
  return explainFront(
    front,
    o.model,
    { ...DEFAULT_CAT, variants: vkVariants(o, o.chains), timeoutMs: o.timeoutMs },
    (vals) => {
      if (holds(vals) !== 'true') return null;
      const values: Record<string, number | 'undef'> = {};
      front.labels.forEach((l, k) => {
        const v = vals[k]!;
        if (v !== UNSET) values[l] = isUndef(v) ? 'undef' : v;
      });
      return stateText(values);
    },
    (name) => VULKAN_AXIOM_WORDS[name],
  );
}

/** What a caller of `runVulkanSliced` may hook into. */
export interface VkRunHooks {
  /** The running search, to interrupt it (Ctrl-C). */
  register?(s: { interrupt(): void }): void;
  onProgress?(p: SearchProgress): void;
}

/** Runs `test` in slices (yielding between them) and builds its report. */
export async function runVulkanSliced(
  test: VulkanTest,
  o: VkRunOptions,
  hooks: VkRunHooks = {},
): Promise<Report> {
  return (await runVulkanSlicedDetailed(test, o, hooks)).report;
}

/** `runVulkanSliced`, with the front and main search (for its executions) as `runVulkanDetailed`. */
export async function runVulkanSlicedDetailed(
  test: VulkanTest,
  o: VkRunOptions,
  hooks: VkRunHooks = {},
): Promise<{ report: Report; front: VkFront; main: VkSearchResult }> {
  const t0 = performance.now();
  const front = vulkanFront(test, { unroll: o.unroll, observe: o.observe });
  const run = async (chains: boolean): Promise<VkSearchResult> => {
    const s = stepper(front, o, chains);
    hooks.register?.(s);
    while (!s.step(1 << 13)) {
      hooks.onProgress?.({
        fraction: s.progress(),
        states: s.collector.size,
        executions: s.stats.consistent,
        elapsedMs: performance.now() - t0,
      });
      // Ctrl-C and progress between slices; setTimeout(0) would wait a millisecond each time.
      await tick();
    }
    return s.result();
  };
  const main = await run(o.chains);
  const nochains = test.assertions.some((a) => a.nochains) ? await run(false) : null;
  return finishRun(test, front, o, main, nochains, t0);
}

/** A run of `test` to the end (or a budget): its report, front and main search (for its executions). */
export function runVulkanDetailed(
  test: VulkanTest,
  o: VkRunOptions,
): { report: Report; front: VkFront; main: VkSearchResult } {
  const t0 = performance.now();
  const front = vulkanFront(test, { unroll: o.unroll, observe: o.observe });
  const run = (chains: boolean): VkSearchResult => {
    const s = stepper(front, o, chains);
    while (!s.step(1 << 16));
    return s.result();
  };
  const main = run(o.chains);
  const nochains = test.assertions.some((a) => a.nochains) ? run(false) : null;
  return finishRun(test, front, o, main, nochains, t0);
}

/**
 * The report of a run whose searches are done: `main`, and `nochains` when the test has assertions
 * about executions without chains; `--explain`'s texts for a complete run.
 */
function finishRun(
  test: VulkanTest,
  front: VkFront,
  o: VkRunOptions,
  main: VkSearchResult,
  nochains: VkSearchResult | null,
  t0: number,
): { report: Report; front: VkFront; main: VkSearchResult } {
  const explanations = o.explain && main.stop === 'done' ? explainVulkan(test, front, o) : [];
  const report = buildVulkanReport(test, main, nochains, {
    model: { noThinAir: false, valueRules: 'literal' },
    estimate: 0,
    ms: performance.now() - t0,
    explanations,
  });
  return { report, front, main };
}

/** Runs `test` to the end (or a budget) and builds its report. */
export function runVulkan(test: VulkanTest, o: VkRunOptions): Report {
  return runVulkanDetailed(test, o).report;
}
