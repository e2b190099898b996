/**
 * Running a Vulkan test under the Vulkan model: its front (`front.ts`), a search — the fast one
 * (`search.ts`) or a cat model (`models/vulkan.cat` or a user's) through the cat enumerator — once
 * per availability/visibility chains setting the test needs (Khronos `NOCHAINS` lines), and the
 * report (`report.ts`). No Node APIs here.
 */
import type { Model } from '../cat/ast.ts';
import { CatEnumeration, DEFAULT_CAT } from '../cat/enumerate.ts';
import type { Report } from '../enumerate/report.ts';
import type { VulkanTest } from './ast.ts';
import { describeBlocked } from './explain.ts';
import { DEFAULT_VK_FRONT, type VkFront, vulkanFront } from './front.ts';
import { buildVulkanReport, type VkSearchResult } from './report.ts';
import { VkSearch } from './search.ts';

export interface VkRunOptions {
  /** The cat model to run (models/vulkan.cat, or a user's). */
  model: Model;
  /** Loops that are not await loops jump back at most this many times. */
  unroll: number;
  /** Availability/visibility chains of more than one element (off: `--no-av-vis-chains`). */
  chains: boolean;
  /** From-reads as the spec's sentence reads for every read (docs/model-vulkan.md, choice "fr"). */
  literalFr: boolean;
  maxExecutions: number;
  timeoutMs: number;
  maxStates: number;
  keepExamples: boolean;
  explain: boolean;
}

export const DEFAULT_VK_RUN: Omit<VkRunOptions, 'model'> = {
  unroll: DEFAULT_VK_FRONT.unroll,
  chains: true,
  literalFr: false,
  maxExecutions: Number.POSITIVE_INFINITY,
  timeoutMs: Number.POSITIVE_INFINITY,
  maxStates: Number.POSITIVE_INFINITY,
  keepExamples: true,
  explain: false,
};

/** The cat variants (`if "name"`) the options select. */
export function vkVariants(o: Pick<VkRunOptions, 'chains' | 'literalFr'>, chains = o.chains): Set<string> {
  const v = new Set<string>();
  if (!chains) v.add('nochains');
  if (o.literalFr) v.add('literal-fr');
  return v;
}

/** One search of `front` with the chains setting `chains`. */
export function searchCat(front: VkFront, o: VkRunOptions, chains: boolean): VkSearchResult {
  front.boundReached = false;
  const en = new CatEnumeration(front, o.model, {
    ...DEFAULT_CAT,
    variants: vkVariants(o, chains),
    maxExecutions: o.maxExecutions,
    timeoutMs: o.timeoutMs,
    maxStates: o.maxStates,
    keepExamples: o.keepExamples,
  }).run();
  const stop = front.boundReached && (en.stop ?? 'done') === 'done' ? 'bound' : (en.stop ?? 'interrupted');
  return {
    collector: en.collector,
    stats: en.stats,
    stop,
    ub: en.ub,
    ubReasons: [...en.ubVariants].flatMap((v) => describeBlocked(front.vtest, front.variants[v]!)),
  };
}

/** Runs `test` under a cat model and builds its report. */
export function runVulkanCat(test: VulkanTest, o: VkRunOptions): Report {
  const t0 = performance.now();
  const front = vulkanFront(test, { unroll: o.unroll });
  const main = searchCat(front, o, o.chains);
  const nochains = test.assertions.some((a) => a.nochains) ? searchCat(front, o, false) : null;
  return buildVulkanReport(test, main, nochains, {
    model: { noThinAir: false, valueRules: 'literal' },
    estimate: 0,
    ms: performance.now() - t0,
  });
}

/** One search of `front` by the fast search. */
export function searchFast(front: VkFront, o: Omit<VkRunOptions, 'model'>, chains: boolean): VkSearchResult {
  front.boundReached = false;
  return new VkSearch(front, {
    chains,
    literalFr: o.literalFr,
    maxExecutions: o.maxExecutions,
    timeoutMs: o.timeoutMs,
    maxStates: o.maxStates,
    keepExamples: o.keepExamples,
  })
    .run()
    .result();
}

/** Runs `test` under the Vulkan model with the fast search and builds its report. */
export function runVulkanFast(test: VulkanTest, o: Omit<VkRunOptions, 'model'>): Report {
  const t0 = performance.now();
  const front = vulkanFront(test, { unroll: o.unroll });
  const main = searchFast(front, o, o.chains);
  const nochains = test.assertions.some((a) => a.nochains) ? searchFast(front, o, false) : null;
  return buildVulkanReport(test, main, nochains, {
    model: { noThinAir: false, valueRules: 'literal' },
    estimate: 0,
    ms: performance.now() - t0,
  });
}
