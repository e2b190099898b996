/**
 * Vulkan tests on the command line: which model a test runs under (the one its syntax implies by
 * default), translating between Vulkan and AMDGPU tests when the model is the other one's, the
 * Vulkan options of `gpumm run` and `gpumm compare`, and the checks of a cat model against a
 * Vulkan test. Loaded only when a Vulkan test or model is on the command line.
 */

import { join } from 'node:path';
import type { Model } from '../cat/ast.ts';
import { compileModel } from '../cat/eval.ts';
import type { Cond, Test } from '../core/types.ts';
import type { Diagnostic } from '../syntax/diagnostics.ts';
import { type AnyTest, isVulkan, type VulkanTest } from '../vulkan/ast.ts';
import { buildVulkanPrimitives } from '../vulkan/cat-primitives.ts';
import { buildVkSkeleton } from '../vulkan/events.ts';
import { amdgpuToVulkan } from '../vulkan/from-amdgpu.ts';
import { variantsOf } from '../vulkan/paths.ts';
import { DEFAULT_VK_RUN, type VkRunOptions, vkVariants } from '../vulkan/run.ts';
import { type DeviceScope, vulkanToAmdgpu } from '../vulkan/translate.ts';
import { printAndExit } from './cat.ts';
import { DEFAULT_ERROR_LIMIT, formatDiagnostics } from './format.ts';
import type { VulkanCliOptions } from './vulkan-options.ts';

export { isVulkanModel, VULKAN_MODELS, type VulkanModel } from './cat-models.ts';

/** gpumm's Vulkan cat model (repository root `models/`). */
export const VULKAN_CAT = join(import.meta.dirname, '..', '..', 'models', 'vulkan.cat');

/** The Vulkan run options the command line selects. */
export function vkRunOptions(o: VulkanCliOptions, base: Partial<VkRunOptions> = {}): VkRunOptions {
  return {
    ...DEFAULT_VK_RUN,
    ...base,
    unroll: o.unroll,
    observe: o.observe ?? 'all',
    chains: o.avVisChains !== false,
    literalFr: o.vulkanFr === 'literal',
  };
}

/** The diagnostics of a translation, printed; false when one is an error. */
function report(ds: Diagnostic[], text: string): boolean {
  if (ds.length > 0) process.stderr.write(`${formatDiagnostics(ds, text)}\n`);
  return !ds.some((d) => d.severity === 'error');
}

/** `test` as an AMDGPU test (translating a Vulkan one), or null after printing why not. */
export function asAmdgpu(test: AnyTest, text: string, deviceScope: DeviceScope): Test | null {
  return asAmdgpuAssuming(test, text, deviceScope)?.test ?? null;
}

/**
 * `test` as an AMDGPU test with the assumption its final states must satisfy to be final states of
 * the Vulkan test (src/vulkan/translate.ts), or null after printing why not.
 */
export function asAmdgpuAssuming(
  test: AnyTest,
  text: string,
  deviceScope: DeviceScope,
): { test: Test; assumption: Cond | null } | null {
  if (!isVulkan(test)) return { test, assumption: null };
  const r = vulkanToAmdgpu(test, deviceScope);
  return report(r.diagnostics, text) && r.test ? { test: r.test, assumption: r.assumption } : null;
}

/** `test` as a Vulkan test (translating an AMDGPU one), or null after printing why not. */
export function asVulkan(test: AnyTest, text: string): VulkanTest | null {
  if (isVulkan(test)) return test;
  const r = amdgpuToVulkan(test);
  return report(r.diagnostics, text) ? r.test : null;
}

/** Compiles `model` against the primitives of each Vulkan test; a diagnostic ends with status 2. */
export function checkCatAgainstVulkan(
  model: Model,
  tests: readonly VulkanTest[],
  o: Pick<VkRunOptions, 'literalFr' | 'chains' | 'unroll'>,
  errorLimit = DEFAULT_ERROR_LIMIT,
): void {
  for (const t of tests.slice(0, 1)) {
    const { variants } = variantsOf(t, o.unroll);
    if (variants.length === 0) continue;
    const sk = buildVkSkeleton(t, variants[0]!);
    const c = compileModel(model, buildVulkanPrimitives(sk).prims, vkVariants(o, o.chains));
    if (c.diagnostics.length > 0) printAndExit(c.diagnostics, errorLimit);
  }
}
