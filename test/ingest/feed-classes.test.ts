// What real feeds do that the RSS/Atom connector must read (issue 10,
// classes A–L), each from a small document read as the parse worker reads it
// (fixtures/read-feed.ts).
import { describe, expect, it } from 'vitest';
import { decodeBody } from '../../src/ingest/charset.js';
import { READ_AT as NOW, readFeed as read, rssDocument as rss, rssItem as item } from './fixtures/read-feed.js';

describe('A: entity references', () => {
  it('any number of ordinary references is read (1,500 in one item, 2,400 in the document)', () => {
    const refs = '&lt;b&gt;x&lt;/b&gt; &amp;amp; &#233;&#x263A; '.repeat(250); // 6 references each
    const body = rss(
      item(`<title>Many &amp; more</title><link>https://news.example/a</link><description>${refs}</description>`) +
        item(
          `<title>Second</title><link>https://news.example/b</link><description>${'&lt;i&gt;'.repeat(900)}y</description>`,
        ),
    );
    const { rows } = read(body);
    expect(rows).toHaveLength(2);
    expect(rows[0]!.content).toMatch(/^<p><strong>Many &amp; more<\/strong><\/p><b>x<\/b> &amp; é☺ <b>x<\/b>/);
    expect(rows[0]!.content.match(/<b>x<\/b>/g)).toHaveLength(250);
  });

  it('a DTD is never read: billion laughs and external entities expand to nothing', () => {
    const lol = Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`).join('');
    const body = `<?xml version="1.0"?>
<!DOCTYPE rss [<!ENTITY lol0 "lol">${lol}<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<rss version="2.0"><channel><title>Bomb</title>
<item><title>Boom &lol9;</title><link>https://news.example/bomb</link><description>&xxe; and &lol9;</description></item>
</channel></rss>`;
    const started = performance.now();
    const { rows } = read(body);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.content).not.toMatch(/lollol|root:/);
    expect(rows[0]!.content.length).toBeLessThan(200);
  });
});

describe('B: recovery from broken XML', () => {
  it('an unescaped & in a link loses nothing: every item, the link as written', () => {
    const { rows } = read(
      rss(
        item('<title>Good</title><link>http://example.com/good</link><guid>g1</guid>') +
          item('<title>Bad</title><link>http://example.com/bad?foo=1&bar=2</link><guid>g2</guid>') +
          item('<title>After</title><link>http://example.com/after</link><guid>g3</guid>'),
      ),
    );
    expect(rows.map((r) => r.link_url)).toEqual([
      'http://example.com/good',
      'http://example.com/bad?foo=1&bar=2',
      'http://example.com/after',
    ]);
  });

  it('mismatched end tags (an illegally nested item) are recovered from', () => {
    const { rows } = read(
      rss(item('<title>One <b>bold</title><link>https://news.example/1</link>') + item('<title>Two</title>')),
    );
    expect(rows.map((r) => r.link_url)).toEqual(['https://news.example/1', '']);
  });
});

describe('C: prefixed and namespaced Atom', () => {
  it('<a:feed> with <a:entry>', () => {
    const { rows } = read(
      `<?xml version="1.0"?><a:feed xmlns:a="http://www.w3.org/2005/Atom" xmlns="http://www.w3.org/1999/xhtml">
<a:title>T</a:title><a:author><a:name>Aristotle</a:name></a:author>
<a:entry><a:id>urn:1</a:id><a:title>Readable</a:title><a:link href="http://example.org/result.html"/>
<a:updated>2006-01-18T12:26:54+01:00</a:updated><a:content type="xhtml"><div><p>Works.</p></div></a:content></a:entry></a:feed>`,
      { contentType: 'application/atom+xml' },
    );
    expect(rows).toEqual([
      expect.objectContaining({
        external_id: 'urn:1',
        content: '<p><strong>Readable</strong></p><p>Works.</p>',
        link_url: 'http://example.org/result.html',
        author_name: 'Aristotle',
        created_at: Date.UTC(2006, 0, 18, 11, 26, 54),
      }),
    ]);
  });

  it('<p0:entry> inside a default-namespace feed', () => {
    const { rows } = read(
      `<feed xmlns="http://www.w3.org/2005/Atom"><title>T</title>
<p0:entry xmlns:p0="http://www.w3.org/2005/Atom"><p0:title type="text">Greeting</p0:title><p0:author><p0:name>John Doe</p0:name></p0:author>
<p0:content type="text">Hello World</p0:content><p0:category term="One"/><p0:id>urn:2</p0:id><p0:updated>2012-08-04T01:29:34.677Z</p0:updated></p0:entry></feed>`,
      { contentType: 'application/atom+xml' },
    );
    expect(rows).toEqual([
      expect.objectContaining({
        external_id: 'urn:2',
        content: '<p><strong>Greeting</strong></p><p>Hello World</p>',
        author_name: 'John Doe',
        tags: 'One',
        created_at: Date.UTC(2012, 7, 4, 1, 29, 34, 677),
      }),
    ]);
  });
});

describe('D: Atom text, html and xhtml content', () => {
  const entry = (content: string) =>
    read(
      `<feed xmlns="http://www.w3.org/2005/Atom"><title>T</title><entry><id>e</id><title>E</title>
<link href="https://journal.example/e"/><updated>2026-01-15T10:00:00Z</updated>${content}</entry></feed>`,
      { contentType: 'application/atom+xml' },
    ).rows[0]!.content;

  it('xhtml keeps its markup and the order of its words', () => {
    expect(
      entry(
        '<content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>The <a href="http://docs.example/api">interface</a> is a bit <em>low</em> level, but <code>workable</code>:</p><ul><li>one</li><li>two</li></ul></div></content>',
      ),
    ).toBe(
      '<p><strong>E</strong></p><p>The <a href="http://docs.example/api" rel="nofollow noopener noreferrer" target="_blank">interface</a> is a bit <em>low</em> level, but <code>workable</code>:</p><ul><li>one</li><li>two</li></ul>',
    );
  });

  it('xhtml: elements of other vocabularies are not HTML (their text stays, SVG goes)', () => {
    expect(
      entry(
        `<content type="xhtml"><h:div xmlns:h="http://www.w3.org/1999/xhtml" xmlns="http://foo.example/ml"><h:ul><h:li>real</h:li></h:ul><ul><li>not a list</li></ul><svg xmlns="http://www.w3.org/2000/svg"><text>drawn</text></svg></h:div></content>`,
      ),
    ).toBe('<p><strong>E</strong></p><ul><li>real</li></ul>not a list');
  });

  it('html is sanitized HTML; text is escaped text', () => {
    expect(entry('<content type="html">&lt;p&gt;Deep &lt;b&gt;snow&lt;/b&gt;&lt;/p&gt;</content>')).toBe(
      '<p><strong>E</strong></p><p>Deep <b>snow</b></p>',
    );
    expect(entry('<summary type="text">1 &lt; 2 &amp; &lt;b&gt;</summary>')).toBe(
      '<p><strong>E</strong></p><p>1 &lt; 2 &amp; &lt;b&gt;</p>',
    );
  });
});

describe('E: trackers are never the picture', () => {
  it('1×1 pixels, feed services’ share buttons, hidden and small images are passed over', () => {
    const html = [
      '<img src="http://feeds.feedburner.com/~r/News/~4/wYB_0DlSxlc" height="1" width="1" alt=""/>',
      '<a href="http://feeds.feedburner.com/~ff/News?a=x"><img src="http://feeds.feedburner.com/~ff/News?d=yIl2AUoC8zA" border="0"></a>',
      "<img src='http://images.pheedo.com/images/mm/twitter.png'/>",
      '<img src="http://insight.adsrvr.org/track/evnt/?ct=0" style="display:none"/>',
      '<img src="https://news.example/icons/star.png" width="16" height="16"/>',
      '<img src="https://news.example/photos/ridge.jpg" width="800"/>',
    ].join('');
    const { rows } = read(
      rss(
        item(
          `<title>Photo</title><link>https://news.example/p</link><description><![CDATA[<p>Text</p>${html}]]></description>`,
        ) +
          item(
            `<title>Only trackers</title><link>https://news.example/t</link><description><![CDATA[${html.replace(/<img src="https:\/\/news.example\/photos[^>]*>/, '')}]]></description>`,
          ),
      ),
    );
    expect(rows.map((r) => [r.post_type, r.picture])).toEqual([
      [2, 'https://news.example/photos/ridge.jpg'],
      [1, ''],
    ]);
  });
});

