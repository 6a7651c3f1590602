// The wall's live screen state in the embed API's first page of posts, for
// screens that poll instead of holding the stream open: absent until the
// screen is controlled, then the stream's `screen` state without
// `serverNow`, on the first page only; a change of the screen drops the
// cached answer (a new ETag at once) and purges the wall's tag from the CDN
// (a fixture server records the purge requests, as Fastly would get them).
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventually } from '../../helpers/poll.js';
import { describeSample } from '../../helpers/sample.js';
import { startEmbedServer, type EmbedServer } from './helpers.js';

const WALL = 7011;

interface Page {
  posts: { id: string }[];
  nextCursor: string | null;
  screen?: Record<string, unknown>;
}

describeSample('the screen state for polling screens (embed API posts)', () => {
  let s: EmbedServer;
  let key: string;
  let cdn: Server;
  const purges: { url: string; tags: string }[] = [];

  beforeAll(async () => {
    cdn = createServer((req: IncomingMessage, res) => {
      purges.push({ url: `${req.method} ${req.url}`, tags: String(req.headers['surrogate-key'] ?? '') });
      res.writeHead(200).end();
    });
    cdn.listen(0, '127.0.0.1');
    await once(cdn, 'listening');
    const base = `http://127.0.0.1:${(cdn.address() as { port: number }).port}`;
    s = await startEmbedServer({
      embed: { rateLimitPerIp: 0, rateLimitPerKey: 0 },
      cdn: {
        targets: [{ kind: 'fastly', serviceId: 'svc1', key: 'fastly-key' }],
        apiBases: { fastly: base, cloudflare: base, bunny: base },
        sharedMaxAge: 3600,
      },
    });
    key = (await s.makeKey(WALL)).key;
  });
  afterAll(async () => {
    await s?.close();
    await new Promise<void>((resolve) => (cdn ? cdn.close(() => resolve()) : resolve()));
  });

  const firstPage = async (headers: Record<string, string> = {}) => {
    const res = await s.embed(`/walls/${WALL}/posts`, { key, limit: '5' }, headers);
    return { res, body: res.status === 200 ? (res.json() as unknown as Page) : null };
  };
  const control = async (body: unknown) => {
    const res = await s.manage('PATCH', `/walls/${WALL}/screen`, body);
    expect(res.status, res.text).toBe(200);
    return res.json().responseData as { version: number };
  };

  it('no screen state while the wall’s screen was never controlled', async () => {
    const { res, body } = await firstPage();
    expect(res.status).toBe(200);
    expect(body!.posts.length).toBe(5);
    expect(body).not.toHaveProperty('screen');
  });

  it('a pause and a spotlight are in the first page at once (a new ETag), not in later pages', async () => {
    const before = await firstPage();
    const etag = before.res.headers.get('etag')!;
    const spotId = before.body!.posts[1]!.id;
    const { version } = await control({ paused: true, spotlight: { postId: Number(spotId), seconds: 600 } });

    // the cached answer went with the change: the old ETag gets the new body, not a 304
    const after = await firstPage({ 'if-none-match': etag });
    expect(after.res.status).toBe(200);
    expect(after.res.headers.get('etag')).not.toBe(etag);
    const screen = after.body!.screen!;
    expect(screen).toMatchObject({
      version,
      paused: true,
      slide: null,
      hiddenPostIds: [],
      layout: null,
      theme: null,
      qr: true,
      schedule: [],
      slides: [],
    });
    expect((screen.spotlight as { post: { id: string } }).post.id).toBe(spotId);
    // a cached answer's clock would be stale: the stream alone tells the server's time
    expect(screen).not.toHaveProperty('serverNow');
    // the same state the stream sends (but its time), so a screen applies either the same way
    const stream = await fetch(`${s.srv.baseUrl}/api/embed/v1/walls/${WALL}/stream?key=${key}`);
    const reader = stream.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!/event: screen\ndata: .*\n\n/.test(text)) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream ended before its screen event: ${text}`);
      text += decoder.decode(value, { stream: true });
    }
    await reader.cancel();
    const sent = JSON.parse(/event: screen\ndata: (.*)\n\n/.exec(text)![1]!) as Record<string, unknown>;
    const { serverNow, ...rest } = sent;
    expect(typeof serverNow).toBe('string');
    expect(rest).toEqual(screen);

    // unchanged: revalidated with a 304
    const again = await firstPage({ 'if-none-match': after.res.headers.get('etag')! });
    expect(again.res.status).toBe(304);
    // later pages carry posts only
    const next = await s.embed(`/walls/${WALL}/posts`, { key, limit: '5', cursor: after.body!.nextCursor! });
    expect(next.status).toBe(200);
    expect(next.json()).not.toHaveProperty('screen');

    await control({ paused: false, spotlight: null });
    const resumed = (await firstPage()).body!.screen!;
    expect(resumed).toMatchObject({ paused: false, spotlight: null });
    expect(resumed.version as number).toBeGreaterThan(version);
  });

  it('a screen change purges the wall’s answers from the CDN', async () => {
    await s.srv.app.cdnPurger!.idle();
    purges.length = 0;
    await control({ qr: false });
    await eventually(
      'a purge of the wall’s tag',
      async () => purges.slice(),
      (seen) =>
        seen.some((b) => b.url === 'POST /service/svc1/purge' && b.tags.split(' ').includes(`wallery-w${WALL}`)),
      10_000,
    );
    // schedules and slides are changes of the wall too
    purges.length = 0;
    const slide = await s.manage('POST', `/walls/${WALL}/screen/slides`, { title: 'Doors close at 23:00' });
    expect(slide.status, slide.text).toBe(201);
    await eventually(
      'a purge after a new slide',
      async () => purges.slice(),
      (seen) => seen.some((b) => b.tags.split(' ').includes(`wallery-w${WALL}`)),
      10_000,
    );
    await control({ qr: true });
  });
});
