/**
 * models/amdgpu.cat against the fast search (src/models/amdgpu.ts, src/enumerate/enumerate.ts) on
 * the whole catalogue: the same final states, counts, race / undef flags and verdicts, and the same
 * text report line for line but the search figures. This is the golden test of `--model
 * amdgpu-cat`: its reports must equal the fast search's, so the fast search's baselines are its
 * baselines.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Test } from '../core/types.ts';
import { formatReport } from '../enumerate/report.ts';
import { runTestSync } from '../enumerate/verdict.ts';
import { DEFAULT_OPTIONS, type ModelOptions } from '../models/amdgpu.ts';
import { parse } from '../syntax/parser.ts';
import { loadModel } from './load.ts';
import { runCat } from './report.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const CAT = join(ROOT, 'models', 'amdgpu.cat');
const { model, diagnostics } = loadModel(readFileSync(CAT, 'utf8'), CAT, () => null);

function catalogue(): { file: string; test: Test }[] {
  const out: { file: string; test: Test }[] = [];
  for (const dir of ['litmus', join('litmus', 'barriers')]) {
    for (const f of readdirSync(join(ROOT, dir))
      .filter((x) => x.endsWith('.litmus'))
      .sort()) {
      const file = join(ROOT, dir, f);
      const { test } = parse(readFileSync(file, 'utf8'), file);
      if (test) out.push({ file: join(dir, f), test });
    }
  }
  return out;
}

function summary(r: ReturnType<typeof runTestSync>) {
  return { states: r.states, flags: r.flags, condition: r.condition, complete: r.complete };
}

/** The text report `gpumm run` prints, less the search figures (how the search went, not its result). */
function text(r: ReturnType<typeof runTestSync>): string {
  return formatReport(r, { timing: false })
    .split('\n')
    .filter((l) => !l.startsWith('Candidates '))
    .join('\n');
}

function agree(test: Test, opts: ModelOptions): void {
  const fast = runTestSync(test, {
    model: opts,
    maxExecutions: Number.POSITIVE_INFINITY,
    timeoutMs: 60_000,
    explain: false,
  });
  const cat = runCat(test, model, opts, { keepExamples: false, timeoutMs: 60_000 });
  expect(summary(cat)).toEqual(summary(fast));
  expect(text(cat)).toBe(text(fast));
}

describe('models/amdgpu.cat', () => {
  it('parses without diagnostics', () => {
    expect(diagnostics).toEqual([]);
  });

  const tests = catalogue();
  it('covers the catalogue', () => {
    expect(tests.length).toBeGreaterThan(140);
  });

  it.each(tests.map((t) => [t.file, t.test] as const))(
    '%s: the fast search and amdgpu.cat agree',
    (_f, test) => {
      agree(test, DEFAULT_OPTIONS);
    },
  );

  // The repaired value rules differ from the literal ones on these (docs/model.md).
  it.each(
    tests.filter((t) => /Counter|publish|CoWW|MP\+/.test(t.file)).map((t) => [t.file, t.test] as const),
  )('%s: agree with the repaired value rules', (_f, test) => {
    agree(test, { ...DEFAULT_OPTIONS, valueRules: 'repaired' });
  });

  it.each(tests.filter((t) => /^litmus\/LB/.test(t.file)).map((t) => [t.file, t.test] as const))(
    '%s: agree without no-thin-air',
    (_f, test) => {
      agree(test, { ...DEFAULT_OPTIONS, noThinAir: false });
    },
  );

  it.each(tests.filter((t) => /CoRR|MP\+rel|Counter/.test(t.file)).map((t) => [t.file, t.test] as const))(
    '%s: pruning with the monotone checks changes nothing',
    (_f, test) => {
      const pruned = runCat(test, model, DEFAULT_OPTIONS, { keepExamples: false });
      const full = runCat(test, model, DEFAULT_OPTIONS, { keepExamples: false, prune: false });
      expect(summary(pruned)).toEqual(summary(full));
      expect(pruned.stats.nodes).toBeLessThanOrEqual(full.stats.nodes);
    },
  );
});
