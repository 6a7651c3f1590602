// The connections management API on a real server (SQLite, and PostgreSQL in
// the postgres project): a token goes in and never comes out, the status in
// words, which feeds use a connection, the feed ↔ connection rules, the
// account scope and roles, the audit log, and the refusal without a key.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_ACTOR } from '../../src/manage/op.js';
import { createOperatorToken } from '../../src/manage/tokens.js';
import { markConnectionFailed } from '../../src/store/connections.js';
import { NOW } from '../helpers/sample.js';
import { data, failure, startManageServer, type ManageServer } from '../http/manage/helpers.js';

const ACCOUNT = 7001;
const OTHER_ACCOUNT = 7002;
const WALL = 7011;
const DAY = 86_400_000;
const TOKEN = `tok_${randomBytes(16).toString('hex')}`;

let m: ManageServer;
let otherWall: number;

const mastodonFeed = (connectionId?: number) => ({
  name: 'Signed-in hashtag',
  source: 'Mastodon',
  sourceType: 'hashtag',
  enabled: false,
  connector: {
    kind: 'mastodon',
    instance: 'https://social.example',
    hashtag: 'trails',
    ...(connectionId !== undefined ? { connectionId } : {}),
  },
});

async function newConnection(body: Record<string, unknown> = {}, accountId = ACCOUNT) {
  return data<Record<string, unknown>>(
    await m.api('POST', `/accounts/${accountId}/connections`, {
      network: 'mastodon',
      name: 'Our GoToSocial',
      authKind: 'token',
      accessToken: TOKEN,
      instance: 'https://social.example',
      ...body,
    }),
    201,
  );
}

beforeAll(async () => {
  m = await startManageServer();
  m.srv.app.ctx.connectionKey = randomBytes(32);
  const wall = data<{ id: number }>(
    await m.api('POST', '/walls', { accountId: OTHER_ACCOUNT, name: 'Other wall', url: 'other-wall' }),
    201,
  );
  otherWall = wall.id;
});
afterAll(async () => m?.close());

