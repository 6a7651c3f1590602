// The operator console's build: web/console (React) → dist/console, an
// index.html with hashed assets under dist/console/assets/, all relative
// (base './') so Wallery serves it at /console/ also behind a path prefix.
// The embed's build (vite.config.ts) writes dist/web; the two never touch.
// Its assets get precompressed .br/.gz copies too (vite.config.ts).
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './vite.config.js';

export default defineConfig({
  root: fileURLToPath(new URL('./web/console/', import.meta.url)),
  base: './',
  publicDir: false,
  logLevel: 'warn',
  plugins: [react(), precompress()],
  build: {
    outDir: fileURLToPath(new URL('./dist/console/', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // maps written, named by no file: served only with WEB_SOURCE_MAPS=public (a SourceMap header)
    sourcemap: 'hidden',
    // no inline script: the strict Content-Security-Policy of /console/ allows only files of this origin
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
  },
});
