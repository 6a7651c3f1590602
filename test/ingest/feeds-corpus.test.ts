// The 54 real feeds of ../shared/feeds-corpus (README and MANIFEST.tsv
// there), served by a local upstream as their sites would (feed content
// types without a charset; the gzipped one with Content-Encoding: gzip) and
// polled through the real path: SSRF-guarded fetcher → parse worker → store,
// then read back from the store. Per feed: how many posts (every item, at
// most the first-poll cap, but for the exceptions named below), their dates
// (to the millisecond, against what V8 reads of the same text), a link for
// every item that has one, the pictures (no tracker ever), XHTML content
// with its markup and word order, and no U+FFFD where the bytes were Latin-1.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { startFixture, type Fixture, type Reply } from './fixtures/server.js';
import { NOW, startHarness, storedPosts, type Harness } from './harness.js';

const CORPUS = join(ROOT, '..', 'shared', 'feeds-corpus');
const CAP = 500;

const manifest = existsSync(CORPUS)
  ? readFileSync(join(CORPUS, 'MANIFEST.tsv'), 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split('\t'))
      .map(([file, , items], i) => ({ file: file!, items: Number(items), feedId: 7000 + i }))
  : [];

/** Items of the corpus that do not become posts, and why. */
const FEWER: Record<string, { posts: number; why: string }> = {
  'mf-no_encoding_ISO-8859-1.xml': { posts: 9, why: 'one item is empty: no title, link, date or text' },
  'rp-itunes-missing-image.rss': { posts: 130, why: 'two items share a guid: one post' },
  'rp-unrecognized.rss': { posts: 0, why: 'an HTML page, not a feed' },
};

/** Posts with a picture, per feed (every other feed: none); checked against the sources by hand. */
const PICTURES: Record<string, number> = {
  'fp-large_atom_feed_that_needs_css_sanitisation.xml': 15,
  'mf-encoding_ISO-8859-1.xml': 40,
  'mf-large_atom.xml': 4,
  'mf-large_rss.xml': 4,
  'mf-urdu_UTF8.xml': 26,
  'nfp-iconv.xml': 10,
  'nfp-invalid-characters.xml.gz': 8,
  'nfp-mediacontent-dupes.xml': 1,
  'nfp-rss-with-relative-html-urls.xml': 1,
  'nfp-tpm.atom': 2,
  'rp-atom-customfields.atom': 15,
  'rp-content-encoded.rss': 7,
  'rp-craigslist.rss': 24,
  'rp-customfields.rss': 15,
  'rp-feedburner.atom': 1,
  'rp-giantbomb-podcast.rss': 500,
  'rp-guardian.rss': 55,
  'rp-heise.atom': 12,
  'rp-item-itunes-episodeType.rss': 1,
  'rp-itunes-keywords-array.rss': 1,
  'rp-itunes-keywords-astext.rss': 32,
  'rp-many-links.rss': 8,
  'rp-narro.rss': 1,
  'rp-pagination-links.rss': 1,
  'rp-reddit-atom.rss': 15,
  'rp-reddit-home.rss': 14,
  'rp-reddit.rss': 16,
  'rp-uolNoticias.rss': 4,
};

/** Feeds whose items carry no date (their posts are dated when first read), and items without a link. */
const UNDATED = new Set([
  'mf-rdf_UTF8.xml',
  'nfp-rss-with-relative-html-urls.xml',
  'nfp-saxerror.xml',
  'rp-heraldsun.rss',
]);
const WITHOUT_LINK: Record<string, number> = { 'nfp-complexNamespaceFeed.xml': 1 /* its only link is rel="self" */ };

/** Counting pixels, share buttons, ad beacons and forum UI images that these feeds put in their HTML. */
const TRACKER =
  /style_images|feeds\.feedburner\.com\/~|\/~ff\/|pheedo\.com|adsrvr\.org|bluekai\.com|cpx\.golem\.de|doubleclick/;

