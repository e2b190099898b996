/**
 * The Vulkan options of `gpumm run` and `gpumm compare` (kept apart from the Vulkan engine, which
 * the runner loads only when a Vulkan model runs, so the command line's start-up stays light).
 */
import { type Command, InvalidArgumentError, Option } from 'commander';
import { DEFAULT_UNROLL } from '../vulkan/paths.ts';
import type { DeviceScope } from '../vulkan/translate.ts';

/** The Vulkan options of `gpumm run` and `gpumm compare`, as commander gives them. */
export interface VulkanCliOptions {
  unroll: number;
  avVisChains: boolean;
  vulkanFr: 'dartagnan' | 'literal';
  deviceScope: DeviceScope;
  /** `gpumm run --observe` (compare shows every register). */
  observe?: 'all' | 'condition';
}

function nonNegativeInt(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0)
    throw new InvalidArgumentError('expected a number of iterations (0, 1, …)');
  return n;
}

/** Adds the Vulkan options to a command. */
export function addVulkanOptions(cmd: Command): Command {
  return cmd
    .option(
      '--unroll <n>',
      'Vulkan tests: how many times a loop that is not an await loop may jump back (beyond: undecided)',
      nonNegativeInt,
      DEFAULT_UNROLL,
    )
    .option(
      '--no-av-vis-chains',
      'Vulkan tests: the device does not support availability/visibility chains of more than one element',
    )
    .addOption(
      new Option(
        '--vulkan-fr <mode>',
        "Vulkan tests: from-reads of a read's location-order successors only when it reads a write location-ordered before it (dartagnan), or always (literal; docs/model-vulkan.md)",
      )
        .choices(['dartagnan', 'literal'])
        .default('dartagnan'),
    )
    .addOption(
      new Option(
        '--device-scope <scope>',
        "Vulkan tests under an AMDGPU model: the AMDGPU scope of Vulkan's Device scope (docs/model-vulkan.md)",
      )
        .choices(['system', 'agent'])
        .default('system'),
    );
}
