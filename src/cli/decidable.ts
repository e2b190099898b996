/**
 * The model's own diagnostics of parsed tests (an undecidable barrier operation, a test too large
 * for the model, …), printed the way every command that runs the model prints them.
 */
import type { Test } from '../core/types.ts';
import { MODEL_HINTS, modelDiagnostics, UNDECIDED_CODES } from '../enumerate/verdict.ts';
import type { ModelDiagnostic } from '../events/skeleton.ts';
import type { DiagnosticPrinter, Printable } from './format.ts';
import { fileSpan, type LoadedTest } from './io.ts';

/** A model diagnostic in the shape the terminal formatter prints (a test-wide one points at line 1). */
export function printableModelDiagnostic(d: ModelDiagnostic, file: string): Printable {
  return {
    code: d.code,
    severity: 'error',
    message: d.message,
    hint: MODEL_HINTS[d.code],
    span: d.span ?? fileSpan(file),
  };
}

/**
 * The tests the model can decide. Every other test's diagnostics go to `printer`: `bad` when one of
 * them is bad input (exit 2), `undecidable` when the model cannot decide it yet (exit 3).
 */
export function decidableTests(
  loaded: readonly LoadedTest[],
  printer: DiagnosticPrinter,
): { tests: Test[]; bad: boolean; undecidable: boolean } {
  const tests: Test[] = [];
  let bad = false;
  let undecidable = false;
  for (const { file, text, test } of loaded) {
    const md = modelDiagnostics(test);
    printer.print(
      md.map((d) => printableModelDiagnostic(d, file)),
      text,
    );
    if (md.some((d) => !UNDECIDED_CODES.includes(d.code))) bad = true;
    else if (md.length > 0) undecidable = true;
    else tests.push(test);
  }
  return { tests, bad, undecidable };
}