const bytesOf = (file: string) => {
  const raw = readFileSync(join(CORPUS, file));
  return file.endsWith('.gz') ? gunzipSync(raw) : raw;
};

/**
 * The dates of a feed's items as V8 reads them (only those with an explicit
 * zone it understands), the newest `CAP`: an oracle independent of the
 * connector's own date reading.
 */
function itemDates(file: string): number[] {
  const text = bytesOf(file).toString('latin1');
  const blocks = text.split(/<(?:[\w-]+:)?(?:item|entry)[\s>]/).slice(1);
  const dates = blocks.flatMap((block) => {
    const m = /<(?:[\w-]+:)?(?:pubDate|date|published|issued)>\s*([^<]+?)\s*</.exec(block);
    const value = m?.[1] ?? /<(?:[\w-]+:)?(?:updated|modified)>\s*([^<]+?)\s*</.exec(block)?.[1];
    if (!value || !/(?:GMT|UTC?|Z|[+-]\d{2}:?\d{2})$/i.test(value)) return [];
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? [] : [ms];
  });
  return dates.sort((a, b) => b - a).slice(0, CAP);
}

const contentType = (file: string) =>
  file.endsWith('.atom') ? 'application/atom+xml' : file.endsWith('.rss') ? 'application/rss+xml' : 'text/xml';

