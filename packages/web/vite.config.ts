/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The hub serves dist/ at /; `npm run dev` proxies the API to a hub on :3000.
const HUB = process.env.HUB_URL ?? 'http://127.0.0.1:3000';
const API = ['/batches', '/commands', '/agent', '/issues', '/notes', '/import', '/packages', '/catalogue', '/audit', '/settings', '/events', '/sync-runs', '/health'];

export default defineConfig(({ command }) => {
  // The hub serves the production build whatever NODE_ENV the building shell has: jest sets `test`, and
  // with it React's development build went into dist/ (twice the size, slower to run) for the browser
  // tests and for an `npm start` after them. vitest (command `serve`) keeps React's development build.
  if (command === 'build') process.env.NODE_ENV = 'production';
  return {
    plugins: [react()],
    // The shared rules from the contracts package's source (tsconfig.json's paths say the same), so neither
    // the dev server, the build nor vitest needs the package built first.
    resolve: { alias: { '@jira-hub/contracts/russian': fileURLToPath(new URL('../contracts/src/russian.ts', import.meta.url)) } },
    base: '/',
    // `npm run build` (scripts/build.js) replaces outDir with a folder aside and moves the build into dist/,
    // keeping the previous build's assets for the tabs still open on it; a bare `vite build` empties dist/.
    build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 600 },
    server: { proxy: Object.fromEntries(API.map((p) => [p, { target: HUB, changeOrigin: true }])) },
    test: {
      environment: 'jsdom',
      include: ['src/**/*.test.{ts,tsx}'],
      setupFiles: ['src/test-setup.ts'],
      // One jsdom and one module graph per worker instead of per file: 3 s of CPU for the 7 files instead of
      // 8.5 s. The files share no state: test-setup.ts unmounts, clears sessionStorage and the hash after
      // every test, and the files that stub fetch unstub it.
      isolate: false,
    },
  };
});
