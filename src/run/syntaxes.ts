/**
 * The syntaxes gpumm reads and writes, one entry each: the language a test written in it is in, how
 * a file is recognised as one (its extension, then its first line), how it is read and how a test of
 * its language is printed in it. Detection runs over this table: `.test` is the Khronos format, a
 * first line `VULKAN …` (any case Dartagnan accepts) Dartagnan's syntax, a first directive
 * NEWQF/NEWWG/NEWSG/NEWTHREAD the Khronos format again, anything else gpumm's own. A new syntax is
 * one entry here (and its language's, src/run/registry.ts).
 * No Node APIs here: the web page imports this file.
 */

import type { SourceDiagnostic } from '../core/diagnostics.ts';
import type { Test } from '../core/types.ts';
import { parse } from '../syntax/parser.ts';
import { print } from '../syntax/printer.ts';
import type { AnyTest, VulkanTest } from '../vulkan/ast.ts';
import { parseDat3m } from '../vulkan/dat3m.ts';
import { parseKhronos } from '../vulkan/khronos.ts';
import { printDat3m, printKhronos } from '../vulkan/print.ts';
import type { LanguageId } from './registry.ts';

/** What a printer gives: the text, or null with the diagnostics of what the syntax cannot say. */
export interface Printed {
  text: string | null;
  diagnostics: SourceDiagnostic[];
}

/** The syntaxes' names (one per entry of SYNTAXES). */
export type Syntax = 'gpumm' | 'dat3m' | 'khronos';

export interface SyntaxEntry<T extends AnyTest = AnyTest> {
  id: Syntax;
  /** The language its tests are in (src/run/registry.ts). */
  language: LanguageId;
  /** A file name ending so is in this syntax, whatever it holds. */
  extension: string | null;
  /** The first line that is neither empty nor a `//` comment marks a file of this syntax. */
  firstLine: RegExp | null;
  parse(text: string, file: string): { test: T | null; diagnostics: SourceDiagnostic[] };
  print(test: T): Printed;
}

/** Every syntax. The one with neither an extension nor a first line is a file's that no other claims. */
export const SYNTAXES: readonly SyntaxEntry[] = [
  {
    id: 'gpumm',
    language: 'amdgpu',
    extension: null,
    firstLine: null,
    parse: (text: string, file: string) => parse(text, file),
    print: (t: Test): Printed => ({ text: print(t), diagnostics: [] }),
  } satisfies SyntaxEntry<Test>,
  {
    id: 'dat3m',
    language: 'vulkan',
    extension: null,
    firstLine: /^(VULKAN|Vulkan|vulkan)(\s|$)/,
    parse: parseDat3m,
    print: printDat3m,
  } satisfies SyntaxEntry<VulkanTest>,
  {
    id: 'khronos',
    language: 'vulkan',
    extension: '.test',
    firstLine: /^NEW(QF|WG|SG|THREAD)\b/,
    parse: parseKhronos,
    print: printKhronos,
  } satisfies SyntaxEntry<VulkanTest>,
];

export function isSyntax(name: string): name is Syntax {
  return SYNTAXES.some((s) => s.id === name);
}

/** The entry of syntax `id`. */
export function syntaxEntry(id: Syntax): SyntaxEntry {
  return SYNTAXES.find((s) => s.id === id)!;
}

/** The syntax of `text` (from file `file`). */
export function detectSyntax(text: string, file: string): Syntax {
  for (const s of SYNTAXES) if (s.extension !== null && file.endsWith(s.extension)) return s.id;
  const fallback = SYNTAXES.find((s) => s.extension === null && s.firstLine === null)!.id;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('//')) continue;
    return SYNTAXES.find((s) => s.firstLine?.test(line))?.id ?? fallback;
  }
  return fallback;
}

/** Parses a test in whichever syntax it is written. */
export function parseAnyTest(
  text: string,
  file: string,
): { test: AnyTest | null; diagnostics: SourceDiagnostic[]; syntax: Syntax } {
  const syntax = detectSyntax(text, file);
  return { ...syntaxEntry(syntax).parse(text, file), syntax };
}

/** The syntax a parsed test was written in (and `gpumm parse` prints it back in). */
export function syntaxOfTest(t: AnyTest): Syntax {
  return t.arch === 'VULKAN' ? t.format : 'gpumm';
}

/** `test` printed in its own syntax (the printers' round-trip tests hold it). */
export function printTest(t: AnyTest): Printed {
  return syntaxEntry(syntaxOfTest(t)).print(t);
}

export type { AnyTest, VulkanTest };
