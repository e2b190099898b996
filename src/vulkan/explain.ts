/**
 * Words for Vulkan executions: why a thread stops at a barrier, and what each axiom of the Vulkan
 * model forbids (`--explain`, for models/vulkan.cat and the fast search alike). No Node APIs here.
 */
import type { VulkanTest } from './ast.ts';
import type { Variant } from './paths.ts';
import { printDat3mInstr } from './print.ts';

/** `P1 waits forever at `cbar…` (file:line)` for each thread a variant leaves blocked. */
export function describeBlocked(test: VulkanTest, v: Variant): string[] {
  return v.blocked.map(({ thread, instr }) => {
    const th = test.threads[thread]!;
    const i = th.body[instr]!;
    return `${th.name} waits forever at \`${printDat3mInstr(i)}\` (${i.span.file}:${i.span.line}): the barrier instance never completes`;
  });
}

/** What breaking each named check of models/vulkan.cat means. */
export const VULKAN_AXIOM_WORDS: Record<string, string> = {
  consistency:
    'location order, scoped modification order, reads-from and from-reads would form a cycle (spec "Acyclicity"; an RMW is one operation)',
  'visible-to': 'a non-atomic read would not read a write visible to it although one is (spec "Visible-To")',
  'co-locord': 'the coherence order would contradict location order between writes',
};
