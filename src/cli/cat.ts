/**
 * Cat models on the command line: `gpumm run --cat FILE.cat` and `--model amdgpu-cat`. Reads the
 * model (includes resolved beside the including file, then in gpumm's `models/`), reports its
 * diagnostics and those of compiling it against each test (up to `--error-limit` errors), exit
 * status 2 on any.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Model } from '../cat/ast.ts';
import { loadModel } from '../cat/load.ts';
import type { SourceDiagnostic } from '../core/diagnostics.ts';
import { DEFAULT_ERROR_LIMIT, formatDiagnostics } from './format.ts';
import { readSource, stderrPrinter } from './io.ts';
import { CliExit } from './shared.ts';

/** gpumm's own cat models (repository root `models/`), found from a fresh clone. */
export const MODELS_DIR = join(import.meta.dirname, '..', '..', 'models');

export { CAT_MODELS } from '../run/registry.ts';

/**
 * The text of every cat file read (the model and what it includes), so that a diagnostic found
 * when the model is compiled shows the line of the file it is in.
 */
const texts = new Map<string, string>();

/** Prints cat diagnostics, each with its own file's line, up to the error limit, then ends with status 2. */
/**
 * Prints a cat model's diagnostics (each with the text of the file it is in: the model or one it
 * includes) and ends the command with status 2.
 */
export function printAndExit(ds: readonly SourceDiagnostic[], errorLimit: number): never {
  const printer = stderrPrinter(errorLimit);
  for (const d of ds) printer.print([d], texts.get(d.span.file));
  printer.finish();
  throw new CliExit(2);
}

/**
 * Reads and parses a cat file; diagnostics go to stderr (at most `errorLimit` errors, as for litmus
 * files) and end the command with status 2.
 */
export function loadCatFile(file: string, errorLimit = DEFAULT_ERROR_LIMIT): Model {
  const src = readSource(file, 'cat');
  if ('diagnostic' in src) {
    process.stderr.write(`${formatDiagnostics([src.diagnostic], src.text)}\n`);
    throw new CliExit(2);
  }
  texts.set(file, src.text);
  const { model, diagnostics } = loadModel(src.text, file, (name, from) => {
    for (const p of [resolve(dirname(from), name), join(MODELS_DIR, name)]) {
      if (!existsSync(p)) continue;
      // A folder, an unreadable file or one that is not UTF-8: the include's diagnostic says why.
      const got = readSource(p, 'cat');
      if ('diagnostic' in got) return { why: got.why };
      texts.set(p, got.text);
      return { file: p, text: got.text };
    }
    return null;
  });
  if (diagnostics.length > 0) printAndExit(diagnostics, errorLimit);
  return model;
}
