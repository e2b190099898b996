/**
 * `gpumm serve`: the explorer page on the user's own machine. Binds 127.0.0.1 unless `--host` says
 * otherwise (a non-loopback address only with that flag, and with a warning), and serves nothing but
 * the built page (held in memory), the catalogue — `litmus/`, and the Vulkan tests of
 * `litmus-vulkan/` and `corpus/vulkan-dat3m/`, each file by its name in the catalogue's index, never
 * by a path —, and llc-22's code for a test when llc-22 is installed (one run at a time, small bodies,
 * a time limit). No endpoint reads or writes any other file.
 * Ctrl-C closes the server and every connection, and exits 0.
 */

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Command, InvalidArgumentError } from 'commander';
import { freshBuild, WEB_DIR, WEB_MAIN, WEB_MANIFEST } from '../../bin/bundle.mjs';
import { clipQuote, type Diagnostic, diag, fileSpan, hasErrors } from '../core/diagnostics.ts';
import type { Test } from '../core/types.ts';
import { causeById } from '../lower/causes.ts';
import { compareWithLlc, findLlc } from '../lower/llc.ts';
import { findTarget } from '../lower/targets.ts';
import type { LowerCtx } from '../lower/types.ts';
import { inLanguage } from '../run/runner.ts';
import { detectSyntax, parseAnyTest } from '../run/syntaxes.ts';
import { printInstr } from '../syntax/printer.ts';
import { khronosTestName } from '../vulkan/khronos.ts';
import { formatDiagnostic } from './format.ts';
import { CliExit } from './shared.ts';

/** The package root (this file is src/cli/serve.ts, or dist/cli/… once bundled). */
const ROOT = join(import.meta.dirname, '..', '..');

/** Default port; `--port 0` picks a free one. */
export const DEFAULT_PORT = 8737;
/** Longest request target (path and query) accepted. */
export const MAX_URL = 2048;
/** Largest request body accepted (the llc endpoint's JSON: a test's text and a target). */
export const MAX_BODY = 64 * 1024;
/** Largest request head (Node answers 431 beyond it). */
export const MAX_HEADER = 8 * 1024;
/** llc requests that may wait for the one running (more get 503). */
export const LLC_QUEUE = 4;
/** llc-22 is killed after this long. */
export const LLC_TIMEOUT_MS = 10_000;
/**
 * How long a client may take to send a request's head, and its whole request (head and body, at
 * most MAX_HEADER + MAX_BODY bytes over loopback: milliseconds for a browser), before the server
 * answers 408 and closes the connection; and how often Node looks for such clients. Node's own
 * defaults (60 s, 300 s, every 30 s) are for servers on slow networks: a slowloris client kept a
 * connection of this local tool for about a minute.
 */
export const SERVER_TIMEOUTS = { headersMs: 3_000, requestMs: 5_000, checkEveryMs: 500 };

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.litmus': 'text/plain; charset=utf-8',
  '.test': 'text/plain; charset=utf-8',
};

/**
 * What the page may do: its own scripts and styles only (Graphviz's WebAssembly needs
 * 'wasm-unsafe-eval'; CodeMirror writes style rules), talk only to this server, be framed by nobody.
 */
const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; worker-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/** Whether `host` is a loopback address or name (127.0.0.0/8, ::1, localhost). */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (isIP(h) === 6) return h === '::1' || h === '0:0:0:0:0:0:0:1';
  return false;
}

interface Asset {
  body: Buffer;
  type: string;
  /** Hashed file names never change content: cache them for good. */
  immutable: boolean;
}

/** The built page, read once: path (`/`, `/assets/x.js`) → content. */
function loadAssets(dir: string): Map<string, Asset> {
  const out = new Map<string, Asset>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else {
        const rel = relative(dir, p).split(sep).join('/');
        const ext = e.name.slice(e.name.lastIndexOf('.'));
        out.set(`/${rel}`, {
          body: readFileSync(p),
          type: TYPES[ext] ?? 'application/octet-stream',
          immutable: rel.startsWith('assets/'),
        });
      }
    }
  };
  walk(dir);
  const index = out.get('/index.html');
  if (index) out.set('/', index);
  return out;
}

