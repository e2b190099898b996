/**
 * The explorer end to end: `gpumm serve` on a free port, Debian's Chromium driven by
 * playwright-core, a user's steps from picking a test to sharing it. Screenshots go to
 * e2e/artifacts/ (look at them after a change to the page).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifact, findChromium, launch, ROOT, type Served, serve } from './browser.ts';

const chrome = findChromium();
const skip = 'reason' in chrome ? ` (skipped: ${chrome.reason})` : '';

/** A test that runs for minutes (six acq_rel counters): the progress bar and Cancel. */
const SLOW = [
  'AMDGPU Slow',
  '@x = addrspace(1) global i32 0',
  '@y = addrspace(1) global i32 0',
  ...[0, 1, 2, 3, 4, 5].map(
    (t) =>
      `P${t} @ agent 0, workgroup ${t} {\n  %a = atomicrmw add ptr addrspace(1) @x, i32 ${t + 1} syncscope("agent") acq_rel\n  store atomic i32 ${t + 1}, ptr addrspace(1) @y syncscope("agent") release\n  %b = load atomic i32, ptr addrspace(1) @y syncscope("agent") acquire\n}`,
  ),
].join('\n');

/** The editor's text, line by line as CodeMirror draws it (the tests' documents fit on screen). */
const editorText = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('[data-testid=editor] .cm-line')].map((l) => l.textContent).join('\n'),
  );

