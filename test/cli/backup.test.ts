// `wallery backup` and `wallery restore` as an operator runs them: a real
// `wallery serve` ingesting from a local feed server while a client creates
// posts through W3, a backup taken in the middle of it, and that backup
// restored into a fresh store, which must hold every post acknowledged
// before the backup began. On SQLite in the sqlite project, on PostgreSQL
// (pg_dump and pg_restore) in the postgres project.
import { execFile, spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import SqliteDatabase from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateTo } from '../../src/store/migrations.js';
import { openStore } from '../../src/store/store.js';
import { cliArgs, ROOT, runCli, type CliResult } from '../helpers/cli.js';
import { startInstance, type Instance } from '../helpers/instances.js';
import { eventually } from '../helpers/poll.js';
import { createTestDatabase, dropTestDatabase, testStoreKind } from '../helpers/services.js';
import { rssXml, startFeeds, type FeedFixture, type RssItem } from '../ingest/fixtures/feeds.js';
import { dataFile, KEY, WALL } from '../ingest/harness.js';
import { smallWallData } from '../helpers/wall-data.js';

const kind = testStoreKind();
const ci = process.env.CI === 'true' || process.env.CI === '1';
const hasTool = (name: string) =>
  spawnSync(process.env.PG_BIN_DIR ? join(process.env.PG_BIN_DIR, name) : name, ['--version']).status === 0;
/**
 * On PostgreSQL the commands run pg_dump and pg_restore: without them the
 * suites are skipped with this reason, except in CI, where they must run.
 */
const missingTools =
  kind === 'postgres' && !ci && !(hasTool('pg_dump') && hasTool('pg_restore'))
    ? 'pg_dump/pg_restore not on PATH or in PG_BIN_DIR'
    : null;
const named = (name: string) => (missingTools ? `${name} (skipped: ${missingTools})` : name);
/** Feeds answered at once: their posts are in the store before the backup begins. */
const EARLY_FEEDS = 6;
/** Feeds whose answers are held until the backup has begun: ingestion writes them while it runs. */
const LATE_FEEDS = 6;
const ITEMS = 5;
/** Posts acknowledged through W3 before the backup begins, at least. */
const WRITES_BEFORE = 25;

let dir: string;
const databases: string[] = [];

/** A new empty store: a file path on SQLite, a database URL on PostgreSQL. */
async function freshStore(name: string): Promise<string> {
  if (kind === 'sqlite') return join(dir, `${name}.db`);
  const db = await createTestDatabase();
  databases.push(db.name);
  return db.url;
}

async function storePosts(database: string): Promise<{ content: string; link_url: string }[]> {
  const store = openStore(kind === 'sqlite' ? { kind: 'sqlite', path: database } : { kind: 'postgres', url: database });
  try {
    return await store.db.selectFrom('posts').select(['content', 'link_url']).execute();
  } finally {
    await store.close();
  }
}

/** Runs raw SQL on a store: what someone who altered it before a backup did. */
async function onStore(database: string, fn: (db: Kysely<unknown>) => Promise<unknown>): Promise<void> {
  const store = openStore(kind === 'sqlite' ? { kind: 'sqlite', path: database } : { kind: 'postgres', url: database });
  try {
    await fn(store.db as unknown as Kysely<unknown>);
  } finally {
    await store.close();
  }
}

/** Runs the CLI with umask 000: a file it creates without a mode of its own would be readable (and writable) by all. */
async function runCliUnmasked(args: string[], env: Record<string, string>): Promise<CliResult> {
  const sh = ['-c', 'umask 000 && exec "$@"', 'sh', process.execPath, ...cliArgs(args)];
  try {
    const { stdout, stderr } = await promisify(execFile)('/bin/sh', sh, { cwd: ROOT, env: { ...process.env, ...env } });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? null, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

const modeOf = (file: string) => statSync(file).mode & 0o777;

function integrityCheck(path: string): string[] {
  const db = new SqliteDatabase(path, { readonly: true, fileMustExist: true });
  try {
    return (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check);
  } finally {
    db.close();
  }
}

const feedItems = (feed: number): RssItem[] =>
  Array.from({ length: ITEMS }, (_, n) => ({
    guid: `f${feed}-${n}`,
    title: `Feed ${feed} post ${n}`,
    link: `https://blog.example/${feed}/${n}`,
    pubDate: new Date(Date.now() - (n + 1) * 3_600_000).toUTCString(),
    description: `Body ${feed}/${n}`,
  }));

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'wallery-backup-'));
});

