// Asking for rights on Mastodon, end to end: statuses ingested from a local
// Mastodon server onto a wall that requires rights for every post; the
// request posted as a reply through the account's connection; the author's
// answer heard by one RightsWatcher pass; the public v2 answer, the change
// log (webhook events) and the evidence following each step.
import { afterEach, describe, expect, it } from 'vitest';
import { account, mastodonHtml, status } from '../ingest/fixtures/mastodon.js';
import { NOW } from '../ingest/harness.js';
import { listenTo, requestRights, FOLLOW_MS } from '../../src/rights/service.js';
import { mastodonChannel } from '../../src/rights/channels/mastodon.js';
import { DAY_MS } from '../../src/domain/rights.js';
import { startMastodonRights, type MastodonRightsServer } from './mastodon-server.js';
import {
  ACCOUNT,
  SETTINGS,
  connectionStatus,
  eventKinds,
  optOuts,
  postByExternalId,
  publicLinks,
  rightsChanges,
  rightsOf,
  rightsWall,
  type RightsWall,
} from './rights-wall.js';
import { saveRightsSettings, type StoredRightsSettings } from '../../src/store/rights.js';

const FEED = 901;
const ANA = account('ana', 'Ana Lima', '109000000000000001');
const BOB = account('bob', 'Bob Stone', '109000000000000002');
const ID = { a: '113100000000000001', b: '113100000000000002', c: '113100000000000003', d: '113100000000000004' };
const link = (who: string, id: string) => `https://social.example/@${who}/${id}`;
const TEXT = (handle: string) =>
  `Hi @${handle}! We love this post and would like to show it on our site. Reply #YesHarbor to agree to Harbor Coffee using it.`;

let fx: MastodonRightsServer;
let home: MastodonRightsServer | undefined;
let w: RightsWall;
afterEach(async () => {
  await w?.close();
  await fx?.close();
  await home?.close();
  home = undefined;
});

function seed() {
  const post = (id: string, who: typeof ANA, minutes: number, text: string) =>
    status({
      id,
      createdAt: new Date(NOW - minutes * 60_000).toISOString(),
      html: mastodonHtml(text, ['harborcoffee']),
      account: who,
      tags: ['harborcoffee'],
      media: [{ type: 'image', name: `p${id.slice(-1)}` }],
    });
  fx.statuses.push(
    post(ID.a, ANA, 40, 'Morning flat white'),
    post(ID.b, ANA, 30, 'Harbor at dusk'),
    post(ID.c, ANA, 20, 'Beans'),
    post(ID.d, BOB, 10, 'Cup'),
  );
}

async function wall(options: { settings?: Partial<StoredRightsSettings>; auto?: 'off' | 'approved' } = {}) {
  fx = await startMastodonRights();
  seed();
  w = await rightsWall(
    [{ id: FEED, name: 'Harbor tag', connector: { kind: 'mastodon', instance: fx.origin, hashtag: 'harborcoffee' } }],
    options,
  );
  const [report] = await w.h.poll();
  expect(report).toMatchObject({ status: 'ok', inserted: 4 });
  const connectionId = await w.connect('mastodon', { accessToken: fx.rightsToken }, { instance: fx.origin });
  return connectionId;
}

const idOf = async (externalId: string) => (await postByExternalId(w.db, externalId)).id;

