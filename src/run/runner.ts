/**
 * The runner: one model, opened once, run on tests of any language. `gpumm run`, `gpumm compare`,
 * `gpumm check`'s model side and the explorer's worker all run a model through it:
 *
 *   const r = await Runner.open(modelSpec('vulkan')!, settings);
 *   const { prepared, diagnostics } = await r.prepare(test, { deviceScope: 'system' });
 *   await r.loadCat(cats);                  // its cat model, if it has one
 *   const run = await r.run(prepared!, budgets, hooks);
 *
 * `prepare` translates a test written in the other language into the model's (src/run/lang-*.ts);
 * `diagnose` says what keeps the model from deciding it; `compile` checks a cat model against it;
 * `run` runs it within budgets, with progress and interruption; `why` explains why the model
 * forbids a final state. Which engine runs, and which cat files it needs, the registry says
 * (src/run/registry.ts); the cat files come from a `CatSource` (the command line reads files, the
 * page has them bundled). No Node APIs here.
 */
import type { Model } from '../cat/ast.ts';
import type { SourceDiagnostic } from '../core/diagnostics.ts';
import type { ModelDiagnostic } from '../events/skeleton.ts';
import type { AnyTest } from '../vulkan/ast.ts';
import type { Budgets, Engine, ModelRun, RunHooks, RunSettings, Spread } from './engine.ts';
import type { Translated, TranslateOptions } from './lang.ts';
import { type CatRef, type LanguageId, language, languageOf, type ModelSpec } from './registry.ts';

export type CatLoaded = { model: Model } | { diagnostics: SourceDiagnostic[] };

/** Where the cat files come from. */
export interface CatSource {
  /** The model of cat file `ref`, or the diagnostics of reading and parsing it. */
  load(ref: CatRef): CatLoaded | Promise<CatLoaded>;
}

/** A test in a model's language. */
export interface Prepared {
  /** The test the model runs: the original, or its translation. */
  test: AnyTest;
  /** The test as it was written. */
  original: AnyTest;
  /** The translation, when the test was written in another language. */
  translation: Translated | null;
}

/**
 * `test` in language `lang`: itself, or translated (loading the translation only then). Null, with
 * the translation's diagnostics, when it cannot be said there; the diagnostics may be warnings too.
 */
export async function inLanguage(
  test: AnyTest,
  lang: LanguageId,
  o: TranslateOptions,
): Promise<{ prepared: Prepared | null; diagnostics: SourceDiagnostic[] }> {
  if (languageOf(test).id === lang)
    return { prepared: { test, original: test, translation: null }, diagnostics: [] };
  const tr = (await language(lang).tools()).translate(test, o);
  const ok = tr.test !== null && !tr.diagnostics.some((d) => d.severity === 'error');
  return {
    prepared: ok ? { test: tr.test!, original: test, translation: tr } : null,
    diagnostics: tr.diagnostics,
  };
}

export class Runner {
  /** The cat model the engine runs, or the one a fast search's explanations come from. */
  private catModel: Model | null = null;
  private catLoaded = false;

  private constructor(
    readonly spec: ModelSpec,
    readonly settings: RunSettings,
    private readonly engine: Engine,
    /** Whether the fast search's explaining cat model is wanted. */
    private readonly explained: boolean,
  ) {}

  /**
   * Opens model `spec`: loads its engine. Its cat model — and, when `explained` (default: the
   * settings' `explain`), the cat model its fast search's explanations come from — is read by
   * `loadCat`, before the first `compile`, `run` or `why`.
   */
  static async open(spec: ModelSpec, settings: RunSettings, explained = settings.explain): Promise<Runner> {
    return new Runner(spec, settings, await language(spec.language).engine(spec.engine), explained);
  }

  /** Opens model `spec` and reads its cat model: the runner, or the diagnostics of a cat file. */
  static async openWith(
    spec: ModelSpec,
    settings: RunSettings,
    cats: CatSource,
    explained = settings.explain,
  ): Promise<Runner | { diagnostics: SourceDiagnostic[] }> {
    const r = await Runner.open(spec, settings, explained);
    const ds = await r.loadCat(cats);
    return ds.length > 0 ? { diagnostics: ds } : r;
  }

  /** The cat file this model needs, if any. */
  get catRef(): CatRef | null {
    return this.spec.engine === 'cat' ? this.spec.cat : this.explained ? this.spec.explainCat : null;
  }

  /** Reads the model's cat file (see `open`); the diagnostics of one that cannot be read or parsed. */
  async loadCat(cats: CatSource): Promise<SourceDiagnostic[]> {
    const ref = this.catRef;
    if (ref && !this.catLoaded) {
      const loaded = await cats.load(ref);
      if ('diagnostics' in loaded) return loaded.diagnostics;
      this.catModel = loaded.model;
    }
    this.catLoaded = true;
    return [];
  }

  /** The cat model read (null when the model needs none). */
  get cat(): Model | null {
    if (!this.catLoaded && this.catRef) throw new Error(`the cat model of ${this.spec.name} is not read yet`);
    return this.catModel;
  }

  /** The model's name, as reports show it. */
  get name(): string {
    return this.spec.name;
  }

  get language(): LanguageId {
    return this.spec.language;
  }

  /** What the engine can do beyond a run. */
  get features(): Engine['features'] {
    return this.engine.features;
  }

  /** `test` in the model's language (see `inLanguage`). */
  prepare(
    test: AnyTest,
    o: TranslateOptions,
  ): Promise<{ prepared: Prepared | null; diagnostics: SourceDiagnostic[] }> {
    return inLanguage(test, this.spec.language, o);
  }

  /** What keeps the model from deciding the test (MD004/MD007: undecided; any other: bad input). */
  diagnose(p: Prepared): ModelDiagnostic[] {
    return this.engine.diagnose(p.test);
  }

  /** The diagnostics of compiling the model's cat file (if any) against the test's primitives. */
  compile(p: Prepared): SourceDiagnostic[] {
    const cat = this.cat;
    return cat ? this.engine.compile(cat, p.test, this.settings) : [];
  }

  /** Runs the test within `budgets`; `spread`: the fast AMDGPU search over worker threads. */
  run(p: Prepared, budgets: Budgets, hooks: RunHooks = {}, spread?: Spread): Promise<ModelRun> {
    return this.engine.run(p.test, this.cat, this.settings, budgets, hooks, spread);
  }

  /** `--explain` lines for the candidates reaching the state `values` (over the labels it names). */
  why(p: Prepared, values: Record<string, number>): string[] {
    return this.engine.why(p.test, this.cat, values, this.settings);
  }
}
