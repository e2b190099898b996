/**
 * `gpumm campaign report FILE… [--html FILE] [--json]`: what a campaign's results files say (the
 * shards of one campaign read together), as text, as JSON, and as one standalone HTML page.
 *
 * Exit status: 2 when a file cannot be read or has a bad line (diagnostics on stderr, nothing on
 * stdout, no page written); 0 otherwise, UNSOUND results or not — a report is not a verdict.
 */

import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import type { Command } from 'commander';
import {
  CampaignSummarySchema,
  formatSummary,
  htmlReport,
  type ReadStart,
  readResults,
  summarise,
} from '../campaign/report.ts';
import type { Line } from '../campaign/schema.ts';
import { diag, fileSpan, hasErrors, type SourceDiagnostic } from '../core/diagnostics.ts';
import { jsonText } from './format.ts';
import { failureWhy, firstInvalidUtf8, maxInputBytes, stderrPrinter } from './io.ts';
import { CliExit, errorLimitOption } from './shared.ts';

const MIB = 1024 * 1024;

/**
 * The least size limit of a results file. A campaign's file grows with it (thousands of tests, tens of
 * checks each), far past the 16 MiB a test file may have; GPUMM_MAX_INPUT raises this limit too.
 */
export const RESULTS_MIN_LIMIT_MIB = 256;

/**
 * Longest piece of a file decoded as one string: below V8's longest string (2^29 − 24 UTF-16 units),
 * so a file larger than that is read in pieces of whole lines.
 */
const PIECE_BYTES = 256 * MIB;

/** A piece of a results file's text, of whole lines, and where it starts in the file. */
interface Piece {
  text: string;
  start: ReadStart;
}

/** The bytes of `file`, or null when it has more than `limit` (a pipe is read up to `limit` + 1 bytes). */
function readAtMost(file: string, limit: number): Buffer | null {
  const fd = openSync(file, 'r');
  try {
    const st = fstatSync(fd);
    if (st.isFile() && st.size > limit) return null;
    const parts: Buffer[] = [];
    let total = 0;
    for (;;) {
      const piece = Buffer.allocUnsafe(Math.min(16 * MIB, limit + 1 - total));
      const n = readSync(fd, piece, 0, piece.length, null);
      if (n === 0) break;
      parts.push(piece.subarray(0, n));
      total += n;
      if (total > limit) return null;
    }
    return Buffer.concat(parts, total);
  } finally {
    closeSync(fd);
  }
}

/** `bytes` as text in pieces of whole lines, each at most PIECE_BYTES long unless one line is longer. */
function piecesOf(bytes: Buffer): Piece[] {
  const pieces: Piece[] = [];
  const start: ReadStart = { line: 1, offset: 0 };
  let from = 0;
  while (from < bytes.length) {
    let to = bytes.length;
    if (to - from > PIECE_BYTES) {
      const nl = bytes.lastIndexOf(0x0a, from + PIECE_BYTES - 1);
      to = nl >= from ? nl + 1 : bytes.length;
    }
    const text = bytes.subarray(from, to).toString('utf8');
    pieces.push({ text, start: { ...start } });
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) start.line++;
    start.offset += text.length;
    from = to;
  }
  return pieces.length > 0 ? pieces : [{ text: '', start }];
}

/**
 * A results file as text pieces, or the diagnostic of why it cannot be read (CL1001 missing or
 * unreadable, CL1002 a folder, CL1008 too large, CL1005 not UTF-8, with the text for the caret line).
 */
export function readResultsFile(
  file: string,
): { pieces: Piece[] } | { diagnostic: SourceDiagnostic; text?: string } {
  const kind = 'results';
  const limit = Math.max(maxInputBytes(), RESULTS_MIN_LIMIT_MIB * MIB);
  let bytes: Buffer;
  try {
    if (statSync(file).isDirectory()) return { diagnostic: diag('CL1002', fileSpan(file), { file, kind }) };
    const read = readAtMost(file, limit);
    if (read === null)
      return {
        diagnostic: diag('CL1008', fileSpan(file), { file, limit: `${Math.round(limit / MIB)} MiB` }),
      };
    bytes = read;
  } catch (e) {
    const why = failureWhy(e, { ENOENT: 'no such file', EACCES: 'permission denied' }, 'cannot be read');
    return { diagnostic: diag('CL1001', fileSpan(file), { file, why, kind }) };
  }
  const bad = firstInvalidUtf8(bytes);
  if (bad >= 0) {
    const before = bytes.subarray(0, bad).toString('utf8');
    const lineStart = before.lastIndexOf('\n') + 1;
    const span = {
      file,
      offset: before.length,
      line: (before.match(/\n/g)?.length ?? 0) + 1,
      col: before.length - lineStart + 1,
      len: 1,
    };
    const byte = `0x${bytes[bad]!.toString(16).padStart(2, '0')}`;
    const text = bytes.length <= PIECE_BYTES ? bytes.toString('utf8') : undefined;
    return { diagnostic: diag('CL1005', span, { file, byte, kind }), text };
  }
  return { pieces: piecesOf(bytes) };
}

interface ReportCliOptions {
  html?: string;
  json?: boolean;
  errorLimit: number;
}

/** Adds `report FILES… [--html FILE] [--json]` to the `campaign` command. */
export function registerCampaignReport(campaign: Command): void {
  campaign
    .command('report')
    .description(
      "summarise a campaign's results files (the shards of one campaign read together): the model's verdicts, each target's checks, the UNSOUND results, mutation scores and the slowest tests",
    )
    .argument('<files...>', 'results files (gpumm campaign … --out FILE)')
    .option(
      '--html <file>',
      'also write the report as one standalone HTML page: a chart of the verdicts, each UNSOUND result with its test and trace',
    )
    .option('--json', 'print the summary as JSON (schema: CampaignSummarySchema in src/campaign/report.ts)')
    .addOption(errorLimitOption())
    .action(async (files: string[], opts: ReportCliOptions) => {
      const printer = stderrPrinter(opts.errorLimit);
      const lines: Line[] = [];
      let ok = true;
      for (const file of files) {
        const read = readResultsFile(file);
        if ('diagnostic' in read) {
          printer.print([read.diagnostic], read.text);
          ok = false;
          continue;
        }
        for (const piece of read.pieces) {
          const r = readResults(piece.text, file, piece.start);
          // The caret lines quote the file's text, whose offsets are the file's: only one piece has them all.
          printer.print(r.diagnostics, read.pieces.length === 1 ? piece.text : undefined);
          if (hasErrors(r.diagnostics)) ok = false;
          for (const l of r.lines) lines.push(l);
        }
      }
      printer.finish();
      if (!ok) throw new CliExit(2);
      const summary = summarise(lines);
      // The page first: when it cannot be written, the command fails with nothing on stdout.
      if (opts.html !== undefined) {
        const { writeOut } = await import('./run.ts');
        writeOut(opts.html, htmlReport(lines, summary));
      }
      process.stdout.write(
        opts.json ? `${jsonText(CampaignSummarySchema.parse(summary))}\n` : formatSummary(summary),
      );
    });
}
