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
    // one module graph per worker, not per file: importing the server's modules cost ≈ 7 s of every file (585 of the
    // suite's CPU seconds on PGlite, 27 without). Test files must leave nothing behind in module state: createTestApp
    // clears the in-process caches, and spies are restored (no vi.mock of a module another file imports).
    isolate: false,
  },
});
