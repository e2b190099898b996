/** Translation into the AMDGPU language: a Vulkan test as an AMDGPU test (src/vulkan/translate.ts). */
import { isVulkan } from '../vulkan/ast.ts';
import { vulkanToAmdgpu } from '../vulkan/translate.ts';
import type { LanguageTools } from './lang.ts';

export const AMDGPU_TOOLS: LanguageTools = {
  translate(test, o) {
    if (!isVulkan(test)) return { test, diagnostics: [], assumption: null };
    return vulkanToAmdgpu(test, o.deviceScope);
  },
};
