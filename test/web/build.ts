// The browser build for tests: `vite build` of the current web/ sources into a
// temporary directory named by their hash, made once and shared by every test
// file of a run (a build that lost the race to another worker is dropped).
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function filesUnder(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? filesUnder(path) : [path];
    });
}

function sourceHash(): string {
  const hash = createHash('sha256');
  for (const file of [
    ...filesUnder(join(ROOT, 'web')),
    join(ROOT, 'vite.config.ts'),
    join(ROOT, 'package-lock.json'),
  ]) {
    hash.update(file).update(readFileSync(file));
  }
  return hash.digest('hex').slice(0, 16);
}

/** Builds `web/` into `outDir` (what `npm run build` does for dist/web). */
export function viteBuild(outDir: string): void {
  execFileSync(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', outDir], {
    cwd: ROOT,
    stdio: 'pipe',
    // vitest's NODE_ENV=test would select development builds of the libraries
    env: { ...process.env, NODE_ENV: 'production' },
  });
}

/** A directory holding a fresh build of the embed (assets/ and .vite/manifest.json). */
export function testBuild(): string {
  const dir = join(tmpdir(), `wallery-web-${sourceHash()}`);
  if (existsSync(join(dir, '.vite', 'manifest.json'))) return dir;
  const scratch = `${dir}.${process.pid}.${Date.now()}`;
  viteBuild(scratch);
  try {
    renameSync(scratch, dir);
  } catch {
    rmSync(scratch, { recursive: true, force: true }); // another worker built it first
  }
  return dir;
}

/** The package's own dist/web, built when absent (CI builds it in `npm ci`). */
export function packageBuild(): string {
  const dir = join(ROOT, 'dist', 'web');
  if (!existsSync(join(dir, '.vite', 'manifest.json'))) viteBuild(dir);
  return dir;
}

/** The embed script's file in a build (the build has a second entry: the submission page's script). */
export function entryFile(dir: string): string {
  const manifest = JSON.parse(readFileSync(join(dir, '.vite', 'manifest.json'), 'utf8')) as Record<
    string,
    { file: string; name?: string; isEntry?: boolean }
  >;
  return Object.values(manifest).find((e) => e.isEntry && e.name === 'wallery')!.file;
}
