// Builds the explorer page (web/ → dist/web/) with Vite: run by scripts/build.mjs (so `npm ci`'s
// prepare script builds it) and by `gpumm serve` when a source changed since the last build.
// The page is built beside dist/web and moved in whole, so a server starting meanwhile reads one
// build or the other, never half of each.
import { readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { WEB_DIR, WEB_MANIFEST } from '../bin/bundle.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The files a build of the page depends on: web/, the sources it imports, the cat models. */
function inputs(root) {
  const out = [];
  const walk = (d, keep) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'node_modules' && e.name !== 'baselines') walk(p, keep);
      } else if (keep(e.name)) out.push(relative(root, p));
    }
  };
  walk(join(root, 'web'), (n) => !n.endsWith('.test.ts'));
  walk(join(root, 'src'), (n) => n.endsWith('.ts') && !n.endsWith('.test.ts'));
  walk(join(root, 'models'), (n) => n.endsWith('.cat'));
  out.push('package-lock.json', relative(root, fileURLToPath(import.meta.url)));
  return out.sort();
}

/** Builds the page into dist/web and writes its manifest (bin/bundle.mjs, `freshBuild`). */
export async function buildWeb(root = ROOT) {
  const builtAt = Date.now();
  const { build } = await import('vite');
  const out = join(root, WEB_DIR);
  const tmp = join(root, 'dist', `.web-${process.pid}`);
  try {
    await build({
      configFile: join(root, 'web', 'vite.config.ts'),
      logLevel: 'warn',
      build: { outDir: tmp, emptyOutDir: true },
    });
    rmSync(out, { recursive: true, force: true });
    renameSync(tmp, out);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  const manifest = join(root, WEB_MANIFEST);
  writeFileSync(`${manifest}.tmp`, `${JSON.stringify({ builtAt, inputs: inputs(root) }, null, 1)}\n`);
  renameSync(`${manifest}.tmp`, manifest);
  return out;
}

// `node scripts/build-web.mjs` builds the page alone.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  statSync(join(ROOT, 'web'));
  await buildWeb();
}
