/**
 * The registry and the runner (src/run/): every model of the registry runs through one runner on tests
 * of either language, translating where the languages differ; budgets, interruption, progress,
 * explanations and the executions `compare` describes come out the same way whatever the engine; the
 * syntaxes are one table (detected, read and printed through it); a test's skeleton is built once.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadModel } from '../cat/load.ts';
import type { Test } from '../core/types.ts';
import { buildSkeleton } from '../events/skeleton.ts';
import type { AnyTest } from '../vulkan/ast.ts';
import { DEFAULT_SETTINGS, type RunSettings, UNBOUNDED } from './engine.ts';
import { CAT_MODELS, LANGUAGES, languageOf, MODELS, modelSpec, userCatSpec } from './registry.ts';
import { type CatSource, inLanguage, Runner } from './runner.ts';
import { detectSyntax, parseAnyTest, printTest, SYNTAXES, syntaxOfTest } from './syntaxes.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const MODELS_DIR = join(ROOT, 'models');

/** Cat files of `models/` from disk; a user's cat file from `user` (its text). */
function cats(user: Record<string, string> = {}): CatSource {
  return {
    load(ref) {
      const text = ref.origin === 'user' ? user[ref.file] : readFileSync(join(MODELS_DIR, ref.file), 'utf8');
      if (text === undefined) throw new Error(`no cat file ${ref.file}`);
      const { model, diagnostics } = loadModel(text, ref.file, (name) => {
        const p = join(MODELS_DIR, name);
        return existsSync(p) ? { file: name, text: readFileSync(p, 'utf8') } : null;
      });
      return diagnostics.length > 0 ? { diagnostics } : { model };
    },
  };
}

function read(path: string): AnyTest {
  const r = parseAnyTest(readFileSync(join(ROOT, path), 'utf8'), path);
  if (!r.test) throw new Error(`${path} does not parse`);
  return r.test;
}

const MP = 'litmus/MP+rel+acq.agent.litmus';
const VK_MP = 'litmus-vulkan/MP.sw-atomic.dv.litmus';
const SETTINGS: RunSettings = { ...DEFAULT_SETTINGS, keepExamples: true, symmetry: false };

async function open(name: string, s: RunSettings = SETTINGS, explained?: boolean): Promise<Runner> {
  const r = await Runner.openWith(modelSpec(name)!, s, cats(), explained);
  if ('diagnostics' in r) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
  return r;
}

async function verdictOf(model: string, path: string): Promise<string | undefined> {
  const r = await open(model);
  const { prepared } = await r.prepare(read(path), { deviceScope: 'system' });
  const run = await r.run(prepared!, UNBOUNDED);
  return run.report.condition?.verdict;
}

describe('the registry', () => {
  it('names each model once, each of a language it knows, each cat file one of models/', () => {
    const names = MODELS.map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
    for (const m of MODELS) {
      expect(LANGUAGES.map((l) => l.id)).toContain(m.language);
      for (const f of [m.catFile, m.explainCat]) if (f) expect(existsSync(join(MODELS_DIR, f)), f).toBe(true);
      // A cat model runs its cat file; a fast search has none of its own.
      expect(m.catFile !== null).toBe(m.engine === 'cat');
    }
    expect(CAT_MODELS).toEqual({ 'amdgpu-cat': 'amdgpu.cat', rc11: 'rc11.cat', 'vulkan-cat': 'vulkan.cat' });
    // Every language's default model is one of its own.
    for (const l of LANGUAGES) expect(modelSpec(l.defaultModel)?.language).toBe(l.id);
  });

  it('tells a test’s language by its arch, whichever syntax it was written in', () => {
    expect(languageOf(read(MP)).id).toBe('amdgpu');
    expect(languageOf(read(VK_MP)).id).toBe('vulkan');
    expect(languageOf(read('litmus-vulkan/SSW.avvis.test')).id).toBe('vulkan');
  });
});

