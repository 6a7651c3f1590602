// The Dockerfile, performed without Docker (no engine runs on these
// machines): its runtime stage's steps are carried out as written in a fresh
// directory standing for the image (test/helpers/dockerfile.ts) — the
// production install of the deps stage (`npm ci --omit=dev`, the native
// module installed — from this checkout's own compiled copy, as a build
// cache would give it), the files copied — then its CMD is started there and must
// answer 200 on /healthz, and its HEALTHCHECK command must pass (and fail
// once the server is gone). The build stage is this repository's own built
// dist/ (test/global-setup.ts builds it).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { promisify } from 'node:util';
import type { Cmd, Copy, Healthcheck } from 'dockerfile-ast';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READY_DEADLINE_MS, ROOT } from '../helpers/cli.js';
import { DockerfileRunner, parseDockerfile, stagesOf, type PerformedStage } from '../helpers/dockerfile.js';

const run = promisify(execFile);

const stages = stagesOf(parseDockerfile(readFileSync(join(ROOT, 'Dockerfile'), 'utf8')));
const runtime = stages.at(-1)!;
const of = (keyword: string) => runtime.instructions.filter((i) => i.getKeyword() === keyword);

/** The compiling of better-sqlite3 takes a minute or two on a busy 2-core machine. */
const INSTALL_DEADLINE_MS = 600_000;

/** CMD and HEALTHCHECK's command, as their JSON arrays say. */
const cmd = (of('CMD')[0] as Cmd).getJSONStrings().map((s) => s.getJSONValue());
const healthcheck = (() => {
  const text = (of('HEALTHCHECK')[0] as Healthcheck).getArgumentsContent() ?? '';
  return JSON.parse(/\bCMD\s+(\[.*\])\s*$/s.exec(text)![1]!) as string[];
})();

describe('the Dockerfile', () => {
  it('builds in one stage, installs production dependencies in another, runs slim and not as root', () => {
    expect(stages.map((s) => [s.name, s.image])).toEqual([
      ['build', 'node:20-bookworm'],
      ['deps', 'node:20-bookworm'],
      ['runtime', 'node:20-bookworm-slim'],
    ]);
    const runs = (stage: string) =>
      stages
        .find((s) => s.name === stage)!
        .instructions.filter((i) => i.getKeyword() === 'RUN')
        .map((i) => i.getRawArgumentsContent());
    expect(runs('build').join('\n')).toMatch(/npm run build/);
    expect(runs('deps').join('\n')).toMatch(/npm ci --omit=dev/);
    // the runtime stage only receives files: nothing is compiled or installed there
    expect(of('RUN')).toEqual([]);
    expect(of('USER').map((i) => i.getArgumentsContent())).toEqual(['node']);
    // the store's directory is a volume the `node` user owns
    expect(of('VOLUME').map((i) => i.getArgumentsContent())).toEqual(['["/data"]']);
    const dataCopy = (of('COPY') as Copy[]).find((c) => c.getArguments().some((a) => a.getValue() === '/data'));
    expect(dataCopy?.getFlags().map((f) => `${f.getName()}=${f.getValue()}`)).toEqual(['from=deps', 'chown=node:node']);
    expect(of('EXPOSE').map((i) => i.getArgumentsContent())).toEqual(['3000']);
    expect(cmd).toEqual(['node', 'dist/cli/main.js', 'serve']);
    expect(healthcheck[0]).toBe('node');
  });

  it('leaves installed, built and local files out of the build context', () => {
    const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8').split('\n');
    for (const path of ['node_modules', 'dist', '.git', 'data', '*.db']) expect(ignored).toContain(path);
  });
});

/**
 * A directory holding this checkout's compiled better-sqlite3 as the
 * prebuilt archive its installer looks for (prebuild-install: a "local
 * prebuild" named as its download would be); the directory is removed with
 * the stages'.
 */
