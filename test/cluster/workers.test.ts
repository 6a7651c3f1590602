// `wallery serve --workers 2` (real processes, one shared socket, no Redis):
// the two workers behave as one server. The quota and the management write
// limit are counted by the primary, exactly, whichever worker answers; a write
// through one worker shows through the other; a worker killed is replaced; a
// SIGHUP replaces both, one at a time, with no failed request. On SQLite and
// (postgres project) PostgreSQL. The kernel hands connections round-robin, so
// fresh connections alternate between the workers; `X-Wallery-Worker` says
// which one answered, and every test checks that both did.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliArgs, READY_DEADLINE_MS, ROOT, runCli } from '../helpers/cli.js';
import { eventually } from '../helpers/poll.js';
import { createTestDatabase, dropTestDatabase, testStoreKind } from '../helpers/services.js';

const KEY = 'Workers-main-key';
const LIMITED_KEY = 'Workers-limited-key';
/** large enough for the primary to grant blocks (so the recall before a refusal matters) */
const LIMIT = 1_000;
const WRITE_LIMIT = 10;
const AT = '2026-01-10T12:00:00.000Z';
const post = (id: number, content: string) => ({
  id,
  content,
  createdAt: AT,
  networkName: 'RSS',
  postType: 1,
  media: 'text',
  products: [],
});
const DATA = {
  version: 1,
  accounts: [
    { id: 1, name: 'Shop', plan: 'enterprise', dailyCallLimit: 1_000_000, userKeys: [KEY] },
    { id: 2, name: 'Limited', plan: 'enterprise', dailyCallLimit: LIMIT, userKeys: [LIMITED_KEY] },
  ],
  walls: [
    {
      id: 101,
      accountId: 1,
      name: 'Wall',
      url: 'wall',
      createdAt: AT,
      feeds: [
        {
          id: 1,
          name: 'Feed',
          source: 's',
          sourceType: 'rss',
          posts: [post(1011, 'first'), post(1012, 'second'), post(1013, 'third')],
        },
      ],
    },
  ],
};

let dir: string;
let pg: { name: string; url: string } | null = null;
let databaseUrl: string;
let server: { child: ChildProcess; url: string; output: () => string };
let token: string;

async function startServer(env: Record<string, string>): Promise<typeof server> {
  const child = spawn(process.execPath, cliArgs(['serve', '--workers', '2']), {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', INGEST: 'off', REDIS_URL: '', LOG_LEVEL: 'info', ...env },
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const url = await eventually(
    'the primary says every worker listens',
    async () => /wallery listening on (http:\/\/127\.0\.0\.1:\d+) \(2 workers\)/.exec(out)?.[1] ?? null,
    (found) => found !== null || child.exitCode !== null,
    READY_DEADLINE_MS,
  ).then(() => /wallery listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1]);
  if (!url) throw new Error(`serve --workers 2 did not start:\n${out}`);
  return { child, url, output: () => out };
}

/** the workers' process ids (the primary's children) */
function workerPids(primary: ChildProcess): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(primary.pid)], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean)
      .map(Number)
      .sort();
  } catch {
    return [];
  }
}

