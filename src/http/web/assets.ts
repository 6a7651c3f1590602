// Where the browser build lives (dist/web, made by `vite build`) and which
// hashed file is the embed script, read from Vite's manifest.
import { readFileSync, statSync } from 'node:fs';
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

/** The embed script's hashed file name (`assets/wallery-HASH.js`), re-read when the manifest changes. */
export class WebAssets {
  private cached: { mtimeMs: number; file: string | null } | null = null;

  constructor(readonly distDir: string) {}

  get assetsDir(): string {
    return join(this.distDir, 'assets');
  }

  /** e.g. `assets/wallery-Dk3j2.js`, or null when the front end was not built */
  entryFile(): string | null {
    const path = join(this.distDir, '.vite', 'manifest.json');
    let mtimeMs: number;
    try {
      mtimeMs = statSync(path).mtimeMs;
    } catch {
      return null;
    }
    if (this.cached?.mtimeMs !== mtimeMs) {
      const manifest = JSON.parse(readFileSync(path, 'utf8')) as Record<string, ManifestEntry>;
      const entry = Object.values(manifest).find((e) => e.isEntry && /wallery-[\w-]+\.js$/.test(e.file));
      this.cached = { mtimeMs, file: entry?.file ?? null };
    }
    return this.cached.file;
  }

  /** The entry's code, for the stable URL (its source map comment pointed at the hashed copy's map). */
  entryCode(): { code: string; file: string } | null {
    const file = this.entryFile();
    if (!file) return null;
    const code = readFileSync(join(this.distDir, file), 'utf8').replace(
      /\/\/# sourceMappingURL=([\w.-]+)\s*$/,
      (_m, map: string) => `//# sourceMappingURL=../../assets/${map}`,
    );
    return { code, file };
  }
}
