// RSS 2.0 and Atom connector against a local publisher.
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { atomXml, rssXml, startFeeds, type FeedFixture, type RssItem } from './fixtures/feeds.js';
import {
  NOW,
  WALL,
  ingestState,
  moderate,
  moderation,
  startHarness,
  storedPosts,
  untilDue,
  wallPosts,
  widgetPosts,
  type Harness,
} from './harness.js';

let fx: FeedFixture;
let h: Harness;
afterEach(async () => {
  await h?.close();
  await fx?.close();
});

const rfc822 = (minutesBefore: number) => new Date(NOW - minutesBefore * 60_000).toUTCString();

const ITEMS: RssItem[] = [
  {
    guid: 'https://blog.example/?p=101',
    title: 'Ridge at dawn',
    link: 'https://blog.example/ridge-at-dawn/',
    pubDate: rfc822(50),
    description:
      '<p>Cold &amp; clear. <script>alert(1)</script><a href="javascript:alert(2)">x</a> <a href="https://maps.example/ridge" onclick="evil()">map</a></p>',
    creator: 'Ana Lima',
    categories: ['Trail', 'Dawn'],
    mediaContent: [{ url: 'https://blog.example/wp-content/uploads/ridge.jpg', medium: 'image' }],
    featureName: 'Zürich, CH',
  },
  {
    guid: 'https://blog.example/?p=102',
    title: 'Descent',
    link: 'https://blog.example/descent/',
    pubDate: rfc822(40),
    description: 'A fast descent.',
    enclosure: { url: 'https://blog.example/wp-content/uploads/descent.mp4', type: 'video/mp4' },
    mediaThumbnail: 'https://blog.example/wp-content/uploads/descent-poster.jpg',
  },
  {
    guid: 'https://blog.example/?p=103',
    title: 'Two views',
    link: 'https://blog.example/two-views/',
    pubDate: rfc822(30),
    description: 'Left and right.',
    mediaContent: [
      { url: 'https://blog.example/wp-content/uploads/left.jpg', type: 'image/jpeg' },
      { url: 'https://blog.example/wp-content/uploads/right.jpg', type: 'image/jpeg' },
    ],
  },
  {
    guid: 'https://blog.example/?p=104',
    title: 'Inline picture',
    link: 'https://blog.example/inline/',
    pubDate: rfc822(20),
    description: '<p>Look:</p><img src="https://blog.example/wp-content/uploads/inline.png" alt="">',
    cdata: true,
  },
  {
    guid: 'https://blog.example/?p=105',
    title: 'Adult only',
    link: 'https://blog.example/adult/',
    pubDate: rfc822(15),
    description: 'x',
    rating: 'adult',
  },
  {
    guid: 'https://blog.example/?p=106',
    title: 'Just text',
    link: 'https://blog.example/text/',
    pubDate: rfc822(10),
    description: 'Nothing to see but words #wallery',
  },
];

async function rssWall() {
  fx = await startFeeds();
  fx.documents.set('/feed.xml', { body: rssXml(ITEMS), type: 'application/rss+xml; charset=UTF-8' });
  h = await startHarness([{ id: 801, name: 'Trail Notes', connector: { kind: 'rss', url: `${fx.origin}/feed.xml` } }]);
}

