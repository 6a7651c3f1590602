// From upstream text and media to stored fields.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  arrivesHidden,
  hashtagsIn,
  mediaFields,
  normalizeTags,
  parseInstant,
  plainText,
  segmentsToHtml,
  textToHtml,
  toPostFields,
} from '../../src/ingest/normalize.js';
import { isProfane } from '../../src/domain/profanity.js';
import { createHash } from 'node:crypto';
import { sanitizeIngestedHtml } from '../../src/domain/sanitize.js';
import { upstreamHash } from '../../src/ingest/upstream-hash.js';
import type { IngestedPost } from '../../src/store/ingest.js';
import type { UpstreamPost } from '../../src/ingest/connector.js';

const post = (over: Partial<UpstreamPost> = {}): UpstreamPost => ({
  externalId: '1',
  content: '<p>hi</p>',
  authorName: 'Ana',
  username: 'ana',
  userPicture: 'https://cdn.example/a.png',
  linkUrl: 'https://social.example/1',
  createdAt: Date.UTC(2026, 0, 1),
  updatedAt: null,
  media: [],
  tags: [],
  sensitive: false,
  ...over,
});

describe('HTML', () => {
  it('keeps harmless formatting and http(s) links; drops scripts, handlers, other schemes, images, styles', () => {
    expect(
      sanitizeIngestedHtml(
        '<div><h2>Title</h2><p style="color:red" onclick="x()">a <b>b</b> <em>c</em><br>d</p>' +
          '<a href="https://ok.example/" title="t" rel="opener">ok</a> <a href="javascript:alert(1)">js</a> <a href="//evil.example">pr</a>' +
          '<script>alert(1)</script><style>p{}</style><iframe src="https://x"></iframe><img src="https://x/y.png" onerror="z()"><svg onload="x()"><circle/></svg></div>',
      ),
    ).toBe(
      '<p><p>Title</p><p>a <b>b</b> <em>c</em><br />d</p>' +
        '<a href="https://ok.example/" title="t" rel="nofollow noopener noreferrer" target="_blank">ok</a> <span>js</span> <span>pr</span></p>',
    );
  });

  it('never lets markup that can run code through (property)', () => {
    const pieces = fc.constantFrom(
      '<script>alert(1)</script>',
      '<img src=x onerror=alert(1)>',
      '<a href="javascript:alert(1)">x</a>',
      '<a href="JaVaScRiPt:alert(1)">x</a>',
      '<a href="jav&#x09;ascript:alert(1)">x</a>',
      '<svg/onload=alert(1)>',
      '<iframe src="data:text/html,x">',
      '<p onmouseover="x()">',
      '&lt;script&gt;',
      '<<script>script>',
      '<style>*{}</style>',
      '<a href="data:text/html;base64,PHNjcmlwdD4=">d</a>',
      '<object data="x"></object>',
      '<p>',
      '</p>',
      'text & more',
      '<b>',
      '"\'',
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(pieces, fc.string()), { maxLength: 12 }), (parts) => {
        const out = sanitizeIngestedHtml(parts.join(''));
        expect(out).not.toMatch(/<(script|img|svg|iframe|object|style)\b/i);
        expect(out).not.toMatch(/\son\w+\s*=/i);
        expect(out).not.toMatch(/(javascript|data):/i);
        const text = plainText(parts.join(''));
        expect(text).not.toMatch(/<[a-z!/?]/i);
      }),
      { numRuns: 300 },
    );
  });

  it('plain text: tags gone, entities decoded, markup hidden in entities stripped too', () => {
    expect(plainText('<p>Caf&eacute; &amp; <b>bar</b></p><p>x &lt; y &gt; z</p>')).toBe('Café & bar x < y > z');
    expect(plainText('&lt;script&gt;alert(1)&lt;/script&gt; Bo')).toBe('Bo');
    // deeper encodings and a trailing "</" leave no markup either
    expect(plainText('&amp;amp;amp;lt;img src=x onerror=alert(1)&amp;amp;amp;gt;Bo')).toBe('Bo');
    expect(plainText('Bo </')).toBe('Bo');
    expect(plainText('<p>one</p><p>two<br>three</p>', true)).toBe('one\ntwo\nthree');
  });

  it('text to HTML: escaped, paragraphs and line breaks, bare links linked', () => {
    expect(textToHtml('a < b & "c"\nnext\n\nsee https://x.example/p?q=1&r=2.')).toBe(
      '<p>a &lt; b &amp; &quot;c&quot;<br />next</p><p>see <a href="https://x.example/p?q=1&amp;r=2" rel="nofollow noopener noreferrer" target="_blank">https://x.example/p?q=1&amp;r=2</a>.</p>',
    );
    expect(segmentsToHtml([{ text: 'go ' }, { text: 'here', href: 'javascript:alert(1)' }])).toBe('<p>go here</p>');
  });
});

