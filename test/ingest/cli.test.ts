// End to end: the real `wallery` CLI (dist/, rebuilt by globalSetup) polls a
// wall with one feed of each kind — all pointed at local fixture servers —
// and the API shows the posts; `worker` and `serve` ingest on their own and
// stop cleanly on SIGTERM.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli } from '../helpers/cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { testDatabaseUrl, testStoreKind } from '../helpers/services.js';
import { APP_PASSWORD, IDENTIFIER, postView, startBluesky, type BlueskyFixture } from './fixtures/bluesky.js';
import { CHANNEL_ID, rssXml, startFeeds, youtubeXml, type FeedFixture, type RssItem } from './fixtures/feeds.js';
import { lemmyPost, startLemmy, type LemmyFixture } from './fixtures/lemmy.js';
import { mastodonHtml, startMastodon, status, type MastodonFixture } from './fixtures/mastodon.js';
import { htmlError } from './fixtures/server.js';
import { NOW, dataFile, wallPosts, type FeedSpec, type Harness } from './harness.js';

const at = (m: number) => new Date(NOW - m * 60_000).toISOString();

let mastodon: MastodonFixture;
let bluesky: BlueskyFixture;
let lemmy: LemmyFixture;
let rss: FeedFixture;
let youtube: FeedFixture;
const rssItems: RssItem[] = [
  {
    guid: 'r1',
    title: 'Blog one',
    link: 'https://blog.example/1',
    pubDate: new Date(NOW - 3600_000).toUTCString(),
    description: 'First',
    mediaContent: [{ url: 'https://blog.example/1.jpg', medium: 'image' }],
  },
  {
    guid: 'r2',
    title: 'Blog two',
    link: 'https://blog.example/2',
    pubDate: new Date(NOW - 7200_000).toUTCString(),
    description: 'Second',
  },
];

beforeAll(async () => {
  [mastodon, bluesky, lemmy, rss, youtube] = await Promise.all([
    startMastodon(),
    startBluesky(),
    startLemmy(),
    startFeeds(),
    startFeeds(),
  ]);
  mastodon.statuses.push(
    status({
      id: '113800000000000001',
      createdAt: at(30),
      html: mastodonHtml('Toot one', ['wallery']),
      tags: ['wallery'],
      media: [{ type: 'image', name: 'one' }],
    }),
    status({
      id: '113800000000000002',
      createdAt: at(20),
      html: mastodonHtml('Toot two', ['wallery']),
      tags: ['wallery'],
    }),
  );
  bluesky.feed.push({ post: postView({ rkey: '3lbcli00001a', text: 'Skeet', createdAt: at(15), embed: 'video' }) });
  bluesky.search.push(
    postView({
      rkey: '3lbcli00002a',
      text: 'Found #wallery',
      createdAt: at(12),
      handle: 'cy.bsky.social',
      displayName: 'Cy',
    }),
  );
  lemmy.posts.push(lemmyPost({ id: 9501, name: 'Lemmy post', published: at(25).replace('Z', '000Z'), body: 'hello' }));
  rss.documents.set('/feed.xml', { body: rssXml(rssItems), type: 'application/rss+xml' });
  youtube.documents.set(`/feeds/videos.xml?channel_id=${CHANNEL_ID}`, {
    body: youtubeXml([
      {
        id: 'cliVideo001',
        title: 'Clip',
        description: 'short',
        published: '2026-01-15T11:00:00+00:00',
        updated: '2026-01-15T11:00:00+00:00',
      },
    ]),
    type: 'text/xml',
  });
});

afterAll(async () => {
  await Promise.all([mastodon, bluesky, lemmy, rss, youtube].map((f) => f?.close()));
});

function allFeeds(): FeedSpec[] {
  return [
    { id: 11, name: 'Blog', connector: { kind: 'rss', url: `${rss.origin}/feed.xml` } },
    { id: 12, name: 'Toots', connector: { kind: 'mastodon', instance: mastodon.origin, hashtag: 'wallery' } },
    { id: 13, name: 'Ana', connector: { kind: 'bluesky', actor: 'ana.bsky.social', appViewUrl: bluesky.origin } },
    { id: 14, name: 'Sky tag', connector: { kind: 'bluesky', hashtag: 'wallery', serviceUrl: bluesky.origin } },
    { id: 15, name: 'Channel', connector: { kind: 'youtube', channelId: CHANNEL_ID, baseUrl: youtube.origin } },
    { id: 16, name: 'Community', connector: { kind: 'lemmy', instance: lemmy.origin, community: 'trailrunning' } },
  ];
}

