// The browser build: web/embed/wallery.ts → dist/web/assets/wallery-[hash].js,
// one self-contained ES module (Lit inside), with a manifest
// (dist/web/.vite/manifest.json) from which the server finds the hashed name.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('./web/embed/', import.meta.url));

export default defineConfig({
  root,
  publicDir: false,
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('./dist/web/', import.meta.url)),
    emptyOutDir: true,
    manifest: true,
    target: 'es2022',
    sourcemap: true,
    modulePreload: false,
    rollupOptions: {
      input: { wallery: fileURLToPath(new URL('./web/embed/wallery.ts', import.meta.url)) },
      // one file: the stable URL /embed/v1/wallery.js serves it as is
      output: { entryFileNames: 'assets/[name]-[hash].js', codeSplitting: false },
      preserveEntrySignatures: 'exports-only',
    },
  },
});