describe('the syntaxes, one table', () => {
  it('detects by extension, then by the first line that is not a comment', () => {
    expect(detectSyntax('NEWWG\n', 'a.litmus')).toBe('khronos');
    expect(detectSyntax('anything', 'a.test')).toBe('khronos');
    expect(detectSyntax('// c\n\nVULKAN t\n', 'a.litmus')).toBe('dat3m');
    expect(detectSyntax('vulkan t\n', 'a.litmus')).toBe('dat3m');
    // A word that only begins like one is not the header.
    expect(detectSyntax('VULKANX t\n', 'a.litmus')).toBe('gpumm');
    expect(detectSyntax('AMDGPU t\n', 'a.litmus')).toBe('gpumm');
    expect(detectSyntax('', 'a.litmus')).toBe('gpumm');
  });

  it('prints every catalogue test back in its own syntax, which reads back to the same test', () => {
    const dirs = ['litmus', 'litmus-vulkan'];
    const seen = new Set<string>();
    for (const d of dirs)
      for (const f of readdirSync(join(ROOT, d)).filter((x) => /\.(litmus|test)$/.test(x))) {
        const t = read(`${d}/${f}`);
        const syntax = syntaxOfTest(t);
        seen.add(syntax);
        const printed = printTest(t).text;
        // The Khronos format cannot say everything a Dartagnan test says; it prints nothing then.
        if (printed === null) continue;
        const again = parseAnyTest(printed, `${d}/${f}`);
        expect(again.syntax, f).toBe(syntax);
        expect(printTest(again.test!).text, f).toBe(printed);
      }
    expect([...seen].sort()).toEqual(SYNTAXES.map((s) => s.id).sort());
  });
});

