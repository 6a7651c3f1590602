// Feeds read the way feed readers (feedparser, Miniflux) read them (issue
// 26): feeds written by real tools over twenty years, each from a small
// document of our own read as the parse worker reads it (fixtures/read-feed.ts).
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { readFeed as read, rssDocument as rss, rssItem as item } from './fixtures/read-feed.js';

const ATOM = { contentType: 'application/atom+xml' };

describe('namespaces and roots feed readers accept', () => {
  const plainRss = (xmlns: string) =>
    `<?xml version="1.0"?><rss version="2.0" xmlns="${xmlns}" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>Harvard</title><link>https://law.example/</link>
<item><title>Default namespace</title><link>https://law.example/1</link><description>Read as RSS.</description><dc:creator>Dee Writer</dc:creator></item></channel></rss>`;

  it.each([
    'http://blogs.law.harvard.edu/tech/rss',
    'http://blogs.law.harvard.edu/tech/rss2.1',
    'http://backend.userland.com/rss2/',
    'urn:example:a-generator-of-its-own',
  ])('RSS whose elements sit in the default namespace %s', (xmlns) => {
    const { rows } = read(plainRss(xmlns));
    expect(rows).toEqual([
      expect.objectContaining({
        content: '<p><strong>Default namespace</strong></p>Read as RSS.',
        link_url: 'https://law.example/1',
        author_name: 'Dee Writer',
      }),
    ]);
  });

  const atom03 = (xmlns: string) =>
    `<?xml version="1.0" encoding="utf-8"?><feed version="0.3" xmlns="${xmlns}"><title>Old Atom</title><link rel="alternate" type="text/html" href="https://old.example/"/>
<author><name>Ola</name></author><modified>2004-05-01T10:00:00Z</modified>
<entry><title>An entry of its time</title><link rel="alternate" type="text/html" href="https://old.example/1"/><id>tag:old.example,2004:1</id>
<issued>2004-05-01T09:00:00Z</issued><modified>2004-05-01T10:00:00Z</modified><content type="text/html" mode="escaped">&lt;p&gt;Still &lt;em&gt;readable&lt;/em&gt;.&lt;/p&gt;</content></entry></feed>`;

  it.each([
    'http://purl.org/atom/ns#',
    'http://purl.org/atom/ns#draft-ietf-atompub-format-08',
    'http://example.com/newformat#',
    'http://purl.org/echo/',
    'http://example.com/necho',
  ])('Atom before 1.0 in %s', (xmlns) => {
    const { rows } = read(atom03(xmlns), ATOM);
    expect(rows).toEqual([
      expect.objectContaining({
        external_id: 'tag:old.example,2004:1',
        content: '<p><strong>An entry of its time</strong></p><p>Still <em>readable</em>.</p>',
        link_url: 'https://old.example/1',
        author_name: 'Ola',
        created_at: Date.UTC(2004, 4, 1, 9),
      }),
    ]);
  });

  it('an RSS file that starts with an XHTML DOCTYPE is RSS: the root element decides', () => {
    const body = `<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<rss version="2.0"><channel><title>Doctyped</title><item><title>Still a feed</title><link>https://doc.example/1</link></item></channel></rss>`;
    expect(read(body).rows.map((r) => r.link_url)).toEqual(['https://doc.example/1']);
    // with such a DOCTYPE, a root that is no feed is the HTML page it says it is
    expect(() =>
      read('<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "x.dtd"><div>Checking your browser</div>'),
    ).toThrow('expected a feed from feeds.example, got an HTML page');
  });
});

