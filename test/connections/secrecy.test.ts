// A connection's token is unreadable everywhere it could leak: a runtime as
// `serve` opens it (no SECRET_KEY set: SQLite makes its key file; PostgreSQL
// is given SECRET_KEY_FILE), logging at debug level, stores a connection with
// a unique token through the management API and polls a feed with it — a
// good poll and a refused one. Then the token text is searched for in every
// log line, every API answer, the audit log, the database (the SQLite file
// and its -wal, byte for byte; on PostgreSQL every text column of the
// connections and the change log) and a backup made by the backup module
// (the SQLite copy; pg_dump's archive read back as SQL by pg_restore).
import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { loggerOptions } from '../../src/http/logger.js';
import { jsonLogger } from '../../src/jobs/log.js';
import { CLI_ACTOR } from '../../src/manage/op.js';
import { createOperatorToken } from '../../src/manage/tokens.js';
import { openRuntime, type Runtime } from '../../src/runtime.js';
import { backupPostgres } from '../../src/store/backup/postgres.js';
import { backupSqlite } from '../../src/store/backup/sqlite.js';
import { importDataFile } from '../../src/store/datafile.js';
import { call, type Res } from '../helpers/http.js';
import { makeTempDir, removeDir } from '../helpers/server.js';
import { createTestDatabase, dropTestDatabase, testStoreKind } from '../helpers/services.js';
import { mastodonHtml, startMastodon, status, type MastodonFixture } from '../ingest/fixtures/mastodon.js';
import { ACCOUNT, dataFile, NOW, WALL } from '../ingest/harness.js';

const kind = testStoreKind();
const TOKEN = `secrecy-${randomBytes(24).toString('hex')}`;
const FEED = 4201;
const pgTools = kind === 'postgres' && spawnSync('pg_restore', ['--version']).status === 0;

let dir: string;
let pg: { name: string; url: string } | null = null;
let fx: MastodonFixture;
let runtime: Runtime<FastifyInstance>;
let base: string;
let operator: string;
const lines: string[] = [];
const answers: Res[] = [];

const api = async (method: string, path: string, body?: unknown) => {
  const res = await call(base, `/api/manage/v1${path}`, {
    method,
    body,
    headers: { authorization: `Bearer ${operator}` },
  });
  answers.push(res);
  return res;
};