/**
 * A folder of the catalogue: its tests are served by `prefix` + their path below `dir` (the
 * `litmus/` folder's with no prefix), grouped in the page under `title`.
 */
export interface CatalogueDir {
  group: string;
  title: string;
  dir: string;
  prefix: string;
}

/** The catalogue's folders: gpumm's AMDGPU tests, its Vulkan tests, Dartagnan's Vulkan suite. */
export function catalogueDirs(root: string, litmusDir = join(root, 'litmus')): CatalogueDir[] {
  return [
    { group: 'litmus', title: 'AMDGPU tests (litmus/)', dir: litmusDir, prefix: '' },
    {
      group: 'litmus-vulkan',
      title: 'Vulkan tests (litmus-vulkan/)',
      dir: join(root, 'litmus-vulkan'),
      prefix: 'litmus-vulkan/',
    },
    {
      group: 'corpus/vulkan-dat3m',
      title: "Dartagnan's Vulkan suite (corpus/vulkan-dat3m/)",
      dir: join(root, 'corpus', 'vulkan-dat3m'),
      prefix: 'corpus/vulkan-dat3m/',
    },
  ];
}

/** One catalogue entry: the name it is served by (the only one), its test's name and description. */
interface CatalogueEntry {
  file: string;
  name: string;
  description: string;
  group: string;
  groupTitle: string;
}

