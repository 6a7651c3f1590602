// The embed stream (Server-Sent Events): a post created with W3 arrives as an
// `upsert` within 2 s, a hidden one as a `remove`; Last-Event-ID replays what
// was missed, or asks for a reset; over the cap of open streams: 503; and a
// server with open streams still closes at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS } from '../../helpers/http.js';
import { describeSample } from '../../helpers/sample.js';
import { eventually } from '../../helpers/poll.js';
import { startEmbedServer, type EmbedServer } from './helpers.js';
import { openSse, type SseStream } from './sse-client.js';

const LIVE_MS = 2000;

async function createPost(s: EmbedServer, content: string): Promise<number> {
  s.srv.clock.now += 1000;
  const res = await fetch(`${s.srv.baseUrl}/api/v2/widget/create-post?user_key=${KEYS.ent}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ wallId: 7011, content }),
  });
  expect(res.status).toBe(200);
  const list = await s.manage('GET', '/walls/7011/posts?limit=1');
  return (list.json().responseData as { data: { id: number }[] }).data[0]!.id;
}

/** Opens a stream and waits until the hub holds the wall's first snapshot (so a change after it is an event). */
async function open(s: EmbedServer, key: string, headers: Record<string, string> = {}): Promise<SseStream> {
  const stream = await openSse(`${s.srv.baseUrl}/api/embed/v1/walls/7011/stream?key=${key}`, headers);
  await s.srv.app.embedStreams.settled();
  return stream;
}

describeSample('the embed stream', () => {
  let s: EmbedServer;
  let key: string;
  const streams: SseStream[] = [];
  beforeAll(async () => {
    s = await startEmbedServer({ embed: { heartbeatMs: 200, maxStreams: 5 } });
    key = (await s.makeKey(7011, ['https://shop.example'])).key;
  });
  afterAll(async () => {
    for (const st of streams) st.close();
    await s?.close();
  });

  it('opens with retry, CORS for the allowed origin, and heartbeats', async () => {
    const st = await open(s, key, { origin: 'https://shop.example' });
    streams.push(st);
    expect(st.status).toBe(200);
    expect(st.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(st.headers['cache-control']).toBe('no-cache, no-transform');
    expect(st.headers['access-control-allow-origin']).toBe('https://shop.example');
    await eventually(
      'a heartbeat',
      async () => st.text(),
      (t) => t.startsWith('retry: 2000\n\n') && t.includes(': ping\n\n'),
      10_000,
    );
    st.close();
  });

  it('a post created with W3 arrives as an upsert within 2 s; a hidden one as a remove', async () => {
    const st = await open(s, key);
    streams.push(st);
    const started = performance.now();
    const postId = await createPost(s, 'live from the stage');
    const upsert = await st.next((e) => e.event === 'upsert' && JSON.parse(e.data).id === String(postId));
    const took = upsert.at - started;
    expect(took).toBeLessThan(LIVE_MS);
    const post = JSON.parse(upsert.data);
    expect(post).toMatchObject({ id: String(postId), html: 'live from the stage', type: 'text', network: 'custom' });
    expect(upsert.id).toMatch(/^\d+$/);

    const hide = await s.manage('PATCH', `/walls/7011/posts/${postId}`, { hidden: true });
    expect(hide.status).toBe(200);
    const remove = await st.next((e) => e.event === 'remove');
    expect(JSON.parse(remove.data)).toEqual({ id: String(postId) });
    expect(Number(remove.id)).toBeGreaterThan(Number(upsert.id));

    const pin = await s.manage('PATCH', `/walls/7011/posts/${postId}`, { hidden: false, pinned: true });
    expect(pin.status).toBe(200);
    const back = await st.next((e) => e.event === 'upsert' && Number(e.id) > Number(remove.id));
    expect(JSON.parse(back.data)).toMatchObject({ id: String(postId), pinned: true });
    st.close();
  });

  it('Last-Event-ID replays the events missed; an unknown one gets a reset', async () => {
    const st = await open(s, key);
    streams.push(st);
    const a = await createPost(s, 'first while connected');
    const first = await st.next((e) => e.event === 'upsert' && JSON.parse(e.data).id === String(a));
    st.close();
    const b = await createPost(s, 'missed while away');
    // the hub has sent it (to nobody) once it settles
    await s.srv.app.embedStreams.settled();
    const resumed = await open(s, key, { 'last-event-id': first.id! });
    streams.push(resumed);
    const replayed = await resumed.next((e) => e.event === 'upsert');
    expect(JSON.parse(replayed.data).id).toBe(String(b));
    expect(resumed.events.some((e) => e.event === 'reset')).toBe(false);

    const stale = await open(s, key, { 'last-event-id': '12' });
    streams.push(stale);
    const reset = await stale.next((e) => e.event === 'reset');
    expect(reset.data).toBe('{}');
    // also as a query parameter (for clients that cannot set the header)
    const byQuery = await openSse(`${s.srv.baseUrl}/api/embed/v1/walls/7011/stream?key=${key}&lastEventId=12`);
    streams.push(byQuery);
    await byQuery.next((e) => e.event === 'reset');
    resumed.close();
    stale.close();
    byQuery.close();
  });

  it('refuses a wrong origin (403) and a revoked key — and ends the streams opened with it', async () => {
    const wrong = await openSse(`${s.srv.baseUrl}/api/embed/v1/walls/7011/stream?key=${key}`, {
      origin: 'https://evil.example',
    });
    expect(wrong.status).toBe(403);
    expect(JSON.parse(await wrong.body())).toMatchObject({ responseCode: 403 });
    const made = await s.makeKey(7011);
    const st = await open(s, made.key);
    streams.push(st);
    await s.manage('DELETE', `/walls/7011/publishable-keys/${made.id}`);
    await st.body(); // the stream ends
    const again = await openSse(`${s.srv.baseUrl}/api/embed/v1/walls/7011/stream?key=${made.key}`);
    expect(again.status).toBe(401);
    await again.body();
  });

  describe('cap', () => {
    let c: EmbedServer;
    beforeAll(async () => {
      c = await startEmbedServer({ embed: { maxStreams: 2 } });
    });
    afterAll(async () => c?.close()); // with streams open: must not hang

    it('over the cap of open streams: 503 in the envelope; a closed stream frees its place', async () => {
      const { key: k } = await c.makeKey(7011);
      const url = `${c.srv.baseUrl}/api/embed/v1/walls/7011/stream?key=${k}`;
      const one = await openSse(url);
      const two = await openSse(url);
      expect([one.status, two.status]).toEqual([200, 200]);
      await eventually(
        'two streams open',
        async () => c.srv.app.embedStreams.openStreams,
        (n) => n === 2,
        10_000,
      );
      const three = await openSse(url);
      expect(three.status).toBe(503);
      expect(JSON.parse(await three.body())).toMatchObject({ responseCode: 503, responseStatus: 'error' });
      one.close();
      await eventually(
        'a place freed',
        async () => c.srv.app.embedStreams.openStreams,
        (n) => n === 1,
        10_000,
      );
      const four = await openSse(url);
      expect(four.status).toBe(200);
      // two stay open: closing the server ends them
    });
  });
});
