import { defineConfig } from 'vitest/config';

// The dashboard's tests in a real browser: Debian's Chromium driven by playwright-core (`npm run test:browser`,
// which .ci/browser runs after installing Chromium). `npm test` leaves them out, so it runs without a browser.
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
