// Where the CLI bundle lives and whether it may be used. Shared by bin/gpumm.js (which picks the
// bundle or the sources at every start, so this stays a few stat calls) and scripts/build.mjs
// (which writes it).
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The bundle's folder, relative to the package root. It sits as deep as src/cli and src/enumerate
 * so that paths the sources compute from their own location still hold inside the bundle: the
 * catalogue at ../../litmus (src/cli/demo.ts) and the worker entry beside the module that starts
 * the pool (src/enumerate/pool.ts).
 */
export const BUNDLE_DIR = join('dist', 'cli');
export const BUNDLE_MAIN = join(BUNDLE_DIR, 'gpumm.mjs');
/** Written last by the build: `{ builtAt, inputs }`, the build's start time and its source files. */
export const BUNDLE_MANIFEST = join(BUNDLE_DIR, 'inputs.json');

/**
 * The bundle's path under `root` when it exists and no source file it was built from changed (or
 * vanished) since the build started; otherwise null, and the caller runs the sources through tsx.
 * Modification times are what `git pull`, `git checkout` and an editor update, so a developer who
 * did not rebuild gets the code they have, only slower.
 */
export function freshBundle(root) {
  return freshBuild(root, BUNDLE_MANIFEST, BUNDLE_MAIN);
}

/** The explorer page's build (scripts/build-web.mjs), with its manifest beside it. */
export const WEB_DIR = join('dist', 'web');
export const WEB_MAIN = join(WEB_DIR, 'index.html');
export const WEB_MANIFEST = join('dist', 'web-inputs.json');

/**
 * `main` under `root` when it exists and none of the inputs listed in `manifestPath` changed (or
 * vanished) since that build started; otherwise null.
 */
export function freshBuild(root, manifestPath, main) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(root, manifestPath), 'utf8'));
    statSync(join(root, main));
  } catch {
    return null;
  }
  if (typeof manifest?.builtAt !== 'number' || !Array.isArray(manifest.inputs)) return null;
  for (const input of manifest.inputs) {
    const st = statSync(join(root, input), { throwIfNoEntry: false });
    // Strictly before the build started: a file saved in the same millisecond may not be in it.
    if (!st || st.mtimeMs >= manifest.builtAt) return null;
  }
  return join(root, main);
}