describe('F: pictures named by the feed', () => {
  it('item itunes:image; a media:group thumbnail beside a player; an enclosure', () => {
    const { rows } = read(
      rss(
        item(
          '<title>Episode</title><link>https://pod.example/1</link><enclosure url="https://pod.example/1.mp3" type="audio/mpeg" length="1"/><itunes:image href="https://pod.example/1.jpg"/>',
        ) +
          item(
            '<title>Video</title><link>https://pod.example/2</link><media:group><media:content url="https://www.youtube.com/v/abc?version=3" type="application/x-shockwave-flash"/><media:thumbnail url="https://i1.ytimg.com/vi/abc/hqdefault.jpg" width="480" height="360"/></media:group>',
          ) +
          item(
            '<title>Photo</title><link>https://pod.example/3</link><enclosure url="https://pod.example/3.jpg" type="image/jpeg" length="1"/>',
          ),
      ),
    );
    expect(rows.map((r) => r.picture)).toEqual([
      'https://pod.example/1.jpg',
      'https://i1.ytimg.com/vi/abc/hqdefault.jpg',
      'https://pod.example/3.jpg',
    ]);
  });

  it('the channel’s itunes:image only when the feed’s connector asks for it', () => {
    const body = rss(
      item('<title>Episode</title><link>https://pod.example/9</link>'),
      '<itunes:image href="https://pod.example/cover.jpg"/>',
    );
    expect(read(body).rows[0]!.picture).toBe('');
    expect(read(body, { channelImage: true }).rows[0]!.picture).toBe('https://pod.example/cover.jpg');
  });
});