const ENV = {
  INGEST_ALLOW_PRIVATE_NETWORKS: '127.0.0.0/8',
  BLUESKY_IDENTIFIER: IDENTIFIER,
  BLUESKY_APP_PASSWORD: APP_PASSWORD,
  LOG_LEVEL: 'warn',
};

function databaseArg(server: TestServer): string {
  if (server.store.name === 'sqlite') return join(server.dir, 'wallery.db');
  return testDatabaseUrl(readFileSync(join(server.dir, 'postgres-database'), 'utf8').trim());
}

async function postCount(server: TestServer) {
  const rows = await server.store.db.selectFrom('posts').select(['feed_id', 'external_id']).execute();
  return { total: rows.length, distinct: new Set(rows.map((r) => `${r.feed_id}/${r.external_id}`)).size };
}

/**
 * Another process's writes reach a running server's response cache through
 * `PRAGMA data_version` on SQLite, and through PostgreSQL's notifications,
 * which `wallery serve` listens to; the test server does not listen, so on
 * PostgreSQL the test announces the CLI's writes as the notification would.
 */
function relay(server: TestServer) {
  if (server.store.name !== 'sqlite') server.app.ctx.changes.publish({ kind: 'all' });
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

async function until(check: () => Promise<boolean>, ms = 60_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition not met in time');
}

describe('wallery ingest --once', () => {
  let server: TestServer;
  let db: string;
  beforeAll(async () => {
    server = await startTestServer({ data: dataFile(allFeeds()) });
    db = databaseArg(server);
  });
  afterAll(async () => server?.close());

  it('fills a wall with one feed of each kind in one run; W2 and C2 show the posts in both formats', async () => {
    const r = await runCli(['ingest', '--once', '--database', db], ENV);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('polling 6 feeds\n');
    expect(r.stdout).toMatch(/\[6\/6\] feed 1\d \(\w+\): \d+ new/);
    expect(r.stdout).toContain('polled 6 feeds: 8 new, 0 updated, 0 failed\n');

    const posts = await wallPosts({ server } as Harness);
    expect(posts.size).toBe(8);
    const byNetwork = new Map<string, number>();
    for (const { widget } of posts.values())
      byNetwork.set(String(widget.networkName), (byNetwork.get(String(widget.networkName)) ?? 0) + 1);
    expect(Object.fromEntries(byNetwork)).toEqual({ RSS: 2, Mastodon: 2, Bluesky: 2, YouTube: 1, Lemmy: 1 });
    expect(posts.get('https://www.youtube.com/watch?v=cliVideo001')!.widget).toMatchObject({
      PostType: 3,
      feedName: 'Channel',
    });
    expect(posts.get('https://social.example/@ana/113800000000000001')!.commerce).toMatchObject({
      postType: 2,
      feedName: 'Toots',
    });
    expect(posts.get('https://bsky.app/profile/cy.bsky.social/post/3lbcli00002a')!.widget).toMatchObject({
      feedId: 14,
      postAuthorName: 'Cy',
    });
    expect(await postCount(server)).toEqual({ total: 8, distinct: 8 });
  });

  it('stays duplicate-free over repeated runs and adds only what is new', async () => {
    const again = await runCli(['ingest', '--once', '--database', db], ENV);
    expect(again).toMatchObject({ code: 0, stdout: 'no feed is due\n' });

    mastodon.statuses.push(
      status({
        id: '113800000000000003',
        createdAt: at(1),
        html: mastodonHtml('Toot three', ['wallery']),
        tags: ['wallery'],
      }),
    );
    rss.documents.set('/feed.xml', {
      body: rssXml([
        {
          guid: 'r3',
          title: 'Blog three',
          link: 'https://blog.example/3',
          pubDate: new Date(NOW).toUTCString(),
          description: 'Third',
        },
        ...rssItems,
      ]),
      type: 'application/rss+xml',
    });
    const forced = await runCli(['ingest', '--once', '--force', '--database', db], ENV);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain('polled 6 feeds: 2 new, 0 updated, 0 failed\n');
    const twice = await runCli(['ingest', '--once', '--force', '--database', db], ENV);
    expect(twice.stdout).toContain('polled 6 feeds: 0 new, 0 updated, 0 failed\n');
    relay(server);
    expect(await postCount(server)).toEqual({ total: 10, distinct: 10 });
    expect((await wallPosts({ server } as Harness)).size).toBe(10);
  });

  it('exits non-zero when a feed failed, and names it', async () => {
    lemmy.queue.push(htmlError(503));
    const r = await runCli(['ingest', '--once', '--feed', '16', '--database', db], ENV);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `[1/1] feed 16 (lemmy): FAILED — HTTP 503 from 127.0.0.1:${lemmy.port} (an HTML error page)\n`,
    );
    expect(r.stdout).toContain('polled 1 feed: 0 new, 0 updated, 1 failed\n');
  });

  it('refuses a missing --once, an unknown feed and a bad setting with one line', async () => {
    const cases = [
      [['ingest'], ENV, /needs --once/],
      [['ingest', '--once', '--feed', '999'], ENV, /feed 999: no feed 999/],
      [['ingest', '--once'], { ...ENV, INGEST_TIMEOUT_MS: 'soon' }, /INGEST_TIMEOUT_MS/],
      [['worker'], { ...ENV, INGEST_MAX_BYTES: '0' }, /INGEST_MAX_BYTES/],
    ] as const;
    const results = await Promise.all(cases.map(([args, env]) => runCli([...args, '--database', db], env)));
    cases.forEach(([args, , message], i) => {
      const r = results[i]!;
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    });
  });
});