/** Every test file (`.litmus`, Khronos `.test`) below `dir`, in name order; none when it does not exist. */
function testFilesIn(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.litmus') || e.name.endsWith('.test')) out.push(p);
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

/**
 * The catalogue's files as they are now (tests added while the server runs show up on the next
 * load): each with the name it is served by and its path.
 */
function catalogueFiles(dirs: readonly CatalogueDir[]): { file: string; path: string; dir: CatalogueDir }[] {
  return dirs.flatMap((d) =>
    testFilesIn(d.dir).map((path) => ({
      file: d.prefix + relative(d.dir, path).split(sep).join('/'),
      path,
      dir: d,
    })),
  );
}

/**
 * The catalogue's index: each file with its test's name and description, read from its first lines
 * as each syntax writes them (`AMDGPU name` / `VULKAN name` then a quoted line; a Khronos `.test`:
 * its file name, then its leading `//` lines).
 */
function catalogue(dirs: readonly CatalogueDir[]): CatalogueEntry[] {
  return catalogueFiles(dirs).map(({ file, path, dir }) => {
    const text = readFileSync(path, 'utf8').slice(0, 2000);
    const head = text.split('\n');
    const khronos = detectSyntax(text, path) === 'khronos';
    const name = khronos
      ? khronosTestName(path)
      : (/^\s*(?:AMDGPU|VULKAN|Vulkan|vulkan)\s+(\S+)/.exec(head[0] ?? '')?.[1] ?? file);
    const description = khronos
      ? head
          .filter((l, k) => l.startsWith('//') && head.slice(0, k).every((x) => x.startsWith('//')))
          .map((l) => l.replace(/^\/\/\s?/, ''))
          .join(' ')
      : (/^\s*"(.*)"\s*$/.exec(head[1] ?? '')?.[1] ?? '');
    return { file, name, description, group: dir.group, groupTitle: dir.title };
  });
}

export interface ServeOptions {
  port: number;
  host: string;
  /** The user named the address with `--host`: only then may it be a non-loopback one. */
  hostGiven: boolean;
  /**
   * Host names besides the loopback ones (and the address `host` itself) that requests may name
   * (`--allow-host`): whatever the address, a request for any other name is refused (421).
   */
  allowHosts?: readonly string[];
  /** The llc the llc endpoint runs: a path, undefined for llc-22 on PATH, null for none. */
  llc: string | null | undefined;
  /**
   * Folder of the built page (default dist/web); the catalogue's folders (default `catalogueDirs`),
   * or the one folder of AMDGPU tests `litmusDir`.
   */
  webDir?: string;
  litmusDir?: string;
  catalogue?: CatalogueDir[];
  /** Default SERVER_TIMEOUTS. */
  timeouts?: typeof SERVER_TIMEOUTS;
}

/** A bad request's status and message (the API answers JSON, the rest plain text). */
/** A request refused (4xx: SRV4001) or not answered (5xx: SRV5001), with its diagnostic. */
class HttpError extends Error {
  readonly diagnostic: Diagnostic;
  constructor(
    readonly status: number,
    what: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(what);
    this.diagnostic = diag(status >= 500 ? 'SRV5001' : 'SRV4001', null, { what });
  }
}

function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: Buffer | string,
  extra: Record<string, string> = {},
) {
  res.writeHead(status, {
    'content-type': type,
    'content-length': String(Buffer.byteLength(body)),
    ...SECURITY_HEADERS,
    ...extra,
  });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

function sendJson(res: ServerResponse, status: number, value: unknown, extra: Record<string, string> = {}) {
  send(res, status, TYPES['.json']!, `${JSON.stringify(value)}\n`, { 'cache-control': 'no-store', ...extra });
}

/** The request body, refused past `MAX_BODY` (by its declared length first, then as it streams). */
function readBody(req: IncomingMessage): Promise<string> {
  const declared = Number(req.headers['content-length'] ?? '0');
  if (declared > MAX_BODY)
    return Promise.reject(new HttpError(413, `request body over ${MAX_BODY} bytes`, { connection: 'close' }));
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    req.on('data', (b: Buffer) => {
      size += b.length;
      if (size > MAX_BODY) {
        // Read no further: the answer goes out, then the connection is closed.
        req.pause();
        reject(new HttpError(413, `request body over ${MAX_BODY} bytes`, { connection: 'close' }));
      } else parts.push(b);
    });
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

/** The lowering context of an llc request's fields, or an HttpError. */
function llcContext(body: Record<string, unknown>): LowerCtx {
  const target = typeof body.target === 'string' ? findTarget(body.target) : null;
  if (!target || target.processor.table === null) throw new HttpError(400, 'unknown target');
  if (!target.processor.llc) throw new HttpError(400, `llc-22 does not accept ${target.name}`);
  const mode = body.mode === 'cu' ? 'cu' : body.mode === 'wgp' ? 'wgp' : null;
  const lang = body.lang === 'opencl' ? 'opencl' : body.lang === 'hsa' ? 'hsa' : null;
  if (!mode || !lang) throw new HttpError(400, 'mode must be cu or wgp, lang hsa or opencl');
  const tgsplit = body.tgsplit === true;
  if (tgsplit && !target.processor.features.tgsplit)
    throw new HttpError(400, 'TgSplit execution mode exists on gfx90a, gfx942 and gfx950');
  return { target, mode, lang, tgsplit };
}

/**
 * The AMDGPU test of an llc request's text, in any syntax `gpumm lower` reads (a Vulkan test as its
 * AMDGPU translation, with `deviceScope` as `--device-scope`), or an HttpError.
 */
async function llcTest(text: string, deviceScope: unknown): Promise<Test> {
  if (deviceScope !== undefined && deviceScope !== 'system' && deviceScope !== 'agent')
    throw new HttpError(400, 'deviceScope must be system or agent');
  const parsed = parseAnyTest(text, 'test.litmus');
  if (!parsed.test || hasErrors(parsed.diagnostics)) throw new HttpError(400, 'the test has errors');
  const r = await inLanguage(parsed.test, 'amdgpu', { deviceScope: deviceScope ?? 'system' });
  if (!r.prepared) throw new HttpError(400, 'the Vulkan test has no AMDGPU translation (see gpumm lower)');
  return r.prepared.test as Test;
}

/** A running server: its address and how to stop it. */
export interface RunningServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

/** Starts the server (the page must be built: see `ensurePage`). */
export async function startServer(opts: ServeOptions): Promise<RunningServer> {
  if (!isLoopback(opts.host) && !opts.hostGiven)
    throw new Error(`refusing to listen on ${opts.host}: a non-loopback address needs --host`);
  const assets = loadAssets(opts.webDir ?? join(ROOT, WEB_DIR));
  const dirs =
    opts.catalogue ??
    (opts.litmusDir ? catalogueDirs(ROOT, opts.litmusDir).slice(0, 1) : catalogueDirs(ROOT));
  const llc = opts.llc === null ? { reason: 'llc is turned off (--no-llc)' } : findLlc(opts.llc);
  // llc-22 runs one request at a time; a few more wait their turn, any beyond get 503.
  let llcQueue: Promise<unknown> = Promise.resolve();
  let llcWaiting = 0;
  // DNS rebinding: a page elsewhere that resolves its own name to this server's address must not
  // reach it, on loopback or not. Requests may name a loopback name or address, the address the
  // server listens on (unless it is a wildcard) and the names given with --allow-host.
  const wildcard = opts.host === '0.0.0.0' || opts.host === '::';
  const allowed = new Set((opts.allowHosts ?? []).map((h) => h.toLowerCase()));
  if (!wildcard) allowed.add(opts.host.toLowerCase());
  const hostOk = (h: string) => isLoopback(h) || allowed.has(h.replace(/^\[|\]$/g, '').toLowerCase());
  const answersTo = [...new Set(['127.0.0.1', 'localhost', ...allowed])].join(', ');

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const raw = req.url ?? '/';
    if (raw.length > MAX_URL) throw new HttpError(414, `request target over ${MAX_URL} characters`);
    let hosts = 0;
    for (let i = 0; i < req.rawHeaders.length; i += 2)
      if (req.rawHeaders[i]!.toLowerCase() === 'host') hosts++;
    if (hosts > 1) throw new HttpError(400, 'more than one Host header');
    const hostHeader = (req.headers.host ?? '').replace(/:\d+$/, '');
    // An absolute-form request target names its host too.
    let targetHost: string | null = null;
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) {
      try {
        targetHost = new URL(raw).hostname;
      } catch {
        throw new HttpError(400, 'malformed request target');
      }
    }
    if (!hostOk(hostHeader) || (targetHost !== null && !hostOk(targetHost)))
      throw new HttpError(421, `this server answers to ${answersTo} only`);
    let path: string;
    try {
      path = decodeURIComponent(new URL(raw, 'http://x').pathname);
    } catch {
      throw new HttpError(400, 'malformed request path');
    }
    if (path.includes('\0') || path.includes('\\')) throw new HttpError(400, 'malformed request path');
    const method = req.method ?? 'GET';
    if (path === '/api/llc') {
      if (method === 'GET' || method === 'HEAD') {
        sendJson(
          res,
          200,
          'reason' in llc
            ? { available: false, reason: llc.reason }
            : { available: true, version: llc.version },
        );
        return;
      }
      if (method !== 'POST') throw new HttpError(405, 'GET or POST', { allow: 'GET, HEAD, POST' });
      if (!(req.headers['content-type'] ?? '').startsWith('application/json'))
        throw new HttpError(415, 'send application/json');
      const text = await readBody(req);
      if ('reason' in llc) throw new HttpError(503, llc.reason);
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        throw new HttpError(400, 'the body is not JSON');
      }
      if (typeof body !== 'object' || body === null || typeof body.text !== 'string')
        throw new HttpError(400, 'expected { text, target, mode, lang, tgsplit, deviceScope? }');
      const ctx = llcContext(body);
      const test = await llcTest(body.text, body.deviceScope);
      // The one running and LLC_QUEUE waiting their turn.
      if (llcWaiting > LLC_QUEUE)
        throw new HttpError(503, 'llc-22 is busy with other requests', { 'retry-after': '1' });
      llcWaiting++;
      // A client that goes away (a closed tab, a newer request from the page) stops its llc run, or
      // keeps it from starting when its turn comes.
      const abandoned = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) abandoned.abort();
      });
      const turn = llcQueue.then(() => compareWithLlc(test, ctx, llc.path, LLC_TIMEOUT_MS, abandoned.signal));
      llcQueue = turn.catch(() => {});
      let rows: Awaited<typeof turn>;
      try {
        rows = await turn;
      } catch (e) {
        throw new HttpError(
          500,
          `llc-22 failed: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`,
        );
      } finally {
        llcWaiting--;
      }
      sendJson(res, 200, {
        version: llc.version,
        rows: rows.map(({ instr, causes, ...r }) => ({
          ...r,
          ir: printInstr(instr),
          causes: causes.map((id) => ({
            id,
            what: id === 'unexplained' ? 'no recorded cause explains it' : causeById(id).what,
          })),
        })),
      });
      return;
    }
    if (method !== 'GET' && method !== 'HEAD')
      throw new HttpError(405, 'only GET and HEAD', { allow: 'GET, HEAD' });
    if (path === '/catalogue/index.json') {
      sendJson(res, 200, catalogue(dirs));
      return;
    }
    if (path.startsWith('/catalogue/')) {
      // By its name in the index only: no path of the request ever reaches the file system.
      const file = path.slice('/catalogue/'.length);
      const entry = catalogueFiles(dirs).find((f) => f.file === file);
      if (!entry) throw new HttpError(404, 'no such test in the catalogue');
      send(res, 200, TYPES['.litmus']!, readFileSync(entry.path), { 'cache-control': 'no-cache' });
      return;
    }
    const asset = assets.get(path);
    if (!asset) throw new HttpError(404, 'not found');
    send(res, 200, asset.type, asset.body, {
      'cache-control': asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
  };

  const timeouts = opts.timeouts ?? SERVER_TIMEOUTS;
  const server = createServer(
    {
      maxHeaderSize: MAX_HEADER,
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      connectionsCheckingInterval: timeouts.checkEveryMs,
    },
    (req, res) => {
      handle(req, res).catch((e: unknown) => {
        const err = e instanceof HttpError ? e : new HttpError(500, 'internal error');
        if (res.headersSent) {
          res.destroy();
          return;
        }
        if ((req.url ?? '').startsWith('/api/'))
          sendJson(
            res,
            err.status,
            { error: err.message, code: err.diagnostic.code, hint: err.diagnostic.hint },
            err.headers,
          );
        else
          send(res, err.status, 'text/plain; charset=utf-8', `${err.status} ${err.message}\n`, err.headers);
        // A body we stopped reading: close the connection rather than read the rest.
        if (err.status === 413) res.on('finish', () => req.socket.destroy());
      });
    },
  );
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : opts.port;
  const shown = isIP(opts.host) === 6 ? `[${opts.host}]` : opts.host;
  return {
    server,
    url: `http://${shown}:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Makes sure the built page is current: built by `npm ci` (the prepare script), rebuilt here when a
 * source changed since (like bin/gpumm.js runs the sources then). Returns a diagnostic when it cannot.
 */
export async function ensurePage(log: (s: string) => void): Promise<string | null> {
  if (freshBuild(ROOT, WEB_MANIFEST, WEB_MAIN)) return null;
  log('gpumm serve: building the page (a source changed since the last build)…\n');
  try {
    const script = join(ROOT, 'scripts', 'build-web.mjs');
    const mod = (await import(pathToFileURL(script).href)) as { buildWeb(root: string): Promise<string> };
    await mod.buildWeb(ROOT);
    return null;
  } catch (e) {
    const why = e instanceof Error ? e.message.split('\n')[0]! : String(e);
    return formatDiagnostic(
      diag('CL1003', fileSpan('<command-line>'), {
        what: `the explorer page could not be built: ${clipQuote(why)}`,
        fix: 'run npm ci (it installs Vite and builds the page), then gpumm serve again',
      }),
    );
  }
}

function portNumber(v: string): number {
  const n = Number(v);
  if (!/^\d+$/.test(v) || n > 65535)
    throw new InvalidArgumentError('expected a port number, 0 to 65535 (0: any free port)');
  return n;
}

function hostNames(v: string): string[] {
  const names = v.split(',');
  if (names.some((n) => !/^[A-Za-z0-9.-]{1,253}$/.test(n) && !isIP(n.replace(/^\[|\]$/g, ''))))
    throw new InvalidArgumentError(
      'expected host names or addresses separated by commas, e.g. gpu-box,gpu-box.lan',
    );
  return names.map((n) => n.replace(/^\[|\]$/g, ''));
}

function hostAddress(v: string): string {
  if (!(isIP(v.replace(/^\[|\]$/g, '')) || /^[A-Za-z0-9.-]{1,253}$/.test(v)))
    throw new InvalidArgumentError('expected an IP address or a host name');
  return v.replace(/^\[|\]$/g, '');
}

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description(
      'serve the explorer page (write a test, see its executions, machine code and hardware check)',
    )
    .option('-p, --port <n>', `port (0: any free port)`, portNumber, DEFAULT_PORT)
    .option(
      '--host <address>',
      'address to listen on (default 127.0.0.1; any other address serves the page to your network)',
      hostAddress,
    )
    .option(
      '--allow-host <names>',
      'host names (comma-separated) requests may name besides localhost and the --host address: the name others reach this machine by',
      hostNames,
    )
    .option('--llc <path>', 'the llc run for the machine-code view (default: llc-22 on PATH)')
    .option('--no-llc', 'no llc-22 column (the server never runs llc)')
    .action(async (opts: { port: number; host?: string; allowHost?: string[]; llc: string | boolean }) => {
      const host = opts.host ?? '127.0.0.1';
      const why = await ensurePage((s) => process.stderr.write(s));
      if (why) {
        process.stderr.write(`${why}\n`);
        throw new CliExit(2);
      }
      if (!isLoopback(host))
        process.stderr.write(
          `gpumm serve: warning: listening on ${host}, not on loopback: anyone who can reach this machine can use the page and make it run llc-22; requests must name ${
            opts.allowHost?.length
              ? opts.allowHost.join(', ')
              : host === '0.0.0.0' || host === '::'
                ? 'localhost (give --allow-host with the name others use)'
                : host
          } or localhost\n`,
        );
      let running: RunningServer;
      try {
        running = await startServer({
          port: opts.port,
          host,
          hostGiven: opts.host !== undefined,
          allowHosts: opts.allowHost ?? [],
          llc: opts.llc === false ? null : typeof opts.llc === 'string' ? opts.llc : undefined,
        });
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        const what =
          code === 'EADDRINUSE'
            ? `port ${opts.port} on ${host} is in use`
            : code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND'
              ? `${host} is not an address of this machine`
              : code === 'EACCES'
                ? `no permission to listen on port ${opts.port}`
                : clipQuote(e instanceof Error ? e.message : String(e));
        process.stderr.write(
          `${formatDiagnostic(
            diag('CL1003', fileSpan('<command-line>'), {
              what: `cannot serve: ${what}`,
              fix:
                code === 'EADDRINUSE'
                  ? 'give another --port, or --port 0 for any free one'
                  : 'see gpumm serve --help',
            }),
          )}\n`,
        );
        throw new CliExit(2);
      }
      process.stdout.write(`${running.url}\n`);
      process.stderr.write('gpumm serve: Ctrl-C stops the server\n');
      await new Promise<void>((resolve) => {
        const stop = () => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          running.close().then(resolve);
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
      process.stderr.write('gpumm serve: stopped\n');
    });
}
