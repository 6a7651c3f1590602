// Issue 10, the cases the recorded payloads do not hold: quotes the network
// cannot show, quoted authors who opted out, sensitive quotes, custom emoji
// with unusable URLs, Markdown that tries to carry markup, YouTube channel
// links. Each connector's mapping on small inputs in the upstream's shapes.
import { describe, expect, it } from 'vitest';
import { postViewPost } from '../../src/ingest/bluesky.js';
import type { UpstreamPost } from '../../src/ingest/connector.js';
import { markdownHtml } from '../../src/ingest/lemmy.js';
import { statusPost } from '../../src/ingest/mastodon.js';
import { QUOTE_UNAVAILABLE } from '../../src/ingest/normalize.js';
import { channelHandle } from '../../src/ingest/youtube.js';
import { contentProblems } from '../helpers/html-safety.js';

type Json = Record<string, unknown>;

// ---------- Bluesky ----------

const actor = (handle: string, labels: string[] = []) => ({
  did: `did:plc:${handle.split('.')[0]!.padEnd(24, 'x')}`,
  handle,
  displayName: handle.split('.')[0]!.toUpperCase(),
  labels: labels.map((val) => ({ val, src: 'did:plc:labeler', cts: '2025-01-01T00:00:00.000Z' })),
});

const image = (n: number, alt: string) => ({
  thumb: `https://cdn.bsky.app/img/feed_thumbnail/plain/did:plc:q/${n}@jpeg`,
  fullsize: `https://cdn.bsky.app/img/feed_fullsize/plain/did:plc:q/${n}@jpeg`,
  alt,
});

function quotedRecord(o: { handle?: string; authorLabels?: string[]; labels?: string[]; embeds?: Json[] } = {}) {
  const author = actor(o.handle ?? 'quoted.bsky.social', o.authorLabels);
  return {
    $type: 'app.bsky.embed.record#viewRecord',
    uri: `at://${author.did}/app.bsky.feed.post/3lquoted000a`,
    cid: 'bafyreiquoted',
    author,
    value: { $type: 'app.bsky.feed.post', text: 'The quoted words', createdAt: '2025-01-01T00:00:00.000Z' },
    labels: (o.labels ?? []).map((val) => ({ val })),
    indexedAt: '2025-01-01T00:00:01.000Z',
    ...(o.embeds ? { embeds: o.embeds } : {}),
  };
}

function quoting(embed: Json): Json {
  const author = actor('ana.bsky.social');
  return {
    uri: `at://${author.did}/app.bsky.feed.post/3lquoting00a`,
    cid: 'bafyreiquoting',
    author,
    record: { $type: 'app.bsky.feed.post', text: 'Look at this', createdAt: '2025-01-02T00:00:00.000Z' },
    embed,
    indexedAt: '2025-01-02T00:00:01.000Z',
    labels: [],
  };
}

const recordView = (record: Json) => ({ $type: 'app.bsky.embed.record#view', record });
const bsky = (view: Json) => postViewPost(view) as UpstreamPost;