afterAll(async () => {
  for (const name of databases) await dropTestDatabase(name);
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(missingTools !== null)(
  named(`wallery backup while serving, ingesting and taking writes (${kind})`),
  () => {
    let fx: FeedFixture;
    let live: Instance | undefined;
    let restored: Instance | undefined;
    let releaseLateFeeds: () => void = () => undefined;

    beforeAll(async () => {
      fx = await startFeeds();
      const gate = new Promise<void>((resolve) => (releaseLateFeeds = resolve));
      for (let i = 0; i < EARLY_FEEDS + LATE_FEEDS; i++)
        fx.documents.set(`/feed-${i}.xml`, { body: rssXml(feedItems(i)), type: 'application/rss+xml' });
      const serve = fx.handler;
      fx.handler = async (req, url) => {
        if (Number(/feed-(\d+)/.exec(url.pathname)?.[1]) >= EARLY_FEEDS) await gate;
        return serve(req, url);
      };
    });

    afterAll(async () => {
      releaseLateFeeds();
      await live?.stop();
      await restored?.stop();
      await fx?.close();
    });

    it('restores every post acknowledged before the backup began, and the restored store serves', async () => {
      const source = await freshStore('live');
      const file = join(dir, 'data.json');
      const feeds = Array.from({ length: EARLY_FEEDS + LATE_FEEDS }, (_, i) => ({
        id: 600 + i,
        name: `feed ${i}`,
        connector: { kind: 'rss', url: `${fx.origin}/feed-${i}.xml` },
      }));
      writeFileSync(file, JSON.stringify(dataFile(feeds)));
      const imported = await runCli(['import', file], { DATABASE_URL: source });
      expect(imported.code, imported.stderr).toBe(0);
      live = await startInstance({
        DATABASE_URL: source,
        INGEST: 'on',
        INGEST_ALLOW_PRIVATE_NETWORKS: '127.0.0.0/8',
        // every feed in flight at once, the held ones waiting as long as the test needs
        INGEST_HOST_CONCURRENCY: String(EARLY_FEEDS + LATE_FEEDS),
        INGEST_TIMEOUT_MS: '120000',
      });
      const liveUrl = live.url;
      // SQLite: a long reader (as an export would be) holds a snapshot from before any post, so
      // every post written from now on stays in the WAL, where a copy of the database file alone
      // would not find it; the backup must read the database as SQLite does
      const reader = kind === 'sqlite' ? new SqliteDatabase(source, { readonly: true }) : undefined;
      reader?.exec('begin');
      reader?.prepare('select count(*) from posts').get();

      // W3 in a loop: each post acknowledged (200) is recorded with the instant of its acknowledgement
      const acknowledged: { content: string; at: number }[] = [];
      let writing = true;
      let n = 0;
      const writer = (async () => {
        while (writing) {
          const content = `backup-write-${n++}`;
          const res = await fetch(`${liveUrl}/api/v2/widget/create-post?user_key=${KEY}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ wallId: WALL, content }),
          });
          await res.arrayBuffer();
          expect(res.status).toBe(200);
          acknowledged.push({ content, at: performance.now() });
        }
      })();

      try {
        // the early feeds ingested and enough writes acknowledged; the late feeds still held
        await eventually(
          'early feeds ingested',
          async () => (await storePosts(source)).filter((p) => p.link_url.startsWith('https://blog.example/')).length,
          (count) => count === EARLY_FEEDS * ITEMS,
          100_000,
        );
        await eventually(
          'writes acknowledged',
          async () => acknowledged.length,
          (c) => c >= WRITES_BEFORE,
          100_000,
        );

        const backupFile = join(dir, kind === 'sqlite' ? 'wallery-backup.db' : 'wallery-backup.dump');
        const backupBegan = performance.now();
        const backup = runCli(['backup', backupFile], { DATABASE_URL: source });
        // ingestion of the held feeds now runs alongside the backup
        releaseLateFeeds();
        const result = await backup;
        reader?.exec('commit');
        expect(result.code, result.stderr).toBe(0);
        const summary =
          /backed up to .+: .*\((\d+) bytes\), (\d+) posts, schema (\d{4}_\w+)(, integrity ok)? in [\d.]+ s/.exec(
            result.stdout,
          );
        expect(summary, result.stdout).not.toBeNull();
        expect(summary![4] !== undefined).toBe(kind === 'sqlite');
        // nothing half-written is left beside the backup, and the backup is one file
        expect(readdirSync(dir).filter((f) => f.includes('partial') || f.startsWith('wallery-backup.db-'))).toEqual([]);

        // writes and ingestion went on after the backup began
        await eventually(
          'writes after the backup began',
          async () => acknowledged.at(-1)!.at,
          (t) => t > backupBegan,
          100_000,
        );
        await eventually(
          'late feeds ingested',
          async () => (await storePosts(source)).filter((p) => p.link_url.startsWith('https://blog.example/')).length,
          (count) => count === (EARLY_FEEDS + LATE_FEEDS) * ITEMS,
          100_000,
        );
        writing = false;
        await writer;

        // restoring under a running server would lose what it writes next, or block on its locks: refused
        const postsNow = (await storePosts(source)).length;
        const inUse = await runCli(['restore', backupFile, '--force'], { DATABASE_URL: source });
        expect(inUse.code).toBe(1);
        expect(inUse.stderr).toMatch(
          /^wallery: the (store at .*|database) is in use by .*: stop (it|them), then restore\n$/,
        );
        expect((await storePosts(source)).length).toBe(postsNow);
        expect(readdirSync(dir).filter((f) => f.includes('restoring'))).toEqual([]);

        const target = await freshStore('restored');
        // the backup is one self-contained file: restored from a copy of that file alone
        const moved = join(dir, 'moved');
        mkdirSync(moved);
        const movedBackup = join(moved, 'backup-copy');
        copyFileSync(backupFile, movedBackup);
        const restore = await runCli(['restore', movedBackup], { DATABASE_URL: target });
        expect(restore.code, restore.stderr).toBe(0);
        expect(restore.stdout).toMatch(new RegExp(`restored .+: .*, ${summary![2]} posts, schema ${summary![3]}`));

        const before = acknowledged.filter((a) => a.at < backupBegan).map((a) => a.content);
        expect(before.length).toBeGreaterThanOrEqual(WRITES_BEFORE);
        const posts = await storePosts(target);
        expect(posts).toHaveLength(Number(summary![2]));
        const contents = new Set(posts.map((p) => p.content));
        expect(before.filter((c) => !contents.has(c))).toEqual([]);
        const early = Array.from(
          { length: EARLY_FEEDS * ITEMS },
          (_, i) => `https://blog.example/${Math.floor(i / ITEMS)}/${i % ITEMS}`,
        );
        const links = new Set(posts.map((p) => p.link_url));
        expect(early.filter((l) => !links.has(l))).toEqual([]);
        // a consistent copy: no more than the live store held at the end
        expect(posts.length).toBeLessThanOrEqual((await storePosts(source)).length);
        if (kind === 'sqlite') expect(integrityCheck(target)).toEqual(['ok']);

        // the restored store serves: W2 lists what was acknowledged before the backup began
        restored = await startInstance({ DATABASE_URL: target });
        const res = await fetch(`${restored.url}/api/v2/widget/posts/${WALL}?user_key=${KEY}&limit=500`);
        expect(res.status).toBe(200);
        const listed = new Set(
          ((await res.json()) as { responseData: { posts: { content: string }[] }[] }).responseData[0]!.posts.map(
            (p) => p.content,
          ),
        );
        expect(before.filter((c) => !listed.has(c))).toEqual([]);
      } finally {
        reader?.close();
        writing = false;
        await writer.catch(() => undefined);
      }
    });
  },
);

describe.skipIf(kind !== 'postgres' || missingTools !== null)(
  named('pg_dump and pg_restore (in the postgres project)'),
  () => {
    let source: string;
    let tools: string;

    beforeAll(async () => {
      source = await freshStore('pg-tools');
      const file = join(dir, 'pg-tools.json');
      writeFileSync(file, JSON.stringify(smallWallData(2)));
      expect((await runCli(['import', file], { DATABASE_URL: source })).code).toBe(0);
      // a pg_dump of an older major version than the server's
      tools = join(dir, 'old-tools');
      mkdirSync(tools);
      writeFileSync(join(tools, 'pg_dump'), '#!/bin/sh\necho "pg_dump (PostgreSQL) 9.6.24"\n', { mode: 0o755 });
    });

    /** The source's URL with a password in it (the server trusts local connections, so any password works). */
    const withPassword = () => {
      const url = new URL(source);
      url.password = 'Backup-secret-pw';
      return url.toString();
    };

    it('explains a missing pg_dump, with the command to run instead, and never shows the password', async () => {
      const empty = join(dir, 'no-tools');
      mkdirSync(empty, { recursive: true });
      const file = join(dir, 'never.dump');
      const r = await runCli(['backup', file], { DATABASE_URL: withPassword(), PG_BIN_DIR: empty });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /^wallery: pg_dump was not found in PG_BIN_DIR .*install the PostgreSQL client tools, version \d+ or later/,
      );
      const command = /run it yourself with PGPASSWORD set to the password in DATABASE_URL: (pg_dump .*)\n$/.exec(
        r.stderr,
      )?.[1];
      expect(command).toBe(`pg_dump --format=custom --no-owner --file ${file} --dbname ${source}`);
      expect(r.stdout + r.stderr).not.toContain('Backup-secret-pw');
      expect(existsSync(file)).toBe(false);
    });

    it('refuses a pg_dump older than the server', async () => {
      const r = await runCli(['backup', join(dir, 'never.dump')], { DATABASE_URL: source, PG_BIN_DIR: tools });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/pg_dump is version 9, older than the server \(PostgreSQL \d+\), and cannot dump it/);
    });

    it('leaves an earlier backup of the same name as it was when pg_dump fails halfway', async () => {
      const failing = join(dir, 'failing-tools');
      mkdirSync(failing);
      // a pg_dump that writes part of its file, then fails
      writeFileSync(
        join(failing, 'pg_dump'),
        [
          '#!/bin/sh',
          'if [ "$1" = --version ]; then echo "pg_dump (PostgreSQL) 99.0"; exit 0; fi',
          'while [ $# -gt 0 ]; do if [ "$1" = --file ]; then echo half > "$2"; fi; shift; done',
          'echo "pg_dump: error: connection lost" >&2',
          'exit 1',
          '',
        ].join('\n'),
        { mode: 0o755 },
      );
      const file = join(dir, 'earlier.dump');
      writeFileSync(file, 'the earlier backup');
      const r = await runCli(['backup', file], { DATABASE_URL: source, PG_BIN_DIR: failing });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^running: .*\nwallery: pg_dump failed: pg_dump: error: connection lost\n$/);
      expect(readFileSync(file, 'utf8')).toBe('the earlier backup');
      expect(readdirSync(dir).filter((f) => f.includes('earlier.dump.partial'))).toEqual([]);
    });

    it('has pg_dump write into a file that is 0600 before the first byte of the dump', async () => {
      const recording = join(dir, 'recording-tools');
      mkdirSync(recording);
      // a pg_dump that notes the mode of the file it is given, then writes a dump's first bytes into it
      writeFileSync(
        join(recording, 'pg_dump'),
        [
          '#!/bin/sh',
          'if [ "$1" = --version ]; then echo "pg_dump (PostgreSQL) 99.0"; exit 0; fi',
          'while [ $# -gt 0 ]; do if [ "$1" = --file ]; then stat -c %a "$2" > "$MODE_SEEN" 2>&1; printf PGDMP > "$2"; fi; shift; done',
          '',
        ].join('\n'),
        { mode: 0o755 },
      );
      const seen = join(dir, 'mode-seen');
      const file = join(dir, 'recorded.dump');
      const r = await runCliUnmasked(['backup', file], {
        DATABASE_URL: source,
        PG_BIN_DIR: recording,
        MODE_SEEN: seen,
      });
      expect(r.code, r.stderr).toBe(0);
      expect(readFileSync(seen, 'utf8')).toBe('600\n');
      expect(modeOf(file)).toBe(0o600);
    });

    it('runs pg_dump with the password in its environment only, and says what it runs', async () => {
      const file = join(dir, 'with-password.dump');
      const r = await runCli(['backup', file], { DATABASE_URL: withPassword() });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(
        /^running: \S*pg_dump --format=custom --no-owner --file \S+ --dbname postgres:\/\/postgres@/,
      );
      expect(r.stdout).toMatch(/, 2 posts, schema \d{4}_\w+ in [\d.]+ s\n$/);
      expect(r.stdout + r.stderr).not.toContain('Backup-secret-pw');
    });
  },
);

describe.skipIf(missingTools !== null)(named(`wallery restore refuses what it should (${kind})`), () => {
  let backupFile: string;

  beforeAll(async () => {
    const source = await freshStore('small');
    const file = join(dir, 'small.json');
    writeFileSync(file, JSON.stringify(smallWallData(3)));
    const imported = await runCli(['import', file], { DATABASE_URL: source });
    expect(imported.code, imported.stderr).toBe(0);
    backupFile = join(dir, kind === 'sqlite' ? 'small-backup.db' : 'small-backup.dump');
    const r = await runCli(['backup', backupFile], { DATABASE_URL: source });
    expect(r.code, r.stderr).toBe(0);
  });

  it('refuses to overwrite a store that holds data without --force; with --force it replaces it', async () => {
    const target = await freshStore('occupied');
    const created = await runCli(['accounts', 'create', '--name', 'Already here', '--plan', 'widget'], {
      DATABASE_URL: target,
    });
    expect(created.code, created.stderr).toBe(0);

    const refused = await runCli(['restore', backupFile], { DATABASE_URL: target });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^wallery: the store .*is not empty \(1 accounts, 0 walls, 0 posts\): add --force/);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    const untouched = await runCli(['accounts', 'list', '--json'], { DATABASE_URL: target });
    expect((JSON.parse(untouched.stdout) as { data: unknown[] }).data).toEqual([
      expect.objectContaining({ name: 'Already here' }),
    ]);

    const forced = await runCli(['restore', backupFile, '--force'], { DATABASE_URL: target });
    expect(forced.code, forced.stderr).toBe(0);
    const accounts = await runCli(['accounts', 'list', '--json'], { DATABASE_URL: target });
    expect((JSON.parse(accounts.stdout) as { data: { name: string }[] }).data.map((a) => a.name)).toEqual(['Small']);
    expect((await storePosts(target)).map((p) => p.content).sort()).toEqual(['post 1', 'post 2', 'post 3']);
  });

  it('brings a backup made by an older version to the current schema; refuses one from a newer version', async () => {
    const old = await freshStore('old-schema');
    const store = openStore(kind === 'sqlite' ? { kind: 'sqlite', path: old } : { kind: 'postgres', url: old });
    try {
      await migrateTo(store.db as never, store.name, '0016_analytics');
    } finally {
      await store.close();
    }
    const oldBackup = join(dir, kind === 'sqlite' ? 'old.db' : 'old.dump');
    const made = await runCli(['backup', oldBackup], { DATABASE_URL: old });
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toMatch(/schema 0016_analytics/);
    const target = await freshStore('from-old');
    const restored = await runCli(['restore', oldBackup], { DATABASE_URL: target });
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toMatch(/, migrated: 0017_webhooks\b/);
    const migrate = await runCli(['migrate'], { DATABASE_URL: target });
    expect(migrate.stdout).toBe('schema is up to date\n');

    // a backup whose schema has a migration this version does not know: refused before anything is restored
    const future = join(dir, kind === 'sqlite' ? 'future.db' : 'future.dump');
    const newer = await freshStore('newer-schema');
    expect((await runCli(['migrate'], { DATABASE_URL: newer })).code).toBe(0);
    const newerStore = openStore(
      kind === 'sqlite' ? { kind: 'sqlite', path: newer } : { kind: 'postgres', url: newer },
    );
    try {
      await sql`insert into kysely_migration (name, timestamp) values (${'9999_future'}, ${new Date().toISOString()})`.execute(
        newerStore.db,
      );
    } finally {
      await newerStore.close();
    }
    expect((await runCli(['backup', future], { DATABASE_URL: newer })).code).toBe(0);
    const kept = await freshStore('kept');
    expect(
      (await runCli(['accounts', 'create', '--name', 'Kept', '--plan', 'widget'], { DATABASE_URL: kept })).code,
    ).toBe(0);
    const refused = await runCli(['restore', future, '--force'], { DATABASE_URL: kept });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^wallery: .*future\.(db|dump) cannot be restored by this version: .*it has migration 9999_future, from a later version/,
    );
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    if (kind === 'sqlite') expect(integrityCheck(kept)).toEqual(['ok']);
    const accounts = await runCli(['accounts', 'list', '--json'], { DATABASE_URL: kept });
    expect((JSON.parse(accounts.stdout) as { data: { name: string }[] }).data.map((a) => a.name)).toEqual(['Kept']);
    expect(readdirSync(dir).filter((f) => f.includes('restoring'))).toEqual([]);
  });

  it('backup names a folder that does not exist, and on SQLite a database that does not', async () => {
    const source = await freshStore('migrated-only');
    expect((await runCli(['migrate'], { DATABASE_URL: source })).code).toBe(0);
    const cases: [string[], Record<string, string>, RegExp][] = [
      [['backup', join(dir, 'no-such-folder', 'x.bak')], { DATABASE_URL: source }, /its folder does not exist/],
    ];
    if (kind === 'sqlite')
      cases.push([
        ['backup', join(dir, 'x.bak')],
        { DATABASE_URL: join(dir, 'never-made.db') },
        /no database at .*never-made\.db: nothing to back up/,
      ]);
    for (const [args, env, message] of cases) {
      const r = await runCli(args, env);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    if (kind === 'sqlite') expect(existsSync(join(dir, 'never-made.db'))).toBe(false);
  });

  it('names a missing file, a file that is no backup and a backup of the other kind of store', async () => {
    const target = await freshStore('errors');
    const notBackup = join(dir, 'notes.txt');
    writeFileSync(notBackup, 'just some notes\n');
    const otherKind = join(dir, kind === 'sqlite' ? 'other.dump' : 'other.db');
    if (kind === 'sqlite') writeFileSync(otherKind, Buffer.concat([Buffer.from('PGDMP'), Buffer.alloc(64)]));
    else {
      const sqliteStore = join(dir, 'other-source.db');
      expect((await runCli(['migrate', '--database', sqliteStore])).code).toBe(0);
      expect((await runCli(['backup', otherKind, '--database', sqliteStore])).code).toBe(0);
    }
    const cases = [
      [join(dir, 'missing.db'), /does not exist/],
      [notBackup, /is not a Wallery backup/],
      [
        otherKind,
        kind === 'sqlite'
          ? /is a PostgreSQL backup .*not one for an SQLite store: restore it with DATABASE_URL .* postgres:\/\/ URL/
          : /is an SQLite backup, not one for a PostgreSQL store/,
      ],
    ] as const;
    for (const [file, message] of cases) {
      const r = await runCli(['restore', file], { DATABASE_URL: target });
      expect(r.code, file).toBe(1);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n'), file).toHaveLength(1);
    }
  });
});