it('alt text: an image’s media:description (its own, else its group’s) or the alt of the picture in the HTML', () => {
  const { rows } = read(
    rss(
      item(
        '<title>A</title><link>https://pod.example/a</link><media:content url="https://pod.example/a.jpg" medium="image"><media:description>A red &amp; white lighthouse</media:description></media:content>',
      ) +
        item(
          '<title>B</title><link>https://pod.example/b</link><media:group><media:description>Two cats</media:description><media:content url="https://pod.example/b.jpg" type="image/jpeg"/></media:group>',
        ) +
        item(
          '<title>C</title><link>https://pod.example/c</link><description>&lt;p&gt;&lt;img src="/c.png" alt="A &amp;lt;b&amp;gt;bold&amp;lt;/b&amp;gt; chart"&gt;&lt;/p&gt;</description>',
        ) +
        item(
          '<title>D</title><link>https://pod.example/d</link><media:content url="https://pod.example/d.mp4" medium="video"><media:description>What the video is about</media:description></media:content>',
        ),
    ),
  );
  expect(rows.map((r) => [r.picture || r.file, r.alt])).toEqual([
    ['https://pod.example/a.jpg', 'A red & white lighthouse'],
    ['https://pod.example/b.jpg', 'Two cats'],
    ['https://pod.example/c.png', 'A bold chart'],
    ['https://pod.example/d.mp4', ''],
  ]);
});

