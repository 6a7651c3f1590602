// The browser build: web/embed/wallery.ts → dist/web/assets/wallery-[hash].js,
// one self-contained ES module (Lit inside), with a manifest
// (dist/web/.vite/manifest.json) from which the server finds the hashed name.
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const root = fileURLToPath(new URL('./web/embed/', import.meta.url));

/**
 * The entry is served at two URLs: its hashed name under /assets/ and the
 * stable /embed/v1/wallery.js. A chunk it imports (`import('./qr-HASH.js')`)
 * is under /assets/ only: resolved against the script's URL with
 * /embed/v1/ read as /assets/, it is found from either.
 */
const chunksUnderAssets: Plugin = {
  name: 'wallery-chunks-under-assets',
  renderChunk(code, chunk) {
    if (!chunk.isEntry) return null;
    // (unminified here, the import alone on its line: what it shifts is the rest of that line only)
    const out = code.replace(
      /import\("(\.\/[^"]+\.js)"\)/g,
      (_m, file: string) => `import(new URL("${file}", import.meta.url.replace("/embed/v1/", "/assets/")).href)`,
    );
    return out === code ? null : { code: out, map: null };
  },
};

export default defineConfig({
  root,
  publicDir: false,
  plugins: [chunksUnderAssets],
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
      // one file, the stable URL /embed/v1/wallery.js serves it as is — but for the event screen's QR code
      // encoder (web/embed/qr.ts), a chunk of its own loaded only there (see chunksUnderAssets)
      output: { entryFileNames: 'assets/[name]-[hash].js', chunkFileNames: 'assets/[name]-[hash].js' },
      preserveEntrySignatures: 'exports-only',
    },
  },
});
