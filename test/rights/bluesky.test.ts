// Asking for rights on Bluesky, end to end: an author feed ingested from a
// local AppView onto a wall that requires rights for every post; the request
// written as a reply into the brand's repository on its PDS (signed in with
// the handle and an app password through an entryway); the author's answer
// heard by one RightsWatcher pass; the public v2 answer, the change log
// (webhook events) and the evidence following each step.
import { afterEach, describe, expect, it } from 'vitest';
import { facet, postView } from '../ingest/fixtures/bluesky.js';
import { NOW } from '../ingest/harness.js';
import { requestRights, FOLLOW_MS } from '../../src/rights/service.js';
import { ANA, BOB, BRAND, startBlueskyRights, type BlueskyRightsServer } from './bluesky-server.js';
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
import { removeOptOut, saveRightsSettings, type StoredRightsSettings } from '../../src/store/rights.js';

const FEED = 902;
const uri = (rkey: string, did = ANA.did) => `at://${did}/app.bsky.feed.post/${rkey}`;
const bskyLink = (rkey: string, handle = ANA.handle) => `https://bsky.app/profile/${handle}/post/${rkey}`;
const TEXT = `Hi @${ANA.handle}! We love this post and would like to show it on our site. Reply #YesHarbor to agree to Harbor Coffee using it.`;

let fx: BlueskyRightsServer;
let w: RightsWall;
afterEach(async () => {
  await w?.close();
  await fx?.close();
});

async function wall(settings: Partial<StoredRightsSettings> = {}, password = BRAND.password) {
  fx = await startBlueskyRights();
  const at = (minutes: number) => new Date(NOW - minutes * 60_000).toISOString();
  const own = (rkey: string, text: string, minutes: number) =>
    postView({
      rkey,
      text,
      createdAt: at(minutes),
      handle: ANA.handle,
      did: ANA.did,
      displayName: ANA.displayName,
      embed: 'images',
    });
  const threaded = own('3kreply', 'Same cup, later', 10);
  // Ana's post in a thread that Bob started: its reply points at Bob's root
  (threaded.record as Record<string, unknown>).reply = {
    root: { uri: uri('3kbobroot', BOB.did), cid: 'bafyreibobroot' },
    parent: { uri: uri('3kbobroot', BOB.did), cid: 'bafyreibobroot' },
  };
  fx.feed = [
    { post: threaded },
    { post: own('3kcup', 'Cortado by the water', 20) },
    { post: own('3kbeans', 'Beans', 30) },
  ];
  w = await rightsWall(
    [{ id: FEED, name: 'Ana on Bluesky', connector: { kind: 'bluesky', actor: ANA.handle, appViewUrl: fx.origin } }],
    { settings },
  );
  const [report] = await w.h.poll();
  expect(report).toMatchObject({ status: 'ok' });
  return w.connect('bluesky', { accessToken: password }, { instance: fx.entryway.origin, accountName: BRAND.handle });
}

const idOf = async (rkey: string) => (await postByExternalId(w.db, uri(rkey))).id;

