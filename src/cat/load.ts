/**
 * Loading a cat model: parses a file and splices in its includes (read through a caller-supplied
 * reader, so this file stays free of Node APIs for the web page).
 */
import type { SourceDiagnostic } from '../core/diagnostics.ts';
import { diag } from '../core/diagnostics.ts';
import type { Instr, Model } from './ast.ts';
import { parseCat } from './parser.ts';
import { BUILTIN_INCLUDES } from './prelude.ts';

/**
 * Reads an included file: `name` as written, `from` the including file; null when not found, `why`
 * when found but not readable as a cat model (a folder, not UTF-8 text, …).
 */
export type IncludeReader = (
  name: string,
  from: string,
) => { file: string; text: string } | { why: string } | null;

/** Parses `text` (from `file`) and every file it includes, depth first, each once. */
export function loadModel(
  text: string,
  file: string,
  read: IncludeReader,
): { model: Model; diagnostics: SourceDiagnostic[] } {
  const diagnostics: SourceDiagnostic[] = [];
  const done = new Set<string>();
  const expand = (src: string, f: string, stack: string[]): { title: string; instrs: Instr[] } => {
    const r = parseCat(src, f);
    // One at a time: a spread of 100 000 arguments overflows the stack.
    for (const d of r.diagnostics) diagnostics.push(d);
    const out: Instr[] = [];
    for (const ins of r.model.instrs) {
      if (ins.kind !== 'include') {
        out.push(ins);
        continue;
      }
      const got = read(ins.file, f);
      if (!got) {
        // herd7's standard library and coherence generator: gpumm provides what they bind
        // (prelude.ts) and enumerates every coherence order itself.
        if (BUILTIN_INCLUDES.includes(ins.file)) continue;
        diagnostics.push(diag('CAT3004', ins.span, { file: ins.file, why: 'no such file' }));
        continue;
      }
      if ('why' in got) {
        diagnostics.push(diag('CAT3004', ins.span, { file: ins.file, why: got.why }));
        continue;
      }
      if (stack.includes(got.file)) {
        diagnostics.push(diag('CAT3005', ins.span, { file: ins.file }));
        continue;
      }
      // herd7 reads a file included twice once.
      if (done.has(got.file)) continue;
      done.add(got.file);
      for (const x of expand(got.text, got.file, [...stack, got.file]).instrs) out.push(x);
    }
    return { title: r.model.title, instrs: out };
  };
  done.add(file);
  const m = expand(text, file, [file]);
  return { model: { title: m.title, instrs: m.instrs }, diagnostics };
}