describe('Mastodon rights requests', () => {
  it('asks in a reply mentioning the author; only the author’s grant counts, clears the post within one pass, and an edit revokes it', async () => {
    await wall();
    // the wall requires rights: nothing is public yet
    expect(await publicLinks(w.h)).toEqual([]);
    const a = await idOf(ID.a);

    const [outcome] = await requestRights(w.deps(), [a], { actor: 'test-token' });
    expect(outcome).toMatchObject({
      postId: a,
      ok: true,
      state: 'requested',
      method: 'reply',
      text: TEXT('ana@social.example'),
    });
    expect(fx.posted).toHaveLength(1);
    const sent = fx.posted[0]!;
    // the template's text (it mentions the author already), a reply to the post, public by default
    expect(sent.body).toEqual({ status: TEXT('ana@social.example'), in_reply_to_id: ID.a, visibility: 'public' });
    expect(sent.headers.authorization).toBe(`Bearer ${fx.rightsToken}`);
    expect(sent.headers['idempotency-key']).toMatch(/^wallery-rights-\d+-113100000000000001$/);
    const request = fx.others.find((s) => s.in_reply_to_id === ID.a)!;
    expect(outcome).toMatchObject({ requestUrl: request.url });
    const row = await rightsOf(w.db, a);
    expect(row).toMatchObject({ state: 'requested', method: 'reply', request_id: request.id, author_ref: ANA.id });
    expect(await publicLinks(w.h)).toEqual([]);
    expect(await rightsChanges(w.db, a)).toEqual([
      { kind: 'rights_requested', visible: false, event: 'post.rights_requested' },
    ]);

    // someone else answers with the hashtag: not the author, it does not count
    fx.reply({ id: '113200000000000001', to: String(request.id), who: BOB, text: '#YesHarbor', tags: ['YesHarbor'] });
    let report = await w.listen();
    expect(report.heard).toEqual([{ postId: a, state: 'requested', changed: false }]);
    expect((await rightsOf(w.db, a)).state).toBe('requested');
    expect(await publicLinks(w.h)).toEqual([]);

    // the author's question is no answer; then the author grants (a reply to the request, the brand mentioned)
    fx.reply({ id: '113200000000000002', to: String(request.id), who: ANA, text: 'Where will it be shown?' });
    report = await w.listen();
    expect(report.heard[0]).toMatchObject({ state: 'requested', changed: false });
    fx.reply({
      id: '113200000000000003',
      to: String(request.id),
      who: ANA,
      text: 'Sure! #YesHarbor',
      tags: ['YesHarbor'],
    });
    // a reply to the author's reply (not to the request) is not read as an answer
    fx.reply({ id: '113200000000000004', to: '113200000000000003', who: ANA, text: 'no' });
    report = await w.listen();
    expect(report.heard).toEqual([{ postId: a, state: 'granted', changed: true }]);
    expect(await publicLinks(w.h)).toEqual([link('ana', ID.a)]);
    expect(await rightsOf(w.db, a)).toMatchObject({
      state: 'granted',
      answer_id: '113200000000000003',
      answer_url: link('ana', '113200000000000003'),
      answer_text: '@harborcoffee Sure! #YesHarbor',
      decided_by: 'reply',
    });
    expect(await rightsChanges(w.db, a)).toEqual([
      { kind: 'rights_requested', visible: false, event: 'post.rights_requested' },
      { kind: 'rights_granted', visible: true, event: 'post.rights_granted' },
    ]);

    // the author edits the answer and the hashtag is gone: revoked, off the wall again
    fx.edit('113200000000000003', 'Hmm, let me think about it', '2026-01-15T13:00:00.000Z');
    report = await w.listen(FOLLOW_MS);
    expect(report.heard).toEqual([{ postId: a, state: 'revoked', changed: true }]);
    expect(await publicLinks(w.h)).toEqual([]);
    expect((await rightsChanges(w.db, a)).at(-1)).toEqual({
      kind: 'rights_revoked',
      visible: false,
      event: 'post.rights_revoked',
    });
    expect(await eventKinds(w.db, a)).toEqual(['requested', 'granted', 'revoked']);
    // a revoke is not a decline: the author is not opted out
    expect(await optOuts(w.db)).toEqual([]);
  });

  it('a grant deleted upstream (404) revokes it; a decline keeps the post off and opts the author out for good', async () => {
    await wall();
    const [b, c] = [await idOf(ID.b), await idOf(ID.c)];
    const outcomes = await requestRights(w.deps(), [b, c], { actor: 'test-token' });
    expect(outcomes.map((o) => o.ok)).toEqual([true, true]);
    const requestOf = (post: string) => String(fx.others.find((s) => s.in_reply_to_id === post)!.id);

    fx.reply({ id: '113200000000000010', to: requestOf(ID.b), who: ANA, text: '#yesharbor', tags: ['yesharbor'] });
    fx.reply({ id: '113200000000000011', to: requestOf(ID.c), who: ANA, text: 'No thanks.' });
    let report = await w.listen();
    expect(report.heard.map((r) => [r.postId, r.state]).sort()).toEqual(
      [
        [b, 'granted'],
        [c, 'declined'],
      ].sort(),
    );
    expect(await publicLinks(w.h)).toEqual([link('ana', ID.b)]);
    expect(await optOuts(w.db)).toEqual([{ author: 'mastodon:ana@social.example', reason: 'declined' }]);
    expect((await rightsChanges(w.db, c)).at(-1)).toEqual({
      kind: 'rights_declined',
      visible: false,
      event: 'post.rights_declined',
    });

    // the grant deleted: the next follow reads a 404 and revokes
    fx.deleted.add('113200000000000010');
    report = await w.listen(FOLLOW_MS);
    expect(report.heard).toEqual([{ postId: b, state: 'revoked', changed: true }]);
    expect(await publicLinks(w.h)).toEqual([]);
    expect(fx.requests.some((r) => r.url === '/api/v1/statuses/113200000000000010')).toBe(true);

    // the author declined: another of their posts is refused, the next day too, nothing sent
    const a = await idOf(ID.a);
    const posted = fx.posted.length;
    w.h.clock.now += DAY_MS;
    expect(await requestRights(w.deps(), [a], { actor: 'test-token' })).toEqual([
      { postId: a, ok: false, status: 'refused', reason: 'the author declined before and is never asked again' },
    ]);
    expect(fx.posted).toHaveLength(posted);
  });

  it('an author who blocks the brand is never asked: opted out as blocked, nothing posted; a token that cannot read relationships asks as before', async () => {
    const connectionId = await wall();
    fx.blockedBy.add(BOB.id);
    const d = await idOf(ID.d);
    expect(await requestRights(w.deps(), [d], { actor: 't' })).toEqual([
      {
        postId: d,
        ok: false,
        status: 'refused',
        reason: `the author blocks the connection's account on 127.0.0.1:${fx.port}: they are put on the opt-out list and never asked`,
      },
    ]);
    expect(fx.requests.some((r) => r.url === `/api/v1/accounts/relationships?id%5B%5D=${BOB.id}`)).toBe(true);
    expect(fx.posted).toEqual([]);
    expect(await optOuts(w.db)).toEqual([{ author: 'mastodon:bob@social.example', reason: 'blocked' }]);
    expect(await w.db.selectFrom('post_rights').selectAll().execute()).toEqual([]);
    // on the list: refused again without a call upstream
    const calls = fx.requests.length;
    expect((await requestRights(w.deps(), [d], { actor: 't' }))[0]).toMatchObject({
      ok: false,
      reason: 'the author blocked the brand and is never asked again',
    });
    expect(fx.requests).toHaveLength(calls);

    // a token without read:follows cannot read relationships (403): that says nothing of blocks
    fx.scopes = ['read:statuses', 'write:statuses'];
    const a = await idOf(ID.a);
    expect((await requestRights(w.deps(), [a], { actor: 't' }))[0]).toMatchObject({ ok: true, method: 'reply' });
    expect(fx.posted.map((p) => p.body.in_reply_to_id)).toEqual([ID.a]);
    expect((await connectionStatus(w.db, connectionId)).status).not.toBe('failing');
  });

  it('limits: one request to an author a day; unanswered requests expire and may be asked again', async () => {
    await wall({ settings: { perAuthorPerDay: 1, expireDays: 2 } });
    const [a, b, d] = [await idOf(ID.a), await idOf(ID.b), await idOf(ID.d)];
    const outcomes = await requestRights(w.deps(), [a, b, d], { actor: 'test-token' });
    expect(outcomes).toEqual([
      expect.objectContaining({ postId: a, ok: true }),
      {
        postId: b,
        ok: false,
        status: 'refused',
        reason: 'this author was asked 1 time today (the limit is 1 a day)',
      },
      expect.objectContaining({ postId: d, ok: true }),
    ]);
    expect(fx.posted.map((p) => p.body.in_reply_to_id)).toEqual([ID.a, ID.d]);
    // asked already
    expect((await requestRights(w.deps(), [a], { actor: 't' }))[0]).toMatchObject({
      ok: false,
      reason: 'rights are already requested',
    });

    // two days without an answer: expired, still held, and askable again
    w.h.clock.now += 2 * DAY_MS;
    const report = await w.watcher.runOnce();
    expect(report.expired).toBe(2);
    expect((await rightsOf(w.db, a)).state).toBe('expired');
    expect(await publicLinks(w.h)).toEqual([]);
    expect((await rightsChanges(w.db, a)).map((c) => c.event)).toEqual([
      'post.rights_requested',
      'post.rights_expired',
    ]);
    expect((await requestRights(w.deps(), [a], { actor: 't' }))[0]).toMatchObject({ ok: true, state: 'requested' });
    expect(await eventKinds(w.db, a)).toEqual(['requested', 'expired', 'requested']);
  });

  it('visibility direct, and a template without the author: the reply mentions them itself', async () => {
    await wall({ settings: { mastodonVisibility: 'direct', template: 'May we share your photo? Reply {hashtag}.' } });
    const [d] = [await idOf(ID.d)];
    await requestRights(w.deps(), [d], { actor: 't' });
    expect(fx.posted[0]!.body).toEqual({
      status: '@bob May we share your photo? Reply #YesHarbor.',
      in_reply_to_id: ID.d,
      visibility: 'direct',
    });
  });

  it('a connection on another server finds the post there (search, resolve=true) and hears the author as that server knows them', async () => {
    await wall();
    home = await startMastodonRights(account('harbor', 'Harbor Coffee', '9001', 'home.example'));
    // the home server's copy of Ana's status and of Ana: its own ids, her acct with her domain
    const anaThere = account('ana', 'Ana Lima', '7001', 'social.example');
    const copy = status({
      id: '5001',
      createdAt: '2026-01-15T11:20:00.000Z',
      html: mastodonHtml('Morning flat white'),
      account: anaThere,
    });
    copy.url = link('ana', ID.a);
    home.others.push(copy);
    home.remote.add('5001');
    const connectionId = await w.connect('mastodon', { accessToken: home.rightsToken }, { instance: home.origin });
    const a = await idOf(ID.a);
    // the settings name the connection that asks on Mastodon (the feed reads without one)
    await saveRightsSettings(w.db, ACCOUNT, { ...SETTINGS, connections: { mastodon: connectionId } }, NOW);

    const [outcome] = await requestRights(w.deps(), [a], { actor: 't' });
    expect(outcome).toMatchObject({ ok: true, method: 'reply' });
    const search = home.requests.find((r) => r.url.startsWith('/api/v2/search'))!;
    const q = new URL(search.url, home.origin).searchParams;
    expect(Object.fromEntries(q)).toMatchObject({ q: link('ana', ID.a), resolve: 'true', type: 'statuses' });
    expect(fx.posted).toEqual([]);
    // the template's `@ana@social.example` is how the home server mentions her: no second mention
    expect(home.posted[0]!.body).toEqual({
      status: TEXT('ana@social.example'),
      in_reply_to_id: '5001',
      visibility: 'public',
    });
    expect((await rightsOf(w.db, a)).author_ref).toBe('7001');

    const request = home.others.find((s) => s.in_reply_to_id === '5001')!;
    home.reply({ id: '5002', to: String(request.id), who: anaThere, text: '#YesHarbor', tags: ['YesHarbor'] });
    const report = await w.listen();
    expect(report.heard).toEqual([{ postId: a, state: 'granted', changed: true }]);
    expect(await publicLinks(w.h)).toEqual([link('ana', ID.a)]);
  });

  it('a refused token (401) marks the connection failing, reports the request failed and stores nothing', async () => {
    const connectionId = await wall();
    fx.rightsToken = 'rotated-elsewhere';
    const a = await idOf(ID.a);
    const [outcome] = await requestRights(w.deps(), [a], { actor: 't' });
    expect(outcome).toEqual({
      postId: a,
      ok: false,
      status: 'failed',
      reason: `reading the post: 127.0.0.1:${fx.port} refused the connection's credentials (401: The access token is invalid)`,
    });
    expect(await connectionStatus(w.db, connectionId)).toEqual({
      status: 'failing',
      detail: `${outcome!.ok ? '' : outcome!.reason}; check its permissions`,
    });
    expect((await postByExternalId(w.db, ID.a)).rights_state).toBe(null);
    expect(await w.db.selectFrom('post_rights').selectAll().execute()).toEqual([]);
    expect(await w.db.selectFrom('rights_events').selectAll().execute()).toEqual([]);
    expect(await rightsChanges(w.db, a)).toEqual([]);
    expect(JSON.stringify(outcome)).not.toContain('masto-rights-token');
  });

  it('a token without write:statuses (403) is refused in words and marks the connection', async () => {
    const connectionId = await wall();
    fx.scopes = ['read'];
    const a = await idOf(ID.a);
    const [outcome] = await requestRights(w.deps(), [a], { actor: 't' });
    expect(outcome).toMatchObject({
      ok: false,
      status: 'failed',
      reason: `posting the request on 127.0.0.1:${fx.port}: 127.0.0.1:${fx.port} refused the connection's credentials (403: This action is outside the authorized scopes)`,
    });
    expect((await connectionStatus(w.db, connectionId)).status).toBe('failing');
    expect(await w.db.selectFrom('post_rights').selectAll().execute()).toEqual([]);
  });

  it('the wall’s asking rule (approved posts) asks by itself in a watcher pass, once per post', async () => {
    await wall({ auto: 'approved' });
    const report = await w.watcher.runOnce();
    expect(report.asked.map((o) => o.ok)).toEqual([true, true, true, true]);
    expect(fx.posted.map((p) => p.body.in_reply_to_id).sort()).toEqual([ID.a, ID.b, ID.c, ID.d].sort());
    for (const id of Object.values(ID)) {
      const row = await rightsOf(w.db, await idOf(id));
      expect(row).toMatchObject({ state: 'requested', requested_by: 'rule', method: 'reply' });
    }
    // asked already: the next pass asks nobody again
    const again = await w.listen();
    expect(again.asked).toEqual([]);
    expect(fx.posted).toHaveLength(4);
  });

  it('RIGHTS_LISTEN_SECONDS: a request is read again after the deps’ pace; a network’s slower pace wins', async () => {
    await wall();
    const [a, b] = [await idOf(ID.a), await idOf(ID.d)];
    const start = w.h.clock.now;
    await requestRights({ ...w.deps(), listenMs: 5_000 }, [a], { actor: 'test-token' });
    expect((await rightsOf(w.db, a)).listen_at).toBe(start + 5_000);
    // a channel that asks to be read every 5 minutes is read at its pace, however fast the deps'
    const slow = { ...mastodonChannel, listenEveryMs: 5 * 60_000 };
    await requestRights({ ...w.deps(), listenMs: 5_000, channels: [slow] }, [b], { actor: 'test-token' });
    expect((await rightsOf(w.db, b)).listen_at).toBe(start + 5 * 60_000);
    // nothing heard yet: the next read is the deps' pace again
    w.h.clock.now += 5_000;
    await listenTo({ ...w.deps(), listenMs: 5_000 }, await rightsOf(w.db, a));
    expect((await rightsOf(w.db, a)).listen_at).toBe(w.h.clock.now + 5_000);
  });
});