describe('small values', () => {
  it('hashtags and tags', () => {
    expect(hashtagsIn('#one two #Zwei #3 x#no (#ok) #ünïcode https://x/#frag')).toEqual([
      'one',
      'Zwei',
      'ok',
      'ünïcode',
    ]);
    expect(normalizeTags(['#Trail', 'trail', ' a, b ', '', '<b>x</b>'])).toEqual(['Trail', 'a b', 'x']);
    expect(normalizeTags(['Donald Trump', ' US  news\n', 'donald trump'])).toEqual(['Donald Trump', 'US news']);
  });

  it('instants in every upstream form, as UTC', () => {
    expect(parseInstant('2026-01-15T11:00:00.000Z')).toBe(Date.UTC(2026, 0, 15, 11));
    expect(parseInstant('2026-01-15T11:00:00.123456Z')).toBe(Date.UTC(2026, 0, 15, 11, 0, 0, 123));
    expect(parseInstant('2026-01-15T11:00:00.123456')).toBe(Date.UTC(2026, 0, 15, 11, 0, 0, 123));
    expect(parseInstant('2026-01-15T12:00:00+01:00')).toBe(Date.UTC(2026, 0, 15, 11));
    expect(parseInstant('Thu, 15 Jan 2026 11:00:00 GMT')).toBe(Date.UTC(2026, 0, 15, 11));
    expect(parseInstant('Thu, 15 Jan 2026 06:00:00 -0500')).toBe(Date.UTC(2026, 0, 15, 11));
    expect(parseInstant('yesterday')).toBeNull();
    expect(parseInstant(42)).toBeNull();
  });

  it('profanity', () => {
    expect(isProfane('what the fuck')).toBe(true);
    expect(isProfane('fuuuuck this')).toBe(true);
    expect(isProfane('Scunthorpe assessment')).toBe(false);
  });
});

describe('media → postType', () => {
  const img = (n: number) => ({
    kind: 'image' as const,
    url: `https://cdn.example/${n}.jpg`,
    thumb: `https://cdn.example/${n}-s.jpg`,
  });
  const vid = { kind: 'video' as const, url: 'https://cdn.example/v.mp4', thumb: 'https://cdn.example/v.jpg' };

  it('text, image, video, carousel', () => {
    expect(mediaFields([])).toMatchObject({ post_type: 1, media: 'text', picture: '', file: '', children: '[]' });
    expect(mediaFields([img(1)])).toEqual({
      post_type: 2,
      media: 'image',
      picture: 'https://cdn.example/1.jpg',
      file: 'https://cdn.example/1.jpg',
      file_original: '',
      file_thumb: 'https://cdn.example/1-s.jpg',
      media_file: '',
      children: JSON.stringify([{ image: 'https://cdn.example/1.jpg', video: '' }]),
      alt: '',
    });
    expect(mediaFields([vid])).toEqual({
      post_type: 3,
      media: 'video',
      picture: 'https://cdn.example/v.jpg',
      file: 'https://cdn.example/v.mp4',
      file_original: '',
      file_thumb: 'https://cdn.example/v.jpg',
      media_file: 'https://cdn.example/v.mp4',
      children: JSON.stringify([{ image: 'https://cdn.example/v.jpg', video: 'https://cdn.example/v.mp4' }]),
      alt: '',
    });
    const carousel = mediaFields([img(1), vid, img(2)]);
    expect(carousel).toMatchObject({ post_type: 4, media: 'image', picture: 'https://cdn.example/1.jpg' });
    expect(JSON.parse(carousel.children)).toHaveLength(3);
  });

  it('to stored fields: unsafe URLs dropped, names as plain text, times UTC, edits never before creation', () => {
    const fields = toPostFields(
      post({
        authorName: '<b>Ana</b> &amp; Co',
        userPicture: 'javascript:alert(1)',
        linkUrl: 'data:text/html,x',
        media: [{ kind: 'image', url: 'ftp://x/y.jpg', thumb: '' }, img(3)],
        tags: ['#a', 'b'],
        location: '<i>Zürich</i>',
        updatedAt: Date.UTC(2025, 0, 1),
      }),
      'RSS',
      Date.UTC(2026, 1, 1),
    );
    expect(fields).toMatchObject({
      network_name: 'RSS',
      author_name: 'Ana & Co',
      user_picture: '',
      link_url: '',
      post_type: 2,
      picture: 'https://cdn.example/3.jpg',
      tags: 'a,b',
      location: 'Zürich',
      created_at: Date.UTC(2026, 0, 1),
      updated_at: Date.UTC(2026, 0, 1),
    });
    expect(toPostFields(post({ createdAt: null }), 'RSS', 123).created_at).toBe(123);
  });

  it('arrives hidden when sensitive, or profane on a filtering wall', () => {
    expect(arrivesHidden(post({ sensitive: true }), false)).toBe(true);
    expect(arrivesHidden(post({ content: '<p>holy shit</p>' }), false)).toBe(false);
    expect(arrivesHidden(post({ content: '<p>holy shit</p>' }), true)).toBe(true);
    expect(arrivesHidden(post({ authorName: 'Dickhead Dan' }), true)).toBe(true);
    expect(arrivesHidden(post({ content: '<p>a fine day</p>' }), true)).toBe(false);
  });
});

