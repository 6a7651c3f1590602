// Where the browser build lives (dist/web, made by `vite build`) and which
// hashed file is the embed script, read from Vite's manifest; and the script
// as the stable URL sends it, compressed once and kept in memory.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root: three levels up from src/http/web and from dist/http/web alike. */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const DEFAULT_WEB_DIST = join(PACKAGE_ROOT, 'dist', 'web');
export const DEMO_MEDIA_DIR = join(PACKAGE_ROOT, 'demo', 'media');

interface ManifestEntry {
  file: string;
  isEntry?: boolean;
}

/** The built scripts' hashed file names (`assets/wallery-HASH.js`), re-read when the manifest changes. */
export class WebAssets {
  private cached: { mtimeMs: number; files: Map<string, string> } | null = null;
  private script: EntryScript | null = null;

  constructor(readonly distDir: string) {}

  get assetsDir(): string {
    return join(this.distDir, 'assets');
  }

  /**
   * The entry `name`'s file — `wallery` (the embed, the default) or `submit`
   * (the submission page's script), e.g. `assets/wallery-Dk3j2.js` — or null
   * when the front end was not built.
   */
  entryFile(name = 'wallery'): string | null {
    const path = join(this.distDir, '.vite', 'manifest.json');
    let mtimeMs: number;
    try {
      mtimeMs = statSync(path).mtimeMs;
    } catch {
      return null;
    }
    if (this.cached?.mtimeMs !== mtimeMs) {
      const manifest = JSON.parse(readFileSync(path, 'utf8')) as Record<string, ManifestEntry>;
      const files = new Map<string, string>();
      for (const entry of Object.values(manifest)) {
        const named = entry.isEntry ? /^assets\/([a-z]+)-[\w-]+\.js$/.exec(entry.file) : null;
        if (named) files.set(named[1]!, entry.file);
      }
      this.cached = { mtimeMs, files };
    }
    return this.cached.files.get(name) ?? null;
  }

  /**
   * The entry as the stable URL sends it: its bytes without any
   * `sourceMappingURL` comment (the build writes none; the server names the
   * map by a SourceMap header only when maps are public), with its brotli
   * (quality 11) and gzip copies, made once per build and kept in memory.
   */
  entryScript(): EntryScript | null {
    const file = this.entryFile();
    if (!file) return null;
    if (this.script?.file !== file) {
      const code = Buffer.from(
        readFileSync(join(this.distDir, file), 'utf8').replace(/\n?\/\/# sourceMappingURL=[^\n]*\s*$/, '\n'),
      );
      this.script = {
        file,
        code,
        br: brotliCompressSync(code, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: 11,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: code.length,
          },
        }),
        gzip: gzipSync(code, { level: 9 }),
        map: existsSync(join(this.distDir, `${file}.map`)) ? `${file}.map` : null,
      };
    }
    return this.script;
  }
}

/** The embed script at its stable URL, in each encoding. */
export interface EntryScript {
  /** `assets/wallery-HASH.js` */
  file: string;
  code: Buffer;
  br: Buffer;
  gzip: Buffer;
  /** `assets/wallery-HASH.js.map` when the build wrote it */
  map: string | null;
}