beforeAll(async () => {
  dir = makeTempDir();
  pg = kind === 'postgres' ? await createTestDatabase() : null;
  fx = await startMastodon();
  fx.token = TOKEN;
  fx.statuses.push(
    status({
      id: '113900000000000001',
      createdAt: new Date(NOW - 600_000).toISOString(),
      html: mastodonHtml('Behind sign-in', ['trails']),
      tags: ['trails'],
    }),
  );
  const config = loadConfig({
    DATABASE_URL: pg ? pg.url : join(dir, 'wallery.db'),
    // no SECRET_KEY: SQLite keeps its key beside the database; PostgreSQL has no default, so it is named
    ...(pg ? { SECRET_KEY_FILE: join(dir, 'keys', 'secret.key') } : {}),
    LOG_LEVEL: 'debug',
    INGEST_ALLOW_PRIVATE_NETWORKS: '127.0.0.0/8',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: '127.0.0.0/8',
    METRICS: 'off',
    MEDIA: 'off',
  });
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      lines.push(chunk.toString());
      cb();
    },
  });
  runtime = await openRuntime(config, {
    server: { logger: { ...(loggerOptions('debug') as object), stream } as never },
    ingest: true,
    ingestLog: jsonLogger('debug', (l) => lines.push(l)),
  });
  await importDataFile(runtime.ctx.store, dataFile([{ id: FEED, name: 'Members', connector: null }]), NOW);
  operator = (await createOperatorToken({ db: runtime.ctx.store.db, actor: CLI_ACTOR, now: Date.now() }, 'secrecy'))
    .token;
  await runtime.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(runtime.app.server.address() as { port: number }).port}`;
}, 60_000);

afterAll(async () => {
  await runtime?.close();
  await fx?.close();
  if (pg) await dropTestDatabase(pg.name);
  if (dir) removeDir(dir);
});

describe(`a connection's token (${kind})`, () => {
  it('is used, and then appears in no log line, API answer, audit entry, database or backup', async () => {
    // the key: made once, readable by its owner only
    const keyFile = pg ? join(dir, 'keys', 'secret.key') : join(dir, 'secret.key');
    expect((statSync(keyFile).mode & 0o777).toString(8)).toBe('600');

    const created = await api('POST', `/accounts/${ACCOUNT}/connections`, {
      network: 'mastodon',
      name: 'Members only',
      authKind: 'token',
      accessToken: TOKEN,
      instance: fx.origin,
    });
    expect(created.status).toBe(201);
    const id = (created.json().responseData as { id: number }).id;
    const connector = { kind: 'mastodon', instance: fx.origin, hashtag: 'trails', connectionId: id };
    expect((await api('PATCH', `/walls/${WALL}/feeds/${FEED}`, { connector })).status).toBe(200);

    // a good poll: the token went to the instance
    const [ok] = await runtime.ingest!.runOnce({ feedId: FEED });
    expect(ok).toMatchObject({ status: 'ok', inserted: 1 });
    expect(fx.timelineRequests().at(-1)!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    // a refused one: the instance forgot the token
    fx.token = 'rotated-elsewhere';
    const [refused] = await runtime.ingest!.runOnce({ feedId: FEED });
    expect(refused!.status).toBe('failed');

    for (const path of [
      `/accounts/${ACCOUNT}/connections`,
      `/connections/${id}`,
      `/walls/${WALL}/feeds/${FEED}`,
      `/audit?targetType=connection`,
      '/audit?limit=200',
    ])
      expect((await api('GET', path)).status).toBe(200);
    const connection = (answers[answers.length - 4]!.json().responseData as Record<string, unknown>) ?? {};
    expect(connection).toMatchObject({ status: 'revoked', tokenHint: `…${TOKEN.slice(-4)}` });

    // the logs (at debug level) hold the requests and the polls, and never the token
    const log = lines.join('');
    expect(log).toContain(`/api/manage/v1/accounts/${ACCOUNT}/connections`);
    expect(log).toContain('connection refused');
    expect(log).toContain('feed poll failed');
    expect(log).not.toContain(TOKEN);
    for (const res of answers) expect(res.text).not.toContain(TOKEN);

    const db = runtime.ctx.store.db;
    const backupFile = join(dir, pg ? 'backup.dump' : 'backup.db');
    if (!pg) {
      // the database's own bytes, WAL included, and a backup of it
      const file = join(dir, 'wallery.db');
      const bytes = [file, `${file}-wal`].filter(existsSync).map((f) => readFileSync(f));
      expect(bytes.length).toBeGreaterThan(0);
      for (const b of bytes) expect(b.includes(TOKEN)).toBe(false);
      // the name of the connection is there, in plain text: the search would have found the token
      expect(bytes.some((b) => b.includes('Members only'))).toBe(true);
      await backupSqlite(file, backupFile);
      const copy = readFileSync(backupFile);
      expect(copy.includes('Members only')).toBe(true);
      expect(copy.includes(TOKEN)).toBe(false);
      return;
    }
    // PostgreSQL: every text column of the connections and of the change log, as a dump would print them
    const rows = await sql<Record<string, unknown>>`select * from connections`.execute(db);
    const changes = await sql<Record<string, unknown>>`select * from changes`.execute(db);
    const dumped = JSON.stringify([rows.rows, changes.rows]);
    expect(dumped).toContain('Members only');
    expect(dumped).not.toContain(TOKEN);
    if (!pgTools) return;
    await backupPostgres(db, pg.url, backupFile, { binDir: null, say: () => undefined });
    // the archive is compressed: read it back as the SQL pg_restore would run
    const { stdout } = await promisify(execFile)('pg_restore', ['--file=-', backupFile], {
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(stdout).toContain('Members only');
    expect(stdout).not.toContain(TOKEN);
  });
});
