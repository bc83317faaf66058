import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv } from 'vite';

export default defineConfig(({ mode }) => {
  // The API server the dev and preview servers proxy /ks (and the editor's /dev-api upload) to; KS_API_TARGET (environment or .env) overrides it.
  const target = loadEnv(mode, process.cwd(), '').KS_API_TARGET || 'http://127.0.0.1:8080';
  const proxy = { '/ks': { target, changeOrigin: true }, '/dev-api': { target, changeOrigin: true } };
  return {
    base: '/',
    plugins: [react()],
    server: { port: 5173, proxy },
    preview: { port: 4173, proxy },
    build: { outDir: 'dist', emptyOutDir: true },
  };
});
