// Contract §7, "Markup and URLs in writes": no write carries script to a page.
// Every write path — C3 and W3 (in each body form they take), and the
// management API's post content, call-to-action (one post and bulk),
// products, walls, feeds and accounts — gets the attack corpus; what is
// stored (read back through the management API) and what is served (W1/C1,
// W2, C2, C5, in JSON and XML) is read as a browser would (parse5) and must
// hold nothing that runs. Benign input comes back byte for byte.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, KEYS, MSG, type Res } from '../helpers/http.js';
import { contentProblems, textProblems, urlProblems } from '../helpers/html-safety.js';
import { describeSample, NOW, sample } from '../helpers/sample.js';
import { startTestServer } from '../helpers/server.js';
import type { XEl } from '../helpers/xml.js';
import { MARKUP_PAYLOADS, URL_PAYLOADS } from '../helpers/xss-corpus.js';
import { data, failure, startManageServer, type ManageServer } from './manage/helpers.js';

const WALL = 7012; // account 7001's empty wall
const CREATE = { widget: '/api/v2/widget/create-post', commerce: '/api/v2/commerce/createGalleryPost' } as const;
const FILE = 'https://cdn.example.com/p.jpg';
const REL = 'rel="nofollow noopener noreferrer"';
const CTA = { color: '#ffffff', background: '#0a7cff', status: 1, url: 'https://shop.example.com/look', text: 'Shop' };

// ---------- what is served and stored, by field ----------

const CONTENT_FIELDS = new Set(['content', 'postContent', 'Postcontent']);
const URL_FIELDS = new Set([
  'postFile',
  'postLinkUrl',
  'postLink',
  'postUserPicture',
  'authorPicture',
  'CTAurl',
  'productUrl',
  'productImage',
  'postPicture',
  'postFileOriginal',
  'postFileThumb',
  'postMediaFile',
  'image',
  'video',
]);
const TEXT_FIELDS = new Set([
  'postAuthorName',
  'authorName',
  'authorUserName',
  'postUsername',
  'CTAtext',
  'feedName',
  'wallName',
  'source',
  'sourceType',
  'networkName',
  'location',
  'postTags',
  'productName',
  'productSku',
  'productCurrencySymbol',
  'priceCurrency',
  'discountCurrencySymbol',
  'discountCurrency',
  'storeShopName',
  'storeProductId',
  'storeProductType',
]);

function problemsOf(field: string, value: string): string[] {
  if (CONTENT_FIELDS.has(field)) return contentProblems(value);
  if (URL_FIELDS.has(field)) return urlProblems(value);
  if (TEXT_FIELDS.has(field)) return textProblems(value);
  return [];
}

/** Problems of every known field anywhere in a JSON answer. */
function jsonProblems(value: unknown, path: string, out: string[]): string[] {
  if (Array.isArray(value)) value.forEach((v, i) => jsonProblems(v, `${path}[${i}]`, out));
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (typeof v === 'string') out.push(...problemsOf(k, v).map((p) => `${path}.${k} ${JSON.stringify(v)}: ${p}`));
      else jsonProblems(v, `${path}.${k}`, out);
    }
  }
  return out;
}

/** The same for an XML answer (text values decoded by the XML parser; null is printed `null`). */
function xmlProblems(elements: XEl[], path: string, out: string[]): string[] {
  for (const el of elements) {
    for (const [k, v] of Object.entries(el)) {
      if (typeof v !== 'string') xmlProblems(v, `${path}/${k}`, out);
      else if (!(v === 'null' && URL_FIELDS.has(k)))
        out.push(...problemsOf(k, v).map((p) => `${path}/${k} ${JSON.stringify(v)}: ${p}`));
    }
  }
  return out;
}

interface Post {
  id: number;
  content: string;
  authorName: string;
  file: string;
  picture: string;
  linkUrl: string;
  userPicture: string;
  cta: { text: string; url: string } | null;
}

/** Problems of a stored post, as the management API reads it back. */
function storedPostProblems(p: Post): string[] {
  return [
    ...contentProblems(p.content).map((x) => `content: ${x}`),
    ...textProblems(p.authorName).map((x) => `authorName: ${x}`),
    ...[p.file, p.picture, p.linkUrl, p.userPicture, p.cta?.url ?? ''].flatMap((u) => urlProblems(u)),
    ...textProblems(p.cta?.text ?? '').map((x) => `cta.text: ${x}`),
  ];
}

