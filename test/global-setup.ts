// Once per run: build dist/ (the server with tsc, the embed with Vite) so CLI
// and browser tests exercise the real `wallery` bin and the files it serves, and
// remove PostgreSQL test databases that killed runs left behind.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dropStaleTestDatabases, postgresReachable } from './helpers/services.js';

export default async function setup() {
  const root = fileURLToPath(new URL('../', import.meta.url));
  // Type errors are `npm run typecheck`'s business (CI runs it); tsc still
  // emits JavaScript, which is all the CLI tests need.
  try {
    execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
      cwd: root,
      stdio: 'pipe',
    });
  } catch (err) {
    const out = String((err as { stdout?: Buffer }).stdout ?? '');
    if (!/error TS/.test(out)) throw err;
  }
  // vitest's NODE_ENV=test would select development builds of the browser libraries
  execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build'], {
    cwd: root,
    stdio: 'pipe',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (await postgresReachable()) await dropStaleTestDatabases();
}
