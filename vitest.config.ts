import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // They need Chromium: `npm run test:browser` runs them (vitest.browser.config.ts).
    exclude: [...configDefaults.exclude, 'test/browser/**'],
    // End-to-end tests spawn the built CLI; the global setup builds it once so they never run stale code.
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
