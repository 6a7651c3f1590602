// Property tests over real HTTP (fast-check):
//  (a) any query string on the list routes answers 200 or a 400 envelope, never 500;
//  (b) any post content round-trips through the XML form exactly (minus the
//      characters XML 1.0 cannot carry);
//  (c) any valid combination of list parameters gives exactly the contract's list.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commerceList, wallOf, widgetList, type MediaKind, type SampleData } from '../helpers/expect.js';
import { call, expectSameOrdered, get, JSON_TYPE, KEYS, MSG, XML_TYPE, type Res } from '../helpers/http.js';
import { describeSample, NOW, sample } from '../helpers/sample.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { childElements, childText, stripXmlForbidden, type XEl } from '../helpers/xml.js';
import { storedContent, storedText } from '../../src/domain/writes.js';

const RUNS = 100;

// ---------- (a) query strings ----------

const KNOWN_KEYS = [
  'limit',
  'offset',
  'date_from',
  'include_only_image_posts',
  'include_only_video_posts',
  'include_only_text_posts',
  'format',
  'wallId',
  'LIMIT',
  'Format',
];
const KNOWN_VALUES = [
  'true',
  'false',
  '1',
  '0',
  'TRUE',
  'False',
  'xml',
  'json',
  'XML',
  'yaml',
  '',
  '10',
  '500',
  '501',
  '-1',
  '1.5',
  '01/01/2024',
  '31/02/2024',
  '29/02/2024',
  '2024-01-01',
  '%',
  '%zz',
  '%E2%82',
  '%ED%A0%80',
  '%00',
  '+',
  '%2B1',
];
/** Characters sent as they are (the URL parser encodes what it must); no '#', which would end the query. */
const RAW_CHARS = [...'abcXYZ019_-.~!$\'()*,;:@/?=&+%[]{}|\\^`"<> ', 'é', '日', '🎉', '\u00a0'];

const rawPiece = fc.string({ unit: fc.constantFrom(...RAW_CHARS), maxLength: 12 });
const encodedPiece = fc.string({ unit: 'binary', maxLength: 10 }).map(encodeURIComponent);
const bytesPiece = fc
  .uint8Array({ maxLength: 6 })
  .map((bytes) => [...bytes].map((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`).join(''));
const keyArb = fc.oneof(fc.constantFrom(...KNOWN_KEYS), rawPiece, encodedPiece, bytesPiece);
const valueArb = fc.oneof(
  fc.constantFrom(...KNOWN_VALUES),
  rawPiece,
  encodedPiece,
  bytesPiece,
  fc.integer().map(String),
  fc.double().map(String),
);
/** Leniently decoded (bytes as Latin-1, '+' as space), to keep keys that could spell user_key out. */
const lenientDecode = (s: string) =>
  s.replace(/\+/g, ' ').replace(/%([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
const pairArb = fc
  .tuple(keyArb, valueArb, fc.boolean())
  .filter(([k]) => !lenientDecode(k).toLowerCase().includes('user') && !k.includes('#'));
const queryArb = fc
  .array(pairArb, { maxLength: 6 })
  .map((pairs) => pairs.map(([k, v, withEquals]) => (withEquals ? `${k}=${v.replace(/#/g, '%23')}` : k)).join('&'));

/** The envelope of a response in whichever format it came; checks it is a well-formed one. */
function envelopeOf(res: Res): { code: number; status: string; hasData: boolean; message?: string } {
  if (res.contentType === XML_TYPE) {
    const doc = res.xml();
    expect(doc.root).toBe('xml');
    const names = doc.children.map((c) => Object.keys(c)[0]);
    if (res.status === 200) expect(names).toEqual(['responseCode', 'responseStatus', 'responseData']);
    else expect(names).toEqual(['responseStatus', 'responseMessage', 'responseCode']);
    return {
      code: Number(childText(doc.children, 'responseCode')),
      status: childText(doc.children, 'responseStatus'),
      hasData: names.includes('responseData'),
      message: names.includes('responseMessage') ? childText(doc.children, 'responseMessage') : undefined,
    };
  }
  expect(res.contentType).toBe(JSON_TYPE);
  const body = res.json();
  if (res.status === 200) expect(Object.keys(body)).toEqual(['responseCode', 'responseStatus', 'responseData']);
  else expect(Object.keys(body)).toEqual(['responseCode', 'responseStatus', 'responseMessage']);
  return {
    code: body.responseCode as number,
    status: body.responseStatus as string,
    hasData: 'responseData' in body,
    message: body.responseMessage as string | undefined,
  };
}

// ---------- (b) content ----------

/**
 * What the JSON form gives back for a stored text: the text itself, except
 * U+0000 and unpaired surrogates, which every store holds as U+FFFD (the
 * implementation's choice; the contract leaves it open).
 */
const asStored = (s: string) =>
  s.replace(/\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

// Markup in a write is sanitized (contract §7; its own tests are test/domain/sanitize.test.ts
// and test/http/xss.test.ts): here only the way from the store to both forms is the subject.
const contentAsStored = (s: string) => storedContent(asStored(s));
const nameAsStored = (s: string) => storedText(asStored(s));
/** Every post carries a file, so that content the sanitizer empties still makes a post. */
const FILE = 'https://cdn.example.com/p.jpg';

const MARKUP = [
  '<',
  '>',
  '&',
  '"',
  "'",
  '<b>',
  '</b>',
  '</xml>',
  '<xml>',
  ']]>',
  '<![CDATA[',
  '&amp;',
  '&lt;',
  '&#13;',
  '&#x0;',
  '&nbsp;',
  '\r',
  '\r\n',
  '\n',
  '\t',
  ' ',
  '  ',
  '\u0085',
  '\u2028',
  '<?xml version="1.0"?>',
  '<!--',
  '-->',
  '<!DOCTYPE x [<!ENTITY e "boom">]>',
  '&e;',
  'null',
  '\uFEFF',
];
const contentUnit = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 4 }) },
  { weight: 3, arbitrary: fc.constantFrom(...MARKUP) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)) },
  { weight: 1, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)) },
  { weight: 1, arbitrary: fc.constantFrom('\uFFFE', '\uFFFF', '\u007F', '\u0080', '\u009F') },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 3 }) },
);
const contentArb = fc.array(contentUnit, { minLength: 1, maxLength: 40 }).map((parts) => parts.join(''));