/** One request on a connection of its own (so that the round-robin alternates the workers). */
async function call(path: string, init: { method?: 'GET' | 'PATCH'; body?: unknown } = {}) {
  const res = await request(`${server.url}${path}`, {
    method: init.method ?? 'GET',
    reset: true,
    headers: {
      authorization: `Bearer ${token}`,
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await res.body.text();
  return { status: res.statusCode, worker: String(res.headers['x-wallery-worker']), text };
}

/** Runs `calls` requests, `concurrency` at a time. */
async function hammer<T>(calls: number, concurrency: number, one: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < calls) results.push(await one(next++));
    }),
  );
  return results;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wallery-cluster-'));
  if (testStoreKind() === 'postgres') {
    pg = await createTestDatabase();
    databaseUrl = pg.url;
  } else {
    databaseUrl = join(dir, 'wallery.db');
  }
  const file = join(dir, 'data.json');
  writeFileSync(file, JSON.stringify(DATA));
  const imported = await runCli(['import', file], { DATABASE_URL: databaseUrl });
  expect(imported.code, imported.stderr).toBe(0);
  const created = await runCli(['tokens', 'create', '--name', 'workers', '--role', 'admin'], {
    DATABASE_URL: databaseUrl,
  });
  expect(created.code, created.stderr).toBe(0);
  token = created.stdout.trim().split(/\s+/).pop()!;
  server = await startServer({
    DATABASE_URL: databaseUrl,
    // only an announcement can drop a cached answer
    CACHE_TTL_MS: '600000',
    MANAGE_WRITE_RATE_LIMIT: String(WRITE_LIMIT),
    // a retiring worker serves what it has this long, while the sibling takes the new connections
    SHUTDOWN_DELAY_MS: '1000',
  });
});

afterAll(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await once(server.child, 'exit');
  }
  if (pg) await dropTestDatabase(pg.name);
  rmSync(dir, { recursive: true, force: true });
});