describe.skipIf(missingTools !== null)(named(`backups and exports are readable by their owner only (${kind})`), () => {
  let source: string;

  beforeAll(async () => {
    source = await freshStore('modes');
    const file = join(dir, 'modes.json');
    writeFileSync(file, JSON.stringify(smallWallData(2)));
    const imported = await runCli(['import', file], { DATABASE_URL: source });
    expect(imported.code, imported.stderr).toBe(0);
  });

  it('writes a backup 0600 under umask 000, also in place of an earlier one that was 0644', async () => {
    const fresh = join(dir, kind === 'sqlite' ? 'mode-new.db' : 'mode-new.dump');
    const made = await runCliUnmasked(['backup', fresh], { DATABASE_URL: source });
    expect(made.code, made.stderr).toBe(0);
    expect(modeOf(fresh)).toBe(0o600);

    const earlier = join(dir, kind === 'sqlite' ? 'mode-earlier.db' : 'mode-earlier.dump');
    writeFileSync(earlier, 'an earlier backup');
    chmodSync(earlier, 0o644);
    const replaced = await runCliUnmasked(['backup', earlier], { DATABASE_URL: source });
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(modeOf(earlier)).toBe(0o600);
    // nothing else was left beside them
    expect(readdirSync(dir).filter((f) => f.includes('partial'))).toEqual([]);
  });

  it('writes an export 0600 under umask 000, also in place of an earlier one that was 0666', async () => {
    const fresh = join(dir, 'mode-export.json');
    const made = await runCliUnmasked(['export', fresh], { DATABASE_URL: source });
    expect(made.code, made.stderr).toBe(0);
    expect(modeOf(fresh)).toBe(0o600);
    expect((JSON.parse(readFileSync(fresh, 'utf8')) as { accounts: unknown[] }).accounts).toHaveLength(1);

    const earlier = join(dir, 'mode-export-earlier.json');
    writeFileSync(earlier, '{}');
    chmodSync(earlier, 0o666);
    const replaced = await runCliUnmasked(['export', earlier], { DATABASE_URL: source });
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(modeOf(earlier)).toBe(0o600);
    expect(readFileSync(earlier, 'utf8')).toBe(readFileSync(fresh, 'utf8'));

    const nowhere = await runCli(['export', join(dir, 'no-such-folder', 'x.json')], { DATABASE_URL: source });
    expect(nowhere.code).toBe(1);
    expect(nowhere.stderr).toMatch(/^wallery: cannot write .*x\.json: its folder does not exist\n$/);
  });

  it.skipIf(kind !== 'sqlite')(
    'restores into a new SQLite store 0600 under umask 000; a store replaced keeps its mode',
    async () => {
      const backup = join(dir, 'mode-restore.db');
      expect((await runCli(['backup', backup], { DATABASE_URL: source })).code).toBe(0);
      const target = join(dir, 'mode-restored.db');
      const restored = await runCliUnmasked(['restore', backup], { DATABASE_URL: target });
      expect(restored.code, restored.stderr).toBe(0);
      expect(modeOf(target)).toBe(0o600);

      chmodSync(target, 0o640);
      const again = await runCliUnmasked(['restore', backup, '--force'], { DATABASE_URL: target });
      expect(again.code, again.stderr).toBe(0);
      expect(modeOf(target)).toBe(0o640);
    },
  );
});

