import { defineConfig } from 'vitest/config';

// The standalone executables in release/ (`npm run build:binaries` writes them; `npm run test:binaries` checks
// them). `npm test` leaves them out, so it runs without building them.
export default defineConfig({
  test: {
    include: ['test/binaries/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
