/** Translation into the Vulkan language: an AMDGPU test as a Vulkan test (src/vulkan/from-amdgpu.ts). */
import { isVulkan } from '../vulkan/ast.ts';
import { amdgpuToVulkan } from '../vulkan/from-amdgpu.ts';
import type { LanguageTools } from './lang.ts';

export const VULKAN_TOOLS: LanguageTools = {
  translate(test) {
    if (isVulkan(test)) return { test, diagnostics: [], assumption: null };
    return { ...amdgpuToVulkan(test), assumption: null };
  },
};
