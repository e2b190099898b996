import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIAGNOSTICS } from '../core/diagnostics.ts';
import { findLlc } from '../lower/llc.ts';
import {
  isLoopback,
  LLC_QUEUE,
  MAX_BODY,
  MAX_URL,
  type RunningServer,
  SERVER_TIMEOUTS,
  startServer,
} from './serve.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'gpumm.js');

/** Sends `request` as written (no URL normalisation on the way) and returns the status and body. */
function raw(
  port: number,
  request: string | Buffer,
): Promise<{ status: number; head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const sock = connect(port, '127.0.0.1');
    let data = '';
    sock.on('data', (b) => {
      data += b.toString('latin1');
    });
    sock.on('error', (e) => (data ? undefined : reject(e)));
    sock.on('close', () => {
      const [head = '', body = ''] = data.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1] ?? 0), head, body });
    });
    sock.write(request);
  });
}

const get = (port: number, path: string, headers = '') =>
  raw(port, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${headers}Connection: close\r\n\r\n`);

/**
 * A server whose llc is a stand-in script in `dir`: it answers `--version` as llc-22 with an AMDGPU
 * backend does, and runs `body` for each compilation.
 */
async function serveWithLlc(dir: string, body: string): Promise<RunningServer> {
  const fake = join(dir, `llc-${Math.random().toString(36).slice(2)}`);
  writeFileSync(
    fake,
    `#!/bin/sh\nif [ "$1" = --version ]; then echo 'LLVM version 22.1.8'; echo '  amdgcn - AMD GCN GPUs'; exit 0; fi\n${body}\n`,
    { mode: 0o755 },
  );
  return startServer({ port: 0, host: '127.0.0.1', hostGiven: false, llc: fake, webDir: join(dir, 'web') });
}

