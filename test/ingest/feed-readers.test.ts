// Feeds read the way feed readers (feedparser, Miniflux) read them (issue
// 26): feeds written by real tools over twenty years, each from a small
// document of our own read as the parse worker reads it (fixtures/read-feed.ts).
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