describeSample('no script through any write (contract §7, markup and URLs in writes)', () => {
  let m: ManageServer;
  beforeAll(async () => {
    m = await startManageServer();
  });
  afterAll(async () => m?.close());

  const v2Post = (family: keyof typeof CREATE, body: unknown, contentType = 'application/json') =>
    call(m.srv.baseUrl, CREATE[family], {
      query: { user_key: KEYS.ent },
      body: JSON.stringify(body),
      headers: { 'content-type': contentType },
    });
  const v2Get = (path: string, format: 'json' | 'xml') =>
    call(m.srv.baseUrl, `/api/v2${path}`, { query: { user_key: KEYS.ent, format } });
  const newest = async (wallId = WALL): Promise<Post> =>
    data<{ data: Post[] }>(await m.api('GET', `/walls/${wallId}/posts?limit=1`)).data[0]!;
  const storedPost = async (id: number, wallId = WALL): Promise<Post> =>
    data<Post>(await m.api('GET', `/walls/${wallId}/posts/${id}`));

  /** Problems of what W2, C2, W1, C1 (unless `postsOnly`) and C5 for `detail` serve of the wall, in JSON and XML. */
  async function servedProblems(wallId: number, detail: number[] = [], postsOnly = false): Promise<string[]> {
    const paths = [
      `/widget/posts/${wallId}?limit=500`,
      `/commerce/getGalleryPosts/${wallId}/?limit=500`,
      ...(postsOnly ? [] : [`/widget/wallInfo/${wallId}`, `/commerce/getGalleryInfo/${wallId}`]),
      ...detail.map((id) => `/commerce/getGalleryProductByID/${wallId}/${id}/`),
    ];
    const out: string[] = [];
    for (const path of paths) {
      const [q, rest] = path.includes('?') ? path.split('?') : [path, ''];
      for (const format of ['json', 'xml'] as const) {
        const res = await call(m.srv.baseUrl, `/api/v2${q}`, {
          query: `user_key=${KEYS.ent}&format=${format}${rest ? `&${rest}` : ''}`,
        });
        expect(res.status, `${path} ${format}`).toBe(200);
        if (format === 'json') jsonProblems(res.json().responseData, `${path} json`, out);
        else xmlProblems(res.xml().children, `${path} xml`, out);
      }
    }
    return out;
  }

  /** A 400 of the management API naming one of `fieldsAllowed`, or the success code. Returns whether it was accepted. */
  function acceptedOrRefused(res: Res, okCode: number, fieldsAllowed: string[], what: string): boolean {
    if (res.status === okCode) return true;
    expect(res.status, `${what}: ${res.text}`).toBe(400);
    const named = (res.json().fieldErrors as { field: string }[]).map((e) => e.field);
    expect(
      named.every((f) => fieldsAllowed.includes(f)),
      `${what}: ${res.text}`,
    ).toBe(true);
    return false;
  }

  describe('C3 and W3', () => {
    const created: { payload: string; id: number }[] = [];
    const forms = [
      ['widget', 'application/json'],
      ['commerce', 'text/plain'],
      ['widget', 'application/x-www-form-urlencoded'],
      ['commerce', 'application/json; charset=utf-8'],
    ] as const;

    it('markup in content and authorName: stored and served with nothing that runs', async () => {
      const problems: Record<string, string[]> = {};
      for (const [i, payload] of MARKUP_PAYLOADS.entries()) {
        const [family, form] = forms[i % forms.length]!;
        const res = await v2Post(family, { wallId: WALL, content: payload, authorName: payload, postFile: FILE }, form);
        expect(res.status, `${payload}: ${res.text}`).toBe(200);
        const post = await newest();
        created.push({ payload, id: post.id });
        const found = storedPostProblems(post);
        if (found.length > 0) problems[payload] = found;
      }
      expect(problems).toEqual({});
      expect(
        await servedProblems(
          WALL,
          created.map((c) => c.id),
        ),
      ).toEqual([]);
    });

    it('URL fields: refused with a message naming the field, or stored normalized and harmless', async () => {
      const problems: string[] = [];
      for (const [i, payload] of URL_PAYLOADS.entries()) {
        for (const field of ['postFile', 'link', 'authorPicture'] as const) {
          const family = i % 2 === 0 ? 'widget' : 'commerce';
          const before = await newest();
          const res = await v2Post(family, { wallId: WALL, content: 'url', [field]: payload });
          if (res.status === 400) {
            expect(res.json().responseMessage, payload).toBe(
              `${field} must be an absolute http or https URL of at most 2048 characters`,
            );
            expect((await newest()).id).toBe(before.id);
            continue;
          }
          expect(res.status, `${field} ${payload}: ${res.text}`).toBe(200);
          const post = await newest();
          const stored = { postFile: post.file, link: post.linkUrl, authorPicture: post.userPicture }[field];
          expect(stored, `${field} ${payload}`).toBe(new URL(payload).href);
          problems.push(...urlProblems(stored).map((p) => `${field} ${payload}: ${p}`));
        }
      }
      expect(problems).toEqual([]);
      expect(await servedProblems(WALL)).toEqual([]);
    });

    it('the issue’s example: a postFile that breaks out of its attribute is stored percent-encoded', async () => {
      const res = await v2Post('widget', { wallId: WALL, postFile: 'https://cdn.example/a.jpg"onerror="alert(8)' });
      expect(res.status).toBe(200);
      expect((await newest()).file).toBe('https://cdn.example/a.jpg%22onerror=%22alert(8)');
      for (const host of ['https://x"onerror="alert(1)/a.jpg', 'https://exa%22mple.com/a.jpg']) {
        const refused = await v2Post('commerce', { wallId: WALL, content: 'x', authorPicture: host }, 'text/plain');
        expect(refused.status).toBe(400);
        expect(refused.json().responseMessage).toBe(
          'authorPicture must be an absolute http or https URL of at most 2048 characters',
        );
        const xml = await call(m.srv.baseUrl, CREATE.widget, {
          query: { user_key: KEYS.ent, format: 'xml' },
          body: { wallId: WALL, content: 'x', link: host },
        });
        expect(xml.status).toBe(400);
        expect(xml.xml().children).toContainEqual({
          responseMessage: 'link must be an absolute http or https URL of at most 2048 characters',
        });
      }
    });

    it('content that is only script is no content: 400, as for an empty post', async () => {
      const before = await newest();
      for (const family of ['widget', 'commerce'] as const) {
        const res = await v2Post(family, { wallId: WALL, content: '<script>alert(1)</script>' });
        expect(res.status).toBe(400);
        expect(res.json().responseMessage).toBe('content or postFile is required');
      }
      expect((await newest()).id).toBe(before.id);
    });

    it('for any string, nothing that runs is stored, and a string without markup is stored as sent (property)', async () => {
      const pieces = fc.constantFrom(...MARKUP_PAYLOADS, '<b>', '</b>', '&', '"', '<', '😀');
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.oneof(pieces, fc.string(), fc.string({ unit: 'grapheme' })), { maxLength: 6 }),
          async (parts) => {
            const text = parts.join('');
            const res = await v2Post('widget', {
              wallId: WALL,
              content: text,
              authorName: text.slice(0, 200),
              postFile: FILE,
            });
            expect(res.status, res.text).toBe(200);
            const post = await newest();
            expect(storedPostProblems(post)).toEqual([]);
            if (!/<[A-Za-z!/?]/.test(text) && !text.endsWith('<')) {
              expect(post.content).toBe(text);
              expect(post.authorName).toBe(text.slice(0, 200));
            }
          },
        ),
        { numRuns: 30 },
      );
    });
  });

  describe('management API: post content and calls-to-action', () => {
    let postIds: number[] = [];
    beforeAll(async () => {
      // one post per payload to edit, on a wall of their own
      const wall = data<{ id: number }>(
        await m.api('POST', '/walls', { accountId: 7001, name: 'edits', url: 'xss-edits' }),
        201,
      );
      for (let i = 0; i < MARKUP_PAYLOADS.length; i++) {
        expect((await v2Post('widget', { wallId: wall.id, content: `post ${i}` })).status).toBe(200);
      }
      postIds = data<{ data: Post[] }>(await m.api('GET', `/walls/${wall.id}/posts?limit=200`))
        .data.map((p) => p.id)
        .reverse();
      editWall = wall.id;
    });
    let editWall = 0;

    it('PATCH content: stored and served with nothing that runs', async () => {
      const problems: Record<string, string[]> = {};
      for (const [i, payload] of MARKUP_PAYLOADS.entries()) {
        const post = data<Post>(await m.api('PATCH', `/walls/${editWall}/posts/${postIds[i]}`, { content: payload }));
        const found = [...storedPostProblems(post), ...storedPostProblems(await storedPost(post.id, editWall))];
        if (found.length > 0) problems[payload] = found;
      }
      expect(problems).toEqual({});
      expect(await servedProblems(editWall, postIds)).toEqual([]);
    });

    it('PATCH cta: markup in its text, bad URLs in its url', async () => {
      const problems: Record<string, string[]> = {};
      for (const [i, payload] of MARKUP_PAYLOADS.entries()) {
        const res = await m.api('PATCH', `/walls/${editWall}/posts/${postIds[i]}`, { cta: { ...CTA, text: payload } });
        if (!acceptedOrRefused(res, 200, ['cta.text'], payload)) continue;
        const found = storedPostProblems(await storedPost(postIds[i]!, editWall));
        if (found.length > 0) problems[payload] = found;
      }
      for (const [i, payload] of URL_PAYLOADS.entries()) {
        const res = await m.api('PATCH', `/walls/${editWall}/posts/${postIds[i]}`, { cta: { ...CTA, url: payload } });
        if (!acceptedOrRefused(res, 200, ['cta.url'], payload)) continue;
        const post = await storedPost(postIds[i]!, editWall);
        expect(post.cta?.url).toBe(new URL(payload).href);
        const found = storedPostProblems(post);
        if (found.length > 0) problems[payload] = found;
      }
      expect(problems).toEqual({});
      expect(await servedProblems(editWall, postIds)).toEqual([]);
    });

    it('bulk setCta: markup in its text, bad URLs in its url', async () => {
      const problems: Record<string, string[]> = {};
      const some = postIds.slice(0, 3);
      const cases = [
        ...MARKUP_PAYLOADS.map((p) => ({ payload: p, cta: { ...CTA, text: p }, field: 'cta.text' })),
        ...URL_PAYLOADS.map((p) => ({ payload: p, cta: { ...CTA, url: p }, field: 'cta.url' })),
      ];
      for (const { payload, cta, field } of cases) {
        const res = await m.api('POST', `/walls/${editWall}/posts/bulk`, { postIds: some, action: 'setCta', cta });
        if (!acceptedOrRefused(res, 200, [field], payload)) continue;
        for (const id of some) {
          const found = storedPostProblems(await storedPost(id, editWall));
          if (found.length > 0) problems[payload] = found;
        }
        const served = await servedProblems(editWall, [], true);
        if (served.length > 0) problems[`${payload} (served)`] = served;
      }
      expect(problems).toEqual({});
    });
  });

  describe('management API: products, walls, feeds, accounts', () => {
    const TEXT_FIELDS_OF_PRODUCT = ['name', 'sku', 'storeShopName', 'storeProductId', 'storeProductType'] as const;
    const SHORT_FIELDS_OF_PRODUCT = ['currencySymbol', 'discountCurrencySymbol'] as const;

    function productProblems(p: Record<string, unknown>): string[] {
      return [
        ...[...TEXT_FIELDS_OF_PRODUCT, ...SHORT_FIELDS_OF_PRODUCT].flatMap((f) =>
          textProblems(String(p[f])).map((x) => `${f}: ${x}`),
        ),
        ...urlProblems(String(p.url)).map((x) => `url: ${x}`),
        ...urlProblems(String(p.image)).map((x) => `image: ${x}`),
      ];
    }

    it('products, created and changed: stored, and served in C5, with nothing that runs', async () => {
      const problems: Record<string, string[]> = {};
      const made: number[] = [];
      const productFields = (payload: string) => ({
        ...Object.fromEntries(TEXT_FIELDS_OF_PRODUCT.map((f) => [f, payload])),
        ...Object.fromEntries(SHORT_FIELDS_OF_PRODUCT.map((f) => [f, payload.slice(0, 10)])),
      });
      for (const payload of MARKUP_PAYLOADS) {
        const res = await m.api('POST', '/products', { accountId: 7001, price: 1, ...productFields(payload) });
        if (!acceptedOrRefused(res, 201, ['name'], payload)) continue;
        const product = data<Record<string, unknown> & { id: number }>(res, 201);
        made.push(product.id);
        const stored = data<Record<string, unknown>>(await m.api('GET', `/products/${product.id}`));
        const found = [...productProblems(product), ...productProblems(stored)];
        if (found.length > 0) problems[payload] = found;
      }
      // every URL payload as url and image, on create and on change
      for (const payload of URL_PAYLOADS) {
        const res = await m.api('POST', '/products', {
          accountId: 7001,
          name: 'p',
          price: 1,
          url: payload,
          image: payload,
        });
        if (!acceptedOrRefused(res, 201, ['url', 'image'], payload)) continue;
        const product = data<Record<string, unknown> & { id: number }>(res, 201);
        made.push(product.id);
        expect([product.url, product.image]).toEqual([new URL(payload).href, new URL(payload).href]);
        const found = productProblems(product);
        if (found.length > 0) problems[payload] = found;
      }
      const target = made[0]!;
      for (const payload of MARKUP_PAYLOADS) {
        const res = await m.api('PATCH', `/products/${target}`, productFields(payload));
        if (!acceptedOrRefused(res, 200, ['name'], payload)) continue;
        const found = productProblems(data(res));
        if (found.length > 0) problems[`${payload} (change)`] = found;
      }
      for (const payload of URL_PAYLOADS) {
        const res = await m.api('PATCH', `/products/${made[1]}`, { url: payload, image: payload });
        if (!acceptedOrRefused(res, 200, ['url', 'image'], payload)) continue;
        const found = productProblems(data(res));
        if (found.length > 0) problems[`${payload} (change)`] = found;
      }
      expect(problems).toEqual({});

      // C5 shows the products tagged on a post: tag them all, 50 a post
      const posts: number[] = [];
      for (let i = 0; i < made.length; i += 50) {
        expect((await v2Post('commerce', { wallId: WALL, content: `tags ${i}` })).status).toBe(200);
        const post = await newest();
        posts.push(post.id);
        const tags = made.slice(i, i + 50).map((productId) => ({ productId, left: 10, top: 20 }));
        data(await m.api('PUT', `/walls/${WALL}/posts/${post.id}/products`, { tags }));
      }
      expect(await servedProblems(WALL, posts)).toEqual([]);
    });

    it('walls and feeds, created and changed: stored, and served in W1/C1, with nothing that runs', async () => {
      const problems: Record<string, string[]> = {};
      const feedWall = data<{ id: number }>(
        await m.api('POST', '/walls', { accountId: 7001, name: 'feeds', url: 'xss-feeds' }),
        201,
      ).id;
      const walls: number[] = [feedWall];
      for (const [i, payload] of MARKUP_PAYLOADS.entries()) {
        const res = await m.api('POST', '/walls', { accountId: 7001, name: payload, url: `xss-wall-${i}` });
        if (acceptedOrRefused(res, 201, ['name'], payload)) {
          const wall = data<{ id: number; name: string }>(res, 201);
          walls.push(wall.id);
          const stored = data<{ name: string }>(await m.api('GET', `/walls/${wall.id}`));
          const found = [...textProblems(wall.name), ...textProblems(stored.name)];
          const changed = await m.api('PATCH', `/walls/${feedWall}`, { name: payload });
          if (acceptedOrRefused(changed, 200, ['name'], payload))
            found.push(...textProblems(data<{ name: string }>(changed).name));
          if (found.length > 0) problems[`wall ${payload}`] = found;
        }
        const feed = await m.api('POST', `/walls/${feedWall}/feeds`, {
          name: payload,
          source: payload,
          sourceType: payload,
        });
        if (acceptedOrRefused(feed, 201, ['name', 'source', 'sourceType'], payload)) {
          const made = data<{ id: number; name: string; source: string; sourceType: string }>(feed, 201);
          const found = [made.name, made.source, made.sourceType].flatMap(textProblems);
          const changed = await m.api('PATCH', `/walls/${feedWall}/feeds/${made.id}`, {
            name: `${payload} 2`,
            source: payload,
          });
          if (acceptedOrRefused(changed, 200, ['name', 'source'], payload)) {
            const after = data<{ name: string; source: string }>(changed);
            found.push(...[after.name, after.source].flatMap(textProblems));
          }
          if (found.length > 0) problems[`feed ${payload}`] = found;
        }
      }
      expect(problems).toEqual({});
      const served: string[] = [];
      for (const id of walls) served.push(...(await servedProblems(id)));
      expect(served).toEqual([]);
    });

    it('accounts, created and changed: stored with nothing that runs', async () => {
      const problems: Record<string, string[]> = {};
      for (const payload of MARKUP_PAYLOADS) {
        const res = await m.api('POST', '/accounts', { name: payload, plan: 'free' });
        if (acceptedOrRefused(res, 201, ['name'], payload)) {
          const found = textProblems(data<{ name: string }>(res, 201).name);
          if (found.length > 0) problems[payload] = found;
        }
        const changed = await m.api('PATCH', '/accounts/7004', { name: payload });
        if (acceptedOrRefused(changed, 200, ['name'], payload)) {
          const found = textProblems(data<{ name: string }>(await m.api('GET', '/accounts/7004')).name);
          if (found.length > 0) problems[`${payload} (change)`] = found;
        }
      }
      expect(problems).toEqual({});
    });

    it('U+0000 and unpaired surrogates in a management write are kept as U+FFFD, the same on every store', async () => {
      const text = 'a\u0000b \uD800 <b>c\u0000</b>';
      const post = data<Post>(await m.api('PATCH', `/walls/${WALL}/posts/${(await newest()).id}`, { content: text }));
      expect(post.content).toBe('a\uFFFDb \uFFFD <b>c\uFFFD</b>');
      const wall = data<{ name: string }>(await m.api('PATCH', `/walls/${WALL}`, { name: 'n\u0000 \uDC00' }));
      expect(wall.name).toBe('n\uFFFD \uFFFD');
      const product = data<{ name: string; sku: string }>(
        await m.api('POST', '/products', { accountId: 7001, name: '<i>p\u0000</i>', sku: 's\u0000', price: 1 }),
        201,
      );
      expect([product.name, product.sku]).toEqual(['p\uFFFD', 's\uFFFD']);
    });

    it('a name that is nothing but markup is refused with the field named', async () => {
      const res = await m.api('POST', '/walls', { accountId: 7001, name: '<script>alert(1)</script>', url: 'xss-x' });
      expect(res.status).toBe(400);
      expect(res.json().fieldErrors).toEqual([
        { field: 'name', message: 'name must contain text besides tags and spaces' },
      ]);
      const cta = await m.api('PATCH', `/walls/7011/posts/17004`, {
        cta: { ...CTA, text: '<b> </b>', url: 'javascript:x' },
      });
      expect(cta.status).toBe(400);
      expect(cta.json().fieldErrors).toEqual([
        { field: 'cta.url', message: 'cta.url must be an absolute http or https URL of at most 2048 characters' },
      ]);
      const host = await m.api('PATCH', `/walls/7011/posts/17004`, {
        cta: { ...CTA, text: '<b> </b>', url: 'https://a"b/' },
      });
      expect(host.json().fieldErrors).toEqual([
        { field: 'cta.text', message: 'cta.text must contain text besides tags and spaces' },
        { field: 'cta.url', message: 'cta.url must be an absolute http or https URL of at most 2048 characters' },
      ]);
    });
  });

  describe('control characters: no write stores one (they would reach terminals)', () => {
    // ESC [8m hides text; OSC 52 writes the clipboard; U+009B is a one-character CSI
    const HIDDEN = 'Summer \u001b[8mhidden\u001b[0m';
    const OSC52 = 'copy \u001b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\u0007 \u009b31m red\u007f';
    const SHOWN = 'Summer [8mhidden[0m';
    /** none but tab, LF and CR (every text a write stores) */
    const BUT_LINES = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

    it.each(['widget', 'commerce'] as const)(
      '%s: C3/W3 content and authorName keep their lines and lose every other control',
      async (family) => {
        const res = await v2Post(family, {
          wallId: WALL,
          content: `<b>Sale</b> ${OSC52}\r\nline\ttwo`,
          authorName: `${HIDDEN}\nAnn`,
        });
        expect(res.json().responseMessage).toBe(MSG.created);
        const post = await newest();
        expect(post.content).toBe('<b>Sale</b> copy ]52;c;Y3VybCBldmlsLnNoIHwgc2g= 31m red\r\nline\ttwo');
        expect(post.authorName).toBe(`${SHOWN}\nAnn`);
      },
    );

    it('management API: wall and account names, post content, CTA, reason, product, feed connector, rules', async () => {
      expect(data<{ name: string }>(await m.api('PATCH', `/walls/${WALL}`, { name: HIDDEN })).name).toBe(SHOWN);
      expect(data<{ name: string }>(await m.api('PATCH', '/accounts/7004', { name: HIDDEN })).name).toBe(SHOWN);
      const id = (await newest()).id;
      const edited = data<Post>(
        await m.api('PATCH', `/walls/${WALL}/posts/${id}`, { content: OSC52, cta: { ...CTA, text: HIDDEN } }),
      );
      expect([edited.content, edited.cta?.text]).toEqual(['copy ]52;c;Y3VybCBldmlsLnNoIHwgc2g= 31m red', SHOWN]);
      data(await m.api('POST', `/walls/${WALL}/posts/bulk`, { postIds: [id], action: 'reject', reason: HIDDEN }));
      const decided = data<{ decision: { reason: string } }>(await m.api('GET', `/walls/${WALL}/posts/${id}`));
      expect(decided.decision.reason).toBe(SHOWN);
      const product = data<Record<string, unknown>>(
        await m.api('POST', '/products', {
          accountId: 7001,
          name: HIDDEN,
          sku: OSC52,
          price: 1,
          url: 'https://x.example/a\u001bb',
        }),
        201,
      );
      expect([product.name, product.sku, product.url]).toEqual([
        SHOWN,
        'copy ]52;c;Y3VybCBldmlsLnNoIHwgc2g= 31m red',
        'https://x.example/a%1Bb',
      ]);
      const feed = data<{ name: string; connector: Record<string, string> }>(
        await m.api('POST', `/walls/${WALL}/feeds`, {
          name: HIDDEN,
          source: 'Mastodon',
          sourceType: 'hashtag',
          connector: { kind: 'mastodon', instance: 'https://m.example/\u009b', hashtag: 'sale\u001b[8m' },
        }),
        201,
      );
      expect([feed.name, feed.connector.instance, feed.connector.hashtag]).toEqual([
        SHOWN,
        'https://m.example/',
        'sale[8m',
      ]);
      const rules = data<{ rules: { words?: string[]; usernames?: string[] }[] }>(
        await m.api('PUT', `/walls/${WALL}/rules`, {
          rules: [
            { kind: 'keyword', action: 'hold', words: ['spam\u009b', HIDDEN] },
            { kind: 'author', action: 'reject', network: null, usernames: ['troll\u0007'] },
          ],
        }),
      );
      expect(rules.rules.map((r) => r.words ?? r.usernames)).toEqual([['spam', SHOWN], ['troll']]);
      // a string of nothing but controls is refused, named
      expect(
        failure(
          await m.api('PUT', `/walls/${WALL}/rules`, {
            rules: [{ kind: 'author', action: 'reject', network: null, usernames: ['\u001b\u0007'] }],
          }),
          400,
        ),
      ).toEqual([
        {
          field: 'rules[0].usernames[0]',
          message: 'rules[0].usernames[0] must contain text besides control characters',
        },
      ]);
      data(await m.api('PUT', `/walls/${WALL}/rules`, { rules: [] }));
    });

    it('for any text, what C3, W3 and the management API store holds none but tab, LF and CR (property)', async () => {
      const text = fc
        .array(
          fc.oneof(
            fc.string({ unit: 'binary', maxLength: 12 }),
            fc.constantFrom(HIDDEN, OSC52, '&#27;', '&#x81;', '<b>', '</b>', '<div>', '\r\n', '\t', '\u0000'),
            fc.string({ unit: fc.integer({ min: 0, max: 0x9f }).map((c) => String.fromCharCode(c)), maxLength: 8 }),
          ),
          { minLength: 1, maxLength: 6 },
        )
        .map((parts) => `x${parts.join('')}`);
      const id = (await newest()).id;
      await fc.assert(
        fc.asyncProperty(text, text, async (name, content) => {
          const created = await v2Post('widget', { wallId: WALL, content, authorName: name });
          expect(created.status).toBe(200);
          const post = await newest();
          expect(post.content).not.toMatch(BUT_LINES);
          expect(post.authorName).not.toMatch(BUT_LINES);
          const edited = data<Post>(
            await m.api('PATCH', `/walls/${WALL}/posts/${id}`, { content, cta: { ...CTA, text: name } }),
          );
          expect(edited.content).not.toMatch(BUT_LINES);
          expect(edited.cta?.text).not.toMatch(BUT_LINES);
          const wall = data<{ name: string }>(await m.api('PATCH', `/walls/${WALL}`, { name }));
          expect(wall.name).not.toMatch(BUT_LINES);
        }),
        { numRuns: 25 },
      );
    });
  });

  describe('benign input comes back byte for byte', () => {
    const CONTENT = `Tom & Jerry "quoted" 😀 <b>bold</b> <a href="https://x.example/" ${REL}>x</a> a < b &amp; <p>end`;
    const NAME = 'Tom & Jerry "quoted" 😀 a < b &amp; I <3 you';
    const URL_ = 'https://cdn.example.com/a.jpg?x=1&y=2#f';

    /** Every value this post has in W2, C2 and C5, JSON and XML, for the fields named. */
    async function servedValues(wallId: number, postId: number): Promise<Record<string, Set<string>>> {
      const out: Record<string, Set<string>> = {};
      const add = (k: string, v: string) => (out[k] ??= new Set()).add(v);
      const visitJson = (v: unknown): void => {
        if (Array.isArray(v)) v.forEach(visitJson);
        else if (v !== null && typeof v === 'object') {
          const o = v as Record<string, unknown>;
          const mine = String(o.postId) === String(postId) || 'Postcontent' in o;
          for (const [k, x] of Object.entries(o)) {
            if (typeof x === 'string' && mine) add(k, x);
            else visitJson(x);
          }
        }
      };
      const visitXml = (els: XEl[]): void => {
        const mine = els.some((e) => e.postId === String(postId)) || els.some((e) => 'Postcontent' in e);
        for (const e of els)
          for (const [k, x] of Object.entries(e)) {
            if (typeof x === 'string') {
              if (mine) add(k, x);
            } else visitXml(x);
          }
      };
      for (const path of [
        `/widget/posts/${wallId}`,
        `/commerce/getGalleryPosts/${wallId}/`,
        `/commerce/getGalleryProductByID/${wallId}/${postId}/`,
      ]) {
        visitJson((await v2Get(path, 'json')).json().responseData);
        visitXml((await v2Get(path, 'xml')).xml().children);
      }
      return out;
    }

    it.each(['widget', 'commerce'] as const)('%s: content, authorName and URLs', async (family) => {
      const res = await v2Post(family, {
        wallId: WALL,
        content: CONTENT,
        authorName: NAME,
        postFile: URL_,
        link: URL_,
        authorPicture: URL_,
      });
      expect(res.json().responseMessage).toBe(MSG.created);
      const post = await newest();
      expect([post.content, post.authorName, post.file, post.linkUrl, post.userPicture]).toEqual([
        CONTENT,
        NAME,
        URL_,
        URL_,
        URL_,
      ]);
      const served = await servedValues(WALL, post.id);
      for (const f of ['content', 'postContent', 'Postcontent']) expect([...served[f]!], f).toEqual([CONTENT]);
      for (const f of ['postAuthorName', 'authorName']) expect([...served[f]!], f).toEqual([NAME]);
      for (const f of ['postFile', 'postLinkUrl', 'postLink', 'postUserPicture', 'authorPicture'])
        expect([...served[f]!], f).toEqual([URL_]);
    });

    it('a link without the exact rel gets it; everything else as sent', async () => {
      await v2Post('widget', { wallId: WALL, content: 'Tom & Jerry <a href="https://x.example/">x</a>' });
      expect((await newest()).content).toBe(`Tom & Jerry <a href="https://x.example/" ${REL}>x</a>`);
    });

    it('management API: content, cta, product, wall, feed and account names', async () => {
      const post = (await newest()).id;
      const edited = data<Post>(
        await m.api('PATCH', `/walls/${WALL}/posts/${post}`, {
          content: CONTENT,
          cta: { ...CTA, text: NAME, url: URL_ },
        }),
      );
      expect([edited.content, edited.cta?.text, edited.cta?.url]).toEqual([CONTENT, NAME, URL_]);
      const served = await servedValues(WALL, post);
      expect([...served.CTAtext!]).toEqual([NAME]);
      expect([...served.CTAurl!]).toEqual([URL_]);
      data(
        await m.api('POST', `/walls/${WALL}/posts/bulk`, {
          postIds: [post],
          action: 'setCta',
          cta: { ...CTA, text: `${NAME}!` },
        }),
      );
      expect((await storedPost(post)).cta?.text).toBe(`${NAME}!`);

      const product = data<Record<string, unknown>>(
        await m.api('POST', '/products', { accountId: 7001, name: NAME, sku: NAME, price: 1, url: URL_, image: URL_ }),
        201,
      );
      expect([product.name, product.sku, product.url, product.image]).toEqual([NAME, NAME, URL_, URL_]);
      const wall = data<{ id: number; name: string }>(
        await m.api('POST', '/walls', { accountId: 7001, name: NAME, url: 'benign' }),
        201,
      );
      expect(wall.name).toBe(NAME);
      const feed = data<{ name: string; source: string }>(
        await m.api('POST', `/walls/${wall.id}/feeds`, { name: NAME, source: NAME, sourceType: 'x' }),
        201,
      );
      expect([feed.name, feed.source]).toEqual([NAME, NAME]);
      const info = (await v2Get(`/widget/wallInfo/${wall.id}`, 'json')).json().responseData as {
        wallName: string;
        feeds: { feedName: string }[];
      }[];
      expect([info[0]!.wallName, info[0]!.feeds[0]!.feedName]).toEqual([NAME, NAME]);
      expect(data<{ name: string }>(await m.api('POST', '/accounts', { name: NAME, plan: 'free' }), 201).name).toBe(
        NAME,
      );
    });
  });

  it('a data file is the operator’s own: `wallery import` loads markup as given', async () => {
    const file = sample();
    const wall = file.walls.find((w) => w.id === 7011)!;
    const post = wall.feeds[0]!.posts[0]!;
    Object.assign(post, { content: '<img src=x onerror=alert(1)>', authorName: '<b>Ann</b>' });
    Object.assign(wall, { name: '<i>Wall</i>' });
    const srv = await startTestServer({ data: file, now: NOW });
    try {
      const res = await call(srv.baseUrl, `/api/v2/commerce/getGalleryProductByID/7011/${post.id}/`, {
        query: { user_key: KEYS.ent },
      });
      const detail = (res.json().responseData as { postDetail: Record<string, string>[] }).postDetail[0]!;
      expect([detail.Postcontent, detail.authorName]).toEqual(['<img src=x onerror=alert(1)>', '<b>Ann</b>']);
      const info = await call(srv.baseUrl, '/api/v2/widget/wallInfo/7011', { query: { user_key: KEYS.ent } });
      expect((info.json().responseData as { wallName: string }[])[0]!.wallName).toBe('<i>Wall</i>');
    } finally {
      await srv.close();
    }
  });
});
