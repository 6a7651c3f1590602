// The browser build: web/embed/wallery.ts → dist/web/assets/wallery-[hash].js,
// one self-contained ES module (Lit inside), with a manifest
// (dist/web/.vite/manifest.json) from which the server finds the hashed name.
// Every built text file gets its brotli (.br) and gzip (.gz) copy beside it,
// made once here, so the server answers `Accept-Encoding` without compressing
// per request. Source maps are written but named by no file (`hidden`): the
// server links them (a `SourceMap` header) only when WEB_SOURCE_MAPS=public.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);
/** what is worth compressing (pictures and fonts are compressed already, maps are not sent by default) */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt)$/;

/** After the build: `NAME.br` (brotli, quality 11) and `NAME.gz` (gzip, level 9) beside every compressible file. */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'wallery-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async closeBundle() {
      const files = (await readdir(outDir, { recursive: true, withFileTypes: true }))
        .filter((e) => e.isFile() && COMPRESSIBLE.test(e.name) && !e.parentPath.includes('.vite'))
        .map((e) => join(e.parentPath, e.name));
      await Promise.all(
        files.map(async (file) => {
          const data = await readFile(file);
          const [br, gzipped] = await Promise.all([
            brotli(data, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: 11,
                [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
                [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
              },
            }),
            gz(data, { level: 9 }),
          ]);
          await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gzipped)]);
        }),
      );
    },
  };
}

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
  plugins: [chunksUnderAssets, precompress()],
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('./dist/web/', import.meta.url)),
    emptyOutDir: true,
    manifest: true,
    target: 'es2022',
    sourcemap: 'hidden',
    modulePreload: false,
    rollupOptions: {
      input: {
        wallery: fileURLToPath(new URL('./web/embed/wallery.ts', import.meta.url)),
        // the submission page's script (src/http/submit/page.ts links its hashed name)
        submit: fileURLToPath(new URL('./web/submit/submit.ts', import.meta.url)),
      },
      // one file, the stable URL /embed/v1/wallery.js serves it as is — but for the event screen's QR code
      // encoder (web/embed/qr.ts), a chunk of its own loaded only there (see chunksUnderAssets)
      output: { entryFileNames: 'assets/[name]-[hash].js', chunkFileNames: 'assets/[name]-[hash].js' },
      preserveEntrySignatures: 'exports-only',
    },
  },
});