describe('rss 2.0', () => {
  it('fills the wall with Media RSS, enclosures, inline images, categories and places mapped', async () => {
    await rssWall();
    const [report] = await h.poll();
    expect(report).toMatchObject({ status: 'ok', kind: 'rss', inserted: 6 });
    expect((await storedPosts(h, 801)).find((p) => p.external_id === 'https://blog.example/?p=105')!.hidden).toBe(1);
    const posts = await wallPosts(h);
    expect(posts.size).toBe(5);

    const ridge = posts.get('https://blog.example/ridge-at-dawn/')!;
    expect(ridge.widget).toMatchObject({
      networkName: 'RSS',
      PostType: 2,
      postPicture: 'https://blog.example/wp-content/uploads/ridge.jpg',
      postAuthorName: 'Ana Lima',
      postUsername: 'blog.example',
      postUserPicture: 'https://blog.example/wp-content/uploads/icon.png',
      postTags: 'Trail,Dawn',
      location: 'Zürich, CH',
      postCreatedAt: '15/01/2026',
    });
    expect(ridge.widget.content).toBe(
      '<p><strong>Ridge at dawn</strong></p><p>Cold &amp; clear. <span>x</span> ' +
        '<a href="https://maps.example/ridge" rel="nofollow noopener noreferrer" target="_blank">map</a></p>',
    );
    expect(ridge.commerce).toMatchObject({ postType: 2, postContent: ridge.widget.content });
    expect(posts.get('https://blog.example/descent/')!.widget).toMatchObject({
      PostType: 3,
      postMediaFile: 'https://blog.example/wp-content/uploads/descent.mp4',
      postPicture: 'https://blog.example/wp-content/uploads/descent-poster.jpg',
      postAuthorName: 'Trail Notes',
    });
    expect(posts.get('https://blog.example/two-views/')!.widget).toMatchObject({
      PostType: 4,
      childNode: [
        { image: 'https://blog.example/wp-content/uploads/left.jpg', video: '' },
        { image: 'https://blog.example/wp-content/uploads/right.jpg', video: '' },
      ],
    });
    const inline = posts.get('https://blog.example/inline/')!.widget;
    expect(inline).toMatchObject({ PostType: 2, postPicture: 'https://blog.example/wp-content/uploads/inline.png' });
    expect(inline.content).toBe('<p><strong>Inline picture</strong></p><p>Look:</p>');
    expect(posts.get('https://blog.example/text/')!.widget).toMatchObject({ PostType: 1, postTags: 'wallery' });
    expect(h.changed).toEqual([WALL]);
  });

  it('uses conditional GET: 304 changes nothing; Cache-Control max-age delays the next poll', async () => {
    await rssWall();
    await h.poll();
    const state = await ingestState(h, 801);
    expect(state.etag).toMatch(/^W\//);
    expect(state.last_modified).toBe('Thu, 15 Jan 2026 11:50:00 GMT');
    expect(state.next_poll_at).toBe(NOW + 600_000); // max-age=600 beats the 300 s interval
    h.changed.length = 0;
    await untilDue(h, 801);
    const [second] = await h.poll();
    expect(second).toMatchObject({ status: 'not_modified', inserted: 0, updated: 0 });
    expect(fx.requests[1]!.headers['if-none-match']).toBe(state.etag);
    expect(fx.requests[1]!.headers['if-modified-since']).toBe(state.last_modified);
    expect(h.changed).toEqual([]);
    // the validators stay for the next time
    expect((await ingestState(h, 801)).etag).toBe(state.etag);
  });

  it('adds only new items; an edit updates the post and keeps its moderation state', async () => {
    await rssWall();
    await h.poll();
    const target = (await storedPosts(h, 801)).find((p) => p.external_id === 'https://blog.example/?p=106')!;
    await moderate(h, target.id);
    const before = await moderation(h, target.id);
    const items = ITEMS.map((i) => (i.guid.endsWith('106') ? { ...i, description: 'Words, now edited' } : i));
    items.unshift({
      guid: 'https://blog.example/?p=107',
      title: 'Fresh',
      link: 'https://blog.example/fresh/',
      pubDate: rfc822(1),
      description: 'New!',
    });
    fx.documents.set('/feed.xml', { body: rssXml(items), type: 'application/rss+xml' });
    await untilDue(h, 801);
    expect((await h.poll())[0]).toMatchObject({ status: 'ok', inserted: 1, updated: 1 });
    expect(await storedPosts(h, 801)).toHaveLength(7);
    expect((await storedPosts(h, 801)).find((p) => p.id === target.id)!.content).toContain('now edited');
    expect(await moderation(h, target.id)).toEqual(before);
  });

  it('reads gzip and ISO-8859-1 feeds', async () => {
    fx = await startFeeds();
    const latin = rssXml([
      {
        guid: 'l1',
        title: 'Café près du lac',
        link: 'https://blog.example/cafe/',
        pubDate: rfc822(5),
        description: 'Très bon.',
      },
    ]).replace('encoding="UTF-8"', 'encoding="ISO-8859-1"');
    fx.handler = () => ({
      status: 200,
      headers: { 'content-type': 'application/rss+xml', 'content-encoding': 'gzip' },
      body: gzipSync(Buffer.from(latin, 'latin1')),
    });
    h = await startHarness([{ id: 801, name: 'latin', connector: { kind: 'rss', url: `${fx.origin}/feed.xml` } }]);
    expect((await h.poll())[0]).toMatchObject({ status: 'ok', inserted: 1 });
    expect(fx.requests[0]!.headers['accept-encoding']).toContain('gzip');
    expect((await storedPosts(h, 801))[0]!.content).toBe('<p><strong>Café près du lac</strong></p>Très bon.');
  });

  it('fails on a missing feed, an HTML page, malformed XML; an empty feed is fine; bad items are left out', async () => {
    fx = await startFeeds();
    h = await startHarness([{ id: 801, name: 'x', connector: { kind: 'rss', url: `${fx.origin}/feed.xml` } }]);
    expect((await h.poll())[0]).toMatchObject({
      status: 'failed',
      message: `HTTP 404 from 127.0.0.1:${fx.port} (an HTML error page)`,
    });
    await untilDue(h, 801);
    fx.queue.push({
      status: 200,
      headers: { 'content-type': 'text/html' },
      body: '<!DOCTYPE html><html><body><p>Checking your browser</body></html>',
    });
    expect((await h.poll())[0]!.message).toBe(`expected a feed from 127.0.0.1:${fx.port}, got an HTML page`);
    await untilDue(h, 801);
    fx.queue.push({
      status: 200,
      headers: { 'content-type': 'application/rss+xml' },
      body: '<rss><channel><item><title>cut off',
    });
    expect((await h.poll())[0]!.message).toMatch(new RegExp(`^malformed XML from 127\\.0\\.0\\.1:${fx.port}`));
    await untilDue(h, 801);
    fx.queue.push({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"items": []}' });
    expect((await h.poll())[0]!.message).toBe(
      `expected a feed from 127.0.0.1:${fx.port}, got something that is not XML`,
    );
    expect((await ingestState(h, 801)).consecutive_failures).toBe(4);
    await untilDue(h, 801);
    fx.documents.set('/feed.xml', { body: rssXml([]), type: 'application/rss+xml' });
    expect((await h.poll())[0]).toMatchObject({ status: 'ok', inserted: 0 });
    expect((await ingestState(h, 801)).consecutive_failures).toBe(0);
    await untilDue(h, 801);
    const good = rssXml([
      { guid: 'g1', title: 'Good', link: 'https://blog.example/good/', pubDate: rfc822(1), description: 'ok' },
    ]);
    fx.documents.set('/feed.xml', {
      body: good.replace('<item>', '<item><title></title><link>javascript:alert(1)</link></item><item>'),
      type: 'application/rss+xml',
    });
    expect((await h.poll())[0]).toMatchObject({ status: 'ok', inserted: 1, skippedItems: 1 });
  });

  it('a picture alone is a post: polled, stored and served on the wall (no title, text or link)', async () => {
    fx = await startFeeds();
    const body = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
<channel><title>Harbour Photos</title><link>https://photos.example/</link>
<item><guid isPermaLink="false">ph-1</guid><pubDate>${rfc822(30)}</pubDate><media:content url="https://photos.example/quay.jpg" medium="image"/></item>
<item><guid isPermaLink="false">ph-2</guid><pubDate>${rfc822(20)}</pubDate><itunes:image href="https://photos.example/crane.jpg"/></item>
<item><pubDate>${rfc822(10)}</pubDate><enclosure url="https://photos.example/gull.mp4" type="video/mp4" length="1"/></item>
</channel></rss>`;
    fx.documents.set('/feed.xml', { body, type: 'application/rss+xml' });
    h = await startHarness([{ id: 801, name: 'Photos', connector: { kind: 'rss', url: `${fx.origin}/feed.xml` } }]);
    expect((await h.poll())[0]).toMatchObject({ status: 'ok', inserted: 3, skippedItems: 0 });
    const posts = await widgetPosts(h);
    expect(posts.map((p) => [p.PostType, p.postFile, p.content, p.postAuthorName])).toEqual([
      [3, 'https://photos.example/gull.mp4', '', 'Harbour Photos'],
      [2, 'https://photos.example/crane.jpg', '', 'Harbour Photos'],
      [2, 'https://photos.example/quay.jpg', '', 'Harbour Photos'],
    ]);
    // a re-poll finds the same posts (the one without a guid too): nothing new, nothing changed
    await untilDue(h, 801);
    fx.documents.set('/feed.xml', { body: `${body}\n`, type: 'application/rss+xml' });
    expect((await h.poll())[0]).toMatchObject({ status: 'ok', inserted: 0, updated: 0 });
  });
});

describe('atom', () => {
  it('maps entries: html content, alternate link, categories, feed icon, updated time', async () => {
    fx = await startFeeds();
    fx.documents.set('/atom.xml', {
      body: atomXml([
        {
          id: 'tag:journal.example,2026:1',
          title: 'Snow &amp; ice',
          link: 'https://journal.example/2026/snow',
          published: '2026-01-15T11:00:00Z',
          updated: '2026-01-15T11:30:00+01:00',
          html: '<p>Deep snow today.</p><figure><img src="/img/snow.jpg"></figure>',
          author: 'Mo',
          categories: ['winter', 'snow'],
        },
        {
          id: 'tag:journal.example,2026:2',
          title: 'No author',
          link: 'https://journal.example/2026/b',
          published: '2026-01-15T10:00:00Z',
          updated: '2026-01-15T10:00:00Z',
          html: 'plain',
        },
      ]),
      type: 'application/atom+xml',
    });
    h = await startHarness([{ id: 802, name: 'Journal', connector: { kind: 'rss', url: `${fx.origin}/atom.xml` } }]);
    expect((await h.poll())[0]).toMatchObject({ status: 'ok', inserted: 2 });
    const posts = await wallPosts(h);
    expect(posts.get('https://journal.example/2026/snow')!.widget).toMatchObject({
      PostType: 2,
      // relative image URLs resolve against the page the entry links to (no xml:base)
      postPicture: 'https://journal.example/img/snow.jpg',
      postAuthorName: 'Mo',
      postUsername: 'journal.example',
      postUserPicture: 'https://journal.example/icon.png',
      postTags: 'winter,snow',
      content: '<p><strong>Snow &amp; ice</strong></p><p>Deep snow today.</p>',
    });
    const stored = (await storedPosts(h, 802)).find((p) => p.external_id === 'tag:journal.example,2026:1')!;
    expect(stored.created_at).toBe(Date.UTC(2026, 0, 15, 11, 0));
    expect(stored.updated_at).toBe(Date.UTC(2026, 0, 15, 11, 0)); // 11:30+01:00 is 10:30Z, before it was published: kept at created
    expect(posts.get('https://journal.example/2026/b')!.widget).toMatchObject({
      PostType: 1,
      postAuthorName: 'Journal Team',
    });
  });
});

describe('operator edits', () => {
  it('an operator’s content edit survives re-reads of an unchanged item; an upstream edit replaces it', async () => {
    await rssWall();
    await h.poll();
    const target = (await storedPosts(h, 801)).find((p) => p.external_id === 'https://blog.example/?p=102')!;
    await h.server.store.db
      .updateTable('posts')
      .set({ content: '<p>Edited by the operator</p>' })
      .where('id', '=', target.id)
      .execute();

    // the document changes elsewhere, so the item is read again (200, not 304)
    const fresh = {
      guid: 'https://blog.example/?p=108',
      title: 'Another',
      link: 'https://blog.example/another/',
      pubDate: rfc822(1),
      description: 'x',
    };
    fx.documents.set('/feed.xml', { body: rssXml([fresh, ...ITEMS]), type: 'application/rss+xml' });
    await untilDue(h, 801);
    expect((await h.poll())[0]).toMatchObject({ status: 'ok', inserted: 1, updated: 0 });
    expect((await storedPosts(h, 801)).find((p) => p.id === target.id)!.content).toBe('<p>Edited by the operator</p>');

    const edited = ITEMS.map((i) => (i.guid.endsWith('102') ? { ...i, description: 'A fast descent, rewritten.' } : i));
    fx.documents.set('/feed.xml', { body: rssXml([fresh, ...edited]), type: 'application/rss+xml' });
    await untilDue(h, 801);
    expect((await h.poll())[0]).toMatchObject({ status: 'ok', inserted: 0, updated: 1 });
    expect((await storedPosts(h, 801)).find((p) => p.id === target.id)!.content).toContain('rewritten');
  });
});

describe('many items', () => {
  it('entity-escaped HTML is read item by item: a feed of many such items is not refused as a whole', async () => {
    // each description holds 8 entity references, 2,400 in all: more than the
    // parser allows in one document (1,000), well within what one item may hold
    fx = await startFeeds();
    const many = Array.from({ length: 300 }, (_, i) => ({
      guid: `e${i}`,
      title: `Escaped ${i}`,
      link: `https://blog.example/e${i}`,
      pubDate: rfc822(i + 1),
      description: `<p>Item <b>${i}</b> &amp; more</p>`,
    }));
    fx.documents.set('/feed.xml', { body: rssXml(many), type: 'application/rss+xml' });
    h = await startHarness([{ id: 805, name: 'Escaped', connector: { kind: 'rss', url: `${fx.origin}/feed.xml` } }]);
    expect((await h.poll())[0]).toMatchObject({ status: 'ok', inserted: 300, skippedItems: 0 });
    expect((await storedPosts(h, 805)).find((p) => p.external_id === 'e7')!.content).toBe(
      '<p><strong>Escaped 7</strong></p><p>Item <b>7</b> &amp; more</p>',
    );
  });
});

