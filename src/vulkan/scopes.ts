/**
 * Scope instances of Vulkan invocations (Vulkan spec, "Shaders" chapter, "Scope"; the memory model
 * appendix's memory domains are their duals): which invocations two operations' scope instances
 * hold. No Node APIs here.
 */
import { type VkPlacement, type VkScope, vkScopeRank } from './ast.ts';

/**
 * Rank of the narrowest scope whose instance holds both invocations: 4 for an invocation with
 * itself, 3 for one subgroup, 2 for one workgroup, 1 for one queue family, 0 when they share only
 * the device.
 */
export function shareLevel(a: VkPlacement, ta: number, b: VkPlacement, tb: number): number {
  if (ta === tb) return 4;
  if (a.queueFamily !== b.queueFamily) return 0;
  if (a.workgroup !== b.workgroup) return 1;
  if (a.subgroup !== b.subgroup) return 2;
  return 3;
}

/** Whether an invocation at share level `share` with X is in the instance of X's scope `s`. */
export function inScopeOf(s: VkScope, share: number): boolean {
  return share >= vkScopeRank(s);
}

/** A key naming the instance of scope `s` that holds an invocation placed at `p`. */
export function execInstanceKey(p: VkPlacement, s: VkScope): string {
  switch (s) {
    case 'dv':
      return 'dv';
    case 'qf':
      return `q${p.queueFamily}`;
    case 'wg':
      return `q${p.queueFamily}.w${p.workgroup}`;
    case 'sg':
      return `q${p.queueFamily}.w${p.workgroup}.s${p.subgroup}`;
  }
}
