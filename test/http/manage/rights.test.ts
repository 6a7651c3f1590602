// Rights management through the management API, over real HTTP on the
// sample data: an account's settings, asking for a wall's posts (by hand
// where no channel and connection reply), answers recorded by hand and what
// the public v2 then shows, walls' requirements holding and freeing posts,
// the opt-out list, the evidence report (JSON, CSV and PDF), and the webhooks a
// rights change sends. Every answer is held against the OpenAPI document.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DAY_MS, DEFAULT_RIGHTS_SETTINGS } from '../../../src/domain/rights.js';
import { CLI_ACTOR } from '../../../src/manage/op.js';
import { createOperatorToken } from '../../../src/manage/tokens.js';
import { utcTime } from '../../../src/rights/report-pdf.js';
import { WebhookRuntime } from '../../../src/webhooks/runtime.js';
import { addConnection } from '../../helpers/connections.js';
import { recordExchange } from '../../helpers/conformance.js';
import { call, KEYS } from '../../helpers/http.js';
import { readPdf } from '../../helpers/pdf.js';
import { describeSample, NOW } from '../../helpers/sample.js';
import { Receiver, WEBHOOK_CONFIG, WEBHOOK_SETTINGS } from '../../webhooks/helpers.js';
import { c2Posts, data, failure, fields, startManageServer, type ManageServer } from './helpers.js';

interface Outcome {
  postId: number;
  ok: boolean;
  state: string | null;
  method: string | null;
  text: string | null;
  requestUrl: string | null;
  problem: string | null;
  reason: string | null;
}
interface Outcomes {
  asked: number;
  outcomes: Outcome[];
}
interface RightsEvent {
  at: string;
  kind: string;
  actor: string;
  state: string | null;
  url: string | null;
  text: string | null;
  note: string | null;
}
interface Rights {
  postId: number;
  wallId: number;
  state: string | null;
  held: boolean;
  author: string;
  method: string | null;
  requestText: string | null;
  requestedAt: string | null;
  requestedBy: string | null;
  expiresAt: string | null;
  answerUrl: string | null;
  answeredAt: string | null;
  decidedBy: string | null;
  note: string | null;
  optedOut: boolean;
  events: RightsEvent[];
  [field: string]: unknown;
}
interface OptOut {
  author: string;
  reason: string;
  postId: number | null;
  note: string | null;
  createdAt: string;
}
interface Post {
  id: number;
  rights: { state: string | null; held: boolean };
  [field: string]: unknown;
}
interface Wall {
  id: number;
  rightsRequired: string;
  rightsAuto: string;
  postCount: number;
  approvedCount: number;
  [field: string]: unknown;
}

/** The request the default settings make for an author (src/domain/rights.ts DEFAULT_RIGHTS_SETTINGS). */
const DEFAULT_TEXT = (handle: string) =>
  `Hi @${handle}! We love this post and would like to show it on our site. Reply #YesPlease to agree to us using it.`;
const OPERATOR = 'test-operator';

