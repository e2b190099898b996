/**
 * What the front end promises for any input, checked by the fuzz property test
 * (`fuzz.prop.test.ts`) and the longer fuzz run (`bench/fuzz.ts`): parsing never throws, every
 * span lies inside the file with its line and column matching its offset, the caret sits under
 * the text it points at, messages stay short, nothing the terminal would act on is printed, and
 * the error limit is honoured.
 */

import { hasErrors, type SourceDiagnostic } from '../core/diagnostics.ts';
import { lineOfOffset, lineStarts } from '../core/lines.ts';
import { parse } from '../syntax/parser.ts';
import { diagnosticPrinter, escapeText, sourceExcerpt } from './format.ts';

/** Longest message or hint a diagnostic may have (quotes are cut to MAX_QUOTE characters). */
export const MAX_MESSAGE = 600;

/**
 * Characters a terminal acts on (C0 but the line break, DEL, C1, bidirectional controls, line and
 * paragraph separators, byte-order mark) and lone surrogates (`\p{Cs}` with the u flag matches
 * only unpaired ones).
 */
const RAW =
  /[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ufeff]|\p{Cs}/u;

/**
 * A front end under test: reads `text` as `file` and returns its diagnostics, and what else it
 * breaks (a result returned together with errors, say).
 */
export interface FrontEnd {
  file: string;
  read(text: string, file: string): { diagnostics: SourceDiagnostic[]; problems: string[] };
}

/** The litmus front end: a test is returned exactly when there are no errors. */
export const LITMUS_FRONT_END: FrontEnd = {
  file: 'fuzz.litmus',
  read(text, file) {
    const r = parse(text, file);
    const ok = (r.test === null) === hasErrors(r.diagnostics);
    return { diagnostics: r.diagnostics, problems: ok ? [] : ['a test was returned together with errors'] };
  },
};

/** Every broken promise for one input, as readable strings (empty when all hold). */
export function frontEndViolations(
  text: string,
  errorLimit = 20,
  front: FrontEnd = LITMUS_FRONT_END,
): string[] {
  const out: string[] = [];
  const file = front.file;
  let ds: SourceDiagnostic[];
  try {
    const r = front.read(text, file);
    ds = r.diagnostics;
    out.push(...r.problems);
  } catch (e) {
    return [`parse threw: ${e instanceof Error ? e.message : String(e)}`];
  }
  const starts = lineStarts(text);
  // Carets are checked where the user sees them: the diagnostics the limit lets through.
  let caretChecks = errorLimit === 0 ? ds.length : errorLimit;
  for (const d of ds) {
    const s = d.span;
    const where = `${d.code} at ${s.offset}+${s.len}`;
    const inside =
      text.length === 0
        ? s.offset === 0 && s.len === 0
        : s.offset >= 0 && s.offset < text.length && s.len >= 0 && s.offset + s.len <= text.length;
    if (!inside) {
      out.push(`${where}: span outside the file (length ${text.length})`);
      continue;
    }
    const line = lineOfOffset(starts, s.offset);
    if (s.file !== file || s.line !== line + 1 || s.col !== s.offset - starts[line]! + 1)
      out.push(
        `${where}: line ${s.line}, col ${s.col} where the offset is at ${line + 1}:${s.offset - starts[line]! + 1}`,
      );
    if (d.message.length === 0 || d.message.length > MAX_MESSAGE || d.hint.length > MAX_MESSAGE)
      out.push(`${where}: message of ${d.message.length} and hint of ${d.hint.length} characters`);
    const caret = caretChecks-- > 0 ? caretProblem(text, d) : null;
    if (caret) out.push(`${where}: ${caret}`);
  }
  // What the user sees: exactly min(errors, limit) errors, a count of the rest when some are held
  // back, and nothing a terminal would act on.
  let printed = '';
  const printer = diagnosticPrinter(errorLimit, (t) => {
    printed += t;
  });
  printer.print(ds, text);
  printer.finish();
  const raw = RAW.exec(printed);
  if (raw) out.push(`printed text holds raw U+${raw[0].codePointAt(0)!.toString(16).padStart(4, '0')}`);
  const errors = ds.filter((d) => d.severity === 'error').length;
  const shownErrors = printed
    .split('\n')
    .filter((l) => l.startsWith(`${file}:`) && / error [A-Z]{2,3}\d{4}: /.test(l));
  const want = errorLimit === 0 ? errors : Math.min(errors, errorLimit);
  if (shownErrors.length !== want) out.push(`${shownErrors.length} errors printed where ${want} should be`);
  const held = ds.length - printed.split('\n').filter((l) => l.startsWith(`${file}:`)).length;
  if (held > 0 !== /^gpumm: .* not shown/m.test(printed)) out.push(`${held} held back, count line wrong`);
  return out;
}

/** Why the caret under `d` is not under the character its span starts at, or null when it is. */
function caretProblem(text: string, d: SourceDiagnostic): string | null {
  const ex = sourceExcerpt(text, d.span);
  if (!ex) return null;
  const at = ex.caret.indexOf('^');
  if (at < 0) return 'no caret';
  // One column per code point of the shown line (escapes and expanded tabs are ASCII).
  const rest = [...ex.text].slice(at).join('');
  const ch = String.fromCodePoint(text.codePointAt(d.span.offset)!);
  if (ch === '\n' || (ch === '\r' && text[d.span.offset + 1] === '\n')) {
    return rest === '' || rest === '…' ? null : `caret at the end of the line is over '${escapeText(rest)}'`;
  }
  const shown = ch === '\t' ? ' ' : escapeText(ch);
  return rest.startsWith(shown) ? null : `caret over '${escapeText(rest.slice(0, 8))}', not '${shown}'`;
}
