import { defineConfig } from 'vitest/config';

// Integration tests run on PGlite by default and on PostgreSQL with TEST_DB=pg (TEST_DATABASE_URL).
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    globalSetup: ['src/test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