describe.skipIf(!existsSync(CORPUS))('the feeds corpus, polled for real', () => {
  let upstream: Fixture;
  let h: Harness;
  let reports: Awaited<ReturnType<Harness['poll']>>;
  const posts = new Map<string, Awaited<ReturnType<typeof storedPosts>>>();

  beforeAll(async () => {
    upstream = await startFixture((_req, url): Reply => {
      const file = decodeURIComponent(url.pathname.slice(1));
      if (!manifest.some((f) => f.file === file)) return { status: 404 };
      const raw = readFileSync(join(CORPUS, file));
      return file.endsWith('.gz')
        ? { headers: { 'content-type': 'application/rss+xml', 'content-encoding': 'gzip' }, body: raw }
        : { headers: { 'content-type': contentType(file) }, body: raw };
    });
    h = await startHarness(
      manifest.map((f) => ({
        id: f.feedId,
        name: f.file,
        connector: { kind: 'rss', url: `${upstream.origin}/${encodeURIComponent(f.file)}` },
      })),
      { config: { maxItems: CAP, timeoutMs: 30_000 } },
    );
    reports = await h.poll();
    for (const f of manifest) posts.set(f.file, await storedPosts(h, f.feedId));
  }, 300_000);

  afterAll(async () => {
    await h?.close();
    await upstream?.close();
  });

  it('at least 52 of the 53 feeds give posts, and at least 90 % of their items (at most 500 a feed)', () => {
    const feeds = manifest.filter((f) => f.file !== 'rp-unrecognized.rss');
    const withPosts = feeds.filter((f) => posts.get(f.file)!.length > 0).length;
    const items = feeds.reduce((n, f) => n + Math.min(f.items, CAP), 0);
    const stored = feeds.reduce((n, f) => n + posts.get(f.file)!.length, 0);
    expect(feeds).toHaveLength(53);
    expect(withPosts).toBe(53);
    expect(`${stored} of ${items}`).toBe('1470 of 1472');
    expect(stored / items).toBeGreaterThanOrEqual(0.9);
  });

  it('the HTML page fails with a message that says so; every feed polls without failure', () => {
    const failed = reports.filter((r) => r.status !== 'ok');
    expect(failed).toEqual([
      expect.objectContaining({
        feedId: manifest.find((f) => f.file === 'rp-unrecognized.rss')!.feedId,
        status: 'failed',
        message: `expected a feed from 127.0.0.1:${upstream.port}, got an HTML page`,
      }),
    ]);
  });

  it('every item a post, up to the cap', () => {
    for (const f of manifest) {
      const expected = FEWER[f.file]?.posts ?? Math.min(f.items, CAP);
      expect(posts.get(f.file)!.length, f.file).toBe(expected);
    }
  });

  it('dates: every dated item keeps its date to the millisecond; undated ones only where the feed has none', () => {
    for (const f of manifest) {
      const stored = posts.get(f.file)!;
      const undated = stored.filter((p) => p.created_at === NOW).length;
      expect(undated, f.file).toBe(UNDATED.has(f.file) ? stored.length : 0);
      const created = new Set(stored.map((p) => p.created_at));
      const missing = itemDates(f.file).filter((ms) => !created.has(ms));
      expect(
        missing.map((ms) => new Date(ms).toISOString()),
        f.file,
      ).toEqual([]);
    }
    // the one feed with localized dates: `Seg, 24 Set 2018 19:42:40 -0300`
    const uol = posts.get('rp-uolNoticias.rss')!;
    expect(Math.max(...uol.map((p) => p.created_at))).toBe(Date.UTC(2018, 8, 24, 22, 42, 40));
  });

  it('a link for every item that has one, resolved (relative links, xml:base)', () => {
    for (const f of manifest) {
      const stored = posts.get(f.file)!;
      expect(stored.filter((p) => p.link_url === '').length, f.file).toBe(WITHOUT_LINK[f.file] ?? 0);
      for (const p of stored.filter((s) => s.link_url !== '')) expect(p.link_url, f.file).toMatch(/^https?:\/\/[^/]+/);
    }
    expect(
      posts
        .get('nfp-rss-with-relative-urls.xml')!
        .map((p) => p.link_url)
        .sort(),
    ).toEqual([
      `${upstream.origin}/en/games/neverwinter/news/detail/10738994-2x-underdark-currency-%26-15%25-off-bags%21`,
      `${upstream.origin}/en/games/neverwinter/news/detail/10743874-neverwinter-%26-jingle-jam-humble-bundle%21`,
    ]);
    expect(posts.get('nfp-tpm.atom')!.map((p) => p.link_url)).toContain(
      `${upstream.origin}/livewire/hannity-announces-fox-hired-sebastian-gorka-national-security-strategist`,
    );
    expect(posts.get('nfp-rss-with-relative-html-urls.xml')![0]).toMatchObject({
      link_url: 'https://example.com/posts/posts/post-1',
      picture: 'https://example.com/images/post-1.png',
      content: expect.stringContaining('<a href="https://example.com/posts/post-1#comments"'),
    });
  });

  it('pictures: where an item has one, that one; never a tracker', () => {
    for (const f of manifest) {
      const stored = posts.get(f.file)!;
      expect(stored.filter((p) => p.picture !== '').length, f.file).toBe(PICTURES[f.file] ?? 0);
      for (const p of stored) expect(p.picture, f.file).not.toMatch(TRACKER);
    }
    const pictureOf = (file: string, link: string) => posts.get(file)!.find((p) => p.link_url === link)?.picture;
    expect(
      pictureOf(
        'rp-uolNoticias.rss',
        'https://noticias.uol.com.br/politica/eleicoes/2018/noticias/2018/09/24/ibope-bolsonaro-perde-de-haddad-ciro-e-alckmin-em-simulacoes-de-2-turno.htm',
      ),
    ).toBe('https://conteudo.imguol.com.br/c/noticias/5f/2018/09/17/presidenciaveis-1537211917356_142x100.jpg');
    expect(pictureOf('rp-craigslist.rss', 'http://sfbay.craigslist.org/eby/apa/6186664607.html')).toBe(
      'https://images.craigslist.org/00l0l_fbVZikCjEKO_300x300.jpg',
    );
    expect(pictureOf('rp-atom-customfields.atom', 'https://www.youtube.com/watch?v=lR-w1h5ONOY')).toBe(
      'https://i1.ytimg.com/vi/lR-w1h5ONOY/hqdefault.jpg',
    );
    expect(
      posts
        .get('rp-itunes-keywords-astext.rss')!
        .every((p) => p.picture.startsWith('https://www.dasding.de/podcasts/')),
    ).toBe(true);
    // the 1×1 FeedBurner pixel, share buttons and beacons were all these items had
    for (const file of ['rp-encoding.rss', 'nfp-wapowellness.xml', 'nfp-illegally-nested.xml', 'nfp-guid-dupes.xml'])
      expect(
        posts.get(file)!.every((p) => p.post_type === 1),
        file,
      ).toBe(true);
  });

  it('renditions of one picture are one media item whose picture is the largest (issue 26)', () => {
    // The Guardian gives each picture at 140 and 460 px wide (two signed URLs): one image post, the 460
    const guardian = posts.get('rp-guardian.rss')!;
    expect(guardian.filter((p) => p.post_type === 2 && /[?&]w=460&/.test(p.picture)).length).toBe(guardian.length);
    // nowhere two children of one post that are one picture (its URL without query or size suffix)
    const picture = (url: string) => url.replace(/[?#].*$/, '').replace(/[-_]\d+x\d+(?=\.\w+$)/, '');
    for (const f of manifest)
      for (const p of posts.get(f.file)!) {
        const children = (JSON.parse(p.children) as { image: string; video: string }[]).map((c) =>
          picture(c.video || c.image),
        );
        expect(new Set(children).size, `${f.file} ${p.external_id}`).toBe(children.length);
      }
  });

  it('XHTML content keeps its markup and the order of its words', () => {
    const inhibiting = posts.get('nfp-intertwingly.atom')!.find((p) => p.link_url.endsWith('/Inhibiting-Suspend'))!;
    expect(inhibiting.content).toContain(
      '<p>The <a href="http://people.gnome.org/~mccann/gnome-session/docs/gnome-session.html#org.gnome.SessionManager.Inhibit" rel="nofollow noopener noreferrer" target="_blank">interface</a> is a bit low level, but workable:</p>\n<pre>require \'dbus\'',
    );
    expect(inhibiting.content).toContain('<p>Note: the call to <code>Uninhibit</code> is optional');
    expect(posts.get('nfp-nondefaultnamespace.atom')![0]!.content).toMatch(
      /^<p><strong>If you can read the content of this entry, your aggregator works fine\.<\/strong><\/p><p>For information, see:<\/p>\s*<ul>\s*<li><a href="http:\/\/plasmasturm\.org\/log\/376\/"[^>]*>Who knows an XML document from a hole in the ground\?<\/a><\/li>/,
    );
    const unknown = posts.get('nfp-unknown-namespace.atom')![0]!.content;
    expect(unknown).toContain('<ul>\n\t\t\t\t<li>This is an XHTML list item.');
    expect(unknown).not.toContain('<li>This is not an XHTML list item.');
    expect(unknown).toContain('This is not an XHTML list item.');
    expect(posts.get('rp-reddit-home.rss')![0]!.content).toMatch(
      /^<p><strong>[^<]+<\/strong><\/p>submitted by {2}<a href="https:\/\/www\.reddit\.com\/user\/[^"]+"[^>]*>\/u\/[^<]+<\/a> {2}to {2}<a /,
    );
  });

  it('no U+FFFD where the bytes were Latin-1 (declared or not); the words as written', () => {
    for (const f of manifest)
      for (const p of posts.get(f.file)!) expect(`${p.content} ${p.author_name}`, f.file).not.toContain('\uFFFD');
    const text = (file: string) =>
      posts
        .get(file)!
        .map((p) => `${p.content} ${p.author_name}`)
        .join(' ');
    expect(text('rp-uolNoticias.rss')).toContain('Bolsonaro perde de Haddad, Ciro e Alckmin em simulações de 2º turno');
    expect(text('mf-no_encoding_ISO-8859-1.xml')).toContain(
      'Caroline Eliacheff : « Dolto reste authentiquement subversive »',
    );
    expect(text('rp-encoding.rss')).toContain('Jornal de Notícias');
  });
});
