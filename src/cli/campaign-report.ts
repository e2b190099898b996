/**
 * `gpumm campaign report FILE… [--html FILE] [--json]`: what a campaign's results files say (the
 * shards of one campaign read together), as text, as JSON, and as one standalone HTML page. Also the
 * one reader of results files on disk (`readResultsFiles`: size limit, UTF-8, diagnostics) and the one
 * printer of a summary, which `gpumm campaign` (resume, merge, its closing summary) uses too.
 *
 * Exit status: 2 when a file cannot be read or has a bad line (diagnostics on stderr, nothing on
 * stdout, no page written); 0 otherwise, UNSOUND results or not — a report is not a verdict.
 */

import { statSync } from 'node:fs';
import type { Command } from 'commander';
import { type Results, readResults } from '../campaign/read.ts';
import {
  type CampaignSummary,
  CampaignSummarySchema,
  formatSummary,
  htmlReport,
  summarise,
} from '../campaign/report.ts';
import { diag, fileSpan, hasErrors, type SourceDiagnostic } from '../core/diagnostics.ts';
import { jsonText } from './format.ts';
import { failureWhy, firstInvalidUtf8, maxInputBytes, readAtMost, stderrPrinter } from './io.ts';
import { CliExit, errorLimitOption } from './shared.ts';

const MIB = 1024 * 1024;

/**
 * The least size limit of a results file. A campaign's file grows with it (thousands of tests, tens of
 * checks each), far past the 16 MiB a test file may have; GPUMM_MAX_INPUT raises this limit too.
 */
export const RESULTS_MIN_LIMIT_MIB = 256;

/**
 * Longest file whose text is decoded whole to quote its lines under their diagnostics: below V8's
 * longest string (2^29 − 24 UTF-16 units). The reader itself decodes a line at a time.
 */
const QUOTED_BYTES = 256 * MIB;

/** `bytes` as text for the caret lines of diagnostics, when the file is small enough to quote. */
function quoted(bytes: Buffer): string | undefined {
  return bytes.length <= QUOTED_BYTES ? bytes.toString('utf8') : undefined;
}

/**
 * A results file read (src/campaign/read.ts), or the diagnostic of why it cannot be (CL1001 missing or
 * unreadable, CL1002 a folder, CL1008 too large, CL1005 not UTF-8 before its last line break — a torn
 * last line may end inside a character), each with the file's text for the caret lines when it has
 * diagnostics.
 */
function readResultsFile(
  file: string,
): { results: Results; text?: string } | { diagnostic: SourceDiagnostic; text?: string } {
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
  const bad = firstInvalidUtf8(bytes.subarray(0, bytes.lastIndexOf(0x0a) + 1));
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
    return { diagnostic: diag('CL1005', span, { file, byte, kind }), text: quoted(bytes) };
  }
  const results = readResults(bytes, file);
  return results.diagnostics.length > 0 ? { results, text: quoted(bytes) } : { results };
}

/**
 * Results files read for a command (`campaign report`, `merge`, `run --resume`), every diagnostic
 * printed (warnings too: a torn last line is left out). Exit 2 (a CliExit), once every file is read,
 * when one cannot be read or has an error.
 */
export function readResultsFiles(files: readonly string[], errorLimit?: number): Results[] {
  const printer = stderrPrinter(errorLimit);
  const read: Results[] = [];
  let ok = true;
  for (const file of files) {
    const r = readResultsFile(file);
    if ('diagnostic' in r) {
      printer.print([r.diagnostic], r.text);
      ok = false;
      continue;
    }
    printer.print(r.results.diagnostics, r.text);
    if (hasErrors(r.results.diagnostics)) ok = false;
    read.push(r.results);
  }
  printer.finish();
  if (!ok) throw new CliExit(2);
  return read;
}

/**
 * A campaign summary on stdout, as `formatSummary`'s text or (`json`) as JSON valid per
 * `CampaignSummarySchema`: the one output of `campaign run` and `campaign report`.
 */
export function printSummary(s: CampaignSummary, json: boolean, limit?: number): void {
  process.stdout.write(json ? `${jsonText(CampaignSummarySchema.parse(s))}\n` : formatSummary(s, limit));
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
      const read = readResultsFiles(files, opts.errorLimit);
      const summary = summarise(read);
      // The page first: when it cannot be written, the command fails with nothing on stdout.
      if (opts.html !== undefined) {
        const { writeOut } = await import('./run.ts');
        writeOut(opts.html, htmlReport(read, summary));
      }
      printSummary(summary, opts.json === true);
    });
}