describe('connections through the management API', () => {
  it('stores a token and answers the record without it: only its last 4 characters, the status in words', async () => {
    const created = await newConnection({ expiresAt: new Date(NOW + 5 * DAY + 3_600_000).toISOString() });
    expect(created).toMatchObject({
      accountId: ACCOUNT,
      network: 'mastodon',
      name: 'Our GoToSocial',
      authKind: 'token',
      instance: 'https://social.example',
      status: 'active',
      statusText: 'expires in 5 days',
      tokenHint: `…${TOKEN.slice(-4)}`,
      usedBy: [],
      scopes: [],
    });
    expect(Object.keys(created)).not.toContain('accessToken');
    const id = created.id as number;

    const got = await m.api('GET', `/connections/${id}`);
    const list = await m.api('GET', `/accounts/${ACCOUNT}/connections`);
    for (const res of [got, list]) expect(res.text).not.toContain(TOKEN);
    expect(data(got)).toEqual(created);
    expect(data<{ data: { id: number }[] }>(list).data.map((c) => c.id)).toContain(id);

    const noExpiry = await newConnection({ name: 'No expiry' });
    expect(noExpiry.statusText).toBe('active, no expiry');
    expect(noExpiry.expiresAt).toBeNull();
  });

  it('refuses a connection without its secret, or of an unknown network, naming the field', async () => {
    const noToken = failure(
      await m.api('POST', `/accounts/${ACCOUNT}/connections`, { network: 'x', name: 'X', authKind: 'token' }),
      400,
    );
    expect(noToken).toEqual([{ field: 'accessToken', message: 'accessToken is required for a token connection' }]);
    const noKey = failure(
      await m.api('POST', `/accounts/${ACCOUNT}/connections`, {
        network: 'flickr',
        name: 'Flickr',
        authKind: 'api_key',
        accessToken: TOKEN,
      }),
      400,
    );
    expect(noKey).toEqual([{ field: 'apiKey', message: 'apiKey is required for an api_key connection' }]);
    const bad = await m.api('POST', `/accounts/${ACCOUNT}/connections`, {
      network: 'myspace',
      name: 'Old',
      authKind: 'oauth',
      accessToken: 'has spaces in it',
    });
    const errors = failure(bad, 400);
    expect(errors.map((e) => e.field).sort()).toEqual(['accessToken', 'authKind', 'network']);
    expect(bad.text).not.toContain('has spaces in it');
    failure(
      await m.api('POST', `/accounts/999999/connections`, {
        network: 'x',
        name: 'X',
        authKind: 'token',
        accessToken: TOKEN,
      }),
      404,
    );
  });

  it('stores a Bluesky app password with the handle it signs in with, and refuses one without the handle', async () => {
    const password = 'hrbr-2kq9-x7mw-c4pz';
    const noHandle = failure(
      await m.api('POST', `/accounts/${ACCOUNT}/connections`, {
        network: 'bluesky',
        name: 'Brand Bluesky',
        authKind: 'token',
        accessToken: password,
      }),
      400,
    );
    expect(noHandle).toEqual([
      {
        field: 'externalAccountName',
        message: 'externalAccountName is required for a bluesky connection: the handle the app password signs in with',
      },
    ]);
    const created = await newConnection({
      network: 'bluesky',
      name: 'Brand Bluesky',
      accessToken: password,
      externalAccountName: 'harbor.bsky.social',
      instance: undefined,
    });
    expect(created).toMatchObject({
      network: 'bluesky',
      externalAccountName: 'harbor.bsky.social',
      instance: null,
      tokenHint: '…c4pz',
    });
    expect(JSON.stringify(created)).not.toContain(password);
    await m.api('DELETE', `/connections/${created.id as number}`);
  });

  it('tells which feeds read with a connection, and refuses to delete it while they do', async () => {
    const conn = await newConnection({ name: 'In use' });
    const feed = data<{ id: number }>(
      await m.api('POST', `/walls/${WALL}/feeds`, mastodonFeed(conn.id as number)),
      201,
    );
    expect(data<{ usedBy: number[] }>(await m.api('GET', `/connections/${conn.id}`)).usedBy).toEqual([feed.id]);

    const refused = await m.api('DELETE', `/connections/${conn.id}`);
    failure(
      refused,
      409,
      `connection ${conn.id} is used by feed ${feed.id}: give them another connection (or delete them) first`,
    );

    // the feed reads without it now: the connection can go
    data(await m.api('PATCH', `/walls/${WALL}/feeds/${feed.id}`, { connector: mastodonFeed().connector }));
    const deleted = data<{ id: number; usedBy: number[] }>(await m.api('DELETE', `/connections/${conn.id}`));
    expect(deleted).toMatchObject({ id: conn.id, usedBy: [] });
    failure(await m.api('GET', `/connections/${conn.id}`), 404, `connection ${conn.id} not found`);
  });

  it('refuses a feed naming a connection that is not its account’s, of another network, or on a kind that takes none', async () => {
    const mine = await newConnection({ name: 'Mine' });
    const theirs = await newConnection({ name: 'Theirs' }, OTHER_ACCOUNT);
    const instagram = await newConnection({ network: 'instagram', name: 'Brand Instagram', instance: undefined });

    const missing = failure(await m.api('POST', `/walls/${WALL}/feeds`, mastodonFeed(987654)), 400);
    expect(missing).toEqual([
      { field: 'connector', message: "connector.connectionId: connection 987654 does not exist in the wall's account" },
    ]);
    const foreign = failure(await m.api('POST', `/walls/${WALL}/feeds`, mastodonFeed(theirs.id as number)), 400);
    expect(foreign[0]!.message).toBe(
      `connector.connectionId: connection ${theirs.id} does not exist in the wall's account`,
    );
    const wrongNetwork = failure(
      await m.api('POST', `/walls/${WALL}/feeds`, mastodonFeed(instagram.id as number)),
      400,
    );
    expect(wrongNetwork[0]!.message).toBe(
      `connector.connectionId: connection ${instagram.id} (“Brand Instagram”) is an instagram connection; a mastodon feed needs a mastodon one`,
    );
    const rss = failure(
      await m.api('POST', `/walls/${WALL}/feeds`, {
        name: 'News',
        source: 'RSS',
        sourceType: 'feed',
        connector: { kind: 'rss', url: 'https://news.example/feed.xml', connectionId: mine.id },
      }),
      400,
    );
    expect(rss[0]!.message).toBe('connector.connectionId: an rss feed reads without a connection; remove it');

    // the same rules on a change of a feed's connector; its own account's connection is taken
    const feed = data<{ id: number }>(await m.api('POST', `/walls/${otherWall}/feeds`, mastodonFeed()), 201);
    failure(
      await m.api('PATCH', `/walls/${otherWall}/feeds/${feed.id}`, {
        connector: mastodonFeed(mine.id as number).connector,
      }),
      400,
    );
    const changed = data<{ connector: { connectionId: number } }>(
      await m.api('PATCH', `/walls/${otherWall}/feeds/${feed.id}`, {
        connector: mastodonFeed(theirs.id as number).connector,
      }),
    );
    expect(changed.connector.connectionId).toBe(theirs.id);
  });

  it('renames, and reconnects with a new token: the status is active again, the audit log without the token', async () => {
    const conn = await newConnection({ name: 'Will fail' });
    const id = conn.id as number;
    expect(
      await markConnectionFailed(m.srv.store.db, id, 'revoked', 'The access token is invalid', NOW - 2 * DAY),
    ).toBe(true);
    expect(data(await m.api('GET', `/connections/${id}`))).toMatchObject({
      status: 'revoked',
      statusDetail: 'The access token is invalid',
      statusText: 'revoked by the user on 13 Jan 2026',
    });

    const renamed = data<Record<string, unknown>>(await m.api('PATCH', `/connections/${id}`, { name: 'Renamed' }));
    expect(renamed).toMatchObject({ name: 'Renamed', status: 'revoked' });

    const fresh = `new_${randomBytes(12).toString('hex')}`;
    const res = await m.api('PATCH', `/connections/${id}`, { accessToken: fresh });
    expect(res.text).not.toContain(fresh);
    expect(data(res)).toMatchObject({
      status: 'active',
      statusDetail: null,
      statusText: 'active, no expiry',
      tokenHint: `…${fresh.slice(-4)}`,
    });

    const audit = data<{ data: { action: string; targetId: number }[] }>(
      await m.api('GET', `/audit?targetType=connection&targetId=${id}`),
    );
    expect(audit.data.map((e) => e.action).sort()).toEqual([
      'connection.create',
      'connection.update',
      'connection.update',
    ]);
    const whole = await m.api('GET', '/audit?targetType=connection&limit=200');
    expect(whole.text).not.toContain(TOKEN);
    expect(whole.text).not.toContain(fresh);
  });

  it('keeps other accounts’ connections from a scoped token, and writes from a viewer', async () => {
    const conn = await newConnection({ name: 'Scoped' });
    const op = { db: m.srv.store.db, actor: CLI_ACTOR, now: NOW };
    const scoped = await createOperatorToken(op, { name: 'other-only', role: 'editor', accounts: [OTHER_ACCOUNT] });
    failure(
      await m.api('GET', `/connections/${conn.id}`, undefined, scoped.token),
      404,
      `connection ${conn.id} not found`,
    );
    failure(await m.api('GET', `/accounts/${ACCOUNT}/connections`, undefined, scoped.token), 404);
    failure(await m.api('DELETE', `/connections/${conn.id}`, undefined, scoped.token), 404);
    data(await m.api('GET', `/accounts/${OTHER_ACCOUNT}/connections`, undefined, scoped.token));

    const viewer = await createOperatorToken(op, { name: 'viewer', role: 'viewer' });
    failure(
      await m.api(
        'POST',
        `/accounts/${ACCOUNT}/connections`,
        { network: 'x', name: 'X', authKind: 'token', accessToken: TOKEN },
        viewer.token,
      ),
      403,
    );
    expect(data(await m.api('GET', `/connections/${conn.id}`, undefined, viewer.token))).toMatchObject({ id: conn.id });
  });

  it('refuses to store a connection when the instance has no key to encrypt it with, naming SECRET_KEY', async () => {
    const key = m.srv.app.ctx.connectionKey;
    m.srv.app.ctx.connectionKey = null;
    try {
      const res = await m.api('POST', `/accounts/${ACCOUNT}/connections`, {
        network: 'x',
        name: 'X',
        authKind: 'token',
        accessToken: TOKEN,
      });
      failure(res, 409, /^connections cannot be stored: there is no secret key to encrypt them with\. Set SECRET_KEY/);
    } finally {
      m.srv.app.ctx.connectionKey = key;
    }
  });
});