describe('G: relative URLs', () => {
  it('xml:base, on the feed and the item, resolves links, hrefs and srcs', () => {
    const { rows } = read(
      rss(
        `<item xml:base="posts/post-1"><title>Post</title><link>post-1</link><description><![CDATA[<p><a href="post-1">Read</a> <a href="#comments">Comments</a><img src="/images/post-1.png"></p>]]></description></item>`,
        '',
        ' xml:base="https://example.com/"',
      ),
    );
    expect(rows[0]).toMatchObject({
      link_url: 'https://example.com/posts/post-1',
      picture: 'https://example.com/images/post-1.png',
      content:
        '<p><strong>Post</strong></p><p><a href="https://example.com/posts/post-1" rel="nofollow noopener noreferrer" target="_blank">Read</a> <a href="https://example.com/posts/post-1#comments" rel="nofollow noopener noreferrer" target="_blank">Comments</a></p>',
    });
  });

  it('without xml:base: links against the feed’s URL, the HTML against the item’s page; a permalink guid is the link', () => {
    const { rows } = read(
      rss(
        item(
          '<title>Rel</title><link>/en/news/detail/1</link><description>&lt;a href="2"&gt;next&lt;/a&gt; &lt;img src="pic.jpg"&gt;</description>',
        ) +
          item('<title>Guid</title><guid>https://news.example/2026/guid-only</guid>') +
          item('<title>Not a permalink</title><guid isPermaLink="false">https://news.example/x</guid>'),
      ),
    );
    expect(rows.map((r) => [r.link_url, r.picture])).toEqual([
      ['https://feeds.example/en/news/detail/1', 'https://feeds.example/en/news/detail/pic.jpg'],
      ['https://news.example/2026/guid-only', ''],
      ['', ''],
    ]);
    expect(rows[0]!.content).toContain('<a href="https://feeds.example/en/news/detail/2"');
  });
});

describe('H: encodings nobody declared', () => {
  const latin = (declaration: string) =>
    Buffer.from(
      `${declaration}<rss version="2.0"><channel><title>Notícias</title><item><title>Café à noite</title><link>https://uol.example/1</link><description>Líder na pesquisa</description></item></channel></rss>`,
      'latin1',
    );

  it('Latin-1 bytes without a declaration or charset are detected, not turned into U+FFFD', () => {
    const { rows } = read(latin(''), { contentType: 'application/rss+xml' });
    expect(rows[0]!.content).toBe('<p><strong>Café à noite</strong></p>Líder na pesquisa');
    expect(rows[0]!.author_name).toBe('Notícias');
  });

  it('a UTF-8 declaration the bytes are not is detected too; windows-1252 quotes as quotes', () => {
    expect(read(latin('<?xml version="1.0" encoding="UTF-8"?>')).rows[0]!.content).not.toContain('\uFFFD');
    expect(decodeBody(Buffer.from([0x93, 0x41, 0x94]), 'text/xml; charset=ISO-8859-1')).toBe('“A”');
  });

  it('the order: BOM, HTTP charset, XML declaration (issue 26: as browsers and RFC 3023 order them)', () => {
    const bom = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?>é'),
    ]);
    expect(decodeBody(bom, 'text/xml; charset=windows-1251')).toBe('<?xml version="1.0" encoding="ISO-8859-1"?>é');
    const declared = Buffer.from('<?xml version="1.0" encoding="windows-1251"?>\xcf', 'latin1');
    expect(decodeBody(declared, 'text/xml; charset=koi8-r')).toBe(
      '<?xml version="1.0" encoding="windows-1251"?>\u043e',
    );
    expect(decodeBody(declared, 'text/xml')).toBe('<?xml version="1.0" encoding="windows-1251"?>П');
    expect(decodeBody(Buffer.from('\xcf', 'latin1'), 'text/xml; charset=windows-1251')).toBe('П');
  });
});

