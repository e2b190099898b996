/**
 * A campaign's results file (src/campaign/schema.ts) read: the one reader behind `gpumm campaign
 * --resume`, `campaign merge` and `campaign report`. It takes the file's bytes and touches no file
 * system, so the rules of schema.ts's header comment are kept in one place: a bad line is an error at
 * its place (CL1020: the column of the value at fault, when the JSON parses), a last line cut short by
 * a killed campaign only a warning (CL1021), blank lines nothing.
 */

import { clipQuote, diag, type SourceDiagnostic } from '../core/diagnostics.ts';
import type { Span } from '../core/types.ts';
import { type Header, type Line, LineSchema, type MutationLine, type TestLine } from './schema.ts';

/** The lines of one results file (or of one shard), by kind: what merging and summarising take. */
export interface ResultsLines {
  /** Null when the file holds no header: empty, or its only line cut short (a campaign killed as it started). */
  header: Header | null;
  tests: TestLine[];
  mutations: MutationLine[];
}

/** A results file read: its good lines, a diagnostic for each bad one, and where to cut it to resume. */
export interface Results extends ResultsLines {
  diagnostics: SourceDiagnostic[];
  /** Bytes of whole lines (each with its line break): where a torn last line starts; the file's size when none. */
  validBytes: number;
  /** Where the first mutation line starts, in bytes (`validBytes` when none): a resume with tests left cuts here. */
  mutationsAt: number;
  /** The last line lacks its line break: a write cut short, left out (CL1021). */
  torn: boolean;
}

const NL = 0x0a;
/** Bytes that are not UTF-8 make a line unreadable rather than replacement characters. */
const STRICT = new TextDecoder('utf-8', { fatal: true });
/** A torn line may end inside a character: decoded only to measure its span. */
const LOOSE = new TextDecoder('utf-8');

/** Whether `bytes` are only blanks (spaces, tabs, the \r of a line break written on Windows). */
function blank(bytes: Uint8Array): boolean {
  for (const b of bytes) if (b !== 0x20 && b !== 0x09 && b !== 0x0d) return false;
  return true;
}

/**
 * Reads a results file's bytes (`file` names it in the diagnostics) by the rules of
 * src/campaign/schema.ts. Each line is parsed with `LineSchema`; a line that is not UTF-8, not JSON or
 * not a line of the format is an error at its place (CL1020), and so is a first line that is not the
 * header, a second header, a test line after a mutation line, and an empty file. Bad lines are left
 * out and the rest still read, so every error of a file is shown at once. A last line without its line
 * break is torn (CL1021, a warning): left out, `validBytes` where it starts.
 */
export function readResults(bytes: Uint8Array, file: string): Results {
  const out: Results = {
    header: null,
    tests: [],
    mutations: [],
    diagnostics: [],
    validBytes: 0,
    mutationsAt: -1,
    torn: false,
  };
  let first = true;
  let headerSeen = false;
  let content = false;
  // `at` counts bytes (for truncation); `offset` counts the text's UTF-16 units (for spans).
  let at = 0;
  let offset = 0;
  for (let n = 1; at < bytes.length; n++) {
    const nl = bytes.indexOf(NL, at);
    const raw = bytes.subarray(at, nl < 0 ? bytes.length : nl);
    if (blank(raw)) {
      if (nl < 0) break;
      offset += raw.length + 1;
      at = nl + 1;
      out.validBytes = at;
      continue;
    }
    content = true;
    const span = (col: number, len: number): Span => ({ file, offset: offset + col - 1, line: n, col, len });
    if (nl < 0) {
      out.torn = true;
      out.diagnostics.push(diag('CL1021', span(1, LOOSE.decode(raw).length)));
      break;
    }
    const bad = (col: number, len: number, what: string, fix?: string) =>
      out.diagnostics.push(diag('CL1020', span(col, len), { what, fix }));
    const strict = utf8(raw);
    const body = strict ?? LOOSE.decode(raw);
    if (strict === null) bad(1, body.length, 'it is not UTF-8 text');
    const line = strict === null ? null : parseLine(body, bad);
    if (line === null) {
      // Left out, and reported above.
    } else if (first && line.kind !== 'header')
      bad(1, body.length, `the first line is a ${line.kind} line, not the campaign's header`);
    else if (line.kind === 'header' && headerSeen)
      bad(
        1,
        body.length,
        'a second header',
        'a results file has one header, its first line; to read several shards together, give each file',
      );
    else if (line.kind === 'test' && out.mutations.length > 0)
      bad(
        1,
        body.length,
        'a test line after the mutation lines',
        'a campaign writes its mutation lines last',
      );
    else if (line.kind === 'header') out.header = line;
    else if (line.kind === 'test') out.tests.push(line);
    else {
      if (out.mutations.length === 0) out.mutationsAt = at;
      out.mutations.push(line);
    }
    if (line?.kind === 'header') headerSeen = true;
    first = false;
    offset += body.length + 1;
    at = nl + 1;
    out.validBytes = at;
  }
  if (out.mutationsAt < 0) out.mutationsAt = out.validBytes;
  if (!content)
    out.diagnostics.push(
      diag(
        'CL1020',
        { file, offset: 0, line: 1, col: 1, len: 0 },
        { what: "the file is empty: a results file starts with the campaign's header" },
      ),
    );
  return out;
}

