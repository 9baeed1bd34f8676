import { defineConfig } from 'vitest/config';

// einvoice installed from git, a clone's folder and a packed tarball, and the Action with no release, each built from
// the lockfile by npm: minutes, so `npm test` leaves them out and CI runs them (`npm run test:install`, and on Node 22
// `npm run test:install:node22`).
export default defineConfig({
  test: {
    include: ['test/install/**/*.test.ts'],
    testTimeout: 600_000,
    // Removing the installs' folders (each with its node_modules/) takes a while too.
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