describe('Bluesky quotes', () => {
  it.each([
    ['app.bsky.embed.record#viewNotFound', { notFound: true }],
    ['app.bsky.embed.record#viewBlocked', { blocked: true, author: { did: 'did:plc:blocker' } }],
    ['app.bsky.embed.record#viewDetached', { detached: true }],
  ])('%s: a block saying the quoted post is unavailable, nothing of it, no link', (type, extra) => {
    const post = bsky(
      quoting(recordView({ $type: type, uri: 'at://did:plc:gone/app.bsky.feed.post/3lgone', ...extra })),
    );
    expect(post.content).toBe(`<p>Look at this</p><blockquote><p>${QUOTE_UNAVAILABLE}</p></blockquote>`);
    expect(post.sensitive).toBe(false);
  });

  it('a quoted author who opted out of public display is not shown, nor their media', () => {
    const post = bsky(
      quoting(
        recordView(
          quotedRecord({
            authorLabels: ['!no-unauthenticated'],
            embeds: [{ $type: 'app.bsky.embed.images#view', images: [image(1, 'their photo')] }],
          }),
        ),
      ),
    );
    expect(post.content).toBe(`<p>Look at this</p><blockquote><p>${QUOTE_UNAVAILABLE}</p></blockquote>`);
    expect(post.media).toEqual([]);
  });

  it('a labelled quoted post makes the quoting post arrive hidden', () => {
    expect(bsky(quoting(recordView(quotedRecord({ labels: ['porn'] })))).sensitive).toBe(true);
    expect(bsky(quoting(recordView(quotedRecord({ authorLabels: ['!warn'] })))).sensitive).toBe(true);
    expect(bsky(quoting(recordView(quotedRecord()))).sensitive).toBe(false);
  });

  it('own media first; the quoted media then show as links named by their alt text', () => {
    const post = bsky(
      quoting({
        $type: 'app.bsky.embed.recordWithMedia#view',
        media: { $type: 'app.bsky.embed.images#view', images: [image(7, 'mine')] },
        record: {
          record: quotedRecord({
            embeds: [{ $type: 'app.bsky.embed.images#view', images: [image(8, 'theirs'), image(9, '')] }],
          }),
        },
      }),
    );
    expect(post.media.map((m) => [m.url, m.alt])).toEqual([[image(7, '').fullsize, 'mine']]);
    expect(post.content).toContain(`>Image: theirs</a>`);
    expect(post.content).toContain(
      `href="${image(9, '').fullsize}" rel="nofollow noopener noreferrer" target="_blank">Image</a>`,
    );
    expect(contentProblems(post.content)).toEqual([]);
  });

  it('a quoted feed, list or starter pack: its name, linked', () => {
    const creator = actor('maker.bsky.social');
    const feed = bsky(
      quoting(
        recordView({
          $type: 'app.bsky.feed.defs#generatorView',
          uri: `at://${creator.did}/app.bsky.feed.generator/trails`,
          creator,
          displayName: 'Trail runners',
        }),
      ),
    );
    expect(feed.content).toContain(
      `<a href="https://bsky.app/profile/maker.bsky.social/feed/trails" rel="nofollow noopener noreferrer" target="_blank"><strong>Trail runners</strong> @maker.bsky.social</a>`,
    );
    const list = bsky(
      quoting(
        recordView({
          $type: 'app.bsky.graph.defs#listView',
          uri: `at://${creator.did}/app.bsky.graph.list/l1`,
          creator,
          name: 'Crew',
        }),
      ),
    );
    expect(list.content).toContain('https://bsky.app/profile/maker.bsky.social/lists/l1');
    // a record type this version does not know: the post without a quote block
    expect(bsky(quoting(recordView({ $type: 'app.bsky.future#view', uri: 'at://x/y/z' }))).content).toBe(
      '<p>Look at this</p>',
    );
  });
});

// ---------- Mastodon ----------

const account = (acct: string, name: string, emojis: Json[] = []) => ({
  id: '1',
  username: acct,
  acct,
  display_name: name,
  url: `https://social.example/@${acct}`,
  avatar: `https://social.example/avatars/${acct}.png`,
  emojis,
});

function mstatus(o: Json = {}): Json {
  return {
    id: '113000000000000001',
    created_at: '2025-01-01T00:00:00.000Z',
    url: 'https://social.example/@ana/113000000000000001',
    sensitive: false,
    spoiler_text: '',
    content: '<p>Hello</p>',
    account: account('ana', 'Ana'),
    media_attachments: [],
    tags: [],
    emojis: [],
    card: null,
    poll: null,
    ...o,
  };
}

const RE_PARAGRAPH =
  '<p class="quote-inline">RE: <a href="https://social.example/@bo/113000000000000000">social.example/@bo/113000000000000000</a></p>';

