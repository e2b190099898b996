/**
 * The test's diagnostics in the editor's shape: the CLI's parsers, run on the page's own thread on
 * every edit (only the front end: the model stays in the worker). The text is read as the CLI reads
 * a file (`parseAnyTest`, src/run/syntaxes.ts): gpumm's own syntax, Dartagnan's Vulkan syntax (a
 * first word `VULKAN`) or the Khronos `.test` format (a first directive `NEWQF`, `NEWWG`, `NEWSG` or
 * `NEWTHREAD`).
 */

import { type Diagnostic, fileSpan, hasErrors } from '../../../src/core/diagnostics.ts';
import { type AnyTest, parseAnyTest, type Syntax } from '../../../src/run/syntaxes.ts';
import type { EditorDiagnostic } from './protocol.ts';

/** The file name diagnostics of the edited test carry. */
export const TEST_FILE = 'test.litmus';
/** A diagnostic of the test (or of a pasted cat file) as the editor places it. */
export function editorDiagnostic(d: Diagnostic, source: 'test' | 'cat'): EditorDiagnostic {
  const span = d.span ?? fileSpan('');
  return {
    code: d.code,
    severity: d.severity,
    message: d.message,
    hint: d.hint ?? '',
    line: span.line,
    col: span.col,
    offset: span.offset,
    len: span.len,
    source,
  };
}

/** Parses the test as the CLI does, in whichever syntax it is written; its diagnostics in the editor's shape. */
export function analyse(text: string): {
  test: AnyTest | null;
  diagnostics: EditorDiagnostic[];
  syntax: Syntax;
} {
  const { test, diagnostics, syntax } = parseAnyTest(text, TEST_FILE);
  const out = diagnostics.map((d) => editorDiagnostic(d, 'test'));
  return { test: test && !hasErrors(diagnostics) ? test : null, diagnostics: out, syntax };
}

/**
 * The test's diagnostics the page shows for `text`: the parser's, and those the last Run found for
 * this same text that the parser does not report (the model's). A Run of a test that does not parse
 * reports the parser's own diagnostics, which must not show twice; a Run of an older text shows
 * nothing of its own.
 */
export function shownDiagnostics(
  text: string,
  run: { text: string; test: readonly EditorDiagnostic[] },
): EditorDiagnostic[] {
  const parsed = analyse(text).diagnostics;
  if (run.text !== text) return parsed;
  const key = (d: EditorDiagnostic) => `${d.code}|${d.offset}|${d.len}`;
  const seen = new Set(parsed.map(key));
  return [...parsed, ...run.test.filter((d) => !seen.has(key(d)))];
}
