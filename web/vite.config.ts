/**
 * Build of the explorer page (web/ → dist/web/). Run by scripts/build.mjs (`npm ci`'s prepare
 * script) through Vite's API; nothing here fetches anything at run time (the page works offline).
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: './',
  logLevel: 'warn',
  // Preact's JSX without a Babel plugin: Vite's own transform, pointed at preact.
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  resolve: { alias: { react: 'preact/compat', 'react-dom': 'preact/compat' } },
  worker: { format: 'es' },
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: false,
    chunkSizeWarningLimit: 4000,
    // The build prints nothing when it succeeds (npm ci's output, the bundle test): no timing
    // report when a loaded machine makes a plugin slow.
    rolldownOptions: { checks: { pluginTimings: false } },
  },
  server: { fs: { allow: [fileURLToPath(new URL('..', import.meta.url))] } },
});