describe('Base64 content (Atom 0.3 mode="base64", Atom 1.0 content of a non-text type)', () => {
  const b64 = (text: string) =>
    Buffer.from(text)
      .toString('base64')
      .replace(/(.{40})/g, '$1\n');
  const entry = (content: string, summary = '') =>
    read(
      `<feed xmlns="http://www.w3.org/2005/Atom"><title>T</title><entry><id>urn:b64</id><title>Encoded</title>
<link href="https://enc.example/1"/><updated>2026-01-15T10:00:00Z</updated>${content}${summary}</entry></feed>`,
      ATOM,
    ).rows[0]!.content;

  it('Atom 0.3 mode="base64" text/html is decoded and read as HTML', () => {
    const body = `<feed version="0.3" xmlns="http://purl.org/atom/ns#"><title>Old</title><entry><id>urn:03</id><title>Packed</title>
<link rel="alternate" type="text/html" href="https://enc.example/03"/><issued>2004-05-01T09:00:00Z</issued>
<content type="text/html" mode="base64">${b64('<p>Unpacked <b>bold</b> words, café</p>')}</content></entry></feed>`;
    expect(read(body, ATOM).rows[0]!.content).toBe(
      '<p><strong>Packed</strong></p><p>Unpacked <b>bold</b> words, café</p>',
    );
  });

  it('Atom 1.0 text types are read as text; a charset parameter is honoured', () => {
    expect(entry(`<content type="application/json">${b64('{"say": "a < b"}')}</content>`)).toBe(
      '<p><strong>Encoded</strong></p><p>{"say": "a &lt; b"}</p>',
    );
    const latin = Buffer.from('Ça marche', 'latin1').toString('base64');
    expect(entry(`<content type="text/plain; charset=iso-8859-1" mode="base64">${latin}</content>`)).toBe(
      '<p><strong>Encoded</strong></p><p>Ça marche</p>',
    );
  });

  it('a binary (an image, a PDF) is never shown as Base64: the summary is the body', () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).toString('base64');
    expect(entry(`<content type="image/png">${png}</content>`, '<summary>A chart of the week</summary>')).toBe(
      '<p><strong>Encoded</strong></p><p>A chart of the week</p>',
    );
    expect(entry(`<content type="application/pdf">${b64('%PDF-1.4 binary')}</content>`)).toBe(
      '<p><strong>Encoded</strong></p>',
    );
  });
});

describe('a picture alone is a post', () => {
  it('items with only an itunes:image, a Media RSS thumbnail or content, or an enclosure are kept', () => {
    const { rows } = read(
      rss(
        item('<guid isPermaLink="false">p1</guid><itunes:image href="https://pics.example/1.jpg"/>') +
          item('<guid isPermaLink="false">p2</guid><media:thumbnail url="https://pics.example/2.jpg"/>') +
          item('<guid isPermaLink="false">p3</guid><media:content url="https://pics.example/3.jpg" medium="image"/>') +
          item('<enclosure url="https://pics.example/4.jpg" type="image/jpeg" length="1"/>') +
          item('<enclosure url="https://pics.example/5.mp4" type="video/mp4" length="1"/>') +
          item('<enclosure url="https://pics.example/6.mp3" type="audio/mpeg" length="1"/>'),
      ),
    );
    expect(rows.map((r) => [r.post_type, r.picture || r.media_file, r.content])).toEqual([
      [2, 'https://pics.example/1.jpg', ''],
      [2, 'https://pics.example/2.jpg', ''],
      [2, 'https://pics.example/3.jpg', ''],
      [2, 'https://pics.example/4.jpg', ''],
      [3, 'https://pics.example/5.mp4', ''],
    ]);
    // without a guid or link, a picture post is known by its picture
    expect(rows[3]!.external_id).toMatch(/^sha1:/);
    expect(rows[3]!.external_id).not.toBe(rows[4]!.external_id);
  });

  it('the feed’s artwork alone is no post of the item’s own', () => {
    const body = rss(
      item('<guid isPermaLink="false">a1</guid>'),
      '<itunes:image href="https://pics.example/cover.jpg"/>',
    );
    expect(read(body, { channelImage: true }).rows).toEqual([]);
  });
});

