/**
 * A model's own diagnostics of a test it is to run (an undecidable barrier operation, a test too
 * large for the model, …), printed the way every command that runs a model prints them.
 */
import { UNDECIDED_CODES } from '../enumerate/verdict.ts';
import type { Prepared, Runner } from '../run/runner.ts';
import type { DiagnosticPrinter } from './format.ts';

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
  printer.print(md, text, file);
  if (md.some((d) => !UNDECIDED_CODES.includes(d.code))) return 'bad';
  return md.length > 0 ? 'undecidable' : 'ok';
}