describe.skipIf(missingTools !== null)(
  named(`wallery restore takes back only the schema objects of this version (${kind})`),
  () => {
    /** A store with three posts, altered with `alter`, and its backup. */
    async function alteredBackup(name: string, alter: (db: Kysely<unknown>) => Promise<unknown>): Promise<string> {
      const source = await freshStore(name);
      const file = join(dir, `${name}.json`);
      writeFileSync(file, JSON.stringify(smallWallData(3)));
      expect((await runCli(['import', file], { DATABASE_URL: source })).code).toBe(0);
      await onStore(source, alter);
      const backup = join(dir, kind === 'sqlite' ? `${name}-backup.db` : `${name}-backup.dump`);
      const made = await runCli(['backup', backup], { DATABASE_URL: source });
      expect(made.code, made.stderr).toBe(0);
      return backup;
    }

    /** The store's tables, and its triggers named `leak`. */
    async function schemaOf(database: string): Promise<{ tables: string[]; leaks: number }> {
      let tables: string[] = [];
      let leaks = 0;
      await onStore(database, async (db) => {
        tables = (await db.introspection.getTables()).map((t) => t.name).sort();
        const query =
          kind === 'sqlite'
            ? sql<{ n: number }>`select count(*) as n from sqlite_master where name like 'leak%'`
            : sql<{ n: number }>`select count(*)::int as n from pg_trigger where tgname like 'leak%'`;
        leaks = Number((await query.execute(db)).rows[0]!.n);
      });
      return { tables, leaks };
    }

    it('refuses a backup with a trigger added, naming it and changing nothing; --drop-foreign restores it without', async () => {
      // the trigger alone is foreign: on PostgreSQL it runs a function of Wallery's own
      const backup = await alteredBackup('with-trigger', (db) =>
        kind === 'sqlite'
          ? sql`create trigger leak after insert on posts begin update posts set content = 'leaked' where id = new.id; end`.execute(
              db,
            )
          : sql`create trigger leak after insert on posts for each statement execute function wallery_announce_all()`.execute(
              db,
            ),
      );
      const target = await freshStore('trigger-target');
      const refused = await runCli(['restore', backup], { DATABASE_URL: target });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(
        /^wallery: .*with-trigger-backup\.(db|dump) holds schema objects that no migration of this version creates: trigger leak on posts; nothing was restored: .* add --drop-foreign/,
      );
      expect(refused.stderr.trim().split('\n')).toHaveLength(1);
      if (kind === 'sqlite') expect(existsSync(target)).toBe(false);
      else expect((await schemaOf(target)).tables).toEqual([]);
      expect(readdirSync(dir).filter((f) => f.includes('restoring'))).toEqual([]);

      const dropped = await runCli(['restore', backup, '--drop-foreign'], { DATABASE_URL: target });
      expect(dropped.code, dropped.stderr).toBe(0);
      expect(dropped.stdout).toMatch(/, 3 posts, .*, left out: trigger leak on posts in [\d.]+ s\n$/);
      expect((await schemaOf(target)).leaks).toBe(0);
      expect((await storePosts(target)).map((p) => p.content).sort()).toEqual(['post 1', 'post 2', 'post 3']);
    });

    it('refuses a backup with a table and a function (SQLite: a view) added, naming each', async () => {
      const backup = await alteredBackup('with-table', async (db) => {
        await sql`create table stolen (content text)`.execute(db);
        if (kind === 'sqlite') await sql`create view leak_view as select content from posts`.execute(db);
        else
          await sql`create function leak_posts() returns setof text language sql as $$ select content from posts $$`.execute(
            db,
          );
      });
      const target = await freshStore('table-target');
      const refused = await runCli(['restore', backup], { DATABASE_URL: target });
      expect(refused.code).toBe(1);
      const named = /holds schema objects that no migration of this version creates: (.*); nothing was restored/.exec(
        refused.stderr,
      )?.[1];
      expect(named?.split(', ').sort()).toEqual(
        kind === 'sqlite' ? ['table stolen', 'view leak_view'] : ['function leak_posts()', 'table stolen'],
      );
      if (kind === 'sqlite') expect(existsSync(target)).toBe(false);
      else expect((await schemaOf(target)).tables).toEqual([]);
    });

    it('restores a backup of an unaltered store as before: nothing flagged, nothing left out', async () => {
      const backup = await alteredBackup('unaltered', async () => undefined);
      const target = await freshStore('unaltered-target');
      const restored = await runCli(['restore', backup], { DATABASE_URL: target });
      expect(restored.code, restored.stderr).toBe(0);
      expect(restored.stdout).not.toContain('left out');
      expect((await schemaOf(target)).tables).toContain('posts');
    });
  },
);