// The long-running commands once, on SQLite: the store paths they use are the
// ones `ingest --once` above and the in-process suites cover on both stores.
describe.skipIf(testStoreKind() === 'postgres')('wallery worker and serve', () => {
  it('worker polls on its own and stops cleanly on SIGTERM', async () => {
    const fx = await startFeeds();
    fx.documents.set('/feed.xml', { body: rssXml(rssItems), type: 'application/rss+xml' });
    const server = await startTestServer({
      data: dataFile([{ id: 11, name: 'Blog', connector: { kind: 'rss', url: `${fx.origin}/feed.xml` } }]),
    });
    try {
      const { child } = await startCli(['worker', '--database', databaseArg(server)], ENV, /polling feeds/);
      await until(async () => (await postCount(server)).total === 2);
      child.kill('SIGTERM');
      expect(await exited(child)).toBe(0);
      const state = await server.store.db.selectFrom('feed_ingest_state').selectAll().executeTakeFirstOrThrow();
      expect(state).toMatchObject({ lease_owner: null, consecutive_failures: 0 });
    } finally {
      await server.close();
      await fx.close();
    }
  });

  it('serve ingests in-process; with INGEST=off it does not', async () => {
    for (const ingest of ['on', 'off']) {
      const fx = await startFeeds();
      fx.documents.set('/feed.xml', { body: rssXml(rssItems), type: 'application/rss+xml' });
      const server = await startTestServer({
        data: dataFile([{ id: 11, name: 'Blog', connector: { kind: 'rss', url: `${fx.origin}/feed.xml` } }]),
      });
      try {
        const { child } = await startCli(
          ['serve', '--port', '0', '--host', '127.0.0.1', '--database', databaseArg(server)],
          { ...ENV, LOG_LEVEL: 'info', INGEST: ingest },
          /Server listening at/,
        );
        if (ingest === 'on') await until(async () => (await postCount(server)).total === 2);
        else await new Promise((r) => setTimeout(r, 700));
        child.kill('SIGTERM');
        expect(await exited(child)).toBe(0);
        expect(fx.requests.length > 0).toBe(ingest === 'on');
        if (ingest === 'off') expect((await postCount(server)).total).toBe(0);
      } finally {
        await server.close();
        await fx.close();
      }
    }
  });
});
