/**
 * The Vulkan memory model's engines (src/vulkan/run.ts): the fast search and a cat model through
 * the cat engine, each run once per availability/visibility chains setting the test needs;
 * `--explain` through the cat model (models/vulkan.cat for the fast search). No Node APIs here.
 */
import type { Model } from '../cat/ast.ts';
import { compileModel } from '../cat/eval.ts';
import type { VkCond, VulkanTest } from '../vulkan/ast.ts';
import { buildVulkanPrimitives } from '../vulkan/cat-primitives.ts';
import { describeVkEvent, vulkanFront } from '../vulkan/front.ts';
import {
  DEFAULT_VK_RUN,
  runVulkan,
  runVulkanSlicedDetailed,
  type VkRunOptions,
  vkVariants,
} from '../vulkan/run.ts';
import type { Budgets, Engine, RunSettings } from './engine.ts';

/** `values` (a final state over the labels it names) as a condition of `test`. */
function vulkanCond(values: Record<string, number>, test: VulkanTest): VkCond {
  const span = test.condition?.span ?? { file: test.file, offset: 0, line: 1, col: 1, len: 0 };
  return {
    kind: 'and',
    args: Object.entries(values).map(([l, v]) => {
      const lhs = l.startsWith('@')
        ? { kind: 'mem' as const, loc: l.slice(1), span }
        : {
            kind: 'reg' as const,
            thread: l.slice(0, l.indexOf(':')),
            reg: l.slice(l.indexOf(':') + 1),
            span,
          };
      return {
        kind: 'cmp' as const,
        op: '==' as const,
        lhs,
        rhs: { kind: 'const' as const, value: v, span },
      };
    }),
  };
}

/** The Vulkan run options the settings select. */
export function vkOptionsOf(
  s: RunSettings,
  engine: 'fast' | 'cat',
  model: Model | null,
  budgets: Partial<Budgets> = {},
): VkRunOptions {
  return {
    ...DEFAULT_VK_RUN,
    ...budgets,
    engine,
    model,
    unroll: s.vulkan.unroll,
    observe: s.observe,
    chains: s.vulkan.chains,
    literalFr: s.vulkan.literalFr,
    keepExamples: s.keepExamples,
    explain: s.explain,
  };
}

function vulkanEngine(kind: 'fast' | 'cat'): Engine {
  return {
    features: { spread: false, graph: false },
    diagnose: () => [],
    compile(cat, t, s) {
      const front = vulkanFront(t as VulkanTest, { unroll: s.vulkan.unroll, observe: s.observe });
      if (front.variantCount === 0) return [];
      const variants = vkVariants({ literalFr: s.vulkan.literalFr }, s.vulkan.chains);
      return compileModel(cat, buildVulkanPrimitives(front.skeleton(0)).prims, variants).diagnostics;
    },
    async run(t, cat, s, budgets, hooks) {
      if (kind === 'cat' && !cat) throw new Error('a cat engine runs a cat model');
      const { report, front, main } = await runVulkanSlicedDetailed(
        t as VulkanTest,
        vkOptionsOf(s, kind, cat, budgets),
        hooks,
      );
      return {
        report,
        collector: main.collector,
        describe(id) {
          const ex = main.collector.exampleOf(id);
          if (ex.variant < 0) return [];
          const sk = front.skeleton(ex.variant);
          return sk.reads.map((r) => {
            const src = ex.rf[r]!;
            return `${describeVkEvent(sk, r)} reads ${src >= 0 ? describeVkEvent(sk, src) : 'undef'}`;
          });
        },
      };
    },
    why(t, cat, values, s) {
      const test = t as VulkanTest;
      const probe: VulkanTest = {
        ...test,
        condition: {
          quantifier: 'exists',
          cond: vulkanCond(values, test),
          span: test.condition?.span ?? test.threads[0]!.span,
        },
      };
      return runVulkan(probe, { ...vkOptionsOf(s, 'fast', cat), explain: true }).explanations.map(
        (x) => x.text,
      );
    },
  };
}

export const VULKAN_FAST = vulkanEngine('fast');
export const VULKAN_CAT = vulkanEngine('cat');