describe('Atom enclosures and Media RSS titles', () => {
  it('<link rel="enclosure"> is media: images and videos, not audio', () => {
    const { rows } = read(
      `<feed xmlns="http://www.w3.org/2005/Atom"><title>T</title>
<entry><id>urn:e1</id><title>Photo</title><link href="https://atom.example/1"/><link rel="enclosure" type="image/jpeg" href="https://atom.example/1.jpg" length="2048"/></entry>
<entry><id>urn:e2</id><title>Clip</title><link href="https://atom.example/2"/><link rel="enclosure" type="video/mp4" href="/2.mp4"/></entry>
<entry><id>urn:e3</id><title>Talk</title><link href="https://atom.example/3"/><link rel="enclosure" type="audio/mpeg" href="https://atom.example/3.mp3"/><link rel="enclosure" href="https://atom.example/3.m4a"/></entry></feed>`,
      ATOM,
    );
    expect(rows.map((r) => [r.post_type, r.file, r.link_url])).toEqual([
      [2, 'https://atom.example/1.jpg', 'https://atom.example/1'],
      [3, 'https://feeds.example/2.mp4', 'https://atom.example/2'],
      [1, '', 'https://atom.example/3'],
    ]);
  });

  it('media:title is the title of an item that has no other', () => {
    const { rows } = read(
      rss(
        item(
          '<link>https://m.example/1</link><media:content url="https://m.example/1.jpg" medium="image"><media:title>Harbour at dusk</media:title></media:content>',
        ) +
          item(
            '<link>https://m.example/2</link><media:group><media:title type="html">Two &lt;i&gt;boats&lt;/i&gt;</media:title><media:content url="https://m.example/2.jpg" medium="image"/></media:group>',
          ) +
          item(
            '<title>Own title</title><link>https://m.example/3</link><media:title>Not this one</media:title><media:content url="https://m.example/3.jpg" medium="image"/>',
          ),
      ),
    );
    expect(rows.map((r) => r.content)).toEqual([
      '<p><strong>Harbour at dusk</strong></p>',
      '<p><strong>Two boats</strong></p>',
      '<p><strong>Own title</strong></p>',
    ]);
  });
});

describe('Dublin Core and full-text elements', () => {
  it('dc:title and dc:description stand in for title and description', () => {
    const { rows } = read(
      rss(
        item(
          '<link>https://dc.example/1</link><dc:title>Told in Dublin Core</dc:title><dc:description>The whole &lt;em&gt;story&lt;/em&gt;.</dc:description>',
        ) +
          item(
            '<title>Own</title><link>https://dc.example/2</link><description>Their words.</description><dc:title>Not used</dc:title><dc:description>Not used either</dc:description>',
          ),
      ),
    );
    expect(rows.map((r) => r.content)).toEqual([
      '<p><strong>Told in Dublin Core</strong></p>The whole <em>story</em>.',
      '<p><strong>Own</strong></p>Their words.',
    ]);
  });

  it('xhtml:body, <body> and <fullitem> are full texts, read before the description', () => {
    const { rows } = read(
      rss(
        item(
          '<title>X</title><link>https://ft.example/1</link><description>Short.</description><body xmlns="http://www.w3.org/1999/xhtml"><p>The <b>full</b> text &amp; more.</p></body>',
        ) +
          item(
            '<title>B</title><link>https://ft.example/2</link><description>Short.</description><body><p>Plain <i>body</i>.</p></body>',
          ) +
          item(
            '<title>Third</title><link>https://ft.example/3</link><description>Short.</description><fullitem>&lt;p&gt;Full &lt;em&gt;item&lt;/em&gt;.&lt;/p&gt;</fullitem>',
          ) +
          item('<title>C</title><link>https://ft.example/4</link><body></body><description>Only this.</description>'),
      ),
    );
    expect(rows.map((r) => r.content)).toEqual([
      '<p><strong>X</strong></p><p>The <b>full</b> text &amp; more.</p>',
      '<p><strong>B</strong></p><p>Plain <i>body</i>.</p>',
      '<p><strong>Third</strong></p><p>Full <em>item</em>.</p>',
      '<p><strong>C</strong></p>Only this.',
    ]);
  });
});

