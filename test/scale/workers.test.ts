// Two ingestion workers (real processes) on one PostgreSQL: every feed is
// polled exactly once per round, never twice at once.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { createTestDatabase, dropTestDatabase } from '../helpers/services.js';
import { rssXml, startFeeds, type FeedFixture } from '../ingest/fixtures/feeds.js';
import { dataFile } from '../ingest/harness.js';

const FEEDS = 50;
let fx: FeedFixture;
let db: { name: string; url: string };
let dir: string;

beforeAll(async () => {
  fx = await startFeeds();
  for (let i = 0; i < FEEDS; i++) {
    const items = [0, 1].map((n) => ({
      guid: `f${i}-${n}`,
      title: `Feed ${i} post ${n}`,
      link: `https://blog.example/${i}/${n}`,
      pubDate: new Date(Date.now() - (n + 1) * 3_600_000).toUTCString(),
      description: `Body ${n}`,
    }));
    fx.documents.set(`/feed-${i}.xml`, { body: rssXml(items), type: 'application/rss+xml' });
  }
  // a little latency per answer, so the two workers really overlap
  const serve = fx.handler;
  fx.handler = async (req, url) => ({ ...(await serve(req, url)), delayMs: 20 });
  db = await createTestDatabase();
  dir = mkdtempSync(join(tmpdir(), 'wallery-workers-'));
  const file = join(dir, 'feeds.json');
  writeFileSync(
    file,
    JSON.stringify(
      dataFile(
        Array.from({ length: FEEDS }, (_, i) => ({
          id: 500 + i,
          name: `feed ${i}`,
          connector: { kind: 'rss', url: `${fx.origin}/feed-${i}.xml` },
        })),
      ),
    ),
  );
  expect((await runCli(['import', file], { DATABASE_URL: db.url })).code).toBe(0);
});

afterAll(async () => {
  await fx?.close();
  await dropTestDatabase(db.name);
  rmSync(dir, { recursive: true, force: true });
});

it('polls each of 50 feeds exactly once per round with two workers', async () => {
  const env = { DATABASE_URL: db.url, INGEST_ALLOW_PRIVATE_NETWORKS: '127.0.0.0/8', INGEST_HOST_CONCURRENCY: '8' };
  const round = async () => {
    const before = fx.requests.length;
    const [a, b] = await Promise.all([runCli(['ingest', '--once'], env), runCli(['ingest', '--once'], env)]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    return fx.requests.slice(before).map((r) => r.url);
  };
  const first = await round();
  expect(first.length).toBe(FEEDS);
  expect(new Set(first).size).toBe(FEEDS);
  // nothing is due again right away: a second round polls nothing
  expect(await round()).toEqual([]);
  // every post arrived once
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  const { rows } = await client.query<{ n: string; d: string }>(
    'select count(*) as n, count(distinct (feed_id, external_id)) as d from posts',
  );
  await client.end();
  expect(Number(rows[0]!.n)).toBe(FEEDS * 2);
  expect(Number(rows[0]!.d)).toBe(FEEDS * 2);
});