describe('serve --workers 2', () => {
  it('answers the (limit)th call of a day and refuses the (limit+1)th, whichever worker answers', async () => {
    // account 2 owns no wall: a counted call is a 404, a refused one a 429
    const results = await hammer(LIMIT + 200, 8, () => call(`/api/v2/widget/wallInfo/101?user_key=${LIMITED_KEY}`));
    const counted = results.filter((r) => r.status === 404);
    const refused = results.filter((r) => r.status === 429);
    expect(counted.length).toBe(LIMIT);
    expect(refused.length).toBe(200);
    expect(new Set(counted.map((r) => r.worker))).toEqual(new Set(['1', '2']));
    expect(new Set(refused.map((r) => r.worker))).toEqual(new Set(['1', '2']));
  });

  it('allows MANAGE_WRITE_RATE_LIMIT writes a minute across both workers, not twice as many', async () => {
    // (each write leaves the post unpinned: which of the calls are refused varies, and a pin left
    // behind would stand before the post the next test pins)
    const results = await hammer(WRITE_LIMIT + 6, 4, () =>
      call('/api/manage/v1/walls/101/posts/1013', { method: 'PATCH', body: { pinned: false } }),
    );
    expect(results.filter((r) => r.status === 200).length).toBe(WRITE_LIMIT);
    expect(results.filter((r) => r.status === 429).length).toBe(6);
    expect(new Set(results.map((r) => r.worker))).toEqual(new Set(['1', '2']));
  });

  it('shows a write through one worker on the other, whose cached page drops', async () => {
    const firstPost = async () => {
      const r = await call(`/api/v2/widget/posts/101?user_key=${KEY}&limit=10`);
      const body = JSON.parse(r.text) as { responseData: { posts: { postId: string }[] }[] };
      return { worker: r.worker, first: Number(body.responseData[0]!.posts[0]!.postId) };
    };
    // each worker has the page cached (fresh connections alternate)
    const before = await hammer(6, 1, firstPost);
    expect(new Set(before.map((r) => r.worker))).toEqual(new Set(['1', '2']));
    const target = before[0]!.first === 1012 ? 1011 : 1012;
    // the write limit is per token, and the test above spent this minute's: a token of its own
    const created = await runCli(['tokens', 'create', '--name', 'pin', '--role', 'admin'], {
      DATABASE_URL: databaseUrl,
    });
    const pin = await request(`${server.url}/api/manage/v1/walls/101/posts/${target}`, {
      method: 'PATCH',
      reset: true,
      headers: {
        authorization: `Bearer ${created.stdout.trim().split(/\s+/).pop()!}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ pinned: true }),
    });
    expect(pin.statusCode, await pin.body.text()).toBe(200);
    const writer = String(pin.headers['x-wallery-worker']);
    const seen = new Set<string>();
    await eventually(
      'the pinned post first through both workers',
      async () => {
        const r = await firstPost();
        if (r.first === target) seen.add(r.worker);
        return seen.size;
      },
      (n) => n === 2,
      5_000,
      0,
    );
    expect(seen.has(writer === '1' ? '2' : '1')).toBe(true);
  });

  it('a scrape of /metrics counts the requests of both workers, whichever worker answers it', async () => {
    const w1Count = (text: string) =>
      Number(
        /^wallery_http_request_duration_seconds_count\{route="v2_widget",method="GET",status_class="2xx"\} (\d+)$/m.exec(
          text,
        )?.[1] ?? 0,
      );
    const scrape = () => call('/metrics');
    const before = await scrape();
    expect(before.status).toBe(200);
    const calls = await hammer(20, 2, () => call(`/api/v2/widget/wallInfo/101?user_key=${KEY}`));
    expect(calls.every((c) => c.status === 200)).toBe(true);
    expect(new Set(calls.map((c) => c.worker))).toEqual(new Set(['1', '2']));
    // scrapes answered by each worker (fresh connections alternate) all see the 20 calls
    const after = await hammer(4, 1, scrape);
    expect(new Set(after.map((r) => r.worker))).toEqual(new Set(['1', '2']));
    for (const r of after) expect(w1Count(r.text) - w1Count(before.text)).toBe(20);
  });

  it('replaces a worker killed with SIGKILL and keeps answering', async () => {
    const pids = workerPids(server.child);
    expect(pids).toHaveLength(2);
    process.kill(pids[0]!, 'SIGKILL');
    await eventually(
      'a new worker in its place',
      async () => workerPids(server.child),
      (now) => now.length === 2 && !now.includes(pids[0]!),
      60_000,
    );
    const seen = new Set<string>();
    await eventually(
      'both workers answering',
      async () => {
        const r = await call(`/api/v2/widget/wallInfo/101?user_key=${KEY}`);
        if (r.status === 200) seen.add(r.worker);
        return seen.size;
      },
      (n) => n === 2,
      60_000,
      0,
    );
  });

  it('restarts every worker on SIGHUP, one at a time, with no failed request', async () => {
    const before = workerPids(server.child);
    const agent = new Agent({ connections: 4 });
    const failures: string[] = [];
    const answeredBy = new Set<string>();
    let answered = 0;
    let running = true;
    const loop = async () => {
      while (running) {
        try {
          const res = await request(`${server.url}/api/v2/widget/wallInfo/101?user_key=${KEY}`, { dispatcher: agent });
          await res.body.dump();
          if (res.statusCode !== 200) failures.push(`status ${res.statusCode}`);
          else {
            answered += 1;
            answeredBy.add(String(res.headers['x-wallery-worker']));
          }
        } catch (err) {
          failures.push(String(err));
        }
      }
    };
    const loops = Array.from({ length: 4 }, loop);
    await eventually(
      'load running',
      async () => answered,
      (n) => n > 20,
      30_000,
    );
    const logged = (server.output().match(/rolling restart done/g) ?? []).length;
    server.child.kill('SIGHUP');
    await eventually(
      'the rolling restart done',
      async () => (server.output().match(/rolling restart done/g) ?? []).length,
      (n) => n > logged,
      90_000,
    );
    const during = answered;
    await eventually(
      'load still answered',
      async () => answered,
      (n) => n > during + 20,
      30_000,
    );
    running = false;
    await Promise.all(loops);
    await agent.close();
    expect(failures).toEqual([]);
    const after = workerPids(server.child);
    expect(after).toHaveLength(2);
    expect(after.filter((pid) => before.includes(pid))).toEqual([]);
    expect(answeredBy).toEqual(new Set(['1', '2']));
  });

  it('drains both workers on SIGTERM and exits 0', async () => {
    server.child.kill('SIGTERM');
    const [code] = (await once(server.child, 'exit')) as [number | null];
    expect(code, server.output()).toBe(0);
  });
});