describe('INGEST_MAX_ITEMS', () => {
  const minutes = [7, 3, 12, 1, 9, 4, 11, 2, 8, 5, 10, 6]; // document order is not date order
  const item = (m: number): RssItem => ({
    guid: `m${m}`,
    title: `${m} minutes ago`,
    link: `https://blog.example/m${m}`,
    pubDate: rfc822(m),
    description: 'x',
  });

  it('a poll keeps the newest items of a feed with more, by date; undated ones only after dated ones', async () => {
    fx = await startFeeds();
    const undated = { ...item(0), guid: 'undated', link: 'https://blog.example/undated', pubDate: '' };
    fx.documents.set('/feed.xml', { body: rssXml([undated, ...minutes.map(item)]), type: 'application/rss+xml' });
    h = await startHarness([{ id: 803, name: 'Many', connector: { kind: 'rss', url: `${fx.origin}/feed.xml` } }], {
      config: { maxItems: 5 },
    });
    expect((await h.poll())[0]).toMatchObject({ status: 'ok', inserted: 5, skippedItems: 0 });
    expect((await storedPosts(h, 803)).map((p) => p.external_id)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
  });

  it('the same for Atom entries (published, else updated)', async () => {
    fx = await startFeeds();
    const entry = (m: number, published = true) => ({
      id: `e${m}`,
      title: `${m}`,
      link: `https://journal.example/e${m}`,
      published: published ? new Date(NOW - m * 60_000).toISOString() : '',
      updated: new Date(NOW - m * 60_000).toISOString(),
      html: 'x',
    });
    fx.documents.set('/atom.xml', {
      body: atomXml([entry(4), entry(9), entry(1, false), entry(6), entry(2), entry(8)]),
      type: 'application/atom+xml',
    });
    h = await startHarness([{ id: 804, name: 'Atom', connector: { kind: 'rss', url: `${fx.origin}/atom.xml` } }], {
      config: { maxItems: 3 },
    });
    expect((await h.poll())[0]).toMatchObject({ status: 'ok', inserted: 3 });
    expect((await storedPosts(h, 804)).map((p) => p.external_id)).toEqual(['e1', 'e2', 'e4']);
  });
});
