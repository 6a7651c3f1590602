// @ts-check
// `npm run build`, the server half (Vite builds dist/web): the `wallery` CLI
// and its three worker threads, bundled by esbuild into dist/.
//
// Why a bundle: every CLI command is a new process, and Node spends most of a
// short command loading modules one file at a time (typebox alone is 683
// files, kysely 262). Bundled, `wallery accounts list` starts in 0.2 s of CPU
// instead of 0.7 s (docs/design-decisions.md: "The CLI is a bundle").
//
// Layout: dist/cli/main.js is the entry, with a lazily loaded chunk for the
// server and ingestion (src/cli/common.ts, loadRuntime) and one shared by
// both; dist/ingest/parse-worker.js, dist/store/datafile/reader-worker.js
// and dist/media/media-worker.js are the worker threads, each a bundle of its
// own. Wallery's modules that find files from `import.meta.url` (the package
// root, package.json, the workers) see the URL that their own compiled file
// would have had in dist/, so the same relative paths hold from src/, from
// dist/ and in the bundle.
import { readdir, readFile, rm } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SRC = join(ROOT, 'src');
const DIST = join(ROOT, 'dist');

/**
 * Loaded from node_modules at run time, not bundled: native code, and
 * packages that find files of their own beside their modules (worker
 * scripts, static files, their package.json) through __dirname.
 */
const EXTERNAL = [
  'better-sqlite3', // native
  'sharp', // native (libvips), found beside its modules
  'pg-native', // pg's optional native binding
  'piscina', // its worker script
  'pino', // transports run worker scripts
  'thread-stream',
  'ioredis', // reads its package.json
  '@fastify/swagger', // reads its package.json
  '@fastify/swagger-ui', // serves its static files
  // OpenTelemetry (src/tracing.ts, loaded only when OTEL_EXPORTER_OTLP_ENDPOINT
  // is set) patches modules as Node loads them: the SDK and pg, which it
  // instruments, stay real modules in node_modules
  '@opentelemetry/*',
  '@fastify/otel',
  'pg',
  // the image check: TensorFlow.js finds its WASM binaries, nsfwjs its model, beside their modules
  '@tensorflow/*',
  'nsfwjs',
  'sharp-phash',
  // the rights report's PDF: pdfkit reads its fonts' metrics (AFM files) from its own folder
  'pdfkit',
];

/** CommonJS modules in an ES module bundle: `require` of Node's built-ins. */
const BANNER =
  "import { createRequire as __walleryCreateRequire } from 'node:module';\n" +
  'const require = __walleryCreateRequire(import.meta.url);';

/** @param {string} path */
const posix = (path) => path.split(sep).join('/');

/**
 * Each of Wallery's modules sees as `import.meta.url` the URL of its compiled
 * file in dist/ (src/a/b.ts: dist/a/b.js), computed from the URL of the
 * output file that holds it, in `outdir`.
 * @param {string} outdir
 * @returns {esbuild.Plugin}
 */
function ownImportMetaUrl(outdir) {
  return {
    name: 'own-import-meta-url',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (!args.path.startsWith(SRC + sep)) return undefined;
        const text = await readFile(args.path, 'utf8');
        const other = /import\.meta\.(?!url\b)\w+/.exec(text);
        if (other) throw new Error(`${relative(ROOT, args.path)}: ${other[0]} is not supported in the bundle`);
        if (!text.includes('import.meta.url')) return undefined;
        const compiled = join(DIST, relative(SRC, args.path)).replace(/\.ts$/, '.js');
        const from = posix(relative(outdir, compiled));
        const url = `new URL(${JSON.stringify(from.startsWith('.') ? from : `./${from}`)}, import.meta.url).href`;
        return { contents: text.replaceAll('import.meta.url', url), loader: 'ts' };
      });
    },
  };
}

/**
 * @param {string} entry path under src/
 * @param {Partial<esbuild.BuildOptions>} options
 */
function bundle(entry, options = {}) {
  const outdir = dirname(join(DIST, entry));
  return esbuild.build({
    entryPoints: [join(SRC, entry)],
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    external: EXTERNAL,
    banner: { js: BANNER },
    sourcemap: true,
    sourcesContent: false,
    logLevel: 'warning',
    plugins: [ownImportMetaUrl(outdir)],
    ...options,
  });
}

// what an earlier build left (the bundle's chunks change names); dist/web and dist/console are Vite's,
// dist/site the documentation's (npm run docs:build)
for (const name of await readdir(DIST).catch(() => [])) {
  if (name !== 'web' && name !== 'console' && name !== 'site')
    await rm(join(DIST, name), { recursive: true, force: true });
}
await Promise.all([
  bundle('cli/main.ts', { splitting: true, chunkNames: '[name]-[hash]' }),
  bundle('ingest/parse-worker.ts'),
  bundle('store/datafile/reader-worker.ts'),
  bundle('media/media-worker.ts'),
  bundle('media/image-check-worker.ts'),
]);
