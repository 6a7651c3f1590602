// Contract §1, the XML form, read off the raw bytes: declaration, root,
// escaping, null and empty values, number printing, repeated siblings, the
// one childNode element, two hotspot elements — and that the XML form of
// every read carries exactly what its JSON form carries.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { longDate, type SampleData } from '../helpers/expect.js';
import { get, KEYS, XML_TYPE, type Res } from '../helpers/http.js';
import { describeSample, NOW, sample } from '../helpers/sample.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { envelopeToXml } from '../helpers/xml.js';

/** Text segments between tags, after the declaration line. */
function textSegments(body: string): string[] {
  const afterDecl = body.slice(body.indexOf('\n') + 1);
  return afterDecl.split(/<[^>]*>/).filter((s) => s !== '');
}

const ENTITY = /&(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);/g;

/** The long form of the ISO instants the contract prints long in XML. */
function isoToLong(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => isoToLong(v, key));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isoToLong(v, k)]));
  }
  if (
    typeof value === 'string' &&
    ['wallCreatedAt', 'createdAt', 'updatedAt'].includes(key) &&
    /^\d{4}-\d\d-\d\dT/.test(value)
  ) {
    return longDate(value);
  }
  return value;
}

describeSample('the XML form on the raw bytes', () => {
  let srv: TestServer;
  let data: SampleData;
  beforeAll(async () => {
    data = sample();
    srv = await startTestServer({ data, now: NOW });
  });
  afterAll(async () => {
    await srv?.close();
  });

  const xml = (path: string, query: Record<string, string> = {}, key: string = KEYS.ent) =>
    get(srv.baseUrl, path, { user_key: key, format: 'xml', ...query });

  const reads: [string, string, string][] = [
    ['W1 7011', '/api/v2/widget/wallInfo/7011', KEYS.ent],
    ['W1 7013', '/api/v2/widget/wallInfo/7013', KEYS.wid],
    ['W2 7011', '/api/v2/widget/posts/7011?limit=500', KEYS.ent],
    ['W2 7013', '/api/v2/widget/posts/7013', KEYS.wid],
    ['W2 7012 (empty)', '/api/v2/widget/posts/7012', KEYS.ent],
    ['C1 7014', '/api/v2/commerce/getGalleryInfo/7014', KEYS.com],
    ['C2 7011', '/api/v2/commerce/getGalleryPosts/7011/?limit=500', KEYS.ent],
    ['C2 7014', '/api/v2/commerce/getGalleryPosts/7014/', KEYS.com],
    ['C5 7011/17010', '/api/v2/commerce/getGalleryProductByID/7011/17010/', KEYS.ent],
    ['C5 7011/17028', '/api/v2/commerce/getGalleryProductByID/7011/17028/', KEYS.ent],
    ['C5 7011/17001', '/api/v2/commerce/getGalleryProductByID/7011/17001/', KEYS.ent],
    ['C5 7014/17097', '/api/v2/commerce/getGalleryProductByID/7014/17097/', KEYS.com],
  ];
  const fetchBoth = async (path: string, key: string): Promise<[Res, Res]> => {
    const sep = path.includes('?') ? '&' : '?';
    const j = await get(srv.baseUrl, `${path}${sep}user_key=${key}`);
    const x = await get(srv.baseUrl, `${path}${sep}user_key=${key}&format=xml`);
    return [j, x];
  };

  it.each(reads)(
    '%s: the XML tree is the contract rendering of the JSON body (dates in long form)',
    async (_n, path, key) => {
      const [j, x] = await fetchBoth(path, key);
      expect(j.status).toBe(200);
      expect(x.status).toBe(200);
      const body = j.json();
      const isWidget = path.includes('/widget/');
      const isDetail = path.includes('getGalleryProductByID');
      // widget wallCreatedAt and product createdAt/updatedAt are long in XML; commerce dates are DD/MM/YYYY anyway
      const expected = isWidget || isDetail ? isoToLong(body) : body;
      expect(x.xml().tree).toStrictEqual(envelopeToXml(expected as Record<string, unknown>));
    },
  );

  it.each(reads)('%s: declaration first, root xml, content type, nothing unescaped in text', async (_n, path, key) => {
    const [, x] = await fetchBoth(path, key);
    expect(x.contentType).toBe(XML_TYPE);
    const lines = x.text.split('\n');
    expect(lines[0]).toBe('<?xml version="1.0" encoding="UTF-8"?>');
    expect(
      x.text
        .slice(x.text.indexOf('\n') + 1)
        .trimStart()
        .startsWith('<xml>'),
    ).toBe(true);
    expect(x.text.trimEnd().endsWith('</xml>')).toBe(true);
    for (const seg of textSegments(x.text)) {
      expect(seg).not.toMatch(/["'>]/);
      expect(seg.replace(ENTITY, '')).not.toContain('&');
    }
  });

  it('markup in content and author names arrives escaped in the raw text', async () => {
    const x = await xml('/api/v2/widget/posts/7011', { limit: '500' });
    expect(x.text).toContain('<content>emoji 🎉 &lt;b&gt;bold&lt;/b&gt; #0</content>');
    expect(x.text).toContain('<postAuthorName>&lt;script&gt;alert(1)&lt;/script&gt; Author</postAuthorName>');
    expect(x.text).toContain('<content>a &amp; b emoji 🎉 #6</content>');
    expect(x.text).toMatch(/<content>(?:&quot;|&#34;|&#x22;)quoted(?:&quot;|&#34;|&#x22;) 日本語 #24<\/content>/);
    expect(x.text).toMatch(/<postAuthorName>it(?:&apos;|&#39;|&#x27;)s Author<\/postAuthorName>/);
    expect(x.text).not.toContain('<b>');
    expect(x.text).not.toContain('<script>');
  });

  it('null → the text null; empty string → an empty element', async () => {
    const x = await xml('/api/v2/widget/posts/7011', { limit: '500' });
    expect(x.text).toMatch(/<CTAcolor>null<\/CTAcolor>/);
    expect(x.text).toMatch(/<rating>null<\/rating>/);
    expect(x.text).toMatch(/<postFileThumb\s*\/>|<postFileThumb><\/postFileThumb>/);
    expect(x.text).not.toMatch(/<CTAcolor\s*\/>/); // widget null CTA is never an empty element
    const c = await xml('/api/v2/commerce/getGalleryPosts/7011/', { limit: '500' });
    expect(c.text).toMatch(/<CTAcolor\s*\/>|<CTAcolor><\/CTAcolor>/); // commerce default ""
    expect(c.text).toMatch(/<CTAStatus>0<\/CTAStatus>/);
    expect(c.text).not.toMatch(/<CTAcolor>null<\/CTAcolor>/);
  });

  it('numbers print as JSON prints them', async () => {
    const x = await xml('/api/v2/commerce/getGalleryProductByID/7011/17010/');
    expect(x.text).toContain('<productPrice>185.4</productPrice>');
    expect(x.text).toContain('<productPrice>171.16</productPrice>');
    expect(x.text).toContain('<productDiscount>5.5</productDiscount>');
    expect(x.text).toContain('<productDiscount>0</productDiscount>');
    expect(x.text).toContain('<postScore>44</postScore>');
    expect(x.text).toContain('<responseCode>200</responseCode>');
  });

  it('hotspot: two repeated hotspot elements, left first', async () => {
    const x = await xml('/api/v2/commerce/getGalleryProductByID/7011/17028/');
    expect(x.text).toMatch(/<hotspot>left:6%<\/hotspot>\s*<hotspot>top:86%<\/hotspot>/);
    expect(x.text).toMatch(/<hotspot>left:12\.5%<\/hotspot>\s*<hotspot>top:80%<\/hotspot>/);
    expect(x.text.match(/<hotspot>/g)).toHaveLength(4);
  });

  it('childNode: exactly one per post, holding image/video pairs; empty list → one empty element', async () => {
    const x = await xml('/api/v2/widget/posts/7011', { limit: '500' });
    const posts = x.text.match(/<posts>/g) ?? [];
    expect(posts).toHaveLength(57);
    expect(x.text.match(/<childNode[\s/>]/g)).toHaveLength(57);
    expect(x.text).toMatch(
      /<childNode>\s*<image>https:\/\/cdn\.example\.com\/c\/17013-1\.jpg<\/image>\s*<video\s*\/>\s*<image>https:\/\/cdn\.example\.com\/c\/17013-2\.jpg<\/image>/,
    );
    expect(x.text).toMatch(/<childNode\s*\/>|<childNode><\/childNode>/);
    expect(x.text).not.toMatch(/<childNode>\s*<childNode>/);
  });

  it('repeated siblings, no wrapper: feeds in W1/C1, posts in W2, feeds in C2, postProducts in C5', async () => {
    const w1 = await xml('/api/v2/widget/wallInfo/7011');
    expect(w1.text.match(/<feeds>/g)).toHaveLength(3);
    expect(w1.text).toMatch(/<\/wallCreatedAt>\s*<feeds>/);
    const c2 = await xml('/api/v2/commerce/getGalleryPosts/7014/', {}, KEYS.com);
    expect(c2.text.match(/<feeds>/g)).toHaveLength(18);
    expect(c2.text).toMatch(/<responseData>\s*<wall>/);
    const c5 = await xml('/api/v2/commerce/getGalleryProductByID/7011/17010/');
    expect(c5.text.match(/<postProducts>/g)).toHaveLength(2);
    expect(c5.text.match(/<postDetail>/g)).toHaveLength(1);
  });

  it('dates: long text for widget wallCreatedAt and product dates, DD/MM/YYYY elsewhere', async () => {
    const w2 = await xml('/api/v2/widget/posts/7011', { limit: '1' });
    expect(w2.text).toContain(
      '<wallCreatedAt>Tue May 17 2022 09:41:00 GMT+0000 (Coordinated Universal Time)</wallCreatedAt>',
    );
    expect(w2.text).toContain('<postCreatedAt>15/12/2025</postCreatedAt>');
    const c2 = await xml('/api/v2/commerce/getGalleryPosts/7011/', { limit: '1' });
    expect(c2.text).toContain('<wallCreatedAt>17/05/2022</wallCreatedAt>');
    const c5 = await xml('/api/v2/commerce/getGalleryProductByID/7011/17013/');
    expect(c5.text).toContain('<createdAt>Sat Feb 04 2023 08:15:00 GMT+0000 (Coordinated Universal Time)</createdAt>');
    expect(c5.text).toContain('<updatedAt>Sun Mar 05 2023 09:30:00 GMT+0000 (Coordinated Universal Time)</updatedAt>');
    expect(c5.text).toContain('<postCreatedAt>19/05/2025</postCreatedAt>');
  });

  it('errors in XML: status, message, code in that order', async () => {
    const x = await get(srv.baseUrl, '/api/v2/widget/wallInfo/7011', { format: 'xml' });
    expect(x.status).toBe(401);
    expect(x.text).toMatch(
      /^<\?xml version="1\.0" encoding="UTF-8"\?>\n\s*<xml>\s*<responseStatus>error<\/responseStatus>\s*<responseMessage>API is not available in this plan OR Wrong user key!<\/responseMessage>\s*<responseCode>401<\/responseCode>\s*<\/xml>\s*$/,
    );
  });

  it('the sample contains every special character the escaping rules name', () => {
    const all = JSON.stringify(data);
    for (const c of ['&', '<', '>', '\\"', "'"]) expect(all).toContain(c);
  });
});
