import { defineConfig } from 'vitest/config';

/** The browser tests (`npm run test:e2e`): one file at a time, one browser and one server each. */
export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['e2e/**/*.e2e.test.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
