// A wall's live screen control through the management API: moderators
// control the screen, viewers only read it, editors keep the slides and the
// schedule; every write audited; bad input a 400 naming each field; and the
// embed stream sends the whole state as `screen` — first to a stream that
// (re)connects, then on every change.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CLI_ACTOR } from '../../../src/manage/op.js';
import { createOperatorToken } from '../../../src/manage/tokens.js';
import type { Role } from '../../../src/domain/roles.js';
import { describeSample } from '../../helpers/sample.js';
import { startEmbedServer, type EmbedServer } from '../embed/helpers.js';
import { openSse, type SseStream } from '../embed/sse-client.js';
import { call, type Res } from '../../helpers/http.js';
import { BASE, data, failure, fields } from './helpers.js';

describeSample('live screen control (management API and embed stream)', () => {
  let s: EmbedServer;
  let key: string;
  let postIds: number[];
  const tokens = {} as Record<Role, string>;
  const streams: SseStream[] = [];
  const as = (role: Role, method: string, path: string, body?: unknown): Promise<Res> =>
    call(s.srv.baseUrl, BASE + path, { method, body, headers: { authorization: `Bearer ${tokens[role]}` } });

  beforeAll(async () => {
    s = await startEmbedServer({ embed: { heartbeatMs: 500, maxStreams: 10 } });
    for (const role of ['viewer', 'moderator', 'editor'] as const)
      tokens[role] = (
        await createOperatorToken({ db: s.srv.store.db, actor: CLI_ACTOR, now: s.srv.clock.now }, { name: role, role })
      ).token;
    key = (await s.makeKey(7011)).key;
    const page = await s.embed('/walls/7011/posts', { key, limit: '5' });
    postIds = (page.json() as { posts: { id: string }[] }).posts.map((p) => Number(p.id));
    expect(postIds.length).toBeGreaterThan(2);
  });
  afterAll(async () => {
    for (const st of streams) st.close();
    await s?.close();
  });

  const screenEvents = (st: SseStream) => st.events.filter((e) => e.event === 'screen').map((e) => JSON.parse(e.data));

  it('starts at the initial state; a viewer reads it and may not change it', async () => {
    const state = data(await as('viewer', 'GET', '/walls/7011/screen'));
    expect(state).toMatchObject({
      wallId: 7011,
      paused: false,
      spotlight: null,
      slide: null,
      hiddenPostIds: [],
      qr: true,
    });
    expect(state.version).toBe(0);
    failure(await as('viewer', 'PATCH', '/walls/7011/screen', { paused: true }), 403);
    failure(await as('moderator', 'GET', '/walls/999999/screen'), 404);
  });

  it('a moderator pauses, spotlights and hides; each change audited, the version moving on', async () => {
    const paused = data<{ paused: boolean; version: number }>(
      await as('moderator', 'PATCH', '/walls/7011/screen', { paused: true, qr: false, layout: 'grid' }),
    );
    expect(paused).toMatchObject({ paused: true, qr: false, layout: 'grid', version: 1 });
    const spot = data<{ spotlight: { postId: number; until: string } }>(
      await as('moderator', 'PATCH', '/walls/7011/screen', { spotlight: { postId: postIds[0], seconds: 20 } }),
    );
    expect(spot.spotlight.postId).toBe(postIds[0]);
    expect(Date.parse(spot.spotlight.until)).toBe(s.srv.clock.now + 20_000);
    // hiding the post in the spotlight ends the spotlight
    const hidden = data(await as('moderator', 'PATCH', '/walls/7011/screen', { hide: [postIds[0], postIds[1]] }));
    expect(hidden).toMatchObject({ spotlight: null, hiddenPostIds: [postIds[0], postIds[1]], version: 3 });
    const shown = data(await as('moderator', 'PATCH', '/walls/7011/screen', { unhide: [postIds[0]], paused: false }));
    expect(shown).toMatchObject({ hiddenPostIds: [postIds[1]], paused: false });
    const audit = data<{ data: { action: string; targetId: number; summary: Record<string, unknown> }[] }>(
      await s.manage('GET', '/audit?action=screen.control&limit=10'),
    );
    expect(audit.data).toHaveLength(4);
    expect(audit.data.every((e) => e.targetId === 7011)).toBe(true);
    expect(audit.data.at(-1)!.summary).toMatchObject({ before: { paused: 0 }, after: { paused: 1 } });
  });

  it('refuses bad changes with a 400 naming every field, never a 500', async () => {
    const errors = failure(
      await as('moderator', 'PATCH', '/walls/7011/screen', {
        spotlight: { postId: 1, seconds: 1 },
        layout: 'spiral',
        qr: 'yes',
      }),
      400,
    );
    expect(fields(errors).sort()).toEqual(['layout', 'qr', 'spotlight.seconds']);
    const unknown = failure(
      await as('moderator', 'PATCH', '/walls/7011/screen', { spotlight: { postId: 424242 } }),
      400,
    );
    expect(unknown).toEqual([
      { field: 'spotlight.postId', message: 'post 424242 is not an approved, visible post of wall 7011' },
    ]);
    const both = failure(
      await as('moderator', 'PATCH', '/walls/7011/screen', { hide: [postIds[2]], unhide: [postIds[2]] }),
      400,
    );
    expect(fields(both)).toEqual(['unhide']);
    failure(await as('moderator', 'PATCH', '/walls/7011/screen', {}), 400);
    failure(await as('moderator', 'PATCH', '/walls/7011/screen', { showSlide: { slideId: 99999 } }), 400);
  });

  it('editors keep the slides and the schedule; moderators may not', async () => {
    failure(await as('moderator', 'POST', '/walls/7011/screen/slides', { title: 'Doors open' }), 403);
    const bad = failure(
      await as('editor', 'POST', '/walls/7011/screen/slides', {
        title: ' ',
        imageUrl: 'javascript:alert(1)',
        everyPosts: 0,
        startsAt: 'tomorrow',
      }),
      400,
    );
    expect(fields(bad).sort()).toEqual(['everyPosts', 'imageUrl', 'startsAt', 'title']);
    const slide = data<{ id: number; sponsor: boolean }>(
      await as('editor', 'POST', '/walls/7011/screen/slides', {
        title: 'Thanks to Tonewood',
        text: 'Our sponsor <b>tonight</b>',
        imageUrl: 'https://img.example/sponsor.png',
        sponsor: true,
        everyPosts: 12,
      }),
      201,
    );
    expect(slide).toMatchObject({ sponsor: true, everyPosts: 12, text: 'Our sponsor <b>tonight</b>' });
    const changed = data(
      await as('editor', 'PATCH', `/walls/7011/screen/slides/${slide.id}`, { endsAt: '2030-01-01T00:00:00Z' }),
    );
    expect(changed).toMatchObject({ endsAt: '2030-01-01T00:00:00.000Z' });
    failure(
      await as('editor', 'PATCH', `/walls/7011/screen/slides/${slide.id}`, { startsAt: '2031-01-01T00:00:00Z' }),
      400,
    );
    expect(data<{ data: unknown[] }>(await as('viewer', 'GET', '/walls/7011/screen/slides')).data).toHaveLength(1);
    const shown = data(
      await as('moderator', 'PATCH', '/walls/7011/screen', { showSlide: { slideId: slide.id, seconds: 30 } }),
    );
    expect(shown).toMatchObject({ slide: { slideId: slide.id } });

    failure(await as('moderator', 'PUT', '/walls/7011/screen/schedule', { schedule: [] }), 403);
    const twice = failure(
      await as('editor', 'PUT', '/walls/7011/screen/schedule', {
        schedule: [
          { at: '2026-07-04T18:00:00Z', action: 'on' },
          { at: '2026-07-04T18:00:00Z', action: 'message' },
        ],
      }),
      400,
    );
    expect(fields(twice).sort()).toEqual(['schedule[1].at', 'schedule[1].message']);
    const scheduled = data<{ schedule: { at: string; action: string }[] }>(
      await as('editor', 'PUT', '/walls/7011/screen/schedule', {
        schedule: [
          { at: '2026-07-04T23:00:00Z', action: 'off', message: 'See you next year' },
          { at: '2026-07-04T18:00:00+02:00', action: 'on' },
        ],
      }),
    );
    expect(scheduled.schedule.map((e) => [e.at, e.action])).toEqual([
      ['2026-07-04T16:00:00.000Z', 'on'],
      ['2026-07-04T23:00:00.000Z', 'off'],
    ]);
    const actions = data<{ data: { action: string }[] }>(
      await s.manage('GET', '/audit?targetType=wall&limit=20'),
    ).data.map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['screen.slide.create', 'screen.slide.update', 'screen.schedule']));
    const gone = data(await as('editor', 'DELETE', `/walls/7011/screen/slides/${slide.id}`));
    expect(gone).toMatchObject({ id: slide.id });
    failure(await as('editor', 'DELETE', `/walls/7011/screen/slides/${slide.id}`), 404);
  });

  it('the stream sends the state first, every change next, and the current state again on reconnection', async () => {
    const url = `${s.srv.baseUrl}/api/embed/v1/walls/7011/stream?key=${key}`;
    const st = await openSse(url);
    streams.push(st);
    const first = await st.next((e) => e.event === 'screen', 10_000);
    expect(st.events[0]).toBe(first);
    const before = JSON.parse(first.data);
    expect(before).toMatchObject({ hiddenPostIds: [String(postIds[1])], layout: 'grid', qr: false });
    expect(before.serverNow).toBe(new Date(s.srv.clock.now).toISOString());

    const started = performance.now();
    data(await as('moderator', 'PATCH', '/walls/7011/screen', { spotlight: { postId: postIds[2], seconds: 15 } }));
    const spot = await st.next((e) => e.event === 'screen' && JSON.parse(e.data).spotlight !== null, 10_000);
    expect(spot.at - started).toBeLessThan(2000);
    const state = JSON.parse(spot.data);
    expect(state.version).toBeGreaterThan(before.version);
    expect(state.spotlight.post.id).toBe(String(postIds[2]));
    expect(state.spotlight.post.html).toEqual(expect.any(String));
    expect(spot.id).toBeNull();

    st.close();
    // a change while the screen is away, seen by another screen (so this instance's hub has read it)
    const watcher = await openSse(url);
    streams.push(watcher);
    await watcher.next((e) => e.event === 'screen', 10_000);
    data(await as('moderator', 'PATCH', '/walls/7011/screen', { paused: true }));
    await watcher.next((e) => e.event === 'screen' && JSON.parse(e.data).paused === true, 10_000);
    const again = await openSse(url, { 'last-event-id': '1' });
    streams.push(again);
    const current = await again.next((e) => e.event === 'screen', 10_000);
    expect(again.events[0]).toBe(current);
    expect(JSON.parse(current.data)).toMatchObject({ paused: true, spotlight: { post: { id: String(postIds[2]) } } });
    // one state, sent once: nothing more until the next change
    expect(screenEvents(again)).toHaveLength(1);
  });
});