describe('authors: an address is never shown', () => {
  it('Name (address), address (Name), "Name" <address>, an address alone', () => {
    const { rows } = read(
      rss(
        ['Ana Lima (ana@news.example)', 'bo@news.example (Bo Li)', '"Cy Dee" <cy@news.example>', 'dee@news.example']
          .map((a, i) =>
            item(`<title>${i}</title><link>https://n.example/${i}</link><author>${a.replace(/</g, '&lt;')}</author>`),
          )
          .join('') +
          item('<title>4</title><link>https://n.example/4</link><dc:creator>Eve Ray, eve@news.example</dc:creator>'),
        '<managingEditor>desk@news.example (News Desk)</managingEditor>',
      ),
    );
    expect(rows.map((r) => r.author_name)).toEqual(['Ana Lima', 'Bo Li', 'Cy Dee', 'News Desk', 'Eve Ray']);
    for (const r of rows) expect(r.author_name).not.toContain('@');
  });

  it('in Atom too', () => {
    const { rows } = read(
      `<feed xmlns="http://www.w3.org/2005/Atom"><title>T</title><entry><id>urn:a</id><title>A</title><link href="https://a.example/1"/>
<author><name>Fay Moss (fay@a.example)</name><email>fay@a.example</email></author></entry></feed>`,
      ATOM,
    );
    expect(rows[0]!.author_name).toBe('Fay Moss');
  });
});

describe('titles are text', () => {
  it('escaped markup in a title keeps its words, and stays text when served', () => {
    const { rows } = read(
      rss(
        item('<title>History of the &lt;blink&gt; tag</title><link>https://t.example/1</link>') +
          item('<title>Why &amp;lt;script&amp;gt; is text here</title><link>https://t.example/2</link>') +
          item('<title>&lt;b&gt;Bold&lt;/b&gt; news</title><link>https://t.example/3</link>') +
          item('<title>Q&amp;amp;A: 1 &amp;lt; 2</title><link>https://t.example/4</link>') +
          item('<title>&lt;script&gt;alert(1)&lt;/script&gt;Safe</title><link>https://t.example/5</link>'),
      ),
    );
    expect(rows.map((r) => r.content)).toEqual([
      '<p><strong>History of the &lt;blink&gt; tag</strong></p>',
      '<p><strong>Why &lt;script&gt; is text here</strong></p>',
      '<p><strong>Bold news</strong></p>',
      '<p><strong>Q&amp;A: 1 &lt; 2</strong></p>',
      '<p><strong>Safe</strong></p>',
    ]);
  });

  it('Atom: type="text" as written, type="html" as shown', () => {
    const { rows } = read(
      `<feed xmlns="http://www.w3.org/2005/Atom"><title>T</title>
<entry><id>urn:t1</id><title type="text">History of the &lt;blink&gt; tag</title><link href="https://t.example/a"/></entry>
<entry><id>urn:t2</id><title type="html">History of the &amp;lt;marquee&amp;gt; tag</title><link href="https://t.example/b"/></entry></feed>`,
      ATOM,
    );
    expect(rows.map((r) => r.content)).toEqual([
      '<p><strong>History of the &lt;blink&gt; tag</strong></p>',
      '<p><strong>History of the &lt;marquee&gt; tag</strong></p>',
    ]);
  });
});