describe('Bluesky rights requests', () => {
  it('replies with the template, a mention facet and the thread’s root; only the author’s grant counts; deleting it revokes', async () => {
    await wall();
    expect(await publicLinks(w.h)).toEqual([]);
    const cup = await idOf('3kcup');

    const [outcome] = await requestRights(w.deps(), [cup], { actor: 'test-token' });
    expect(outcome).toMatchObject({ postId: cup, ok: true, method: 'reply', text: TEXT });
    // signed in on the entryway; everything else on the PDS its DID document names
    expect(fx.entryway.requests.map((r) => r.url)).toEqual(['/xrpc/com.atproto.server.createSession']);
    expect(JSON.parse(fx.entryway.requests[0]!.body)).toEqual({ identifier: BRAND.handle, password: BRAND.password });
    expect(fx.created).toHaveLength(1);
    const cupRef = { uri: uri('3kcup'), cid: 'bafyrei3kcup' };
    expect(fx.created[0]).toEqual({
      repo: BRAND.did,
      collection: 'app.bsky.feed.post',
      record: {
        $type: 'app.bsky.feed.post',
        text: TEXT,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        reply: { root: cupRef, parent: cupRef },
        facets: [
          facet(TEXT, `@${ANA.handle}`, { $type: 'app.bsky.richtext.facet#mention', did: ANA.did }),
          facet(TEXT, '#YesHarbor', { $type: 'app.bsky.richtext.facet#tag', tag: 'YesHarbor' }),
        ],
      },
    });
    const request = fx.views.at(-1)!;
    expect(outcome).toMatchObject({ requestUrl: bskyLink(String(request.uri).split('/').pop()!, BRAND.handle) });
    expect(await rightsOf(w.db, cup)).toMatchObject({
      state: 'requested',
      request_id: request.uri,
      author_ref: ANA.did,
    });
    expect(await publicLinks(w.h)).toEqual([]);
    expect(await rightsChanges(w.db, cup)).toEqual([
      { kind: 'rights_requested', visible: false, event: 'post.rights_requested' },
    ]);

    // Bob answers with the hashtag: not the author
    fx.reply({ rkey: '3kbobyes', who: BOB, text: '#YesHarbor', parent: request, root: request });
    let report = await w.listen();
    expect(report.heard).toEqual([{ postId: cup, state: 'requested', changed: false }]);
    expect(await publicLinks(w.h)).toEqual([]);

    // Ana grants
    fx.reply({ rkey: '3kanayes', who: ANA, text: 'Of course 😊 #yesharbor', parent: request });
    report = await w.listen();
    expect(report.heard).toEqual([{ postId: cup, state: 'granted', changed: true }]);
    expect(await publicLinks(w.h)).toEqual([bskyLink('3kcup')]);
    expect(await rightsOf(w.db, cup)).toMatchObject({
      state: 'granted',
      answer_id: uri('3kanayes'),
      answer_url: bskyLink('3kanayes'),
      answer_text: 'Of course 😊 #yesharbor',
    });
    expect((await rightsChanges(w.db, cup)).at(-1)).toEqual({
      kind: 'rights_granted',
      visible: true,
      event: 'post.rights_granted',
    });

    // still there at the next follow: nothing changes
    report = await w.listen(FOLLOW_MS);
    expect(report.heard).toEqual([{ postId: cup, state: 'granted', changed: false }]);
    // deleted: getPosts answers without it → revoked
    fx.deleted.add(uri('3kanayes'));
    report = await w.listen(FOLLOW_MS);
    expect(report.heard).toEqual([{ postId: cup, state: 'revoked', changed: true }]);
    expect(await publicLinks(w.h)).toEqual([]);
    expect(await eventKinds(w.db, cup)).toEqual(['requested', 'granted', 'revoked']);
    // one sign-in for the service's memory, one for the watcher's: each session is kept
    expect(fx.sessions).toBe(2);
  });

  it('a reply in a thread keeps the thread’s root; a decline opts the author out and a second request is refused', async () => {
    await wall();
    const [threaded, beans] = [await idOf('3kreply'), await idOf('3kbeans')];
    await requestRights(w.deps(), [threaded], { actor: 't' });
    expect((fx.created[0]!.record as Record<string, unknown>).reply).toEqual({
      root: { uri: uri('3kbobroot', BOB.did), cid: 'bafyreibobroot' },
      parent: { uri: uri('3kreply'), cid: 'bafyrei3kreply' },
    });
    const request = fx.views.at(-1)!;
    fx.reply({ rkey: '3kanano', who: ANA, text: 'No thanks', parent: request });
    const report = await w.listen();
    expect(report.heard).toEqual([{ postId: threaded, state: 'declined', changed: true }]);
    expect(await publicLinks(w.h)).toEqual([]);
    expect(await optOuts(w.db)).toEqual([{ author: 'bluesky:ana.bsky.social', reason: 'declined' }]);
    expect(await requestRights(w.deps(), [beans], { actor: 't' })).toEqual([
      { postId: beans, ok: false, status: 'refused', reason: 'the author declined before and is never asked again' },
    ]);
    expect(fx.created).toHaveLength(1);
  });

  it('an author who blocks the brand is never asked, whether their post shows the block or is hidden by it', async () => {
    await wall();
    const [cup, beans] = [await idOf('3kcup'), await idOf('3kbeans')];
    const refused = (postId: number) => ({
      postId,
      ok: false,
      status: 'refused',
      reason: `the author blocks @${BRAND.handle} on Bluesky: they are put on the opt-out list and never asked`,
    });
    // the post is read with its author's viewer state: blockedBy
    fx.blockers.set(ANA.did, 'shown');
    expect(await requestRights(w.deps(), [cup], { actor: 't' })).toEqual([refused(cup)]);
    expect(fx.created).toEqual([]);
    expect(await optOuts(w.db)).toEqual([{ author: 'bluesky:ana.bsky.social', reason: 'blocked' }]);
    expect((await postByExternalId(w.db, uri('3kcup'))).rights_state).toBe(null);

    // the AppView leaves a blocker's post out: their profile says why
    await removeOptOut(w.db, ACCOUNT, 'bluesky:ana.bsky.social');
    fx.blockers.set(ANA.did, 'hidden');
    expect(await requestRights(w.deps(), [beans], { actor: 't' })).toEqual([refused(beans)]);
    expect(
      fx.requests.some((r) => r.url === `/xrpc/app.bsky.actor.getProfile?actor=${encodeURIComponent(ANA.did)}`),
    ).toBe(true);
    expect(fx.created).toEqual([]);
    expect(await optOuts(w.db)).toEqual([{ author: 'bluesky:ana.bsky.social', reason: 'blocked' }]);

    // a post gone for another reason is a failure, not a block
    await removeOptOut(w.db, ACCOUNT, 'bluesky:ana.bsky.social');
    fx.blockers.clear();
    fx.deleted.add(uri('3kbeans'));
    expect((await requestRights(w.deps(), [beans], { actor: 't' }))[0]).toMatchObject({
      ok: false,
      status: 'failed',
      reason: 'the post is no longer on Bluesky (deleted, or its author blocks the account)',
    });
    expect(await optOuts(w.db)).toEqual([]);
  });

  it('an expired access token is renewed with the refresh token, and a spent refresh token signs in again', async () => {
    await wall();
    const cup = await idOf('3kcup');
    await requestRights(w.deps(), [cup], { actor: 't' });
    await w.listen(); // the watcher's own session
    expect([fx.sessions, fx.refreshes]).toEqual([2, 0]);
    fx.expireAccess();
    let report = await w.listen();
    expect(report.heard).toEqual([{ postId: cup, state: 'requested', changed: false }]);
    expect([fx.sessions, fx.refreshes]).toEqual([2, 1]);
    fx.expireAccess();
    fx.expireRefresh();
    report = await w.listen();
    expect(report.heard).toEqual([{ postId: cup, state: 'requested', changed: false }]);
    expect([fx.sessions, fx.refreshes]).toEqual([3, 1]);
  });

  it('a request longer than 300 graphemes is refused before anything is sent; 300 emoji are 300', async () => {
    await wall({ template: `{hashtag} ${'a'.repeat(300)}` });
    const cup = await idOf('3kcup');
    const [outcome] = await requestRights(w.deps(), [cup], { actor: 't' });
    expect(outcome).toEqual({
      postId: cup,
      ok: false,
      status: 'failed',
      reason: 'the request is 311 characters long; a Bluesky post holds at most 300: shorten the request template',
    });
    expect(fx.requests.filter((r) => r.url.startsWith('/xrpc/com.atproto'))).toEqual([]);
    expect(await w.db.selectFrom('post_rights').selectAll().execute()).toEqual([]);

    // 289 thumbs with a skin tone (2 code points, 4 UTF-16 units each) and the hashtag: 300 graphemes
    await saveRightsSettings(w.db, ACCOUNT, { ...SETTINGS, template: `${'👍🏽'.repeat(289)} {hashtag}` }, NOW);
    const [ok] = await requestRights(w.deps(), [cup], { actor: 't' });
    expect(ok).toMatchObject({ ok: true, method: 'reply' });
    expect(String((fx.created[0]!.record as Record<string, unknown>).text)).toHaveLength(289 * 4 + 11);
  });

  it('a wrong app password (401) marks the connection failing, the request failed, nothing stored', async () => {
    const connectionId = await wall({}, 'wrong-pass-word-0000');
    const cup = await idOf('3kcup');
    const [outcome] = await requestRights(w.deps(), [cup], { actor: 't' });
    expect(outcome).toEqual({
      postId: cup,
      ok: false,
      status: 'failed',
      reason: `signing in to Bluesky as ${BRAND.handle}: 127.0.0.1:${fx.entryway.port} refused the connection's credentials (401: Invalid identifier or password)`,
    });
    expect((await connectionStatus(w.db, connectionId)).status).toBe('failing');
    expect(await w.db.selectFrom('post_rights').selectAll().execute()).toEqual([]);
    expect((await postByExternalId(w.db, uri('3kcup'))).rights_state).toBe(null);
    expect(JSON.stringify(await connectionStatus(w.db, connectionId))).not.toContain('wrong-pass-word');
  });
});