describe('Mastodon quotes, custom emoji, content warnings', () => {
  const quoted = mstatus({
    id: '113000000000000000',
    url: 'https://social.example/@bo/113000000000000000',
    account: account('bo', 'Bo'),
    content: '<p>Original</p>',
    media_attachments: [
      {
        type: 'image',
        url: 'https://files.social.example/o.jpg',
        preview_url: 'https://files.social.example/s.jpg',
        description: 'a heron',
      },
    ],
  });

  it.each(['pending', 'revoked', 'deleted', 'unauthorized', 'blocked_account'])(
    'a %s quote: the RE: paragraph goes, a block says the quoted post is unavailable',
    (state) => {
      const post = statusPost(
        mstatus({
          content: `${RE_PARAGRAPH}<p>Look</p>`,
          quote: { state, quoted_status: state === 'deleted' ? null : quoted },
        }),
        'https://social.example',
      )!;
      expect(post.content).toBe(`<p>Look</p><blockquote><p>${QUOTE_UNAVAILABLE}</p></blockquote>`);
      expect(post.media).toEqual([]);
    },
  );

  it('an accepted quote: the quoted post, its media as the post’s own (with alt text), its sensitivity', () => {
    const post = statusPost(
      mstatus({
        content: `${RE_PARAGRAPH}<p>Look</p>`,
        quote: { state: 'accepted', quoted_status: { ...quoted, spoiler_text: 'birds' } },
      }),
      'https://social.example',
    )!;
    expect(post.content).toBe(
      '<p>Look</p><blockquote><p><a href="https://social.example/@bo/113000000000000000" rel="nofollow noopener noreferrer" target="_blank"><strong>Bo</strong> @bo@social.example</a></p>' +
        '<p><strong>Content warning:</strong> birds</p><p>Original</p></blockquote>',
    );
    expect(post.media).toEqual([
      {
        kind: 'image',
        url: 'https://files.social.example/o.jpg',
        thumb: 'https://files.social.example/s.jpg',
        alt: 'a heron',
      },
    ]);
    expect(post.sensitive).toBe(true);
  });

  it('custom emoji: only known shortcodes in text, only with an http(s) image; names keep the shortcode', () => {
    const post = statusPost(
      mstatus({
        content: '<p>:blob: <a href="https://x.example/:blob:/">:blob:</a> :other: :evil:</p>',
        spoiler_text: 'loud :blob:',
        emojis: [
          { shortcode: 'blob', url: 'https://cdn.example/blob.png', static_url: 'https://cdn.example/blob-s.png' },
          { shortcode: 'evil', url: 'javascript:alert(1)', static_url: 'javascript:alert(1)' },
        ],
        account: account('ana', 'Ana :blob:', [{ shortcode: 'blob', url: 'https://cdn.example/blob.png' }]),
      }),
      'https://social.example',
    )!;
    const img =
      '<img src="https://cdn.example/blob.png" alt=":blob:" title=":blob:" class="emoji" width="20" height="20" />';
    expect(post.content).toBe(
      `<p><strong>Content warning:</strong> loud ${img}</p>` +
        `<p>${img} <a href="https://x.example/:blob:/" rel="nofollow noopener noreferrer" target="_blank">${img}</a> :other: :evil:</p>`,
    );
    expect(post.authorName).toBe('Ana :blob:');
    expect(post.sensitive).toBe(true);
  });

  it('an upstream <img class="emoji"> is never kept: only the connector makes emoji images', () => {
    const post = statusPost(
      mstatus({
        content: '<p><img src="https://tracker.example/p.gif" alt=":x:" class="emoji" width="20" height="20" /> hi</p>',
      }),
      'https://social.example',
    )!;
    expect(post.content).toBe('<p> hi</p>');
  });
});

// ---------- Lemmy, YouTube ----------

describe('Lemmy Markdown', () => {
  it('renders Markdown, keeps raw HTML as text, links images by their alt text, drops unsafe links', () => {
    expect(markdownHtml('# Title\n\n**bold** _it_ `code` <b onclick="x">raw</b>\n\n- a\n- b')).toBe(
      '<p>Title</p><p><strong>bold</strong> <em>it</em> <code>code</code> &lt;b onclick="x"&gt;raw&lt;/b&gt;</p><ul><li>a</li><li>b</li></ul>',
    );
    expect(markdownHtml('![a heron](https://img.example/h.jpg) [x](javascript:alert(1))')).toBe(
      '<p><a href="https://img.example/h.jpg" rel="nofollow noopener noreferrer" target="_blank">a heron</a> [x](javascript:alert(1))</p>',
    );
  });
});

describe('YouTube channel handle', () => {
  it.each([
    ['https://www.youtube.com/@GoogleDevelopers', 'GoogleDevelopers'],
    ['http://www.youtube.com/user/Google', 'Google'],
    ['https://www.youtube.com/c/DigitalFoundry/', 'DigitalFoundry'],
    ['https://www.youtube.com/channel/UC9PBzalIcEQCsiIkq36PyUA', ''],
    ['not a url', ''],
  ])('%s → %j', (link, handle) => expect(channelHandle(link)).toBe(handle));
});
