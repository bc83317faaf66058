import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// Resolve paths against this folder so `vitest --config apps/web/vitest.config.ts` works from the repo root too.
const root = decodeURIComponent(new URL('.', import.meta.url).pathname);

export default defineConfig({
  root,
  plugins: [react()],
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    restoreMocks: true,
    testTimeout: 20_000,
  },
});