describe('control characters from upstream (as untrusted as a write)', () => {
  // ESC [8m hides text; OSC 52 writes the clipboard; U+009B is a one-character CSI
  const HIDDEN = 'Summer \u001b[8mhidden\u001b[0m';
  const OSC52 = '\u001b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\u0007';
  const ANY = /[\u0000-\u001F\u007F-\u009F]/;
  const BUT_LINES = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
  const TEXT_COLUMNS = ['author_name', 'username', 'location', 'tags'] as const;

  it('are stored by no field: content and alt text keep their lines, names are one line', () => {
    const fields = toPostFields(
      post({
        content: `<p>copy ${OSC52} \u009b31m red</p>\n<p>two</p>`,
        authorName: HIDDEN,
        username: 'ana\u0085',
        location: '&#27;[8mZürich',
        tags: ['sale\u001b'],
        media: [{ kind: 'image', url: 'https://cdn.example/1.jpg', thumb: '', alt: `a\u001b[8m heron\nat dawn` }],
      }),
      'Mastodon',
      0,
    );
    expect(fields).toMatchObject({
      content: '<p>copy ]52;c;Y3VybCBldmlsLnNoIHwgc2g= 31m red</p>\n<p>two</p>',
      author_name: 'Summer [8mhidden[0m',
      username: 'ana',
      location: '[8mZürich',
      tags: 'sale',
      alt: 'a[8m heron\nat dawn',
    });
  });

  it('for any upstream text, no stored text holds one, but lines in content and alt text (property)', () => {
    const text = fc
      .array(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 12 }),
          fc.constantFrom(HIDDEN, OSC52, '&#27;', '&#x81;', '<b>', '<p>', '\r\n', '\t'),
          fc.string({ unit: fc.integer({ min: 0, max: 0x9f }).map((c) => String.fromCharCode(c)), maxLength: 8 }),
        ),
        { maxLength: 6 },
      )
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, text, text, text, (content, name, place, alt) => {
        const fields = toPostFields(
          post({
            content: sanitizeIngestedHtml(content),
            authorName: name,
            username: name,
            location: place,
            tags: [place, name],
            media: [{ kind: 'image', url: 'https://cdn.example/1.jpg', thumb: '', alt }],
          }),
          'RSS',
          0,
        );
        expect(fields.content).not.toMatch(BUT_LINES);
        expect(fields.alt).not.toMatch(BUT_LINES);
        for (const column of TEXT_COLUMNS) expect(fields[column], column).not.toMatch(ANY);
      }),
      { numRuns: 300 },
    );
  });
});

describe('alt text in stored rows', () => {
  const row = (alt: string, media: UpstreamPost['media']): IngestedPost => ({
    external_id: '1',
    hidden: 0,
    ...toPostFields(post({ media: media.map((m) => ({ ...m, alt })) }), 'Mastodon', Date.UTC(2026, 0, 1)),
  });
  const image = { kind: 'image' as const, url: 'https://cdn.example/1.jpg', thumb: '' };

  it('the first item’s alt text is the post’s; each child keeps its own, as plain text', () => {
    const fields = toPostFields(
      post({
        media: [
          { ...image, alt: 'a <b>heron</b>\nat dawn' },
          { kind: 'video', url: 'https://cdn.example/v.mp4', thumb: 'https://cdn.example/v.jpg', alt: '' },
        ],
      }),
      'Bluesky',
      0,
    );
    expect(fields.alt).toBe('a heron\nat dawn');
    expect(JSON.parse(fields.children)).toEqual([
      { image: 'https://cdn.example/1.jpg', video: '', alt: 'a heron\nat dawn' },
      { image: 'https://cdn.example/v.jpg', video: 'https://cdn.example/v.mp4' },
    ]);
  });

  it('a post without alt text keeps the upstream fingerprint it had before alt text was stored (no rewrite)', () => {
    const plain = row('', [image]);
    const before = [
      'network_name',
      'post_type',
      'content',
      'picture',
      'file',
      'file_original',
      'file_thumb',
      'media_file',
      'link_url',
      'author_name',
      'username',
      'user_picture',
      'score',
      'rating',
      'tags',
      'location',
      'media',
      'children',
    ] as const;
    const legacy = createHash('sha256')
      .update(JSON.stringify(before.map((c) => plain[c])))
      .digest('base64url');
    expect(upstreamHash(plain)).toBe(legacy);
    // alt text counts once there is some: an upstream alt edit is an update
    const described = row('a heron', [image]);
    expect(upstreamHash(described)).not.toBe(upstreamHash({ ...described, alt: 'a crane' }));
    // so do the repost and reply flags once set: a flagged post stored before them gets its flag when read again
    const flagged = [
      { ...plain, repost: 1 },
      { ...plain, reply: 1 },
      { ...plain, repost: 1, reply: 1 },
    ].map(upstreamHash);
    expect(new Set([legacy, ...flagged]).size).toBe(4);
  });
});
