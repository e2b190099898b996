/** Helpers shared by the subcommands: exit handling and command-line diagnostics. */
import { type CommanderError, InvalidArgumentError, Option } from 'commander';
import { clipQuote, type DiagnosticCode, diag } from '../core/diagnostics.ts';
import type { Span } from '../core/types.ts';
import { DEFAULT_ERROR_LIMIT, formatDiagnostic } from './format.ts';

/** Thrown by a subcommand to end with a status after it has printed what it had to say. */
export class CliExit extends Error {
  constructor(readonly status: number) {
    super(`exit ${status}`);
  }
}

/**
 * A diagnostic for a bad command line, positioned in the command line itself
 * (`<command-line>:1:col`, columns counted in the arguments joined by spaces).
 */
export function commandLineDiagnostic(e: CommanderError, argv: readonly string[]): string {
  const joined = argv.join(' ');
  // Commander quotes the option, then its value ("option '--error-limit <n>' argument 'x' is
  // invalid"): the caret goes under the last quoted word found in order in the command line.
  let bad: string | undefined;
  let col = 1;
  let from = 0;
  for (const m of e.message.matchAll(/'([^']+)'/g)) {
    const word = m[1]!.split(' ')[0]!;
    const at = joined.indexOf(word, from);
    if (at < 0) continue;
    bad = word;
    col = at + 1;
    from = at + word.length;
  }
  const span: Span = { file: '<command-line>', offset: col - 1, line: 1, col, len: bad?.length ?? 0 };
  // Commander's sentence is kept whole; only the command-line text it quotes is cut.
  // Its suggestion comes on a line of its own ("\n(Did you mean run?)"): one line here.
  const what = e.message
    .replace(/^error: /, '')
    .replace(/\s*\n\(Did you mean ([^)?]*)\??\)/, '; did you mean $1?')
    .replace(/'([^']*)'/g, (_, q: string) => `'${clipQuote(q)}'`);
  const fix =
    e.code === 'commander.unknownCommand'
      ? 'commands are listed by gpumm --help'
      : e.code === 'commander.missingArgument'
        ? 'give the litmus files to work on, e.g. litmus/*.litmus'
        : 'see gpumm --help and gpumm <command> --help';
  return formatDiagnostic(diag('CL1003', span, { what, fix }), joined);
}

/**
 * A diagnostic about an option's value, found valid by the option parser but wrong for the input
 * (`--state 7` when the test has 3 states): positioned at the value in the command line.
 */
export function optionValueDiagnostic(
  code: DiagnosticCode,
  argv: readonly string[],
  option: string,
  args: Record<string, string>,
): string {
  const joined = argv.join(' ');
  let col = 1;
  let len = 0;
  let offset = 0;
  for (const [k, a] of argv.entries()) {
    if (a === option && k + 1 < argv.length) {
      col = offset + a.length + 2;
      len = argv[k + 1]!.length;
    } else if (a.startsWith(`${option}=`)) {
      col = offset + option.length + 2;
      len = a.length - option.length - 1;
    }
    offset += a.length + 1;
  }
  const span: Span = { file: '<command-line>', offset: col - 1, line: 1, col, len };
  return formatDiagnostic(diag(code, span, args), joined);
}

/** The command line as diagnostics quote it: the arguments after `gpumm`, joined by spaces. */
export function commandLineText(argv: readonly string[] = process.argv.slice(2)): string {
  return argv.join(' ');
}

/**
 * A span pointing at `word` in the command line: at the first argument that is `word` (or starts
 * with `word=`), else at its first occurrence, else at the start.
 */
export function commandLineSpan(word: string, argv: readonly string[] = process.argv.slice(2)): Span {
  let offset = 0;
  let at = -1;
  for (const a of argv) {
    if (a === word || (word.startsWith('-') && a.startsWith(`${word}=`))) {
      at = offset;
      break;
    }
    offset += a.length + 1;
  }
  if (at < 0 && word !== '') at = commandLineText(argv).indexOf(word);
  const col = Math.max(at, 0) + 1;
  return { file: '<command-line>', offset: col - 1, line: 1, col, len: at < 0 ? 0 : word.length };
}

/**
 * Ends the command with a CL1003 diagnostic about how options are combined, the caret under `word`
 * in the command line.
 */
export function usageError(what: string, fix: string, word: string): never {
  process.stderr.write(
    `${formatDiagnostic(diag('CL1003', commandLineSpan(word), { what, fix }), commandLineText())}\n`,
  );
  throw new CliExit(2);
}

/** An internal error is a bug in gpumm: say so plainly, with where to report it, and exit 70. */
export function reportInternalError(e: unknown): void {
  const msg = e instanceof Error ? e.message : String(e);
  process.stderr.write(
    `gpumm: internal error: ${msg}\n  this is a bug in gpumm; rerun with GPUMM_DEBUG=1 for details\n`,
  );
  if (process.env.GPUMM_DEBUG && e instanceof Error && e.stack) process.stderr.write(`${e.stack}\n`);
  process.exitCode = 70;
}

/** `--error-limit N`, shared by every command that prints diagnostics of litmus files. */
export function errorLimitOption(): Option {
  return new Option(
    '--error-limit <n>',
    'stop printing diagnostics after n errors and count the rest (0: print all)',
  )
    .argParser((v: string) => {
      const n = Number(v);
      if (!/^\d+$/.test(v) || !Number.isSafeInteger(n))
        throw new InvalidArgumentError('expected a number of errors (0 for no limit)');
      return n;
    })
    .default(DEFAULT_ERROR_LIMIT);
}

/** Exit status when standard output cannot be written (sysexits.h EX_IOERR). */
export const EXIT_OUTPUT_FAILED = 74;

/** CL1007 for a failed write to standard output, formatted (`<stdout>` is where it points). */
export function stdoutFailure(e: NodeJS.ErrnoException): string {
  const why =
    e.code === 'ENOSPC' ? 'no space left on the device (ENOSPC)' : `${e.code ?? 'error'} while writing`;
  return formatDiagnostic(diag('CL1007', null, { why }), undefined, '<stdout>');
}