describeSample('property tests over HTTP', () => {
  let srv: TestServer;
  let data: SampleData;
  beforeAll(async () => {
    data = sample();
    srv = await startTestServer({ data, now: NOW });
  });
  afterAll(async () => {
    await srv?.close();
  });

  describe('(a) any query string on W2 and C2 → 200 or a 400 envelope, never 500', () => {
    it.each([
      ['W2', '/api/v2/widget/posts/7011'],
      ['C2', '/api/v2/commerce/getGalleryPosts/7011/'],
    ])('%s', async (_id, path) => {
      await fc.assert(
        fc.asyncProperty(queryArb, async (extra) => {
          const query = `user_key=${KEYS.ent}${extra === '' ? '' : `&${extra}`}`;
          const res = await get(srv.baseUrl, path, query);
          expect([200, 400]).toContain(res.status);
          const env = envelopeOf(res);
          expect(env.code).toBe(res.status);
          if (res.status === 200) {
            expect(env.status).toBe('success');
            expect(env.hasData).toBe(true);
          } else {
            expect(env.status).toBe('error');
            expect(env.message).toMatch(/\S/);
            expect(env.message).not.toMatch(/sqlite|stack|\/tmp|\bat \w/i);
          }
          // the format message only ever comes in JSON
          if (env.message === MSG.format) expect(res.contentType).toBe(JSON_TYPE);
        }),
        { numRuns: RUNS },
      );
    });

    it('the generator really reaches both answers', async () => {
      const seen = new Set<number>();
      for (const q of fc.sample(queryArb, { numRuns: 60, seed: 42 })) {
        seen.add((await get(srv.baseUrl, '/api/v2/widget/posts/7011', `user_key=${KEYS.ent}&${q}`)).status);
      }
      expect([...seen].sort()).toEqual([200, 400]);
    });
  });

  describe('(b) any content round-trips through the XML form', () => {
    it('W3 → W2 in JSON and XML: XML text == JSON text minus XML-forbidden characters', async () => {
      await fc.assert(
        fc.asyncProperty(contentArb, contentArb, async (content, author) => {
          const authorName = [...author].slice(0, 200).join('');
          const created = await call(srv.baseUrl, '/api/v2/widget/create-post', {
            query: { user_key: KEYS.ent },
            body: { wallId: 7012, content, authorName, postFile: FILE },
          });
          expect(created.status).toBe(200);

          const json = await get(srv.baseUrl, '/api/v2/widget/posts/7012', { user_key: KEYS.ent, limit: '1' });
          const post = (json.json() as { responseData: { posts: Record<string, string>[] }[] }).responseData[0]
            ?.posts[0];
          expect(post).toBeDefined();
          const jsonContent = post?.content as string;
          const jsonAuthor = post?.postAuthorName as string;
          // the JSON form gives the text back as stored, on every store
          expect(jsonContent).toBe(contentAsStored(content));
          expect(jsonAuthor).toBe(nameAsStored(authorName));

          const xml = await get(srv.baseUrl, '/api/v2/widget/posts/7012', {
            user_key: KEYS.ent,
            limit: '1',
            format: 'xml',
          });
          expect(xml.status).toBe(200);
          const rd = childElements(xml.xml().children, 'responseData')[0] as XEl[];
          const xpost = childElements(rd, 'posts')[0] as XEl[];
          expect(childText(xpost, 'postId')).toBe(post?.postId);
          expect(childText(xpost, 'content')).toBe(stripXmlForbidden(jsonContent));
          expect(childText(xpost, 'postAuthorName')).toBe(stripXmlForbidden(jsonAuthor));
        }),
        { numRuns: RUNS },
      );
    });

    it('C3 → C5 in XML: Postcontent round-trips too', async () => {
      await fc.assert(
        fc.asyncProperty(contentArb, async (content) => {
          const created = await call(srv.baseUrl, '/api/v2/commerce/createGalleryPost', {
            query: { user_key: KEYS.ent },
            body: { wallId: 7012, content, postFile: FILE },
          });
          expect(created.status).toBe(200);
          const list = await get(srv.baseUrl, '/api/v2/commerce/getGalleryPosts/7012/', {
            user_key: KEYS.ent,
            limit: '1',
          });
          const item = (list.json() as { responseData: { feeds: Record<string, unknown>[] }[] }).responseData[0]
            ?.feeds[0];
          const id = item?.postId as number;
          const xml = await get(srv.baseUrl, `/api/v2/commerce/getGalleryProductByID/7012/${id}/`, {
            user_key: KEYS.ent,
            format: 'xml',
          });
          const rd = childElements(xml.xml().children, 'responseData')[0] as XEl[];
          const detail = childElements(rd, 'postDetail')[0] as XEl[];
          expect(childText(detail, 'Postcontent')).toBe(stripXmlForbidden(item?.postContent as string));
        }),
        { numRuns: 40 },
      );
    });
  });

  describe('(c) any valid list parameters → exactly the contract list', () => {
    const two = (n: number) => String(n).padStart(2, '0');
    const dateArb = fc
      .date({ min: new Date(Date.UTC(2022, 11, 1)), max: new Date(Date.UTC(2026, 0, 31)), noInvalidDate: true })
      .map((d) => `${two(d.getUTCDate())}/${two(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}`);
    const flagArb = fc.option(fc.constantFrom('true', 'false', '1', '0', 'TRUE', 'False'), { nil: undefined });
    const paramsArb = fc.record({
      limit: fc.option(fc.integer({ min: 1, max: 500 }), { nil: undefined }),
      offset: fc.option(fc.integer({ min: 0, max: 70 }), { nil: undefined }),
      date_from: fc.option(dateArb, { nil: undefined }),
      include_only_image_posts: flagArb,
      include_only_video_posts: flagArb,
      include_only_text_posts: flagArb,
      family: fc.constantFrom('widget' as const, 'commerce' as const),
      wallId: fc.constantFrom(7011, 7012),
    });
    const on = (v: string | undefined) => v !== undefined && ['true', '1'].includes(v.toLowerCase());

    it('W2 / C2 in JSON', async () => {
      await fc.assert(
        fc.asyncProperty(paramsArb, async (p) => {
          const query: Record<string, string> = { user_key: KEYS.ent };
          for (const k of [
            'limit',
            'offset',
            'date_from',
            'include_only_image_posts',
            'include_only_video_posts',
            'include_only_text_posts',
          ] as const) {
            const v = p[k];
            if (v !== undefined) query[k] = String(v);
          }
          const kinds: MediaKind[] = [];
          if (on(p.include_only_image_posts)) kinds.push('image');
          if (on(p.include_only_video_posts)) kinds.push('video');
          if (p.family === 'widget' && on(p.include_only_text_posts)) kinds.push('text');
          const options = { limit: p.limit, offset: p.offset, dateFrom: p.date_from, kinds };
          const path =
            p.family === 'widget'
              ? `/api/v2/widget/posts/${p.wallId}`
              : `/api/v2/commerce/getGalleryPosts/${p.wallId}/`;
          const res = await get(srv.baseUrl, path, query);
          expect(res.status).toBe(200);
          const wall = wallOf(data, p.wallId);
          const expected = p.family === 'widget' ? widgetList(wall, 'json', options) : commerceList(wall, options);
          const body = res.json();
          // 7012 receives posts from (b); compare the sample wall exactly, 7012 by shape
          if (p.wallId === 7011) expectSameOrdered(body.responseData, expected);
          else expect(Array.isArray(body.responseData)).toBe(true);
        }),
        { numRuns: RUNS },
      );
    });
  });
});
