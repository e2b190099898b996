/** `--model` names backed by a cat file in gpumm's `models/` (kept apart so start-up stays light). */
export const CAT_MODELS: Record<string, string> = {
  'amdgpu-cat': 'amdgpu.cat',
  rc11: 'rc11.cat',
  'vulkan-cat': 'vulkan.cat',
};

/** Models of Vulkan tests: the fast search, and models/vulkan.cat (the explorer offers them too). */
export const VULKAN_MODELS = ['vulkan', 'vulkan-cat'] as const;
export type VulkanModel = (typeof VULKAN_MODELS)[number];

export function isVulkanModel(name: string): name is VulkanModel {
  return (VULKAN_MODELS as readonly string[]).includes(name);
}