/** `bytes` as text, or null when they are not UTF-8. */
function utf8(bytes: Uint8Array): string | null {
  try {
    return STRICT.decode(bytes);
  } catch {
    return null;
  }
}

/** One line's text parsed, or null after a CL1020 (through `bad`) at the place at fault. */
function parseLine(body: string, bad: (col: number, len: number, what: string) => void): Line | null {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (e) {
    const why = jsonWhy(e);
    bad(why.col ?? 1, why.col === undefined ? body.length : 1, `it is not JSON (${why.text})`);
    return null;
  }
  const parsed = LineSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const { col, len } = locate(body, issue.path);
  bad(col, len, `${pathText(issue.path)}: ${formatWhy(issue.path, issue.message, json)}`);
  return null;
}

/** A JSON syntax error's reason without the line it quotes (V8 quotes the whole input), and its column. */
function jsonWhy(e: unknown): { text: string; col?: number } {
  const msg = e instanceof Error ? e.message : String(e);
  const pos = /at position (\d+)/.exec(msg);
  const text = msg
    .replace(/, ".*" is not valid JSON$/s, '')
    .replace(/ in JSON at position \d+.*$/s, '')
    .replace(/ after JSON$/, ' after the value');
  return { text: clipQuote(text), col: pos ? Number(pos[1]) + 1 : undefined };
}

/** A format version other than this reader's gets a message of its own: the schema would only say "expected 1". */
function formatWhy(path: readonly PropertyKey[], message: string, json: unknown): string {
  if (path.length === 1 && path[0] === 'format' && typeof json === 'object' && json !== null) {
    const v = (json as { format?: unknown }).format;
    return `format ${clipQuote(JSON.stringify(v) ?? 'none', 20)}, but this gpumm reads format 1 only (rerun the campaign, or report with the gpumm that wrote it)`;
  }
  return message;
}

/** `checks[2].forbidden.trace`: a zod issue's path as a person reads it; the line itself when empty. */
function pathText(path: readonly PropertyKey[]): string {
  if (path.length === 0) return 'the line';
  let out = '';
  for (const k of path)
    out += typeof k === 'number' ? `[${k}]` : `${out === '' ? '' : '.'}${clipQuote(String(k), 40)}`;
  return out;
}

/**
 * The 1-based column and length of the value at `path` in `json` (valid JSON): as deep as the path
 * can be followed (a missing key points at its object's opening brace). Written apart from JSON.parse
 * because JSON.parse forgets where each value was.
 */
function locate(json: string, path: readonly PropertyKey[]): { col: number; len: number } {
  let i = skipWs(json, 0);
  for (const key of path) {
    const open = json[i];
    let found = -1;
    if (open === '{' && typeof key === 'string') {
      let j = skipWs(json, i + 1);
      while (j < json.length && json[j] === '"') {
        const keyEnd = skipValue(json, j);
        const name = JSON.parse(json.slice(j, keyEnd)) as string;
        const v = skipWs(json, skipWs(json, keyEnd) + 1);
        if (name === key) {
          found = v;
          break;
        }
        j = skipWs(json, skipWs(json, skipValue(json, v)) + 1);
      }
    } else if (open === '[' && typeof key === 'number') {
      let j = skipWs(json, i + 1);
      for (let k = 0; j < json.length && json[j] !== ']'; k++) {
        if (k === key) {
          found = j;
          break;
        }
        j = skipWs(json, skipWs(json, skipValue(json, j)) + 1);
      }
    }
    if (found < 0) return { col: i + 1, len: 1 };
    i = found;
  }
  return { col: i + 1, len: Math.max(1, skipValue(json, i) - i) };
}

function skipWs(s: string, i: number): number {
  while (i < s.length && (s[i] === ' ' || s[i] === '\t' || s[i] === '\r' || s[i] === '\n')) i++;
  return i;
}

/** The index just past the JSON value starting at `i` (the text is known to be valid JSON). */
function skipValue(s: string, i: number): number {
  const c = s[i];
  if (c === '"') {
    let j = i + 1;
    while (j < s.length && s[j] !== '"') j += s[j] === '\\' ? 2 : 1;
    return j + 1;
  }
  if (c === '{' || c === '[') {
    const close = c === '{' ? '}' : ']';
    let j = skipWs(s, i + 1);
    while (j < s.length && s[j] !== close) {
      j = skipWs(s, skipValue(s, j));
      // An object member: the key was skipped above, then comes `: value`.
      if (s[j] === ':') j = skipWs(s, skipValue(s, skipWs(s, j + 1)));
      if (s[j] === ',') j = skipWs(s, j + 1);
    }
    return j + 1;
  }
  let j = i;
  while (j < s.length && !',}] \t\r\n'.includes(s[j]!)) j++;
  return j;
}
