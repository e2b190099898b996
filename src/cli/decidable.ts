/**
 * A model's own diagnostics of a test it is to run (an undecidable barrier operation, a test too
 * large for the model, …), printed the way every command that runs a model prints them.
 */
import { MODEL_HINTS, UNDECIDED_CODES } from '../enumerate/verdict.ts';
import type { ModelDiagnostic } from '../events/skeleton.ts';
import type { Prepared, Runner } from '../run/runner.ts';
import type { DiagnosticPrinter, Printable } from './format.ts';
import { fileSpan } from './io.ts';

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
 * Whether `runner`'s model can decide `p` (read from `file`, whose text is `text`). Its diagnostics
 * go to `printer`: `bad` when one of them is bad input (exit 2), `undecidable` when the model cannot
 * decide the test yet (exit 3).
 */
export function decidable(
  runner: Pick<Runner, 'diagnose'>,
  p: Prepared,
  file: string,
  text: string,
  printer: DiagnosticPrinter,
): 'ok' | 'bad' | 'undecidable' {
  const md = runner.diagnose(p);
  printer.print(
    md.map((d) => printableModelDiagnostic(d, file)),
    text,
  );
  if (md.some((d) => !UNDECIDED_CODES.includes(d.code))) return 'bad';
  return md.length > 0 ? 'undecidable' : 'ok';
}
