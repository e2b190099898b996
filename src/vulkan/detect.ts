/**
 * Which syntax a test file is written in, and its parse: gpumm's own LLVM IR syntax (AMDGPU),
 * Dartagnan's Vulkan syntax, or the Khronos `.test` format. Chosen by extension (`.test`: Khronos),
 * then by content: a first line `VULKAN …` (any case Dartagnan accepts) is Dartagnan's syntax, a
 * first directive NEWQF/NEWWG/NEWSG/NEWTHREAD the Khronos format, anything else gpumm's own.
 * No Node APIs here: the web page imports this file.
 */
import type { Test } from '../core/types.ts';
import type { Diagnostic } from '../syntax/diagnostics.ts';
import { parse } from '../syntax/parser.ts';
import type { AnyTest, VkFormat, VulkanTest } from './ast.ts';
import { parseDat3m } from './dat3m.ts';
import { parseKhronos } from './khronos.ts';

export type Syntax = 'gpumm' | VkFormat;

/** The syntax of `text` (from file `file`). */
export function detectSyntax(text: string, file: string): Syntax {
  if (file.endsWith('.test')) return 'khronos';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    if (line.startsWith('//')) continue;
    const word = /^\S+/.exec(line)?.[0] ?? '';
    if (/^(VULKAN|Vulkan|vulkan)$/.test(word)) return 'dat3m';
    if (/^NEW(QF|WG|SG|THREAD)\b/.test(line)) return 'khronos';
    return 'gpumm';
  }
  return 'gpumm';
}

/** Parses a test in whichever syntax it is written. */
export function parseAnyTest(
  text: string,
  file: string,
): { test: AnyTest | null; diagnostics: Diagnostic[]; syntax: Syntax } {
  const syntax = detectSyntax(text, file);
  if (syntax === 'dat3m') return { ...parseDat3m(text, file), syntax };
  if (syntax === 'khronos') return { ...parseKhronos(text, file), syntax };
  const r: { test: Test | null; diagnostics: Diagnostic[] } = parse(text, file);
  return { ...r, syntax };
}

export type { AnyTest, VulkanTest };