async function nativeModuleCache(): Promise<string> {
  const pkg = join(ROOT, 'node_modules/better-sqlite3');
  const { version } = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { version: string };
  const dir = mkdtempSync(join(tmpdir(), 'wallery-native-'));
  cacheDirs.push(dir);
  const archive = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  await run('tar', ['-czf', join(dir, archive), '-C', pkg, 'build/Release/better_sqlite3.node']);
  return dir;
}
const cacheDirs: string[] = [];
afterAll(() => {
  for (const dir of cacheDirs) rmSync(dir, { recursive: true, force: true });
});

describe('the Dockerfile performed in a fresh directory', () => {
  let image: PerformedStage;
  let app: string;
  let server: ChildProcess | undefined;
  let port: number;
  const dirs: string[] = [];

  /** The image's environment, as a container gets it (not this process's). */
  const containerEnv = (extra: Record<string, string>) => ({
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    ...image.env,
    ...extra,
  });

  beforeAll(async () => {
    const runner = new DockerfileRunner(
      stages,
      ROOT,
      // the build stage's /app: this repository, with dist/ built
      { build: { dir: ROOT, workdir: '/app' } },
      {
        // packages come from the npm cache when it has them: the same packages, sooner
        npm_config_prefer_offline: 'true',
        npm_config_fund: 'false',
        npm_config_audit: 'false',
        // the deps stage's `npm rebuild better-sqlite3` finds the module this machine compiled from the same
        // source for the same Node, as a build cache would (compiling it again took one core two minutes)
        npm_config_better_sqlite3_local_prebuilds: await nativeModuleCache(),
      },
    );
    try {
      image = await runner.perform(runtime.name);
    } finally {
      dirs.push(...runner.roots());
    }
    app = join(image.root, image.workdir);
  }, INSTALL_DEADLINE_MS);

  afterAll(() => {
    if (server && server.exitCode === null) server.kill('SIGKILL');
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('installs the production dependencies only, with the native SQLite module built', () => {
    const modules = join(app, 'node_modules');
    for (const dep of ['fastify', 'kysely', 'pg', 'ioredis']) expect(existsSync(join(modules, dep)), dep).toBe(true);
    expect(existsSync(join(modules, 'better-sqlite3/build/Release/better_sqlite3.node'))).toBe(true);
    for (const dev of ['vitest', 'vite', 'typescript', 'esbuild', 'eslint'])
      expect(existsSync(join(modules, dev)), dev).toBe(false);
    expect(existsSync(join(app, 'dist/cli/main.js'))).toBe(true);
    // the SQLite store's directory, which the `node` user will own
    expect(existsSync(join(image.root, 'data'))).toBe(true);
  });

  it('starts with its CMD, answers 200 on /healthz, and its HEALTHCHECK passes (and fails once it is gone)', async () => {
    const [command, ...args] = cmd;
    server = spawn(command!, args, {
      cwd: app,
      env: containerEnv({
        // the image's DATABASE_URL, inside the directory standing for the image
        DATABASE_URL: join(image.root, posix.normalize(image.env.DATABASE_URL!)),
        PORT: '0',
        HOST: '127.0.0.1',
      }),
    });
    port = await listeningPort(server);

    const res = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(res.status).toBe(200);
    expect(existsSync(join(image.root, 'data/wallery.db'))).toBe(true);

    // HEALTHCHECK runs inside the container, where PORT is what the server listens on
    const [hcCommand, ...hcArgs] = healthcheck;
    const healthy = await run(hcCommand!, hcArgs, { cwd: app, env: containerEnv({ PORT: String(port) }) });
    expect(healthy.stderr).toBe('');

    const exited = new Promise<number | null>((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    expect(await exited).toBe(0);
    await expect(
      run(hcCommand!, hcArgs, { cwd: app, env: containerEnv({ PORT: String(port) }) }),
    ).rejects.toMatchObject({ code: 1 });
  });
});

/** Resolves with the port once the server says it listens (stdout), rejects if it exits first. */
function listeningPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`not listening in time:\n${out}`)), READY_DEADLINE_MS);
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /wallery listening on http:\/\/[^:]+:(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before listening:\n${out}`));
    });
  });
}
