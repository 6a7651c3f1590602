// Once per run: build dist/ (the server bundled by esbuild, the embed with Vite) so CLI
// and browser tests exercise the real `wallery` bin and the files it serves, and
// remove PostgreSQL test databases that killed runs left behind.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dropStaleTestDatabases, postgresReachable } from './helpers/services.js';

/** The newest modification time of the files at or under `path`. */
function newest(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

/**
 * dist/ built after the last change to what it is built from (CI: `npm ci`
 * has just run `npm run build`), so building it again would only cost time.
 */
function distIsCurrent(root: string): boolean {
  const outputs = ['dist/cli/main.js', 'dist/web/.vite/manifest.json', 'dist/console/index.html'].map((f) =>
    join(root, f),
  );
  if (!outputs.every((f) => existsSync(f))) return false;
  const inputs = [
    'src',
    'web',
    'tsconfig.json',
    'scripts/build-server.mjs',
    'vite.config.ts',
    'vite.console.config.ts',
    'package-lock.json',
  ];
  const built = Math.min(...outputs.map((f) => statSync(f).mtimeMs));
  return inputs.every((f) => newest(join(root, f)) < built);
}

export default async function setup() {
  const root = fileURLToPath(new URL('../', import.meta.url));
  if (distIsCurrent(root)) {
    if (await postgresReachable()) await dropStaleTestDatabases();
    return;
  }
  // the same build as `npm run build`; esbuild checks no types (`npm run typecheck` does)
  execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, stdio: 'pipe' });
  // vitest's NODE_ENV=test would select development builds of the browser libraries
  for (const config of ['vite.config.ts', 'vite.console.config.ts']) {
    execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '-c', config], {
      cwd: root,
      stdio: 'pipe',
      env: { ...process.env, NODE_ENV: 'production' },
    });
  }
  if (await postgresReachable()) await dropStaleTestDatabases();
}
