#!/usr/bin/env node
// Entry point for `npx gpumm`. Runs the bundle that `npm ci` builds (dist/cli/, fast start-up) when
// it is up to date with the sources; otherwise — no bundle yet, or a source file changed since it
// was built (an edit, a `git pull`) — runs the TypeScript sources through tsx, slower to start but
// always the code on disk. `npm run build` refreshes the bundle; GPUMM_FROM_SOURCE=1 forces tsx;
// GPUMM_DEBUG=1 says which runs.
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { freshBundle } from './bundle.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bundle = process.env.GPUMM_FROM_SOURCE ? null : freshBundle(root);
if (process.env.GPUMM_DEBUG) process.stderr.write(`gpumm: running ${bundle ?? 'the sources through tsx'}\n`);
if (bundle) await import(pathToFileURL(bundle).href);
else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}
