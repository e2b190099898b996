/** `--model` names backed by a cat file in gpumm's `models/` (kept apart so start-up stays light). */
export const CAT_MODELS: Record<string, string> = {
  'amdgpu-cat': 'amdgpu.cat',
  rc11: 'rc11.cat',
  'vulkan-cat': 'vulkan.cat',
};
