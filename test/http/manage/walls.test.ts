// Walls (soft delete, restore, purge) and feeds through the management API,
// observed through the public API v2.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MSG } from '../../helpers/http.js';
import { describeSample, NOW } from '../../helpers/sample.js';
import { data, failure, fields, startManageServer, w2Posts, type ManageServer } from './helpers.js';

interface Wall {
  id: number;
  accountId: number;
  name: string;
  url: string;
  profanity: boolean;
  mediaWait: boolean;
  branding: Record<string, unknown>;
  createdAt: string;
  deleted: boolean;
  deletedAt: string | null;
  feedCount: number;
  postCount: number;
}
interface Feed {
  id: number;
  wallId: number;
  name: string;
  source: string;
  sourceType: string;
  connector: Record<string, unknown> | null;
  enabled: boolean;
  createdAt: string | null;
  updatedAt: string;
  postCount: number;
}
interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

const at = new Date(NOW).toISOString();

describeSample('walls and feeds', () => {
  let m: ManageServer;
  beforeAll(async () => {
    m = await startManageServer();
  });
  afterAll(async () => m?.close());

  it('lists walls with counts, filtered by account and state', async () => {
    const all: Page<Wall> = data(await m.api('GET', '/walls'));
    expect(all.data.map((w) => w.id).slice(0, 6)).toEqual([7011, 7012, 7013, 7014, 7015, 7016]);
    expect(all.data[0]).toEqual({
      id: 7011,
      accountId: 7001,
      name: expect.any(String),
      url: 'demo-summer-wall',
      profanity: false,
      moderation: 'auto',
      layout: null,
      theme: null,
      columns: null,
      allowFraming: false,
      mediaWait: false,
      rightsRequired: 'none',
      rightsAuto: 'off',
      branding: {
        accent: null,
        background: null,
        cardBackground: null,
        text: null,
        font: 'system',
        radius: null,
        cardStyle: 'elevated',
        logoUrl: null,
        callToPost: null,
        infoUrl: null,
        vars: {},
      },
      createdAt: expect.stringMatching(/Z$/),
      deleted: false,
      deletedAt: null,
      feedCount: 3,
      postCount: 60,
      // by state: 57 shown by the public API, 3 hidden
      approvedCount: 57,
      pendingCount: 0,
      rejectedCount: 0,
      hiddenCount: 3,
    });
    const deleted: Page<Wall> = data(await m.api('GET', '/walls?state=deleted&accountId=7001'));
    expect(deleted.data.map((w) => w.id)).toEqual([7015]);
    expect(deleted.data[0]).toMatchObject({ deleted: true, deletedAt: at });
    const live: Page<Wall> = data(await m.api('GET', '/walls?state=live&accountId=7001'));
    expect(live.data.map((w) => w.id)).toEqual([7011, 7012]);
    const paged: Page<Wall> = data(await m.api('GET', '/walls?limit=4'));
    expect(paged.data).toHaveLength(4);
    const rest: Page<Wall> = data(await m.api('GET', `/walls?limit=4&cursor=${paged.nextCursor}`));
    expect(rest.data[0]!.id).toBe(7015);
  });

  it('creates a wall the public API serves, with its url and profanity flag', async () => {
    const wall: Wall = data(
      await m.api('POST', '/walls', { accountId: 7001, name: 'Harbour', url: 'harbour-2026', profanity: true }),
      201,
    );
    expect(wall).toEqual({
      id: wall.id,
      accountId: 7001,
      name: 'Harbour',
      url: 'harbour-2026',
      profanity: true,
      moderation: 'auto',
      layout: null,
      theme: null,
      columns: null,
      allowFraming: false,
      mediaWait: false,
      rightsRequired: 'none',
      rightsAuto: 'off',
      branding: {
        accent: null,
        background: null,
        cardBackground: null,
        text: null,
        font: 'system',
        radius: null,
        cardStyle: 'elevated',
        logoUrl: null,
        callToPost: null,
        infoUrl: null,
        vars: {},
      },
      createdAt: at,
      deleted: false,
      deletedAt: null,
      feedCount: 0,
      postCount: 0,
      approvedCount: 0,
      pendingCount: 0,
      rejectedCount: 0,
      hiddenCount: 0,
    });
    const info = await m.v2(`/widget/wallInfo/${wall.id}`);
    expect(info.json().responseData).toEqual([
      { wallId: wall.id, wallName: 'Harbour', wallUrl: 'harbour-2026', wallProfanity: 1, wallCreatedAt: at, feeds: [] },
    ]);
    expect(data(await m.api('GET', `/walls/${wall.id}`))).toEqual(wall);
  });

  it('keeps a wall’s url unique within its account', async () => {
    failure(
      await m.api('POST', '/walls', { accountId: 7001, name: 'Dup', url: 'demo-summer-wall' }),
      409,
      /already used by wall 7011/,
    );
    // a deleted wall keeps its url (so that a restore cannot collide)
    failure(await m.api('POST', '/walls', { accountId: 7001, name: 'Dup', url: 'demo-deleted-wall' }), 409);
    failure(await m.api('PATCH', '/walls/7012', { url: 'demo-summer-wall' }), 409);
    // the same slug on another account is fine
    data(await m.api('POST', '/walls', { accountId: 7002, name: 'Same slug', url: 'demo-summer-wall' }), 201);
    failure(await m.api('POST', '/walls', { accountId: 424242, name: 'x', url: 'x' }), 404, 'account 424242 not found');
  });

  it('a wall change shows on the next public read', async () => {
    const changes = await m.changesDuring(async () => {
      const changed: Wall = data(
        await m.api('PATCH', '/walls/7012', { name: 'Renamed wall', url: 'renamed', profanity: true }),
      );
      expect(changed).toMatchObject({ name: 'Renamed wall', url: 'renamed', profanity: true });
    });
    expect(changes).toEqual([{ kind: 'wall', wallId: 7012 }]);
    const info = (await m.v2('/commerce/getGalleryInfo/7012')).json().responseData as Record<string, unknown>[];
    expect(info[0]).toMatchObject({ wallName: 'Renamed wall', wallUrl: 'renamed', wallProfanity: 1 });
  });

  it('chooses whether the embed waits for a post’s pictures, and refuses a value that is no boolean', async () => {
    const made: Wall = data(
      await m.api('POST', '/walls', { accountId: 7001, name: 'Waits', url: 'waits', mediaWait: true }),
      201,
    );
    expect(made.mediaWait).toBe(true);
    const changed: Wall = data(await m.api('PATCH', `/walls/${made.id}`, { mediaWait: false }));
    expect(changed.mediaWait).toBe(false);
    const bad = await m.api('PATCH', `/walls/${made.id}`, { mediaWait: 'yes' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('mediaWait');
  });

  it('keeps a branding: normalised, merged on update (null resets a field), read back by the embed API', async () => {
    const made: Wall = data(
      await m.api('POST', '/walls', {
        accountId: 7001,
        name: 'Branded',
        url: 'branded',
        theme: 'dark',
        branding: {
          accent: '#FFB000',
          background: '#000',
          font: 'serif',
          radius: 0,
          cardStyle: 'outlined',
          callToPost: 'Post with #harborfest',
          infoUrl: 'https://example.org/post',
          vars: { '--wallery-gap': '20px' },
        },
      }),
      201,
    );
    expect(made.branding).toEqual({
      accent: '#ffb000',
      background: '#000000',
      cardBackground: null,
      text: null,
      font: 'serif',
      radius: 0,
      cardStyle: 'outlined',
      logoUrl: null,
      callToPost: 'Post with #harborfest',
      infoUrl: 'https://example.org/post',
      vars: { '--wallery-gap': '20px' },
    });
    const changed: Wall = data(
      await m.api('PATCH', `/walls/${made.id}`, {
        branding: { accent: null, radius: 6, logoUrl: 'https://example.org/logo.png', vars: { '--wallery-gap': null } },
      }),
    );
    expect(changed.branding).toMatchObject({
      accent: null,
      background: '#000000',
      font: 'serif',
      radius: 6,
      logoUrl: 'https://example.org/logo.png',
      vars: {},
    });
    // the same through the data the console reads, and the record's other fields untouched
    expect(data(await m.api('GET', `/walls/${made.id}`))).toEqual(changed);
    const reset: Wall = data(await m.api('PATCH', `/walls/${made.id}`, { branding: null }));
    expect(reset.branding).toMatchObject({ background: null, font: 'system', cardStyle: 'elevated', vars: {} });
  });

  it('refuses a branding with bad fields or colours below WCAG AA, naming each field', async () => {
    const bad = failure(
      await m.api('POST', '/walls', {
        accountId: 7001,
        name: 'Bad look',
        url: 'bad-look',
        branding: {
          accent: 'red',
          font: 'Papyrus',
          radius: 40,
          vars: { '--x': '1px', '--wallery-gap': 'expression(1)' },
        },
      }),
      400,
    );
    expect(fields(bad).sort()).toEqual(
      [
        'branding.accent',
        'branding.font',
        'branding.radius',
        'branding.vars.--x',
        'branding.vars.--wallery-gap',
      ].sort(),
    );
    const low = failure(
      await m.api('POST', '/walls', {
        accountId: 7001,
        name: 'Low contrast',
        url: 'low-contrast',
        theme: 'light',
        branding: { text: '#999999', cardBackground: '#ffffff' },
      }),
      400,
    );
    expect(low).toEqual([
      {
        field: 'branding.text',
        message:
          'branding.text: the text #999999 on the card background #ffffff has a contrast of 2.84:1; WCAG AA needs at least 4.5:1',
      },
    ]);
    // an accent that reads on light cards is refused when the theme becomes auto (dark cards too)
    const wall: Wall = data(
      await m.api('POST', '/walls', {
        accountId: 7001,
        name: 'Light',
        url: 'light-only',
        theme: 'light',
        branding: { accent: '#0a58ca' },
      }),
      201,
    );
    const auto = failure(await m.api('PATCH', `/walls/${wall.id}`, { theme: 'auto' }), 400);
    expect(fields(auto)).toEqual(['branding.accent']);
    expect(auto[0]!.message).toMatch(/dark theme’s card background #1b1e24 has a contrast of 2\.\d\d:1/);
  });

  it('deletes softly (public 404), restores, and purges only deleted walls', async () => {
    const wall: Wall = data(await m.api('POST', '/walls', { accountId: 7001, name: 'Short', url: 'short-lived' }), 201);
    await m.v2(`/widget/wallInfo/${wall.id}`);
    const changes = await m.changesDuring(async () => {
      const deleted: Wall = data(await m.api('DELETE', `/walls/${wall.id}`));
      expect(deleted).toMatchObject({ deleted: true, deletedAt: at });
    });
    expect(changes).toEqual([{ kind: 'wall', wallId: wall.id }]);
    const gone = await m.v2(`/widget/wallInfo/${wall.id}`);
    expect(gone.status).toBe(404);
    expect(gone.json().responseMessage).toBe(MSG.wallNotFound);
    failure(await m.api('DELETE', `/walls/${wall.id}`), 409, /already deleted/);

    expect(data<Wall>(await m.api('POST', `/walls/${wall.id}/restore`)).deleted).toBe(false);
    expect((await m.v2(`/widget/wallInfo/${wall.id}`)).status).toBe(200);
    failure(await m.api('POST', `/walls/${wall.id}/restore`), 409, /not deleted/);
    failure(await m.api('POST', `/walls/${wall.id}/purge`), 409, /live/);

    data(await m.api('DELETE', `/walls/${wall.id}`));
    expect(data<Wall>(await m.api('POST', `/walls/${wall.id}/purge`)).id).toBe(wall.id);
    failure(await m.api('GET', `/walls/${wall.id}`), 404, `wall ${wall.id} not found`);
    failure(await m.api('POST', `/walls/${wall.id}/restore`), 404);
  });

  it('purges a deleted wall with its feeds, posts and tags', async () => {
    data(await m.api('POST', '/walls/7015/purge'));
    const db = m.srv.store.db;
    expect(await db.selectFrom('feeds').select('id').where('wall_id', '=', 7015).execute()).toEqual([]);
    expect(await db.selectFrom('posts').select('id').where('wall_id', '=', 7015).execute()).toEqual([]);
    expect(await db.selectFrom('post_products').select('post_id').where('post_id', '=', 17108).execute()).toEqual([]);
  });

  it('creates feeds with connector settings; the public API lists them', async () => {
    const feed: Feed = data(
      await m.api('POST', '/walls/7012/feeds', {
        name: '#harbourfest',
        source: 'Mastodon',
        sourceType: 'hashtag',
        connector: { kind: 'mastodon', instance: 'https://mastodon.example', hashtag: 'harbourfest' },
      }),
      201,
    );
    expect(feed).toEqual({
      id: feed.id,
      wallId: 7012,
      name: '#harbourfest',
      source: 'Mastodon',
      sourceType: 'hashtag',
      connector: { kind: 'mastodon', instance: 'https://mastodon.example', hashtag: 'harbourfest' },
      enabled: true,
      moderation: null,
      createdAt: at,
      updatedAt: at,
      postCount: 0,
    });
    expect(data(await m.api('GET', `/walls/7012/feeds/${feed.id}`))).toEqual(feed);
    const info = (await m.v2('/widget/wallInfo/7012')).json().responseData as { feeds: Record<string, unknown>[] }[];
    expect(info[0]!.feeds.at(-1)).toEqual({
      feedId: feed.id,
      feedName: '#harbourfest',
      source: 'Mastodon',
      sourceType: 'hashtag',
      feedCreatedAt: '15/01/2026',
      feedUpdatedAt: '15/01/2026',
    });
    const plain: Feed = data(
      await m.api('POST', '/walls/7012/feeds', { name: 'Imported', source: 'RSS', sourceType: 'page', enabled: false }),
      201,
    );
    expect(plain).toMatchObject({ connector: null, enabled: false });
    const list: Page<Feed> = data(await m.api('GET', '/walls/7012/feeds'));
    expect(list.data.map((f) => f.id)).toEqual([7104, feed.id, plain.id]);
  });

  it('changes, enables, disables and deletes a feed', async () => {
    const feed: Feed = data(
      await m.api('POST', '/walls/7012/feeds', { name: 'RSS', source: 'RSS', sourceType: 'page' }),
      201,
    );
    m.srv.clock.now = NOW + 86_400_000;
    try {
      const off: Feed = data(await m.api('PATCH', `/walls/7012/feeds/${feed.id}`, { enabled: false }));
      expect(off).toMatchObject({ enabled: false, updatedAt: new Date(NOW + 86_400_000).toISOString() });
      const on: Feed = data(
        await m.api('PATCH', `/walls/7012/feeds/${feed.id}`, {
          enabled: true,
          name: 'Blog',
          connector: { kind: 'rss', url: 'https://blog.example/feed.xml' },
        }),
      );
      expect(on).toMatchObject({
        enabled: true,
        name: 'Blog',
        connector: { kind: 'rss', url: 'https://blog.example/feed.xml' },
      });
      expect(
        data<Feed>(await m.api('PATCH', `/walls/7012/feeds/${feed.id}`, { connector: null })).connector,
      ).toBeNull();
    } finally {
      m.srv.clock.now = NOW;
    }
    // a feed is only found under its own wall
    failure(await m.api('GET', `/walls/7011/feeds/${feed.id}`), 404, `feed ${feed.id} not found`);
    failure(await m.api('PATCH', `/walls/7011/feeds/${feed.id}`, { name: 'x' }), 404);
    failure(await m.api('GET', `/walls/424242/feeds/${feed.id}`), 404, 'wall 424242 not found');
    data(await m.api('DELETE', `/walls/7012/feeds/${feed.id}`));
    failure(await m.api('GET', `/walls/7012/feeds/${feed.id}`), 404);
  });

  it('deleting a feed removes its posts from the public API', async () => {
    const before = await w2Posts(m, 7011);
    const ofFeed = before.filter((p) => p.feedId === 7103).length;
    expect(ofFeed).toBeGreaterThan(0);
    const changes = await m.changesDuring(async () => {
      expect(data<Feed>(await m.api('DELETE', '/walls/7011/feeds/7103')).postCount).toBe(20);
    });
    expect(changes).toEqual([{ kind: 'wall', wallId: 7011 }]);
    const after = await w2Posts(m, 7011);
    expect(after.some((p) => p.feedId === 7103)).toBe(false);
    expect(after).toHaveLength(before.length - ofFeed);
  });

  it('checks connector settings like ingestion will read them', async () => {
    const base = { name: 'x', source: 'Mastodon', sourceType: 'hashtag' };
    const bad = async (connector: unknown) =>
      failure(await m.api('POST', '/walls/7012/feeds', { ...base, connector }), 400);
    expect(await bad({ kind: 'mastodon', instance: 'https://m.example' })).toEqual([
      { field: 'connector', message: 'connector: exactly one of hashtag, account is required' },
    ]);
    expect(await bad({ kind: 'mastodon', instance: 'ftp://m.example', hashtag: 'x' })).toEqual([
      { field: 'connector.instance', message: 'connector.instance must be an absolute http or https URL' },
    ]);
    expect(fields(await bad({ kind: 'myspace' }))).toEqual(['connector']);
    expect(fields(await bad({ kind: 'rss' }))).toEqual(['connector.url']);
    expect(fields(await bad('rss'))).toEqual(['connector']);
  });
});
