/**
 * The registry of languages and models: which languages a test may be written in, which models
 * run them, and what each needs. Everything that chooses a language or a model — `gpumm run`,
 * `compare`, `check`'s model side, the explorer — reads it here, and the runner (src/run/runner.ts)
 * loads what an entry names only when it is used, so the command line's start-up stays light.
 *
 * Adding a model is one entry of `MODELS` (a cat file in `models/` needs nothing else); adding a
 * language is one entry of `LANGUAGES` with its tools (translation in, src/run/lang-*.ts), its
 * engines (src/run/engine-*.ts) and its syntaxes (src/run/syntaxes.ts).
 * No Node APIs here: the web page imports this file.
 */
import type { AnyTest } from '../vulkan/ast.ts';
import type { Engine } from './engine.ts';
import type { LanguageTools } from './lang.ts';

export type LanguageId = 'amdgpu' | 'vulkan';
/** How a model runs: a fast search of its language's own, or a cat model through the cat engine. */
export type EngineKind = 'fast' | 'cat';

export interface LanguageEntry {
  id: LanguageId;
  /** As the page and the reports name it. */
  name: 'AMDGPU' | 'Vulkan';
  /** The model a test of this language runs under when none is asked for. */
  defaultModel: string;
  /** The `arch` of a parsed test of this language. */
  arch: AnyTest['arch'];
  /** Translation into this language (loaded when a test of the other language needs it). */
  tools(): Promise<LanguageTools>;
  /** The engines of this language's models (loaded when a model of the language runs). */
  engine(kind: EngineKind): Promise<Engine>;
}

export const LANGUAGES: readonly LanguageEntry[] = [
  {
    id: 'amdgpu',
    name: 'AMDGPU',
    defaultModel: 'amdgpu',
    arch: 'AMDGPU',
    tools: async () => (await import('./lang-amdgpu.ts')).AMDGPU_TOOLS,
    engine: async (kind) =>
      kind === 'fast'
        ? (await import('./engine-amdgpu.ts')).AMDGPU_FAST
        : (await import('./engine-amdgpu-cat.ts')).AMDGPU_CAT,
  },
  {
    id: 'vulkan',
    name: 'Vulkan',
    defaultModel: 'vulkan',
    arch: 'VULKAN',
    tools: async () => (await import('./lang-vulkan.ts')).VULKAN_TOOLS,
    engine: async (kind) => {
      const m = await import('./engine-vulkan.ts');
      return kind === 'fast' ? m.VULKAN_FAST : m.VULKAN_CAT;
    },
  },
];

/** The entry of language `id`. */
export function language(id: LanguageId): LanguageEntry {
  return LANGUAGES.find((l) => l.id === id)!;
}

/** The language `test` is written in. */
export function languageOf(test: AnyTest): LanguageEntry {
  const l = LANGUAGES.find((x) => x.arch === test.arch);
  if (!l) throw new Error(`no language of arch ${test.arch}`);
  return l;
}

export interface ModelEntry {
  /** The `--model` name. */
  name: string;
  language: LanguageId;
  engine: EngineKind;
  /** The cat file in `models/` a cat model runs. */
  catFile: string | null;
  /**
   * The cat file that explains a fast search's candidates (`--explain`, `compare`, the explorer's
   * listing) when the search cannot itself; null when it can.
   */
  explainCat: string | null;
  /** One line for `--help` and the docs. */
  summary: string;
}

/** Every model `--model` names, in the order the explorer offers them: the fast searches first. */
export const MODELS: readonly ModelEntry[] = [
  {
    name: 'amdgpu',
    language: 'amdgpu',
    engine: 'fast',
    catFile: null,
    explainCat: null,
    summary: 'the AMDGPU memory model, fast search (docs/model.md)',
  },
  {
    name: 'vulkan',
    language: 'vulkan',
    engine: 'fast',
    catFile: null,
    explainCat: 'vulkan.cat',
    summary: 'the Vulkan memory model, fast search (docs/model-vulkan.md)',
  },
  {
    name: 'amdgpu-cat',
    language: 'amdgpu',
    engine: 'cat',
    catFile: 'amdgpu.cat',
    explainCat: null,
    summary: 'the AMDGPU memory model as a cat model (models/amdgpu.cat)',
  },
  {
    name: 'rc11',
    language: 'amdgpu',
    engine: 'cat',
    catFile: 'rc11.cat',
    explainCat: null,
    summary: 'RC11, scopes ignored (models/rc11.cat)',
  },
  {
    name: 'vulkan-cat',
    language: 'vulkan',
    engine: 'cat',
    catFile: 'vulkan.cat',
    explainCat: null,
    summary: 'the Vulkan memory model as a cat model (models/vulkan.cat)',
  },
];

/** The entry of model `name`, if there is one. */
export function findModel(name: string): ModelEntry | undefined {
  return MODELS.find((m) => m.name === name);
}

/** Every `--model` name. */
export function modelNames(): string[] {
  return MODELS.map((m) => m.name);
}

/** The `--model` names backed by a cat file of `models/`, and the file. */
export const CAT_MODELS: Readonly<Record<string, string>> = Object.fromEntries(
  MODELS.flatMap((m) => (m.catFile ? [[m.name, m.catFile]] : [])),
);

/** The model a run uses: a registry entry, or a user's cat file run on tests of one language. */
export interface ModelSpec {
  /** As reports name the model: the `--model` name, or the cat file's name. */
  name: string;
  language: LanguageId;
  engine: EngineKind;
  /** The cat model to load: one of `models/`, or the user's file (a path, or the page's pasted text). */
  cat: CatRef | null;
  /** The cat model a fast search's explanations come from. */
  explainCat: CatRef | null;
}

/** A cat file: one of gpumm's `models/`, or the user's. */
export interface CatRef {
  file: string;
  origin: 'models' | 'user';
}

/** The spec of registry model `name` (undefined for an unknown name). */
export function modelSpec(name: string): ModelSpec | undefined {
  const m = findModel(name);
  if (!m) return undefined;
  const ref = (file: string | null): CatRef | null => (file ? { file, origin: 'models' } : null);
  return { name, language: m.language, engine: m.engine, cat: ref(m.catFile), explainCat: ref(m.explainCat) };
}

/**
 * The spec of a user's cat file run on tests of `lang` (`gpumm run --cat`: a test runs in its own
 * language; the explorer's pasted model likewise).
 */
export function userCatSpec(file: string, lang: LanguageId, name = file): ModelSpec {
  return { name, language: lang, engine: 'cat', cat: { file, origin: 'user' }, explainCat: null };
}
