import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // They need Chromium, and the built executables: `npm run test:browser` and `npm run test:binaries` run them.
    exclude: [...configDefaults.exclude, 'test/browser/**', 'test/binaries/**'],
    // End-to-end tests spawn the built CLI; the global setup builds it once so they never run stale code.
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