describe('the runner', () => {
  it('runs every model of the registry on a test of its language, and translates the other', async () => {
    for (const m of MODELS) {
      const r = await open(m.name);
      for (const path of [MP, VK_MP]) {
        const t = read(path);
        const { prepared, diagnostics } = await r.prepare(t, { deviceScope: 'system' });
        expect(
          diagnostics.filter((d) => d.severity === 'error'),
          `${m.name} ${path}`,
        ).toEqual([]);
        expect(languageOf(prepared!.test).id).toBe(m.language);
        expect(prepared!.translation === null).toBe(languageOf(t).id === m.language);
        expect(r.diagnose(prepared!)).toEqual([]);
        expect(r.compile(prepared!)).toEqual([]);
        const run = await r.run(prepared!, UNBOUNDED);
        expect(run.report.stop, `${m.name} ${path}`).toBe('done');
        expect(run.collector.size).toBeGreaterThan(0);
      }
    }
  });

  it('the fast searches and their cat models agree; message passing with release/acquire is forbidden', async () => {
    expect(await verdictOf('amdgpu', MP)).toBe('fails');
    expect(await verdictOf('amdgpu-cat', MP)).toBe('fails');
    expect(await verdictOf('vulkan', VK_MP)).toBe('fails');
    expect(await verdictOf('vulkan-cat', VK_MP)).toBe('fails');
    // Across the translation too: each language's model forbids the other's test.
    expect(await verdictOf('vulkan', MP)).toBe('fails');
    expect(await verdictOf('amdgpu', VK_MP)).toBe('fails');
  });

  it('a translation keeps what it assumes of a final state (an await loop’s exit)', async () => {
    const t = read('corpus/vulkan-dat3m/Manual/MP-mesa.litmus');
    const r = await inLanguage(t, 'amdgpu', { deviceScope: 'system' });
    expect(r.prepared?.translation?.assumption).not.toBeNull();
    // A test that cannot be said in the other language: no test, an error with its place.
    const big = await inLanguage(read('litmus-vulkan/SSW.avvis.test'), 'amdgpu', { deviceScope: 'system' });
    if (!big.prepared) expect(big.diagnostics.some((d) => d.severity === 'error')).toBe(true);
  });

  it('explains why a model forbids a state, and describes the executions it kept', async () => {
    for (const name of ['amdgpu', 'amdgpu-cat', 'vulkan', 'vulkan-cat']) {
      const r = await open(name, SETTINGS, true);
      const { prepared } = await r.prepare(read(name.startsWith('vulkan') ? VK_MP : MP), {
        deviceScope: 'system',
      });
      // The weak state of message passing, as each language labels it.
      const weak: Record<string, number> = name.startsWith('vulkan')
        ? { 'P1:r0': 1, 'P1:r1': 0 }
        : { 'P1:%r0': 1, 'P1:%r1': 0 };
      const lines = r.why(prepared!, weak);
      expect(lines.length, name).toBeGreaterThan(0);
      const run = await r.run(prepared!, UNBOUNDED);
      const id = [...run.collector.idsByValues()][0]!;
      expect(run.describe(id).join('\n'), name).toMatch(/reads/);
    }
  });

  it('stops within its budgets, and Ctrl-C stops it through what it registers', async () => {
    for (const name of ['amdgpu', 'amdgpu-cat', 'vulkan', 'vulkan-cat']) {
      const r = await open(name);
      const { prepared } = await r.prepare(read(MP), { deviceScope: 'system' });
      const capped = await r.run(prepared!, { ...UNBOUNDED, maxExecutions: 1 });
      expect(capped.report.stop, name).toBe('max-executions');
      const stopped = await r.run(prepared!, UNBOUNDED, { register: (s) => s.interrupt() });
      expect(stopped.report.stop, name).toBe('interrupted');
    }
  });

  it('a cat model is read only when asked; a bad one is diagnostics, and a user’s is compiled against the test', async () => {
    const r = await Runner.open(modelSpec('amdgpu-cat')!, SETTINGS);
    expect(() => r.cat).toThrow(/not read yet/);
    // The fast AMDGPU search needs no cat file at all.
    const fast = await Runner.open(modelSpec('amdgpu')!, SETTINGS, true);
    expect(await fast.loadCat({ load: () => ({ diagnostics: [] }) })).toEqual([]);
    expect(fast.cat).toBeNull();
    const broken = await Runner.openWith(
      userCatSpec('mine.cat', 'amdgpu'),
      SETTINGS,
      cats({ 'mine.cat': 'acyclic (' }),
    );
    expect('diagnostics' in broken && broken.diagnostics.length > 0).toBe(true);
    const unknown = await Runner.openWith(
      userCatSpec('mine.cat', 'amdgpu'),
      SETTINGS,
      cats({ 'mine.cat': '"mine"\nacyclic (po | nosuchrelation) as oops\n' }),
    );
    if ('diagnostics' in unknown) throw new Error('the model parses');
    const { prepared } = await unknown.prepare(read(MP), { deviceScope: 'system' });
    expect(
      unknown
        .compile(prepared!)
        .map((d) => d.message)
        .join('\n'),
    ).toMatch(/nosuchrelation/);
  });

  it('a model diagnostic of the test comes from the engine that would run it', async () => {
    const r = await open('amdgpu');
    const t = read(MP) as Test;
    const undeclared: Test = {
      ...t,
      locations: t.locations.filter((l) => l.name !== 'x'),
    };
    expect(
      r.diagnose({ test: undeclared, original: undeclared, translation: null }).map((d) => d.code),
    ).toContain('MD001');
  });
});

describe('a test is prepared once', () => {
  it('builds its skeleton once per variant, however many stages ask', () => {
    const t = read(MP) as Test;
    expect(buildSkeleton(t)).toBe(buildSkeleton(t));
    expect(buildSkeleton(t, [], 0)).toBe(buildSkeleton(t));
    // Another test (even an equal copy) has its own.
    expect(buildSkeleton({ ...t })).not.toBe(buildSkeleton(t));
  });
});