/** Replaces the editor's text as a user would (select all, type). */
async function typeText(page: Page, text: string) {
  await page.click('.cm-content');
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

describe.skipIf(skip !== '')(`the explorer in Chromium${skip}`, () => {
  let server: Served;
  let browser: Browser;
  let page: Page;
  const requests: string[] = [];

  beforeAll(async () => {
    server = await serve();
    browser = await launch((chrome as { path: string }).path);
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(server.url);
    await page.waitForFunction(() => document.querySelector('.cm-content')?.textContent?.includes('AMDGPU'));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    const code = await server?.stop();
    expect(code).toBe(0);
  });

  it('picks the MP test from the catalogue, runs it and shows the allowed states', async () => {
    await page.screenshot({ path: artifact('01-loaded.png') });
    await page.selectOption('[data-testid=catalogue]', 'SB+rlx.agent.litmus');
    await page.waitForFunction(() =>
      document.querySelector('.cm-content')?.textContent?.includes('AMDGPU SB+rlx'),
    );
    await page.selectOption('[data-testid=catalogue]', 'MP+rel+acq.agent.litmus');
    await page.waitForFunction(() =>
      document.querySelector('.cm-content')?.textContent?.includes('AMDGPU MP+rel+acq.agent'),
    );
    await page.click('[data-testid=run]');
    await page.waitForSelector('[data-testid=states]');
    const rows = await page.$$eval('[data-testid=states] tbody tr', (trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].slice(0, 2).map((td) => td.textContent)),
    );
    expect(rows).toEqual([
      ['0', 'undef'],
      ['1', '1'],
    ]);
    expect(await page.textContent('[data-testid=verdict]')).toMatch(/fails/);
    // The histogram shows the outcome only forbidden candidates reach.
    expect(await page.textContent('[data-testid=histogram]')).toMatch(/P1:r0=1; P1:r1=0;\s*1\s*forbidden/);
    await page.screenshot({ path: artifact('02-results.png') });
  });

  it('opens a forbidden execution: its axiom, the text --explain prints, the witness drawn', async () => {
    await page.click('[data-testid=tab-executions]');
    await page.selectOption('[data-testid=exec-filter]', 'forbidden');
    // Step with "next" to the candidate of the condition's outcome.
    for (let k = 0; k < 20; k++) {
      await page.waitForSelector('[data-testid=axiom]');
      if ((await page.textContent('[data-testid=exec-head]'))?.includes('P1:r0=1; P1:r1=0;')) break;
      await page.click('[data-testid=next]');
      await page.waitForTimeout(50);
    }
    expect(await page.textContent('[data-testid=exec-head]')).toContain('P1:r0=1; P1:r1=0;');
    await page.waitForSelector('[data-testid=graph] svg');
    const shown = (await page.textContent('[data-testid=axiom] pre'))!;
    const cli = spawnSync(
      process.execPath,
      [join(ROOT, 'bin', 'gpumm.js'), 'run', '--explain', 'litmus/MP+rel+acq.agent.litmus'],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    );
    // `--explain` prints the same text, indented by two spaces after its first line.
    const cliText = cli.stdout
      .split('\n')
      .join('\n')
      .replace(/\n {2}/g, '\n');
    expect(cliText).toContain(shown.split('\n')[0]!);
    expect(cliText).toContain(shown);
    expect(await page.locator('[data-testid=graph] svg g.edge-witness').count()).toBeGreaterThan(0);
    await page.screenshot({ path: artifact('03-forbidden.png') });
  });

  it('toggles an edge kind', async () => {
    const count = (cls: string) => page.locator(`[data-testid=graph] svg g.${cls}`).count();
    expect(await count('edge-hb')).toBe(0);
    await page.click('[data-testid=edge-hb]');
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid=graph] svg g.edge-hb').length > 0,
    );
    expect(await count('edge-po')).toBeGreaterThan(0);
    await page.click('[data-testid=edge-po]');
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid=graph] svg g.edge-po').length === 0,
    );
    expect(await count('edge-hb')).toBeGreaterThan(0);
    await page.screenshot({ path: artifact('04-edges.png') });
  });

  it('switches target and sees the machine code change', async () => {
    await page.click('[data-testid=tab-code]');
    await page.waitForSelector('[data-testid=asm]');
    const asm = () => page.$$eval('[data-testid=asm]', (tds) => tds.map((t) => t.textContent).join('|'));
    const gfx12 = await asm();
    expect(gfx12).toContain('global_wb scope:SCOPE_DEV');
    await page.selectOption('[data-testid=target]', 'gfx900');
    await page.waitForFunction((before) => {
      const now = [...document.querySelectorAll('[data-testid=asm]')].map((t) => t.textContent).join('|');
      return now !== before && now.includes('buffer_wbinvl1_vol');
    }, gfx12);
    // llc-22's code beside gpumm's, when the server has llc-22.
    const llc = await (await fetch(`${server.url}api/llc`)).json();
    if (llc.available) {
      await page.waitForFunction(() =>
        [...document.querySelectorAll('table.lowered td.asm')].some(
          (td) => td.textContent?.includes('buffer_wbinvl1_vol') && !td.hasAttribute('data-testid'),
        ),
      );
      expect(await page.textContent('table.lowered thead')).toContain('llc-22');
    }
    await page.screenshot({ path: artifact('05-code.png') });
  });

  it('types an error and sees the diagnostic at the right line', async () => {
    const before = await editorText(page);
    const lineNo = before.split('\n').findIndex((l) => l.includes('store i32 1, ptr addrspace(1) @x')) + 1;
    expect(lineNo).toBe(19);
    await page
      .locator('[data-testid=editor] .cm-line')
      .nth(lineNo - 1)
      .click();
    await page.keyboard.press('End');
    await page.keyboard.type(' bogus');
    await page.waitForSelector('[data-testid=diagnostics]');
    expect(await page.textContent('[data-testid=diag-where]')).toMatch(new RegExp(`^${lineNo}:\\d+$`));
    await page.waitForSelector('.cm-lintRange-error');
    const squiggleLine = await page.evaluate(() => {
      const el = document.querySelector('[data-testid=editor] .cm-lintRange-error')!.closest('.cm-line')!;
      return [...document.querySelectorAll('[data-testid=editor] .cm-line')].indexOf(el) + 1;
    });
    expect(squiggleLine).toBe(lineNo);
    await page.screenshot({ path: artifact('06-diagnostic.png') });
    // Run refuses the test and lists its problem once (it listed the parser's diagnostics twice).
    await page.click('[data-testid=run]');
    await page.waitForSelector('text=The test cannot run');
    expect(await page.locator('[data-testid=diag-where]').count()).toBe(1);
    // Back to the editor, the cursor where it was (after " bogus").
    await page.focus('[data-testid=editor] .cm-content');
    for (let k = 0; k < 6; k++) await page.keyboard.press('Backspace');
    await page.waitForSelector('[data-testid=diagnostics]', { state: 'detached' });
    expect(await editorText(page)).toBe(before);
  });

  it('an edited catalogue test says so, and choosing it again loads it afresh', async () => {
    const before = await editorText(page);
    const picked = () =>
      page.$eval('[data-testid=catalogue]', (s) => (s as HTMLSelectElement).selectedOptions[0]!.text);
    expect(await picked()).toBe('MP+rel+acq.agent');
    await page.click('[data-testid=editor] .cm-content');
    await page.keyboard.press('Control+End');
    await page.keyboard.type('; mine');
    // It went on naming the catalogue test, and choosing that test again did nothing.
    await page.waitForFunction(() =>
      (
        document.querySelector('[data-testid=catalogue]') as HTMLSelectElement
      ).selectedOptions[0]!.text.endsWith('(edited)'),
    );
    expect(await picked()).toBe('MP+rel+acq.agent (edited)');
    await page.selectOption('[data-testid=catalogue]', 'MP+rel+acq.agent.litmus');
    await page.waitForFunction((t) => {
      const lines = [...document.querySelectorAll('[data-testid=editor] .cm-line')].map((l) => l.textContent);
      return lines.join('\n') === t;
    }, before);
    expect(await picked()).toBe('MP+rel+acq.agent');
  });

  it('shares the test by URL and gets it back after a reload', async () => {
    await typeText(
      page,
      readFileSync(join(ROOT, 'litmus', 'SB+rlx.agent.litmus'), 'utf8').replace('SB+rlx.agent', 'SB+mine'),
    );
    const text = await editorText(page);
    await page.click('[data-testid=share]');
    await page.waitForFunction(() => location.hash.includes('t=z.') || location.hash.includes('t=b.'));
    const url = page.url();
    expect(url.startsWith(server.url)).toBe(true);
    await page.reload();
    await page.waitForFunction(() => document.querySelector('.cm-content')?.textContent?.includes('SB+mine'));
    expect(await editorText(page)).toBe(text);
    // The shared link restores the target and the tab too.
    expect(await page.inputValue('[data-testid=target]')).toBe('gfx900');
    await page.screenshot({ path: artifact('07-shared.png') });
  });

  it('checks every target on its machine and steps through a machine run', async () => {
    await page.selectOption('[data-testid=catalogue]', 'MP+rel+acq.agent.litmus');
    await page.waitForFunction(() =>
      document.querySelector('.cm-content')?.textContent?.includes('AMDGPU MP+rel+acq.agent'),
    );
    await page.click('[data-testid=tab-check]');
    await page.waitForFunction(
      () => {
        const t = document.querySelector('[data-testid=check-verdicts]')?.textContent ?? '';
        return t.includes('gfx1201') && !t.includes('checking');
      },
      null,
      { timeout: 90_000 },
    );
    const verdicts = await page.$$eval('[data-testid=check-verdicts] tbody tr td:nth-child(3)', (tds) =>
      tds.map((t) => t.textContent),
    );
    expect(verdicts.length).toBeGreaterThan(5);
    expect(verdicts.every((v) => v === 'sound')).toBe(true);
    await page.locator('[data-testid=check-verdicts] tbody tr', { hasText: 'gfx900' }).first().click();
    await page.locator('[data-testid=trace-button]').last().click();
    await page.waitForSelector('[data-testid=machine]');
    const total = Number((await page.textContent('[data-testid=step-counter]'))!.split('/')[1]);
    expect(total).toBeGreaterThan(2);
    for (let k = 0; k < 4; k++) await page.click('[data-testid=step-next]');
    expect(await page.textContent('[data-testid=step-counter]')).toMatch(/^4 \//);
    await page.screenshot({ path: artifact('08-check.png') });
    // The Intel Xe groups and TgSplit are checked too; pvc's picture names the level behind its
    // caches as its traces do (one agent: the GPU-wide level folded into memory).
    const modes = await page.$$eval('[data-testid=check-verdicts] tbody tr', (trs) =>
      trs.map((tr) =>
        [...tr.querySelectorAll('td')]
          .slice(0, 2)
          .map((td) => td.textContent)
          .join(' '),
      ),
    );
    expect(modes).toEqual(expect.arrayContaining(['gfx942 TgSplit', 'pvc —', 'dg2 —']));
    await page.locator('[data-testid=check-verdicts] tbody tr', { hasText: 'pvc' }).first().click();
    await page.locator('[data-testid=trace-button]').last().click();
    await page.waitForFunction(() =>
      document.querySelector('[data-testid=check-detail]')?.textContent?.includes('pvc'),
    );
    await page.waitForSelector('[data-testid=machine]');
    await page.click('text=last »');
    const head = await page.$$eval('[data-testid=machine] table.caches thead th', (ths) =>
      ths.map((t) => t.textContent),
    );
    expect(head.at(-1)).toBe('GPU');
    expect(await page.textContent('[data-testid=check-detail]')).not.toMatch(/\bmemory\b/);
    await page.screenshot({ path: artifact('08a-check-pvc.png') });
  });

  it('an unsound check opens on the machine run to the forbidden outcome', async () => {
    // LB+rlx.agent: the model's no-thin-air axiom forbids r0 = r1 = 1; the machines reach it.
    await page.selectOption('[data-testid=catalogue]', 'LB+rlx.agent.litmus');
    await page.waitForFunction(() =>
      document.querySelector('.cm-content')?.textContent?.includes('AMDGPU LB+rlx.agent'),
    );
    await page.waitForFunction(
      () => document.querySelector('[data-testid=check-verdicts]')?.textContent?.includes('UNSOUND'),
      null,
      {
        timeout: 90_000,
      },
    );
    await page.locator('[data-testid=check-verdicts] tbody tr', { hasText: 'UNSOUND' }).first().click();
    await page.waitForSelector('[data-testid=machine]');
    expect(await page.textContent('[data-testid=check-detail]')).toContain('FORBIDDEN by the model');
    await page.click('text=last »');
    const [at, total] = (await page.textContent('[data-testid=step-counter]'))!
      .split('/')
      .map((x) => Number(x.trim()));
    expect(at).toBe(total);
    expect(await page.textContent('[data-testid=machine] .regs')).toMatch(/r0=1/);
    await page.screenshot({ path: artifact('08b-unsound.png') });
  });

  it('a verdict names the assumptions it needs; a trace names waits on unused counters once, not as steps', async () => {
    await page.selectOption('[data-testid=catalogue]', 'SB+sc.wg.litmus');
    await page.waitForFunction(() =>
      document.querySelector('.cm-content')?.textContent?.includes('AMDGPU SB+sc.wg'),
    );
    await page.waitForFunction(
      () =>
        /sound \(assuming: cu-in-order-types\)/.test(
          document.querySelector('[data-testid=check-verdicts]')?.textContent ?? '',
        ),
      null,
      { timeout: 90_000 },
    );
    // MP+bar+fence.wg on GFX12 CU mode: UNSOUND, and its release fence's s_wait_dscnt waits for nothing.
    await page.selectOption('[data-testid=catalogue]', 'MP+bar+fence.wg.litmus');
    await page.waitForFunction(() =>
      document.querySelector('.cm-content')?.textContent?.includes('AMDGPU MP+bar+fence.wg'),
    );
    const row = page
      .locator('[data-testid=check-verdicts] tbody tr', { hasText: 'gfx1200' })
      .filter({ hasText: 'UNSOUND' });
    await row.first().waitFor({ timeout: 90_000 });
    await row.first().click();
    await page.waitForSelector('[data-testid=idle-waits]');
    expect(await page.textContent('[data-testid=idle-waits]')).toContain('s_wait_dscnt 0x0');
    expect(await page.textContent('[data-testid=trace] .steps')).not.toContain('s_wait_dscnt');
  });

  it('shows progress on a long run and cancels it', async () => {
    await page.click('[data-testid=tab-results]');
    await typeText(page, SLOW);
    await page.click('[data-testid=run]');
    await page.waitForSelector('[data-testid=progress]', { timeout: 10_000 });
    await page.waitForFunction(() =>
      /\d+ states/.test(document.querySelector('[data-testid=progress]')?.textContent ?? ''),
    );
    await page.screenshot({ path: artifact('09-progress.png') });
    await page.click('[data-testid=cancel]');
    await page.waitForSelector('[data-testid=progress]', { state: 'detached' });
    expect(await page.isEnabled('[data-testid=run]')).toBe(true);
  });

  it('a run stopped by a budget keeps the verdict its states prove', async () => {
    // Two executions; every one satisfies the condition, so the first proves it.
    await typeText(
      page,
      [
        'AMDGPU Stopped',
        '@x = addrspace(1) global i32 0',
        '@y = addrspace(1) global i32 0',
        'P0 @ agent 0, workgroup 0 {\n  %r0 = load atomic i32, ptr addrspace(1) @x syncscope("agent") monotonic\n}',
        'P1 @ agent 0, workgroup 1 {\n  store atomic i32 1, ptr addrspace(1) @y syncscope("agent") monotonic\n}',
        'P2 @ agent 0, workgroup 2 {\n  %r0 = load atomic i32, ptr addrspace(1) @y syncscope("agent") monotonic\n}',
        'exists (P0:%r0 == 0)',
      ].join('\n'),
    );
    await page.click('text=Model options and budgets');
    const maxExecutions = page.locator('label:has-text("max executions") input');
    await maxExecutions.fill('1');
    await page.click('[data-testid=run]');
    await page.waitForFunction(() =>
      document.querySelector('[data-testid=verdict]')?.textContent?.includes('proved before the run stopped'),
    );
    const verdict = page.locator('[data-testid=verdict]');
    expect(await verdict.textContent()).toContain('holds (proved before the run stopped: max-executions)');
    expect(await verdict.getAttribute('class')).toContain('ok');
    // Without the budget the run completes: the same verdict, said plainly.
    await maxExecutions.fill('0');
    await page.click('[data-testid=run]');
    await page.waitForFunction(
      () => !document.querySelector('[data-testid=verdict]')?.textContent?.includes('stopped'),
    );
    expect(await verdict.textContent()).toMatch(/holds$/);
    await page.click('text=Model options and budgets');
  });

  it('runs a cat model of the registry and reports a pasted cat file’s error at its line', async () => {
    await page.selectOption('[data-testid=catalogue]', 'LB+plain.litmus');
    await page.waitForFunction(() =>
      document.querySelector('.cm-content')?.textContent?.includes('AMDGPU LB+plain'),
    );
    await page.selectOption('[data-testid=model]', 'rc11');
    // Ctrl-Enter in the editor runs, and types nothing.
    const before = await editorText(page);
    await page.click('.cm-content');
    await page.keyboard.press('Control+Enter');
    await page.waitForSelector('[data-testid=states]');
    expect(await editorText(page)).toBe(before);
    expect(await page.textContent('.facts')).toContain('rc11');
    await page.selectOption('[data-testid=model]', 'user-cat');
    await page.waitForSelector('[data-testid=cat-editor] .cm-content');
    await page.click('[data-testid=cat-editor] .cm-content');
    await page.keyboard.press('Control+End');
    await page.keyboard.insertText('let oops = po |\n');
    await page.click('[data-testid=run]');
    await page.waitForFunction(() => document.body.textContent?.includes('Problems in the cat file'));
    const where = await page.$$eval('[data-testid=diagnostics]', (ds) => ds.map((d) => d.textContent ?? ''));
    // At the file's last character, where `gpumm run --cat` puts an end-of-file diagnostic.
    expect(where.join('\n')).toMatch(/(^|\D)4:15 CAT2001 expected an expression, found end of file/);
    // …and squiggled in the cat editor.
    await page.waitForSelector('[data-testid=cat-editor] .cm-lint-marker-error');
    await page.screenshot({ path: artifact('10-cat.png') });
  });

  it('runs a Vulkan test of the corpus under vulkan: its states and a forbidden candidate’s check', async () => {
    const file = 'corpus/vulkan-dat3m/Manual/MP-avvis.litmus';
    await page.click('[data-testid=tab-results]');
    await page.selectOption('[data-testid=catalogue]', file);
    await page.waitForFunction(() =>
      document.querySelector('.cm-content')?.textContent?.includes('Vulkan MP-avvis'),
    );
    expect(await page.textContent('[data-testid=syntax]')).toContain(
      "Dartagnan's Vulkan syntax (Vulkan test)",
    );
    // Coloured by the Vulkan lexer: the scope of `st.av.dv.sc0` is a scope.
    expect(await page.locator('[data-testid=editor] .tok-scope', { hasText: 'dv' }).count()).toBeGreaterThan(
      0,
    );
    // Under an AMDGPU model the page says the translation runs; under vulkan, the test itself.
    await page.selectOption('[data-testid=model]', 'amdgpu');
    await page.waitForSelector('[data-testid=translated-note]');
    await page.selectOption('[data-testid=model]', 'vulkan');
    await page.waitForSelector('[data-testid=translated-note]', { state: 'detached' });
    await page.click('[data-testid=run]');
    await page.waitForSelector('[data-testid=states]');
    const rows = await page.$$eval('[data-testid=states] tbody tr', (trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].slice(0, 2).map((td) => td.textContent)),
    );
    // The states gpumm run --model vulkan prints (1:r0, 1:r1).
    const cli = spawnSync(
      process.execPath,
      [join(ROOT, 'bin', 'gpumm.js'), 'run', '--model', 'vulkan', '--explain', file],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    );
    const cliStates = [...cli.stdout.matchAll(/^1:r0=(\d+); 1:r1=(\d+);/gm)].map((m) => [m[1], m[2]]);
    expect(rows).toEqual(cliStates);
    expect(await page.textContent('[data-testid=histogram]')).toMatch(/P1:r0=1; P1:r1=0;\s*1\s*forbidden/);
    await page.screenshot({ path: artifact('11-vulkan-results.png') });
    await page.click('[data-testid=tab-executions]');
    await page.selectOption('[data-testid=exec-filter]', 'forbidden');
    await page.waitForSelector('[data-testid=axiom]');
    expect(await page.textContent('[data-testid=exec-head]')).toContain('P1:r0=1; P1:r1=0;');
    await page.waitForSelector('[data-testid=graph] svg');
    const shown = (await page.textContent('[data-testid=axiom] pre'))!;
    expect(shown).toContain('consistency');
    expect(cli.stdout.replace(/\n {2}/g, '\n')).toContain(shown.split('\n')[0]!.trim());
    expect(await page.locator('[data-testid=graph] svg g.edge-witness').count()).toBeGreaterThan(0);
    // The Vulkan relations models/vulkan.cat binds are toggles: availability chains drawn when asked.
    expect(await page.locator('[data-testid=edge-av]').count()).toBe(1);
    await page.screenshot({ path: artifact('12-vulkan-forbidden.png') });
  });

  it('lowers side by side for gfx942 and pvc, in a table that fits its panel; a Vulkan test through its translation', async () => {
    await page.click('[data-testid=tab-code]');
    await page.selectOption('[data-testid=target]', 'gfx942');
    await page.selectOption('[data-testid=add-target]', 'pvc');
    // Two columns in one thread's table (counting over every table, one column per thread already
    // makes two before pvc's code arrives).
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid=lowered-P0] [data-testid=target-column]').length >= 2,
    );
    const heads = await page.$$eval('[data-testid=lowered-P0] [data-testid=target-column]', (ths) =>
      ths.map((t) => t.textContent),
    );
    expect(heads).toHaveLength(2);
    expect(heads[0]).toMatch(/^gfx942/);
    expect(heads[1]).toBe('pvc (Xe-HPC, dGPU, OpenCL/SPIR-V)');
    expect(await page.textContent('[data-testid=lowered-P0]')).toMatch(/lsc_fence\.ugm\./);
    // The Vulkan test is lowered as its AMDGPU translation, and says so.
    await page.waitForSelector('[data-testid=translation]');
    // No horizontal scrolling: each table fits the panel.
    const overflow = await page.$$eval('table.lowered', (ts) =>
      ts.map((t) => t.getBoundingClientRect().width - t.parentElement!.clientWidth),
    );
    expect(overflow.every((o) => o <= 1)).toBe(true);
    await page.screenshot({ path: artifact('13-side-by-side.png') });
  });

  it('a fresh page shows no diagnostic before its first test; a Khronos test is read, coloured and run', async () => {
    const fresh = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    try {
      // Records every error marker the editor's gutter ever shows, from the first paint on.
      await fresh.addInitScript(() => {
        const w = window as unknown as { markers: number };
        w.markers = 0;
        new MutationObserver(() => {
          w.markers += document.querySelectorAll('.cm-lint-marker-error').length;
        }).observe(document, { childList: true, subtree: true });
      });
      await fresh.goto(server.url);
      await fresh.waitForFunction(() =>
        document.querySelector('.cm-content')?.textContent?.includes('AMDGPU MP+rel+acq.agent'),
      );
      await fresh.waitForTimeout(300);
      expect(await fresh.evaluate(() => (window as unknown as { markers: number }).markers)).toBe(0);
      await fresh.selectOption('[data-testid=catalogue]', 'litmus-vulkan/SSW.avvis.test');
      await fresh.waitForFunction(() =>
        document.querySelector('.cm-content')?.textContent?.includes('NEWTHREAD'),
      );
      expect(await fresh.textContent('[data-testid=syntax]')).toContain(
        'the Khronos .test format (Vulkan test)',
      );
      expect(await fresh.locator('[data-testid=editor] .tok-thread', { hasText: 'NEWWG' }).count()).toBe(2);
      expect(await fresh.locator('[data-testid=editor] .tok-comment').count()).toBeGreaterThan(0);
      await fresh.selectOption('[data-testid=model]', 'vulkan-cat');
      await fresh.click('[data-testid=run]');
      await fresh.waitForSelector('[data-testid=states]');
      // Its NOSOLUTION line is checked, as gpumm run checks it.
      expect(await fresh.textContent('.results')).toMatch(/NOSOLUTION consistent\[X\]/);
      expect(await fresh.textContent('[data-testid=states]')).toContain('the model allows no execution');
      await fresh.screenshot({ path: artifact('14-khronos.png') });
    } finally {
      await fresh.close();
    }
  });

  it('asked nothing of any other host (no CDN: the page works offline)', () => {
    const origin = new URL(server.url).origin;
    const foreign = requests.filter(
      (u) => !u.startsWith(origin) && !u.startsWith('data:') && !u.startsWith('blob:'),
    );
    expect(foreign).toEqual([]);
    expect(requests.length).toBeGreaterThan(3);
  });
});