describe('renditions of one picture are one media item, the largest its picture', () => {
  it('media:content at two widths (sized and signed by the query)', () => {
    const photo = 'https://img.example/media/abc/master/3000.jpg';
    const { rows } = read(
      rss(
        item(
          `<title>Two sizes</title><link>https://r.example/1</link><media:content width="140" url="${photo}?w=140&amp;q=55&amp;s=aaa"/><media:content width="460" url="${photo}?w=460&amp;q=55&amp;s=bbb"/>`,
        ),
      ),
    );
    expect(rows[0]).toMatchObject({
      post_type: 2,
      picture: `${photo}?w=460&q=55&s=bbb`,
      file_thumb: `${photo}?w=140&q=55&s=aaa`,
      children: JSON.stringify([{ image: `${photo}?w=460&q=55&s=bbb`, video: '' }]),
    });
  });

  it('size suffixes, an enclosure beside a media:content, a larger media:thumbnail; other pictures stay', () => {
    const { rows } = read(
      rss(
        item(
          '<title>WP</title><link>https://r.example/2</link><media:content url="https://wp.example/up/dock-150x150.jpg" medium="image"/><enclosure url="https://wp.example/up/dock.jpg" type="image/jpeg" length="1"/><media:content url="https://wp.example/up/crane-300x200.jpg" medium="image"/><media:content url="https://wp.example/up/crane-1024x683.jpg" medium="image"/>',
        ) +
          item(
            '<title>Thumb</title><link>https://r.example/3</link><media:content url="https://cdn.example/p/7?w=200" medium="image"/><media:thumbnail url="https://cdn.example/p/7?w=800" width="800" height="600"/>',
          ) +
          item(
            '<title>Other pictures</title><link>https://r.example/4</link><media:content url="https://cdn.example/p/8?w=200" medium="image"/><media:content url="https://cdn.example/p/9?w=200" medium="image"/>',
          ),
      ),
    );
    expect(rows.map((r) => JSON.parse(r.children).map((c: { image: string }) => c.image))).toEqual([
      ['https://wp.example/up/dock.jpg', 'https://wp.example/up/crane-1024x683.jpg'],
      ['https://cdn.example/p/7?w=800'],
      ['https://cdn.example/p/8?w=200', 'https://cdn.example/p/9?w=200'],
    ]);
    expect(rows.map((r) => r.post_type)).toEqual([4, 2, 4]);
  });
});

describe('declared encodings before guesses', () => {
  const THAI = 'ข่าวเช้าวันนี้';
  const thaiFeed = (declaration: string) =>
    Buffer.concat([
      Buffer.from(declaration),
      iconv.encode(
        `<rss version="2.0"><channel><title>ข่าว</title><item><title>${THAI}</title><link>https://th.example/1</link></item></channel></rss>`,
        'tis-620',
      ),
    ]);

  it('TIS-620, which chardet cannot name: the HTTP charset is honoured over a wrong XML declaration', () => {
    for (const declaration of ['<?xml version="1.0" encoding="UTF-8"?>', '<?xml version="1.0" encoding="ISO-8859-1"?>'])
      expect(
        read(thaiFeed(declaration), { contentType: 'application/rss+xml; charset=TIS-620' }).rows[0]!.content,
      ).toBe(`<p><strong>${THAI}</strong></p>`);
  });

  it('labels as browsers and iconv know them: windows-874, x-tis620, x-mac-thai', () => {
    for (const label of ['windows-874', 'x-tis620', 'TIS620', 'iso-8859-11'])
      expect(read(thaiFeed(`<?xml version="1.0" encoding="${label}"?>`)).rows[0]!.content, label).toBe(
        `<p><strong>${THAI}</strong></p>`,
      );
    const macThai = Buffer.concat([
      Buffer.from('<?xml version="1.0" encoding="x-mac-thai"?><rss><channel><item><title>'),
      iconv.encode(THAI, 'macthai'),
      Buffer.from('</title><link>https://th.example/2</link></item></channel></rss>'),
    ]);
    expect(read(macThai).rows[0]!.content).toBe(`<p><strong>${THAI}</strong></p>`);
  });

  it('a UTF-8 file declared so is UTF-8 whatever default charset the server adds', () => {
    const body = Buffer.from(
      `<?xml version="1.0" encoding="utf-8"?><rss><channel><item><title>${THAI} — café</title><link>https://th.example/3</link></item></channel></rss>`,
    );
    expect(read(body, { contentType: 'text/xml; charset=ISO-8859-1' }).rows[0]!.content).toBe(
      `<p><strong>${THAI} — café</strong></p>`,
    );
  });
});