describeSample('rights management (management API)', () => {
  let m: ManageServer;
  let viewer: string;
  let day = 0;
  beforeAll(async () => {
    m = await startManageServer();
    const made = await createOperatorToken(
      { db: m.srv.store.db, actor: CLI_ACTOR, now: NOW },
      {
        name: 'rights-viewer',
        role: 'viewer',
      },
    );
    viewer = made.token;
  });
  afterAll(async () => m?.close());

  /** A new day (UTC): the daily limits start again; the clock's time, as the API writes it. */
  const nextDay = () => {
    m.srv.clock.now = NOW + ++day * DAY_MS;
    return new Date(m.srv.clock.now).toISOString();
  };
  const ask = async (wallId: number, postIds: number[], method?: 'reply' | 'manual') =>
    data<Outcomes>(await m.api('POST', `/walls/${wallId}/rights/requests`, { postIds, ...(method ? { method } : {}) }));
  const rightsOf = async (wallId: number, postId: number) =>
    data<Rights>(await m.api('GET', `/walls/${wallId}/posts/${postId}/rights`));
  const answer = async (wallId: number, postId: number, body: Record<string, unknown>) =>
    m.api('POST', `/walls/${wallId}/posts/${postId}/rights/answer`, body);
  const setWall = async (wallId: number, change: Record<string, unknown>) =>
    data<Wall>(await m.api('PATCH', `/walls/${wallId}`, change));
  const postsWhere = async (wallId: number, query: string) =>
    data<{ data: Post[] }>(await m.api('GET', `/walls/${wallId}/posts?limit=200&${query}`)).data;
  const heldIds = async (wallId: number) =>
    (await postsWhere(wallId, 'rights=held')).map((p) => p.id).sort((a, b) => a - b);
  const c5 = (wallId: number, postId: number) => m.v2(`/commerce/getGalleryProductByID/${wallId}/${postId}/`);
  /** The ids of a wall's posts as the public v2 list (C2, enterprise key) shows them. */
  const publicIds = async (wallId: number) =>
    (await c2Posts(m, wallId)).map((p) => Number(p.postId)).sort((a, b) => a - b);

  // ---------- settings ----------

  it('settings: the defaults until changed; a PATCH changes only its fields; the grant hashtag is stored without #', async () => {
    const before = data(await m.api('GET', '/accounts/7002/rights-settings'));
    expect(before).toEqual({ ...DEFAULT_RIGHTS_SETTINGS, connections: {} });
    const after = data(
      await m.api('PATCH', '/accounts/7002/rights-settings', { grantHashtag: '#YesHarbor', brand: 'Harbor Coffee' }),
    );
    expect(after).toEqual({ ...before, grantHashtag: 'YesHarbor', brand: 'Harbor Coffee' });
    expect(data(await m.api('GET', '/accounts/7002/rights-settings'))).toEqual(after);
    const limits = data(await m.api('PATCH', '/accounts/7002/rights-settings', { perDay: 7, expireDays: 3 }));
    expect(limits).toEqual({ ...after, perDay: 7, expireDays: 3 });
    // a template naming the hashtag itself says how to grant as well as {hashtag} does
    expect(
      data(await m.api('PATCH', '/accounts/7002/rights-settings', { template: 'May we, {author}? Reply #YesHarbor' })),
    ).toMatchObject({ template: 'May we, {author}? Reply #YesHarbor', grantHashtag: 'YesHarbor' });
    failure(await m.api('GET', '/accounts/424242/rights-settings'), 404, 'account 424242 not found');
    failure(await m.api('PATCH', '/accounts/424242/rights-settings', { perDay: 2 }), 404, 'account 424242 not found');
  });

  it('settings: a template that does not say how to grant, bad fields and a viewer are refused; nothing changes', async () => {
    const before = data(await m.api('GET', '/accounts/7003/rights-settings'));
    const noHashtag = failure(
      await m.api('PATCH', '/accounts/7003/rights-settings', { template: 'Hi {author}, may we show this?' }),
      400,
    );
    expect(fields(noHashtag)).toEqual(['template']);
    expect(noHashtag[0]!.message).toMatch(/\{hashtag\}/);
    // a new hashtag the (unchanged) default template does not name is fine: it says {hashtag}
    const unknownField = failure(
      await m.api('PATCH', '/accounts/7003/rights-settings', { template: 'Reply {hashtag}, {name}' }),
      400,
    );
    expect(fields(unknownField)).toEqual(['template']);
    expect(unknownField[0]!.message).toMatch(/\{name\}/);
    const bad = failure(
      await m.api('PATCH', '/accounts/7003/rights-settings', {
        grantHashtag: 'two words',
        perDay: 0,
        termsUrl: 'ftp://terms.example',
      }),
      400,
    );
    expect(fields(bad).sort()).toEqual(['grantHashtag', 'perDay', 'termsUrl']);
    failure(await m.api('PATCH', '/accounts/7003/rights-settings', { perDay: 2 }, viewer), 403);
    expect(data(await m.api('GET', '/accounts/7003/rights-settings', undefined, viewer))).toEqual(before);
  });

  it('settings: each connection named must be the account’s and of that network', async () => {
    const db = m.srv.store.db;
    const mastodon = await addConnection(db, {
      accountId: 7002,
      network: 'mastodon',
      secret: { accessToken: 'token-a' },
      instance: 'https://social.example',
      now: NOW,
    });
    const bluesky = await addConnection(db, {
      accountId: 7002,
      network: 'bluesky',
      secret: { accessToken: 'token-b' },
      now: NOW,
    });
    const another = await addConnection(db, {
      accountId: 7003,
      network: 'mastodon',
      secret: { accessToken: 'token-c' },
      instance: 'https://social.example',
      now: NOW,
    });
    const before = data(await m.api('GET', '/accounts/7002/rights-settings'));
    const foreign = failure(
      await m.api('PATCH', '/accounts/7002/rights-settings', { connections: { mastodon: another } }),
      400,
    );
    expect(foreign).toEqual([
      { field: 'connections.mastodon', message: `connection ${another} is not a connection of account 7002` },
    ]);
    const wrongNetwork = failure(
      await m.api('PATCH', '/accounts/7002/rights-settings', { connections: { mastodon: bluesky } }),
      400,
    );
    expect(wrongNetwork).toEqual([
      { field: 'connections.mastodon', message: `connection ${bluesky} is a bluesky connection, not mastodon` },
    ]);
    const unknown = failure(
      await m.api('PATCH', '/accounts/7002/rights-settings', { connections: { bluesky: 987654 } }),
      400,
    );
    expect(fields(unknown)).toEqual(['connections.bluesky']);
    // a network no connection can be for
    const network = failure(
      await m.api('PATCH', '/accounts/7002/rights-settings', { connections: { myspace: mastodon } }),
      400,
    );
    expect(network).toEqual([{ field: 'connections.myspace', message: 'connections.myspace is not a known field' }]);
    expect(data(await m.api('GET', '/accounts/7002/rights-settings'))).toEqual(before);
    const chosen = data(await m.api('PATCH', '/accounts/7002/rights-settings', { connections: { mastodon, bluesky } }));
    expect(chosen).toEqual({ ...before, connections: { mastodon, bluesky } });
  });

  // ---------- asking ----------

  it('asks by hand where no channel and connection reply: the filled template, state requested, the evidence', async () => {
    const at = nextDay();
    const changes = await m.changesDuring(async () => {
      const out = await ask(7011, [17002, 17001, 17061, 99999999, 17002]);
      expect(out).toEqual({
        asked: 2,
        outcomes: [
          // RSS: no channel at all
          {
            postId: 17002,
            ok: true,
            state: 'requested',
            method: 'manual',
            text: DEFAULT_TEXT('user_27'),
            requestUrl: null,
            problem: null,
            reason: null,
          },
          // YouTube: a channel, but the account has no YouTube connection
          {
            postId: 17001,
            ok: true,
            state: 'requested',
            method: 'manual',
            text: DEFAULT_TEXT('user_26'),
            requestUrl: null,
            problem: null,
            reason: null,
          },
          // a post of another wall, and no post at all; the repeated id is answered once
          {
            postId: 17061,
            ok: false,
            state: null,
            method: null,
            text: null,
            requestUrl: null,
            problem: 'not_found',
            reason: 'post 17061 is not on wall 7011',
          },
          {
            postId: 99999999,
            ok: false,
            state: null,
            method: null,
            text: null,
            requestUrl: null,
            problem: 'not_found',
            reason: 'post 99999999 is not on wall 7011',
          },
        ],
      });
    });
    expect(changes).toContainEqual({ kind: 'wall', wallId: 7011 });
    const rights = await rightsOf(7011, 17002);
    expect(rights).toMatchObject({
      postId: 17002,
      wallId: 7011,
      state: 'requested',
      held: false,
      network: 'RSS',
      author: 'rss:user_27',
      method: 'manual',
      requestText: DEFAULT_TEXT('user_27'),
      requestUrl: null,
      requestedAt: at,
      requestedBy: OPERATOR,
      expiresAt: new Date(m.srv.clock.now + DEFAULT_RIGHTS_SETTINGS.expireDays * DAY_MS).toISOString(),
      answerUrl: null,
      answeredAt: null,
      decidedBy: null,
      optedOut: false,
    });
    expect(rights.events).toEqual([
      {
        at,
        kind: 'requested',
        actor: OPERATOR,
        state: 'requested',
        url: null,
        text: DEFAULT_TEXT('user_27'),
        note: null,
      },
    ]);
    // the posts list shows the state and filters by it
    const requested = await postsWhere(7011, 'rights=requested');
    expect(requested.map((p) => p.id).sort()).toEqual([17001, 17002]);
    expect(requested[0]!.rights).toEqual({ state: 'requested', held: false });
    const never = await postsWhere(7011, 'rights=none');
    expect(never.map((p) => p.id)).not.toContain(17002);
    expect(never.map((p) => p.id)).toContain(17005);
    // never asked: no evidence yet
    expect(await rightsOf(7011, 17005)).toMatchObject({ state: null, method: null, requestedAt: null, events: [] });
  });

  it('refuses a post already asked, an author asked today, and past the account’s daily limit', async () => {
    nextDay();
    expect((await ask(7011, [17011])).asked).toBe(1);
    const again = await ask(7011, [17011]);
    expect(again).toEqual({
      asked: 0,
      outcomes: [
        {
          postId: 17011,
          ok: false,
          state: null,
          method: null,
          text: null,
          requestUrl: null,
          problem: 'refused',
          reason: 'rights are already requested',
        },
      ],
    });
    // a second post by the same author, the same day: one request to an author a day (the default)
    const db = m.srv.store.db;
    const original = await db.selectFrom('posts').selectAll().where('id', '=', 17011).executeTakeFirstOrThrow();
    const { id: _id, ...copy } = original;
    const twin = await db
      .insertInto('posts')
      .values({ ...copy, external_id: 'rights-twin', rights_state: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const sameAuthor = await ask(7011, [twin.id]);
    expect(sameAuthor.outcomes[0]).toMatchObject({
      ok: false,
      problem: 'refused',
      reason: 'this author was asked 1 time today (the limit is 1 a day)',
    });
    nextDay();
    expect((await ask(7011, [twin.id])).outcomes[0]).toMatchObject({ ok: true, state: 'requested' });

    // the account's limit: one request a day
    data(await m.api('PATCH', '/accounts/7001/rights-settings', { perDay: 1 }));
    try {
      nextDay();
      const out = await ask(7011, [17017, 17020]);
      expect(out.asked).toBe(1);
      expect(out.outcomes.map((o) => [o.postId, o.ok, o.problem, o.reason])).toEqual([
        [17017, true, null, null],
        [17020, false, 'refused', 'the account sent 1 requests today (the limit is 1 a day)'],
      ]);
      expect((await rightsOf(7011, 17020)).state).toBeNull();
    } finally {
      data(await m.api('PATCH', '/accounts/7001/rights-settings', { perDay: DEFAULT_RIGHTS_SETTINGS.perDay }));
    }
  });

  it('refuses an author on the opt-out list; a deleted wall is 409, an unknown one 404; bad bodies 400; a viewer 403', async () => {
    nextDay();
    data(await m.api('POST', '/accounts/7001/rights/opt-outs', { network: 'RSS', username: 'user_30' }), 201);
    expect((await ask(7011, [17005])).outcomes[0]).toMatchObject({
      ok: false,
      problem: 'refused',
      reason: 'the author is on the opt-out list',
    });
    expect(await rightsOf(7011, 17005)).toMatchObject({ state: null, optedOut: true });

    failure(await m.api('POST', '/walls/7015/rights/requests', { postIds: [17108] }), 409, 'wall 7015 is deleted');
    failure(await m.api('POST', '/walls/424242/rights/requests', { postIds: [17002] }), 404, 'wall 424242 not found');
    const tooMany = Array.from({ length: 101 }, (_, i) => 17001 + i);
    expect(fields(failure(await m.api('POST', '/walls/7011/rights/requests', { postIds: tooMany }), 400))).toEqual([
      'postIds',
    ]);
    expect(fields(failure(await m.api('POST', '/walls/7011/rights/requests', { postIds: [] }), 400))).toEqual([
      'postIds',
    ]);
    expect(
      fields(failure(await m.api('POST', '/walls/7011/rights/requests', { postIds: [17020], method: 'fax' }), 400)),
    ).toEqual(['method']);
    failure(await m.api('POST', '/walls/7011/rights/requests', { postIds: [17020] }, viewer), 403);
    // none of them asked anything
    expect((await rightsOf(7011, 17020)).state).toBeNull();
  });

  // ---------- answers recorded by hand ----------

  it('a grant on a wall requiring rights for every post shows the post on v2; a revoke hides it again', async () => {
    const at = nextDay();
    const wall = await setWall(7011, { rightsRequired: 'all' });
    try {
      expect(wall).toMatchObject({ rightsRequired: 'all', approvedCount: 0 });
      expect(await publicIds(7011)).toEqual([]);
      failure(await c5(7011, 17008), 404, 'Post not found');

      expect((await ask(7011, [17008])).outcomes[0]).toMatchObject({ ok: true, state: 'requested' });
      expect((await c5(7011, 17008)).status).toBe(404);

      const granted = data<Rights>(
        await answer(7011, 17008, {
          state: 'granted',
          note: 'agreed by e-mail',
          url: 'https://mail.example/m/1',
        }),
      );
      expect(granted).toMatchObject({
        state: 'granted',
        held: false,
        answerUrl: 'https://mail.example/m/1',
        answeredAt: at,
        decidedBy: OPERATOR,
        note: 'agreed by e-mail',
      });
      expect((await c5(7011, 17008)).status).toBe(200);
      expect(await publicIds(7011)).toEqual([17008]);
      expect(data<Wall>(await m.api('GET', '/walls/7011')).approvedCount).toBe(1);

      failure(
        await answer(7011, 17029, { state: 'revoked' }),
        409,
        "only granted rights can be revoked; this post's are not asked for",
      );
      const revoked = data<Rights>(await answer(7011, 17008, { state: 'revoked', note: 'asked us to stop' }));
      expect(revoked).toMatchObject({ state: 'revoked', held: true, decidedBy: OPERATOR });
      failure(await c5(7011, 17008), 404, 'Post not found');
      expect(await publicIds(7011)).toEqual([]);
      expect(data<Wall>(await m.api('GET', '/walls/7011')).approvedCount).toBe(0);
      failure(
        await answer(7011, 17008, { state: 'revoked' }),
        409,
        "only granted rights can be revoked; this post's are revoked",
      );
      // every step in the evidence, with who took it
      expect(revoked.events.map((e) => [e.kind, e.actor, e.state, e.url, e.note])).toEqual([
        ['requested', OPERATOR, 'requested', null, null],
        ['recorded', OPERATOR, 'granted', 'https://mail.example/m/1', 'agreed by e-mail'],
        ['recorded', OPERATOR, 'revoked', null, 'asked us to stop'],
      ]);
    } finally {
      await setWall(7011, { rightsRequired: 'none' });
    }
    expect((await c5(7011, 17008)).status).toBe(200);
  });

  it('a decline puts the author on the opt-out list and the post stays off a wall requiring rights', async () => {
    nextDay();
    await setWall(7011, { rightsRequired: 'all' });
    try {
      const declined = data<Rights>(await answer(7011, 17014, { state: 'declined', note: 'said no by phone' }));
      expect(declined).toMatchObject({
        state: 'declined',
        held: true,
        method: 'manual',
        author: 'rss:user_39',
        optedOut: true,
        decidedBy: OPERATOR,
      });
      expect(declined.events.map((e) => [e.kind, e.actor, e.state])).toEqual([['recorded', OPERATOR, 'declined']]);
      const list = data<OptOut[]>(await m.api('GET', '/accounts/7001/rights/opt-outs'));
      expect(list.find((o) => o.author === 'rss:user_39')).toEqual({
        author: 'rss:user_39',
        reason: 'declined',
        postId: 17014,
        note: 'said no by phone',
        createdAt: new Date(m.srv.clock.now).toISOString(),
      });
      failure(await c5(7011, 17014), 404, 'Post not found');
      // declined is never asked again
      expect((await ask(7011, [17014])).outcomes[0]).toMatchObject({ ok: false, problem: 'refused' });
      // bad answers
      expect(fields(failure(await answer(7011, 17014, { state: 'maybe' }), 400))).toEqual(['state']);
      expect(fields(failure(await answer(7011, 17014, { state: 'granted', url: 'javascript:x' }), 400))).toEqual([
        'url',
      ]);
      failure(await answer(7011, 17061, { state: 'granted' }), 404, 'post 17061 not found');
      failure(await m.api('POST', '/walls/7011/posts/17014/rights/answer', { state: 'granted' }, viewer), 403);
      expect((await rightsOf(7011, 17014)).state).toBe('declined');
    } finally {
      await setWall(7011, { rightsRequired: 'none' });
    }
  });

  // ---------- walls ----------

  it('a wall’s requirement holds and frees its posts: shoppable (product tags), all, none', async () => {
    const tagged = [17009, 17010, 17013, 17023, 17026, 17028, 17035, 17043, 17047, 17052, 17054, 17056];
    const shoppable = await setWall(7011, { rightsRequired: 'shoppable', rightsAuto: 'approved' });
    try {
      expect(shoppable).toMatchObject({ rightsRequired: 'shoppable', rightsAuto: 'approved' });
      expect(data<Wall>(await m.api('GET', '/walls/7011'))).toMatchObject({
        rightsRequired: 'shoppable',
        rightsAuto: 'approved',
      });
      expect(await heldIds(7011)).toEqual(tagged);
      const visible = await publicIds(7011);
      for (const id of tagged) expect(visible).not.toContain(id);
      expect(visible).toContain(17020);

      // tagging a product holds the post, untagging frees it
      data(await m.api('PUT', '/walls/7011/posts/17020/products', { tags: [{ productId: 7501, left: 10, top: 10 }] }));
      expect(data<Post>(await m.api('GET', '/walls/7011/posts/17020')).rights).toEqual({ state: null, held: true });
      expect(await publicIds(7011)).not.toContain(17020);
      data(await m.api('PUT', '/walls/7011/posts/17020/products', { tags: [] }));
      expect(data<Post>(await m.api('GET', '/walls/7011/posts/17020')).rights).toEqual({ state: null, held: false });
      expect(await publicIds(7011)).toContain(17020);

      // all: every post without a grant
      const all = await setWall(7011, { rightsRequired: 'all' });
      expect(all.approvedCount).toBe(0);
      expect((await heldIds(7011)).length).toBe(all.postCount);
      expect(await publicIds(7011)).toEqual([]);
    } finally {
      const none = await setWall(7011, { rightsRequired: 'none', rightsAuto: 'off' });
      expect(none).toMatchObject({ rightsRequired: 'none', rightsAuto: 'off' });
    }
    expect(await heldIds(7011)).toEqual([]);
    expect(await publicIds(7011)).toEqual(expect.arrayContaining([...tagged, 17020]));
    const bad = failure(await m.api('PATCH', '/walls/7011', { rightsRequired: 'some', rightsAuto: 'always' }), 400);
    expect(fields(bad).sort()).toEqual(['rightsAuto', 'rightsRequired']);
    expect(fields(failure(await m.api('GET', '/walls/7011/posts?rights=maybe'), 400))).toEqual(['rights']);
  });

  it('custom posts (v2 writes) are never held, whatever the wall requires', async () => {
    const create = async (content: string) => {
      const res = await call(m.srv.baseUrl, '/api/v2/commerce/createGalleryPost', {
        query: { user_key: KEYS.ent },
        body: { wallId: 7012, content, authorName: 'The brand', link: 'https://brand.example/' },
      });
      expect(res.status).toBe(200);
    };
    await create('Before the requirement');
    await setWall(7012, { rightsRequired: 'all' });
    try {
      await create('After the requirement');
      const custom = await postsWhere(7012, 'network=Custom');
      expect(custom).toHaveLength(2);
      for (const p of custom) expect(p.rights).toEqual({ state: null, held: false });
      expect(await heldIds(7012)).toEqual([]);
      expect(await publicIds(7012)).toEqual(custom.map((p) => p.id).sort((a, b) => a - b));
      // changing the requirement again (the watcher's reconciliation does the same) keeps them shown
      await setWall(7012, { rightsRequired: 'shoppable' });
      await setWall(7012, { rightsRequired: 'all' });
      expect(await heldIds(7012)).toEqual([]);
      expect(data<Wall>(await m.api('GET', '/walls/7012')).approvedCount).toBe(2);
      // nor asked about: they are the brand's own
      const out = await ask(
        7012,
        custom.map((p) => p.id),
      );
      expect(out.asked).toBe(0);
      for (const o of out.outcomes)
        expect(o).toMatchObject({ ok: false, problem: 'refused', reason: expect.stringMatching(/custom post/) });
    } finally {
      await setWall(7012, { rightsRequired: 'none' });
    }
  });

  // ---------- the opt-out list ----------

  it('opt-outs: added (409 when already there), listed, removed (404 when not there); viewers read only', async () => {
    const at = nextDay();
    const added = data<OptOut>(
      await m.api('POST', '/accounts/7003/rights/opt-outs', {
        network: 'Mastodon',
        username: '@Ana@Harbor.social',
        note: 'asked us by e-mail',
      }),
      201,
    );
    expect(added).toEqual({
      author: 'mastodon:ana@harbor.social',
      reason: 'operator',
      postId: null,
      note: 'asked us by e-mail',
      createdAt: at,
    });
    failure(
      await m.api('POST', '/accounts/7003/rights/opt-outs', { network: 'mastodon', username: 'ana@harbor.social' }),
      409,
      'mastodon:ana@harbor.social is on the opt-out list already',
    );
    expect(data<OptOut[]>(await m.api('GET', '/accounts/7003/rights/opt-outs', undefined, viewer))).toEqual([added]);
    failure(
      await m.api('POST', '/accounts/7003/rights/opt-outs', { network: 'mastodon', username: 'bo' }, viewer),
      403,
    );
    failure(
      await m.api('DELETE', '/accounts/7003/rights/opt-outs/mastodon:ana%40harbor.social', undefined, viewer),
      403,
    );
    const bad = failure(await m.api('POST', '/accounts/7003/rights/opt-outs', { network: '', extra: 1 }), 400);
    expect(fields(bad).length).toBeGreaterThan(0);
    failure(
      await m.api('POST', '/accounts/424242/rights/opt-outs', { network: 'mastodon', username: 'x' }),
      404,
      'account 424242 not found',
    );
    failure(await m.api('GET', '/accounts/424242/rights/opt-outs'), 404, 'account 424242 not found');
    expect(fields(failure(await m.api('DELETE', '/accounts/7003/rights/opt-outs/ana'), 400))).toEqual(['author']);

    expect(data<OptOut>(await m.api('DELETE', '/accounts/7003/rights/opt-outs/Mastodon:Ana%40Harbor.social'))).toEqual(
      added,
    );
    failure(
      await m.api('DELETE', '/accounts/7003/rights/opt-outs/mastodon:ana%40harbor.social'),
      404,
      'opt-out mastodon:ana@harbor.social not found',
    );
    expect(data<OptOut[]>(await m.api('GET', '/accounts/7003/rights/opt-outs'))).toEqual([]);
  });

  // ---------- the evidence report ----------

  it('the report: JSON rows oldest request first, filtered by wall and state; CSV with a header row and formulas defused', async () => {
    const day1 = nextDay();
    expect((await ask(7014, [17088])).asked).toBe(1);
    data(await answer(7014, 17088, { state: 'granted', note: '=HYPERLINK("https://evil.example")' }));
    const day2 = nextDay();
    // account 7003 has a Mastodon connection (the settings test's): `manual` asks by hand all the same
    expect((await ask(7014, [17089], 'manual')).outcomes[0]).toMatchObject({ ok: true, method: 'manual' });

    const report = data<{ accountId: number; generatedAt: string; rows: Record<string, unknown>[] }>(
      await m.api('GET', '/accounts/7003/rights/report'),
    );
    expect(report.accountId).toBe(7003);
    expect(report.generatedAt).toBe(day2);
    expect(report.rows).toEqual([
      {
        postId: 17088,
        wallId: 7014,
        network: 'Instagram',
        author: 'instagram:user_16',
        authorName: expect.any(String),
        postUrl: expect.any(String),
        state: 'granted',
        method: 'manual',
        requestedAt: day1,
        requestedBy: OPERATOR,
        requestUrl: '',
        requestText: DEFAULT_TEXT('user_16'),
        answeredAt: day1,
        answerUrl: '',
        answerText: '',
        decidedBy: OPERATOR,
        note: '=HYPERLINK("https://evil.example")',
      },
      expect.objectContaining({ postId: 17089, state: 'requested', requestedAt: day2, answeredAt: null }),
    ]);
    const only = async (query: string) =>
      data<{ rows: { postId: number }[] }>(await m.api('GET', `/accounts/7003/rights/report?${query}`)).rows.map(
        (r) => r.postId,
      );
    expect(await only('state=granted')).toEqual([17088]);
    expect(await only('state=requested&wallId=7014')).toEqual([17089]);
    expect(await only('wallId=7011')).toEqual([]);
    expect(fields(failure(await m.api('GET', '/accounts/7003/rights/report?state=maybe'), 400))).toEqual(['state']);
    failure(await m.api('GET', '/accounts/424242/rights/report'), 404, 'account 424242 not found');

    const csv = await call(m.srv.baseUrl, '/api/manage/v1/accounts/7003/rights/report', {
      headers: { authorization: `Bearer ${viewer}`, accept: 'text/csv' },
    });
    expect(csv.status).toBe(200);
    expect(csv.contentType).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe(
      `attachment; filename="account-7003-rights-evidence-${day2.slice(0, 10)}.csv"`,
    );
    expect(csv.headers.get('vary')).toMatch(/Accept/);
    const lines = csv.text.trimEnd().split('\n');
    expect(lines[0]).toBe(
      'postId,wallId,network,author,authorName,postUrl,state,method,requestedAt,requestedBy,requestUrl,requestText,answeredAt,answerUrl,answerText,decidedBy,note',
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^17088,7014,Instagram,instagram:user_16,/);
    // a note a spreadsheet would run as a formula comes out with an apostrophe first (CSV-quoted for its quotes)
    expect(lines[1]!.endsWith(`,${OPERATOR},"'=HYPERLINK(""https://evil.example"")"`)).toBe(true);
    expect(lines[2]).toMatch(/^17089,7014,Mastodon,mastodon:user_17,.*,requested,manual,/);
    // JSON when Accept asks for anything, or for JSON first
    const anyType = await call(m.srv.baseUrl, '/api/manage/v1/accounts/7003/rights/report', {
      headers: { authorization: `Bearer ${viewer}`, accept: '*/*' },
    });
    expect(data<{ rows: unknown[] }>(anyType).rows).toHaveLength(2);
    expect(anyType.headers.get('content-disposition')).toBeNull();
  });

  it('the report as a PDF (Accept: application/pdf): a download holding each post’s evidence, links clickable; tokens as for JSON', async () => {
    // the posts of the report test: 17088 granted by hand, 17089 asked by hand and waiting
    const generated = nextDay();
    await m.api('PATCH', '/accounts/7003/rights-settings', { brand: 'Harbor Roasters' });
    const pdfOf = async (query: string, token: string | null = viewer) => {
      const url = `/api/manage/v1/accounts/7003/rights/report${query}`;
      const response = await fetch(m.srv.baseUrl + url, {
        headers: { accept: 'application/pdf', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      });
      const bytes = Buffer.from(await response.arrayBuffer());
      recordExchange(m.srv.baseUrl, {
        method: 'GET',
        url,
        status: response.status,
        headers: response.headers,
        body: bytes.toString('latin1'),
      });
      return { response, bytes };
    };
    const { response, bytes } = await pdfOf('?wallId=7014');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="account-7003-rights-evidence-${generated.slice(0, 10)}.pdf"`,
    );
    expect(response.headers.get('vary')).toMatch(/Accept/);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    const json = data<{ rows: Record<string, string | null>[] }>(
      await m.api('GET', '/accounts/7003/rights/report?wallId=7014'),
    );
    const pdf = await readPdf(bytes);
    expect(pdf.info).toMatchObject({ Title: expect.stringMatching(/^Rights evidence report/), Author: 'Wallery' });
    const text = pdf.pages.join(' ');
    expect(text).toContain('Rights evidence report');
    expect(text).toContain('brand: Harbor Roasters');
    expect(text).toContain('Account 7003 · wall 7014');
    expect(text).toContain(`Generated ${utcTime(generated)} by Wallery`);
    expect(text).toMatch(/GRANTED 1 cleared/);
    expect(text).toMatch(/REQUESTED 1 not cleared/);
    expect(text).toMatch(/Total 2 posts asked about/);
    for (const row of json.rows) {
      expect(text).toContain(`Post ${row.postId} · wall 7014`);
      expect(text).toContain(`${utcTime(row.requestedAt!)}, by hand, by ${OPERATOR}`);
      if (row.answeredAt) expect(text).toContain(`Answered ${utcTime(row.answeredAt)}`);
      expect(pdf.links).toContain(row.postUrl);
    }
    expect(text).toContain('GRANTED — cleared');
    expect(text).toContain('no answer yet');
    expect(text).toMatch(/page 1 of \d+/);

    // a viewer's token reads it, as it reads the JSON; no token, no report
    const anonymous = await pdfOf('', null);
    expect(anonymous.response.status).toBe(
      (await m.api('GET', '/accounts/7003/rights/report', undefined, null)).status,
    );
    expect(anonymous.response.status).toBe(401);
    expect((await pdfOf('?state=maybe')).response.status).toBe(400);
    expect((await pdfOf('', viewer)).response.status).toBe(200);
  });

  // ---------- webhooks ----------

  it('a subscribed endpoint receives post.rights_requested and post.rights_granted', async () => {
    m.srv.app.ctx.webhooks = WEBHOOK_SETTINGS;
    const rx = await new Receiver().start();
    const worker = new WebhookRuntime({ db: m.srv.store.db, config: WEBHOOK_CONFIG });
    try {
      const hook = data<{ secret: string }>(
        await m.api('POST', '/webhooks', {
          accountId: 7002,
          url: rx.url,
          events: ['post.rights_requested', 'post.rights_granted'],
        }),
        201,
      );
      rx.secret = hook.secret;
      nextDay();
      expect((await ask(7013, [17062])).asked).toBe(1);
      data(await answer(7013, 17062, { state: 'granted' }));
      // not subscribed: a decline sends nothing
      data(await answer(7013, 17065, { state: 'declined' }));
      await worker.runOnce();
      expect(rx.received.map((r) => [r.type, r.verified])).toEqual([
        ['post.rights_requested', true],
        ['post.rights_granted', true],
      ]);
      for (const r of rx.received)
        expect(r.body).toMatchObject({ data: { wallId: 7013, postId: '17062', post: { id: '17062' } } });
    } finally {
      await worker.stop();
      await rx.close();
    }
  });
});