describe('I: dates', () => {
  const dated = (...dates: string[]) =>
    read(
      rss(
        dates
          .map((d, i) => item(`<title>${i}</title><link>https://news.example/${i}</link><pubDate>${d}</pubDate>`))
          .join(''),
      ),
    );

  it('month and day names in Portuguese, Spanish, French and German', () => {
    const { rows, warnings } = dated(
      'Seg, 24 Set 2018 19:42:40 -0300',
      'Mié, 24 Oct 2018 19:42:40 GMT',
      'mar, 24 dic 2018 19:42:40 +0100',
      'lun., 24 sept. 2018 19:42:40 +0200',
      'Jeu, 1 Août 2019 12:00:00 GMT',
      'Di, 03 Mär 2020 10:00:00 +0100',
      'Do, 5. Dez 2019 11:00:00 MEZ',
    );
    expect(rows.map((r) => new Date(r.created_at).toISOString())).toEqual([
      '2018-09-24T22:42:40.000Z',
      '2018-10-24T19:42:40.000Z',
      '2018-12-24T18:42:40.000Z',
      '2018-09-24T17:42:40.000Z',
      '2019-08-01T12:00:00.000Z',
      '2020-03-03T09:00:00.000Z',
      '2019-12-05T10:00:00.000Z',
    ]);
    expect(warnings).toEqual([]);
  });

  it('broken forms: a time without colon, two-digit years, zone names, no zone (UTC), a date alone', () => {
    const { rows } = dated(
      '03 Apr 02 1500 GMT',
      'Thu, 07 Dec 17 10:00:29 -0800',
      'Mon, 24 Sep 2018 19:42:40 CEST',
      '2018-09-24 19:42',
      'Mon, 24 Sep 2018 19:42',
      '2018-09-24',
    );
    expect(rows.map((r) => new Date(r.created_at).toISOString())).toEqual([
      '2002-04-03T15:00:00.000Z',
      '2017-12-07T18:00:29.000Z',
      '2018-09-24T17:42:40.000Z',
      '2018-09-24T19:42:00.000Z',
      '2018-09-24T19:42:00.000Z',
      '2018-09-24T00:00:00.000Z',
    ]);
  });

  it('a date that cannot be read is reported, not silently replaced', () => {
    const { rows, warnings } = dated('Sun, 31 Feb 2018 10:00:00 GMT', 'sometime soon', 'Mon, 24 Sep 2018 19:42:40 GMT');
    expect(rows.map((r) => r.created_at)).toEqual([NOW, NOW, Date.UTC(2018, 8, 24, 19, 42, 40)]);
    expect(warnings).toEqual([
      '2 items with a date that could not be read (e.g. "Sun, 31 Feb 2018 10:00:00 GMT"): dated when first read',
    ]);
  });
});

describe('J: authors', () => {
  it('item author, dc:creator, itunes:author; e-mail addresses reduced to the name or left out', () => {
    const { rows } = read(
      rss(
        item('<title>1</title><link>https://n.example/1</link><author>ana@news.example (Ana Lima)</author>') +
          item('<title>2</title><link>https://n.example/2</link><author>"Bo Li" &lt;bo@news.example&gt;</author>') +
          item(
            '<title>3</title><link>https://n.example/3</link><author>cy@news.example</author><itunes:author>Cy Host</itunes:author>',
          ) +
          item(
            '<title>4</title><link>https://n.example/4</link><dc:creator>mailto:dee@news.example?subject=Hi</dc:creator>',
          ),
        '<managingEditor>pcmonline@news.example?subject=RSS_feed</managingEditor>',
      ),
    );
    expect(rows.map((r) => r.author_name)).toEqual(['Ana Lima', 'Bo Li', 'Cy Host', 'News']);
  });
});

describe('K: not a feed', () => {
  it.each([
    ['a page without a doctype', '<head><title>Document Moved</title></head>\n<body><h1>Object Moved</h1></body>'],
    ['an XHTML page', '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body/></html>'],
    ['an HTML5 page', '<!DOCTYPE html><html><body><p>Checking your browser</p></body></html>'],
  ])('%s: "got an HTML page"', (_name, body) => {
    expect(() => read(body, { contentType: 'text/html' })).toThrow(
      'expected a feed from feeds.example, got an HTML page',
    );
  });

  it('other documents say what they are', () => {
    expect(() => read('<opml version="2.0"><body/></opml>')).toThrow(
      'expected an RSS or Atom feed from feeds.example, got <opml>',
    );
    expect(() => read('<rss><channel><item><title>cut off')).toThrow(
      'malformed XML from feeds.example: the document ends inside <title>',
    );
  });
});

describe('L: no empty links', () => {
  it('a link whose only content was an image is left out with it', () => {
    const { rows } = read(
      rss(
        item(
          '<title>Linked picture</title><link>https://n.example/l</link><description>&lt;p&gt;Look &lt;a href="https://n.example/big.jpg"&gt;&lt;img src="https://n.example/small.jpg"&gt;&lt;/a&gt; &lt;a href="https://n.example/x"&gt; &lt;/a&gt;here&lt;/p&gt;</description>',
        ),
      ),
    );
    expect(rows[0]).toMatchObject({
      content: '<p><strong>Linked picture</strong></p><p>Look  here</p>',
      picture: 'https://n.example/small.jpg',
    });
  });
});
