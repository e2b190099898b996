/**
 * The command line's side of the runner (src/run/runner.ts): cat files read from disk (a model of
 * `models/`, or the user's path), the settings the options select, and the runner's diagnostics
 * printed the way every command prints them — a translation's with the test's text, a cat model's
 * with the text of the file each is in (exit 2).
 */
import { join } from 'node:path';
import type { SourceDiagnostic } from '../core/diagnostics.ts';
import type { ModelOptions } from '../models/amdgpu.ts';
import { DEFAULT_SETTINGS, type RunSettings } from '../run/engine.ts';
import { type ModelSpec, modelSpec, userCatSpec } from '../run/registry.ts';
import { type CatSource, type Prepared, Runner } from '../run/runner.ts';
import type { AnyTest } from '../vulkan/ast.ts';
import { DEFAULT_ERROR_LIMIT, formatDiagnostics } from './format.ts';
import type { VulkanCliOptions } from './vulkan-options.ts';

/** Cat files from disk: a model of gpumm's `models/`, or the user's path. Bad files end with status 2. */
export function cliCats(errorLimit?: number): CatSource {
  return {
    async load(ref) {
      // The cat reader loads only when a model needs it.
      const { loadCatFile, MODELS_DIR } = await import('./cat.ts');
      return {
        model: loadCatFile(ref.origin === 'models' ? join(MODELS_DIR, ref.file) : ref.file, errorLimit),
      };
    },
  };
}

/** Prints a cat model's diagnostics (with the text of the file each is in) and ends with status 2. */
export async function catDiagnosticsExit(
  ds: readonly SourceDiagnostic[],
  errorLimit?: number,
): Promise<never> {
  const { printAndExit } = await import('./cat.ts');
  return printAndExit(ds, errorLimit ?? DEFAULT_ERROR_LIMIT);
}

/** The model `--model NAME` names; anything else is a cat file's path, read as a model of AMDGPU tests. */
export function specOf(name: string): ModelSpec {
  return modelSpec(name) ?? userCatSpec(name, 'amdgpu');
}

/** The settings the options of `gpumm run` and `gpumm compare` select. */
export function settingsOf(
  vk: VulkanCliOptions,
  amdgpu: ModelOptions,
  more: Partial<Omit<RunSettings, 'amdgpu' | 'vulkan'>> = {},
): RunSettings {
  return {
    ...DEFAULT_SETTINGS,
    ...more,
    amdgpu,
    observe: more.observe ?? vk.observe ?? 'all',
    vulkan: { unroll: vk.unroll, chains: vk.avVisChains !== false, literalFr: vk.vulkanFr === 'literal' },
  };
}

/** Opens a model and reads its cat file; one that cannot be read or parsed ends the command with status 2. */
export async function openRunner(
  spec: ModelSpec,
  settings: RunSettings,
  errorLimit?: number,
  explained?: boolean,
): Promise<Runner> {
  const r = await Runner.openWith(spec, settings, cliCats(errorLimit), explained);
  if ('diagnostics' in r) return catDiagnosticsExit(r.diagnostics, errorLimit);
  return r;
}

/**
 * `test` in the runner's language; a translation's diagnostics go to stderr with `text`, and a
 * test that cannot be translated is null (the command then ends with status 2).
 */
export async function prepareOrSay(
  runner: Pick<Runner, 'prepare'>,
  test: AnyTest,
  text: string,
  deviceScope: VulkanCliOptions['deviceScope'],
): Promise<Prepared | null> {
  const { prepared, diagnostics } = await runner.prepare(test, { deviceScope });
  if (diagnostics.length > 0) process.stderr.write(`${formatDiagnostics(diagnostics, text)}\n`);
  return prepared;
}

/** Compiles the runner's cat model against the first test; a diagnostic ends with status 2. */
export async function compileOrExit(
  runner: Runner,
  tests: readonly Prepared[],
  errorLimit?: number,
): Promise<void> {
  const first = tests[0];
  if (!first) return;
  const ds = runner.compile(first);
  if (ds.length > 0) await catDiagnosticsExit(ds, errorLimit);
}
