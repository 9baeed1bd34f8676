import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // They need Chromium, the built executables, and minutes of installing: `npm run test:browser`,
    // `npm run test:binaries` and `npm run test:install` run them.
    exclude: [...configDefaults.exclude, 'test/browser/**', 'test/binaries/**', 'test/install/**'],
    // End-to-end tests spawn the built CLI; the global setup builds it once so they never run stale code.
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most test files wait on servers, retries and time-outs rather than compute, and vitest's default of one
    // worker less than the cores runs them one at a time on a 2-core machine: run at least four at once.
    maxWorkers: Math.max(4, availableParallelism()),
  },
});
