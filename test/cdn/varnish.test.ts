// A real Varnish (deploy/varnish/wallery.vcl) in front of a real server whose
// purge hook bans by tag (CDN_PURGE=varnish:…): a Zipf-distributed mix of 200
// walls' embed reads is answered from Varnish (hit ratio ≥ 95 %, read from
// varnishstat), and after every kind of change — a new post, a post rejected,
// approved, hidden, a wall renamed, an account's product renamed, a wall
// deleted — what Varnish answers shows it within 2 s (polled; the latency is
// a bench number, bench/cdn.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_ACTOR, type Op } from '../../src/manage/op.js';
import { createPublishableKey } from '../../src/manage/publishable-keys.js';
import { updatePost, addTag } from '../../src/manage/posts.js';
import { deleteWall, updateWall } from '../../src/manage/walls.js';
import { createProduct, updateProduct } from '../../src/manage/products.js';
import { closedPort } from '../helpers/ports.js';
import { eventually } from '../helpers/poll.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { hasVarnish, SKIP_NO_VARNISH, startVarnish, type Varnish } from '../helpers/varnish.js';
import { cdnWallsData, zipfSampler, CDN_ACCOUNT, CDN_USER_KEY } from './fixtures.js';

const WALLS = 200;
const READS = 12_000;
const CONCURRENCY = 24;

interface EmbedPosts {
  posts: { id: string; html: string; products: { name: string }[] }[];
}

describe.skipIf(!hasVarnish)(
  `Varnish in front, purged on every change (${hasVarnish ? 'varnishd' : SKIP_NO_VARNISH})`,
  () => {
    let srv: TestServer;
    let varnish: Varnish;
    const keys = new Map<number, string>();
    const op = (): Op => ({ db: srv.store.db, actor: CLI_ACTOR, now: Date.now(), changes: srv.app.ctx.changes });
    const postsUrl = (wallId: number) => `${varnish.url}/api/embed/v1/walls/${wallId}/posts?key=${keys.get(wallId)}`;
    const wallUrl = (wallId: number) => `${varnish.url}/api/embed/v1/walls/${wallId}?key=${keys.get(wallId)}`;
    const readPosts = async (wallId: number) => (await (await fetch(postsUrl(wallId))).json()) as EmbedPosts;

    beforeAll(async () => {
      const port = await closedPort();
      srv = await startTestServer({
        data: cdnWallsData(WALLS, 3),
        // every read through Varnish comes from one address: the per-client limit is the CDN's business here
        embed: { rateLimitPerIp: 0 },
        cdn: { targets: [{ kind: 'varnish', url: `http://127.0.0.1:${port}/` }], sharedMaxAge: 3600 },
      });
      varnish = await startVarnish(port, Number(new URL(srv.baseUrl).port));
      for (let wallId = 1; wallId <= WALLS; wallId++)
        keys.set(wallId, (await createPublishableKey(op(), wallId, { origins: [] })).key);
      await srv.app.cdnPurger!.idle();
    });
    afterAll(async () => {
      await varnish?.stop();
      await srv?.close();
    });

    it('answers a Zipf mix of 200 walls from the cache: hit ratio ≥ 95 %', async () => {
      const pick = zipfSampler(WALLS, 1.1, 42);
      let next = 0;
      const statuses = new Map<number, number>();
      let hits = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < READS) {
            const i = next++;
            const wallId = pick();
            // one read in five is the wall's record, the others its first page of posts
            const res = await fetch(i % 5 === 0 ? wallUrl(wallId) : postsUrl(wallId));
            await res.arrayBuffer();
            statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
            // what Varnish says of each answer (its counters reach varnishstat only in batches)
            if (res.headers.get('x-cache') === 'HIT') hits++;
          }
        }),
      );
      expect(Object.fromEntries(statuses)).toEqual({ 200: READS });
      expect(hits / READS).toBeGreaterThanOrEqual(0.95);
      // the answers carry what a CDN needs, and Varnish keeps the tags to itself
      const res = await fetch(postsUrl(1));
      expect(res.headers.get('cache-control')).toBe(
        'public, max-age=5, s-maxage=3600, stale-while-revalidate=30, stale-if-error=86400',
      );
      expect(res.headers.get('x-cache')).toBe('HIT');
      expect(res.headers.get('surrogate-key')).toBeNull();
      expect(res.headers.get('cache-tag')).toBe(`wallery,wallery-a${CDN_ACCOUNT},wallery-w1`);
    });

    /** Polls Varnish until `holds`; fails past 2 s. */
    const visible = <T>(what: string, read: () => Promise<T>, holds: (v: T) => boolean) =>
      eventually(what, read, holds, 2000, 20);

    it('a new post, a post rejected, approved and hidden leave or reach Varnish’s answers within 2 s', async () => {
      const wallId = 2;
      const cached = await readPosts(wallId);
      expect(cached.posts.map((p) => p.id)).toContain('2001');
      // new post through the v2 API
      const created = await fetch(`${srv.baseUrl}/api/v2/widget/create-post?user_key=${CDN_USER_KEY}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ wallId, content: 'fresh from the origin' }),
      });
      expect(created.status).toBe(200);
      await visible(
        'the new post',
        () => readPosts(wallId),
        (b) => b.posts.some((p) => p.html === 'fresh from the origin'),
      );
      await updatePost(op(), wallId, 2001, { state: 'rejected' });
      await visible(
        'the rejected post gone',
        () => readPosts(wallId),
        (b) => !b.posts.some((p) => p.id === '2001'),
      );
      await updatePost(op(), wallId, 2001, { state: 'approved' });
      await visible(
        'the approved post back',
        () => readPosts(wallId),
        (b) => b.posts.some((p) => p.id === '2001'),
      );
      await updatePost(op(), wallId, 2002, { hidden: true });
      await visible(
        'the hidden post gone',
        () => readPosts(wallId),
        (b) => !b.posts.some((p) => p.id === '2002'),
      );
      // the other walls stayed in the cache
      expect((await fetch(postsUrl(1))).headers.get('x-cache')).toBe('HIT');
    });

    it('a wall renamed, an account’s product renamed and a wall deleted reach Varnish’s answers within 2 s', async () => {
      const wallId = 3;
      const readName = async () =>
        ((await (await fetch(wallUrl(wallId))).json()) as { wall: { name: string } }).wall.name;
      expect(await readName()).toBe('Wall 3');
      await updateWall(op(), wallId, { name: 'Wall three, renamed' });
      await visible('the new name', readName, (name) => name === 'Wall three, renamed');

      // the product is the account's: renaming it announces an account change, no wall change
      const product = await createProduct(op(), {
        accountId: CDN_ACCOUNT,
        name: 'Trail runner',
        price: 129.9,
        url: 'https://shop.example/tr',
      });
      await addTag(op(), wallId, 3001, { productId: product.id, left: 50, top: 50 });
      const productName = async () =>
        (await readPosts(wallId)).posts.find((p) => p.id === '3001')?.products[0]?.name ?? null;
      await visible('the tagged product', productName, (name) => name === 'Trail runner');
      await updateProduct(op(), product.id, { name: 'Trail runner 2' });
      await visible('the renamed product', productName, (name) => name === 'Trail runner 2');

      await deleteWall(op(), wallId);
      await visible(
        'the deleted wall gone',
        async () => (await fetch(postsUrl(wallId))).status,
        (status) => status === 404,
      );
      const purges = srv.app.cdnPurger!.stats.purges.varnish!;
      expect(purges.failed).toBe(0);
      expect(purges.purged).toBeGreaterThan(0);
    });
  },
);