describe('gpumm serve', () => {
  let srv: RunningServer;
  let port: number;
  let dir: string;

  beforeAll(async () => {
    // A built page of our own and, beside it, a file nobody may read through the server.
    dir = mkdtempSync(join(tmpdir(), 'gpumm-serve-'));
    const web = join(dir, 'web');
    mkdirSync(join(web, 'assets'), { recursive: true });
    writeFileSync(join(web, 'index.html'), '<!doctype html><title>t</title>');
    writeFileSync(join(web, 'assets', 'app-1234.js'), 'console.log(1)');
    writeFileSync(join(dir, 'secret.txt'), 'SECRET');
    const lit = join(dir, 'litmus');
    mkdirSync(join(lit, 'sub'), { recursive: true });
    writeFileSync(join(lit, 'A.litmus'), 'AMDGPU A\n"first"\n');
    writeFileSync(join(lit, 'sub', 'B.litmus'), 'AMDGPU B\n');
    writeFileSync(join(lit, 'notes.txt'), 'not a test');
    srv = await startServer({
      port: 0,
      host: '127.0.0.1',
      hostGiven: false,
      llc: null,
      webDir: web,
      litmusDir: lit,
    });
    port = Number(new URL(srv.url).port);
  });

  afterAll(async () => {
    await srv.close();
  });

  it('serves the page, its assets and the catalogue, with a content security policy', async () => {
    const r = await get(port, '/');
    expect(r.status).toBe(200);
    expect(r.body).toContain('<title>t</title>');
    expect(r.head).toMatch(/content-security-policy: default-src 'self'/i);
    expect((await get(port, '/assets/app-1234.js')).head).toMatch(/immutable/);
    const idx = JSON.parse((await get(port, '/catalogue/index.json')).body);
    const group = { group: 'litmus', groupTitle: 'AMDGPU tests (litmus/)' };
    expect(idx).toEqual([
      { file: 'A.litmus', name: 'A', description: 'first', ...group },
      { file: 'sub/B.litmus', name: 'B', description: '', ...group },
    ]);
    expect((await get(port, '/catalogue/sub/B.litmus')).body).toBe('AMDGPU B\n');
  });

  it("the catalogue's Vulkan folders: Dartagnan's syntax and Khronos .test files, by their names in the index only", async () => {
    const vk = join(dir, 'vk');
    mkdirSync(join(vk, 'Manual'), { recursive: true });
    writeFileSync(join(vk, 'Manual', 'MP.litmus'), 'VULKAN MP-x\n"message passing"\n');
    writeFileSync(join(vk, 'SSW.test'), '// first line\n// second line\nNEWWG\nNEWSG\nNEWTHREAD\n');
    writeFileSync(join(vk, 'README.md'), 'not a test');
    const s = await startServer({
      port: 0,
      host: '127.0.0.1',
      hostGiven: false,
      llc: null,
      webDir: join(dir, 'web'),
      catalogue: [
        { group: 'litmus', title: 'AMDGPU', dir: join(dir, 'litmus'), prefix: '' },
        { group: 'vk', title: 'Vulkan', dir: vk, prefix: 'vk/' },
        { group: 'none', title: 'missing', dir: join(dir, 'no-such-folder'), prefix: 'none/' },
      ],
    });
    try {
      const p = Number(new URL(s.url).port);
      const idx = JSON.parse((await get(p, '/catalogue/index.json')).body) as { file: string }[];
      expect(idx.slice(2)).toEqual([
        {
          file: 'vk/Manual/MP.litmus',
          name: 'MP-x',
          description: 'message passing',
          group: 'vk',
          groupTitle: 'Vulkan',
        },
        {
          file: 'vk/SSW.test',
          name: 'SSW',
          description: 'first line second line',
          group: 'vk',
          groupTitle: 'Vulkan',
        },
      ]);
      expect((await get(p, '/catalogue/vk/SSW.test')).body).toContain('NEWTHREAD');
      for (const bad of [
        '/catalogue/vk/README.md',
        '/catalogue/Manual/MP.litmus',
        '/catalogue/vk/../secret.txt',
      ])
        expect([400, 404], bad).toContain((await get(p, bad)).status);
    } finally {
      await s.close();
    }
  });

  it('refuses every path outside the built page and the catalogue', async () => {
    for (const p of [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
      '/catalogue/../secret.txt',
      '/catalogue/..%2fsecret.txt',
      '/catalogue/notes.txt',
      '/catalogue/%2fetc%2fpasswd',
      '//etc/passwd',
      '/etc/passwd',
      '/package.json',
    ]) {
      const r = await get(port, p);
      expect([400, 404], p).toContain(r.status);
      expect(r.body, p).not.toContain('SECRET');
      expect(r.body, p).not.toContain('root:');
    }
    expect((await get(port, '/assets/a%00.js')).status).toBe(400);
    expect((await get(port, '/%E0%A4%A')).status).toBe(400);
  });

  it('refuses oversized requests: body, request target, head', async () => {
    const big = 'x'.repeat(MAX_BODY + 1);
    const declared = await raw(
      port,
      `POST /api/llc HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${big.length}\r\nConnection: close\r\n\r\n${big}`,
    );
    expect(declared.status).toBe(413);
    const chunked = await raw(
      port,
      `POST /api/llc HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n${big.length.toString(16)}\r\n${big}\r\n0\r\n\r\n`,
    );
    expect(chunked.status).toBe(413);
    expect((await get(port, `/${'a'.repeat(MAX_URL)}`)).status).toBe(414);
    expect((await get(port, '/', `X-Big: ${'b'.repeat(16 * 1024)}\r\n`)).status).toBe(431);
  });

  it('closes a slow client with 408 in seconds: an incomplete head, a partial body (slowloris)', async () => {
    // A few seconds for a local tool, looked for twice a second (Node's defaults kept such a client
    // about a minute: a 30 s request timeout, checked every 30 s).
    expect(srv.server.headersTimeout).toBe(SERVER_TIMEOUTS.headersMs);
    expect(srv.server.requestTimeout).toBe(SERVER_TIMEOUTS.requestMs);
    expect(SERVER_TIMEOUTS.requestMs + SERVER_TIMEOUTS.checkEveryMs).toBeLessThanOrEqual(6_000);
    // The same server with shorter timeouts, so that the test takes a moment: each client is
    // answered 408 and closed long before Node's 30 s check would have come round.
    const quick = await startServer({
      port: 0,
      host: '127.0.0.1',
      hostGiven: false,
      llc: null,
      webDir: join(dir, 'web'),
      litmusDir: join(dir, 'litmus'),
      timeouts: { headersMs: 300, requestMs: 600, checkEveryMs: 50 },
    });
    try {
      const p = Number(new URL(quick.url).port);
      const timed = async (request: string) => {
        const t0 = performance.now();
        const r = await raw(p, request);
        return { status: r.status, ms: performance.now() - t0 };
      };
      const [head, body] = await Promise.all([
        timed(`GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: `),
        timed(
          `POST /api/llc HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"text": "AMD`,
        ),
      ]);
      expect(head.status).toBe(408);
      expect(body.status).toBe(408);
      expect(head.ms).toBeGreaterThanOrEqual(250);
      expect(body.ms).toBeGreaterThanOrEqual(550);
      expect(Math.max(head.ms, body.ms)).toBeLessThan(10_000);
    } finally {
      await quick.close();
    }
  });

  it('answers bad requests with HTTP errors', async () => {
    expect(
      (await raw(port, `DELETE / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`)).status,
    ).toBe(405);
    expect(
      (await raw(port, `PUT /api/llc HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`)).status,
    ).toBe(405);
    const noJson = await raw(
      port,
      `POST /api/llc HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi`,
    );
    expect(noJson.status).toBe(415);
    // A refused API request's answer is the diagnostic: its message, code and hint.
    expect(JSON.parse(noJson.body.slice(noJson.body.indexOf('{')))).toEqual({
      error: 'send application/json',
      code: 'SRV4001',
      hint: DIAGNOSTICS.SRV4001.hint(),
    });
    // This server runs no llc (llc: null): the endpoint says so.
    expect(JSON.parse((await get(port, '/api/llc')).body)).toMatchObject({ available: false });
    // Another site's name resolved to 127.0.0.1 (DNS rebinding) gets nothing.
    expect(
      (await raw(port, `GET / HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n`)).status,
    ).toBe(421);
    expect((await raw(port, 'NOT HTTP\r\n\r\n')).status).toBe(400);
  });

  it('llc runs one request at a time with LLC_QUEUE more waiting their turn; beyond them, 503 with Retry-After', async () => {
    // An llc that says it is llc-22 with an AMDGPU backend, then takes its time and fails.
    const s = await serveWithLlc(dir, 'sleep 0.4\nexit 1');
    try {
      const text = readFileSync(join(ROOT, 'litmus', 'MP+rel+acq.agent.litmus'), 'utf8');
      const post = () =>
        fetch(`${s.url}api/llc`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ text, target: 'gfx900', mode: 'cu', lang: 'hsa', tgsplit: false }),
        });
      const answers = await Promise.all(Array.from({ length: LLC_QUEUE + 3 }, post));
      const busy = answers.filter((r) => r.status === 503);
      // One running and LLC_QUEUE waiting (it was LLC_QUEUE in all: one running, three waiting).
      expect(busy).toHaveLength(2);
      expect(busy[0]!.headers.get('retry-after')).toBe('1');
      // tgsplit on a processor without the mode is refused, as gpumm lower --tgsplit refuses it.
      const tg = await fetch(`${s.url}api/llc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text, target: 'gfx900', mode: 'cu', lang: 'hsa', tgsplit: true }),
      });
      expect(tg.status).toBe(400);
      expect(await tg.json()).toEqual({
        error: 'TgSplit execution mode exists on gfx90a, gfx942 and gfx950',
        code: 'SRV4001',
        hint: DIAGNOSTICS.SRV4001.hint(),
      });
    } finally {
      await s.close();
    }
  });

  it('on any address, answers only to loopback names, its own address and --allow-host names', async () => {
    // Listening on every address turned the Host check off: a page elsewhere could reach the server
    // by resolving its own name to this machine (DNS rebinding).
    const s = await startServer({
      port: 0,
      host: '0.0.0.0',
      hostGiven: true,
      allowHosts: ['gpu-box.lan'],
      llc: null,
      webDir: join(dir, 'web'),
    });
    try {
      const p = Number(new URL(s.url).port);
      const req = (head: string) => raw(p, `${head}\r\nConnection: close\r\n\r\n`);
      expect((await req('GET / HTTP/1.1\r\nHost: evil.example')).status).toBe(421);
      expect((await req('GET / HTTP/1.1\r\nHost: gpu-box.lan')).status).toBe(200);
      expect((await req(`GET / HTTP/1.1\r\nHost: localhost:${p}`)).status).toBe(200);
      // Two Host headers, or an absolute-form target naming another host: refused.
      expect((await req('GET / HTTP/1.1\r\nHost: localhost\r\nHost: evil.example')).status).toBe(400);
      expect((await req('GET http://evil.example/ HTTP/1.1\r\nHost: localhost')).status).toBe(421);
      expect((await req('GET http://localhost/ HTTP/1.1\r\nHost: localhost')).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('a client that goes away stops its llc run, or keeps a queued one from starting', async () => {
    // A stand-in llc: it logs each run's start and end, and takes a second.
    const log = join(dir, 'llc.log');
    const s = await serveWithLlc(dir, `cat > /dev/null\necho start >> ${log}\nsleep 1\necho end >> ${log}`);
    try {
      const p = Number(new URL(s.url).port);
      const text = readFileSync(join(ROOT, 'litmus', 'MP+rel+acq.agent.litmus'), 'utf8');
      const body = JSON.stringify({ text, target: 'gfx942', mode: 'cu', lang: 'hsa', tgsplit: false });
      const post = `POST /api/llc HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
      /** Sends the request and hangs up after `ms`. */
      const abandon = (ms: number) =>
        new Promise<void>((resolve) => {
          const sock = connect(p, '127.0.0.1', () => sock.write(post));
          sock.on('error', () => {});
          setTimeout(() => {
            sock.destroy();
            resolve();
          }, ms);
        });
      const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
      const first = fetch(`${s.url}api/llc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      await sleep(300);
      await abandon(200); // queued behind the first, gone before its turn
      expect((await first).status).toBe(200);
      await sleep(300);
      expect(readFileSync(log, 'utf8')).toBe('start\nend\n');
      await abandon(400); // gone while its llc runs (or, on a slow machine, before it starts)
      await sleep(1500);
      expect(readFileSync(log, 'utf8')).toMatch(/^start\nend\n(start\n)?$/);
    } finally {
      await s.close();
    }
  });

  it('refuses a non-loopback address unless the user named it with --host', async () => {
    expect(isLoopback('127.0.0.1') && isLoopback('::1') && isLoopback('localhost')).toBe(true);
    expect(isLoopback('0.0.0.0') || isLoopback('10.0.0.1') || isLoopback('example.com')).toBe(false);
    await expect(
      startServer({ port: 0, host: '0.0.0.0', hostGiven: false, llc: null, webDir: join(dir, 'web') }),
    ).rejects.toThrow(/needs --host/);
  });
});

const LLC = findLlc();

describe.skipIf('reason' in LLC)(
  `gpumm serve's llc-22 endpoint${'reason' in LLC ? ` (skipped: ${LLC.reason})` : ''}`,
  () => {
    it('answers llc-22 code per instruction, and 400 for a bad test or target', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'gpumm-serve-'));
      writeFileSync(join(dir, 'index.html'), '<!doctype html>');
      const srv = await startServer({
        port: 0,
        host: '127.0.0.1',
        hostGiven: false,
        llc: undefined,
        webDir: dir,
      });
      try {
        const post = (body: unknown) =>
          fetch(`${srv.url}api/llc`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
        const text = readFileSync(join(ROOT, 'litmus', 'MP+rel+acq.agent.litmus'), 'utf8');
        const ok = await post({ text, target: 'gfx900', mode: 'cu', lang: 'hsa', tgsplit: false });
        expect(ok.status).toBe(200);
        const rows = ((await ok.json()) as { rows: { ir: string; llc: string[] }[] }).rows;
        expect(rows.find((r) => r.ir.includes('acquire'))!.llc).toContain('buffer_wbinvl1_vol');
        expect(
          (await post({ text: 'AMDGPU x\nbogus', target: 'gfx900', mode: 'cu', lang: 'hsa' })).status,
        ).toBe(400);
        expect((await post({ text, target: 'gfx9999', mode: 'cu', lang: 'hsa' })).status).toBe(400);
        expect((await post({ text, target: 'gfx900', mode: 'sideways', lang: 'hsa' })).status).toBe(400);
        // A Vulkan test: llc-22's code of its AMDGPU translation, as gpumm lower lowers it.
        const vk = readFileSync(join(ROOT, 'litmus-vulkan', 'MP.sw-atomic.dv.litmus'), 'utf8');
        const vr = await post({ text: vk, target: 'gfx900', mode: 'cu', lang: 'hsa', deviceScope: 'agent' });
        expect(vr.status).toBe(200);
        const vrows = ((await vr.json()) as { rows: { ir: string }[] }).rows;
        expect(vrows.map((r) => r.ir)).toContain(
          'store atomic i32 1, ptr addrspace(1) @y syncscope("agent") release, !mmra !{!"amdgcn-av", !"none"}',
        );
        expect(
          (await post({ text: vk, target: 'gfx900', mode: 'cu', lang: 'hsa', deviceScope: 'x' })).status,
        ).toBe(400);
        // Several at once: they wait their turn (one llc-22 at a time), none is refused.
        const many = await Promise.all(
          [0, 1, 2].map(() => post({ text, target: 'gfx1200', mode: 'wgp', lang: 'hsa', tgsplit: false })),
        );
        expect(many.map((r) => r.status)).toEqual([200, 200, 200]);
      } finally {
        await srv.close();
      }
    });
  },
);

describe('gpumm serve, the command', () => {
  it('bad options: a diagnostic and exit 2', () => {
    for (const args of [['--port', 'abc'], ['--port', '70000'], ['--host', 'a b'], ['--bogus']]) {
      const r = spawnSync(process.execPath, [BIN, 'serve', ...args], { encoding: 'utf8', cwd: ROOT });
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/error CL1003/);
      expect(r.stdout).toBe('');
    }
  });

  it('a port in use: a diagnostic with a hint, exit 2', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    const r = spawnSync(process.execPath, [BIN, 'serve', '--no-llc', '--port', String(port)], {
      encoding: 'utf8',
      cwd: ROOT,
    });
    blocker.close();
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/port \d+ on 127\.0\.0\.1 is in use/);
    expect(r.stderr).toMatch(/hint: .*--port 0/);
  });

  it('prints its URL, binds loopback, warns for --host, and stops cleanly on Ctrl-C', async () => {
    const start = (args: string[]) =>
      new Promise<{ url: string; stop: () => Promise<{ code: number | null; stderr: string }> }>(
        (resolve, reject) => {
          const p = spawn(process.execPath, [BIN, 'serve', '--no-llc', '--port', '0', ...args], {
            cwd: ROOT,
          });
          let out = '';
          let err = '';
          p.stderr.on('data', (b) => {
            err += b;
          });
          p.on('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
          p.stdout.on('data', (b) => {
            out += b;
            const m = /^(http:\/\/\S+)\n/.exec(out);
            if (m)
              resolve({
                url: m[1]!,
                stop: () =>
                  new Promise((done) => {
                    p.removeAllListeners('exit');
                    p.on('exit', (code) => done({ code, stderr: err }));
                    p.kill('SIGINT');
                  }),
              });
          });
        },
      );
    const local = await start([]);
    expect(local.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect((await fetch(`${local.url}catalogue/index.json`)).status).toBe(200);
    const end = await local.stop();
    expect(end.code).toBe(0);
    expect(end.stderr).toMatch(/stopped/);
    await expect(fetch(local.url)).rejects.toThrow();

    const wide = await start(['--host', '0.0.0.0']);
    expect(wide.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+\/$/);
    const port = new URL(wide.url).port;
    expect((await fetch(`http://127.0.0.1:${port}/catalogue/index.json`)).status).toBe(200);
    const wend = await wide.stop();
    expect(wend.stderr).toMatch(/warning: listening on 0\.0\.0\.0, not on loopback/);
    expect(wend.code).toBe(0);
  });
});
