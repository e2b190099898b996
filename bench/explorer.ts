/**
 * The explorer's speed and weight: `npx tsx bench/explorer.ts [runs]` (default 10). Starts
 * `gpumm serve` (which builds the page if a source changed), drives Debian's Chromium with
 * playwright-core, and prints, as medians over `runs` page loads from the warm server:
 * - first contentful paint, and when the editor shows the catalogue's MP test;
 * - the MP test's result (its states table) after the Run click, timed inside the page from the
 *   click to the table's appearance, for the first run of a page and for later runs;
 * and the gzipped size of the page's JavaScript without Graphviz. Results go into
 * docs/benchmarks.md by hand, with the load average.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { findChromium, launch, ROOT, serve } from '../e2e/browser.ts';

const runs = Number(process.argv[2] ?? 10);
const chrome = findChromium();
if ('reason' in chrome) throw new Error(chrome.reason);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

const server = await serve();
const browser = await launch(chrome.path);
try {
  // Warm the server and the browser's caches once.
  const warm = await browser.newPage();
  await warm.goto(server.url);
  await warm.waitForSelector('.cm-content');
  await warm.close();

  const paint: number[] = [];
  const ready: number[] = [];
  const firstRun: number[] = [];
  const laterRun: number[] = [];
  for (let k = 0; k < runs; k++) {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    await page.goto(server.url);
    await page.waitForFunction(() =>
      document.querySelector('.cm-content')?.textContent?.includes('AMDGPU MP+rel+acq.agent'),
    );
    const t = await page.evaluate(() => ({
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
      now: performance.now(),
    }));
    paint.push(t.fcp);
    ready.push(t.now);
    // From the click to the states table, measured in the page.
    const timeRun = () =>
      page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            document.querySelector('[data-testid=states]')?.remove();
            const t0 = performance.now();
            const obs = new MutationObserver(() => {
              if (document.querySelector('[data-testid=states]')) {
                obs.disconnect();
                resolve(performance.now() - t0);
              }
            });
            obs.observe(document.body, { subtree: true, childList: true });
            (document.querySelector('[data-testid=run]') as HTMLButtonElement).click();
          }),
      );
    firstRun.push(await timeRun());
    for (let j = 0; j < 3; j++) {
      await page.waitForSelector('[data-testid=run]:not([disabled])');
      // Another Run: the table is replaced, so wait for the run to start before timing the next.
      await page.evaluate(() => new Promise((r) => setTimeout(r, 50)));
      laterRun.push(await timeRun());
    }
    await ctx.close();
  }

  const assets = join(ROOT, 'dist', 'web', 'assets');
  const sizes = readdirSync(assets).map((f) => {
    const body = readFileSync(join(assets, f));
    return { f, raw: body.length, gz: gzipSync(body, { level: 9 }).length };
  });
  const js = sizes.filter((s) => s.f.endsWith('.js') && !s.f.startsWith('viz-'));
  const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
  console.log(
    `load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}, ${runs} page loads`,
  );
  console.log('| measure | median | target |');
  console.log('| --- | --- | --- |');
  console.log(`| first contentful paint (warm server) | ${median(paint).toFixed(0)} ms | < 1 s |`);
  console.log(`| editor shows the MP test | ${median(ready).toFixed(0)} ms | |`);
  console.log(
    `| MP result after the Run click, first run of a page | ${median(firstRun).toFixed(0)} ms | < 200 ms |`,
  );
  console.log(`| MP result after the Run click, later runs | ${median(laterRun).toFixed(0)} ms | < 200 ms |`);
  console.log(`| page JS without Graphviz, gzipped | ${kb(js.reduce((a, s) => a + s.gz, 0))} | < 500 KB |`);
  for (const s of sizes) console.log(`|   ${s.f} | ${kb(s.raw)} raw, ${kb(s.gz)} gzipped | |`);
} finally {
  await browser.close();
  await server.stop();
}
