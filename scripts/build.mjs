// Builds the CLI bundle (dist/cli/): `npm run build`, and the `prepare` script, which `npm ci` and
// `npm install` run in the package's own folder. tsx compiles every source file at every start
// (about 0.45 s); the bundle starts in a fraction of that (docs/benchmarks.md, "Start-up").
//
// What goes in: our sources, and the packages every start needs (commander, zod), so that Node
// reads and compiles one file instead of resolving hundreds. Packages loaded only on demand stay
// in node_modules: piscina must (it starts its own worker script), and @viz-js/viz (1.2 MB of
// Graphviz as WASM) and cli-progress are loaded by the code paths that need them. Code behind a
// dynamic import() becomes its own chunk, so start-up does not compile it.
import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { BUNDLE_DIR, BUNDLE_MAIN, BUNDLE_MANIFEST } from '../bin/bundle.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, BUNDLE_DIR);
// Built beside the bundle and moved in file by file (a rename is atomic): a gpumm started while
// the bundle is rebuilt, by a test or another terminal, reads whole files.
const tmp = join(root, 'dist', `.build-${process.pid}`);
const builtAt = Date.now();

try {
  const result = await build({
    absWorkingDir: root,
    entryPoints: [
      { in: 'src/cli/main.ts', out: basename(BUNDLE_MAIN, '.mjs') },
      // The piscina task module, found by src/enumerate/pool.ts beside the code that starts the pool.
      { in: 'src/enumerate/worker.ts', out: 'worker-entry' },
      // The check task module, found by src/check/pool.ts the same way.
      { in: 'src/check/worker.ts', out: 'check-worker-entry' },
      // The campaign's task module (one whole test), found by src/campaign/run.ts the same way.
      { in: 'src/campaign/worker.ts', out: 'campaign-worker-entry' },
    ],
    outdir: tmp,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: ['piscina', '@viz-js/viz', 'cli-progress'],
    // commander is CommonJS: its require() of Node built-ins needs a real require in an ES module.
    banner: {
      js: "import { createRequire as __gpummRequire } from 'node:module';\nconst require = __gpummRequire(import.meta.url);",
    },
    metafile: true,
    logLevel: 'warning',
  });
  const outputs = Object.keys(result.metafile.outputs).map((o) => basename(o));
  // Chunks first and the entry points last, so a new entry never imports a missing chunk.
  const entries = [
    basename(BUNDLE_MAIN),
    'worker-entry.mjs',
    'check-worker-entry.mjs',
    'campaign-worker-entry.mjs',
  ];
  const order = [...outputs.filter((o) => !entries.includes(o)), ...entries];
  mkdirSync(outdir, { recursive: true });
  for (const o of order) renameSync(join(tmp, o), join(outdir, o));
  // The sources in the bundle, and this script: a change to how the bundle is made dates it too.
  const inputs = Object.keys(result.metafile.inputs)
    .filter((i) => !i.includes('node_modules'))
    .map((i) => relative(root, join(root, i)))
    .concat(relative(root, fileURLToPath(import.meta.url)));
  const manifest = join(tmp, basename(BUNDLE_MANIFEST));
  writeFileSync(manifest, `${JSON.stringify({ builtAt, inputs }, null, 1)}\n`);
  renameSync(manifest, join(root, BUNDLE_MANIFEST));
  // Chunks of earlier builds (their names carry a content hash); same sources give the same names.
  for (const f of readdirSync(outdir))
    if (f.endsWith('.mjs') && !outputs.includes(f)) rmSync(join(outdir, f), { force: true });
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

// The explorer page (`gpumm serve`), built by Vite.
const { buildWeb } = await import('./build-web.mjs');
await buildWeb(root);
