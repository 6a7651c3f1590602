// Every field of every management request, with bad values: a 400 whose
// fieldErrors name exactly the bad fields (all at once), nothing written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeSample } from '../../helpers/sample.js';
import { data, failure, fields, startManageServer, type ManageServer } from './helpers.js';

const LONG = (n: number) => 'x'.repeat(n);
const NOT_TEXT = ['', '   ', 7, null, true, {}, []];
const NOT_BOOL = ['true', 1, 0, null, 'yes'];
const NOT_URL = [
  '',
  'shop.example.com',
  'ftp://x.example',
  'https://',
  'https://x.example/a b',
  `https://x.example/${LONG(2048)}`,
  3,
];
const NOT_OPT_URL = ['shop.example.com', 'javascript:alert(1)', `https://x.example/${LONG(2048)}`, null, 3];
const NOT_COLOR = ['', 'red', '#12', '#1234567', 'ffffff', 5, null];
const NOT_PERCENT = [-0.1, 100.5, '50', null, 'left'];
const NOT_ID = [0, -1, 1.5, '7001', null, 2 ** 53];

interface Case {
  name: string;
  method: string;
  path: string;
  /** a valid body; each bad value replaces one field of it */
  body: Record<string, unknown>;
  bad: Record<string, unknown[]>;
}

const CTA = { color: '#fff', background: '#000000', status: 1, url: 'https://x.example/buy', text: 'Buy' };

const CASES: Case[] = [
  {
    name: 'account create',
    method: 'POST',
    path: '/accounts',
    body: { name: 'A', plan: 'widget', dailyCallLimit: 10 },
    bad: {
      name: [...NOT_TEXT, LONG(201)],
      plan: ['gold', '', 'Widget', null, 1],
      dailyCallLimit: [-1, 1.5, '10', 1e10, null],
    },
  },
  {
    name: 'account update',
    method: 'PATCH',
    path: '/accounts/7004',
    body: { name: 'A', plan: 'free', dailyCallLimit: 10 },
    bad: { name: [...NOT_TEXT, LONG(201)], plan: ['gold', null], dailyCallLimit: [-1, 'x'] },
  },
  {
    name: 'wall create',
    method: 'POST',
    path: '/walls',
    body: { accountId: 7004, name: 'W', url: 'w-1', profanity: false },
    bad: {
      accountId: NOT_ID,
      name: [...NOT_TEXT, LONG(201)],
      url: ['', 'Upper', 'with space', '-lead', 'trail-', 'a/b', 'ü', LONG(101), 5, null],
      profanity: NOT_BOOL,
    },
  },
  {
    name: 'wall update',
    method: 'PATCH',
    path: '/walls/7016',
    body: { name: 'W', url: 'w-2', profanity: true },
    bad: { name: NOT_TEXT, url: ['', 'A B', null], profanity: NOT_BOOL },
  },
  {
    name: 'feed create',
    method: 'POST',
    path: '/walls/7016/feeds',
    body: {
      name: 'F',
      source: 'RSS',
      sourceType: 'page',
      connector: { kind: 'rss', url: 'https://x.example/f.xml' },
      enabled: true,
    },
    bad: {
      name: [...NOT_TEXT, LONG(201)],
      source: [...NOT_TEXT, LONG(101)],
      sourceType: [...NOT_TEXT, LONG(101)],
      connector: ['rss', 5, [], { kind: 'gopher' }, { kind: 'rss' }, { kind: 'rss', url: 'nope' }, { kind: 'youtube' }],
      enabled: NOT_BOOL,
    },
  },
  {
    name: 'feed update',
    method: 'PATCH',
    path: '/walls/7016/feeds/7113',
    body: { name: 'F', enabled: false },
    bad: {
      name: NOT_TEXT,
      source: NOT_TEXT,
      sourceType: NOT_TEXT,
      connector: [{ kind: 'lemmy', instance: 'https://l.example' }],
      enabled: NOT_BOOL,
    },
  },
  {
    name: 'post update',
    method: 'PATCH',
    path: '/walls/7016/posts/17111',
    body: { content: 'c', hidden: false, pinned: false, highlighted: false, cta: CTA },
    bad: {
      content: [LONG(10001), 5, null],
      hidden: NOT_BOOL,
      pinned: NOT_BOOL,
      highlighted: NOT_BOOL,
      cta: ['x', 5, [], { ...CTA, extra: 1 }],
    },
  },
  {
    name: 'post update (cta fields)',
    method: 'PATCH',
    path: '/walls/7016/posts/17111',
    body: { cta: CTA },
    bad: {
      'cta.color': NOT_COLOR,
      'cta.background': NOT_COLOR,
      'cta.status': [2, -1, '1', null, 0.5],
      'cta.url': NOT_URL,
      'cta.text': [...NOT_TEXT, LONG(201)],
    },
  },
  {
    name: 'bulk action',
    method: 'POST',
    path: '/walls/7016/posts/bulk',
    body: { postIds: [17111], action: 'highlight' },
    bad: {
      postIds: ['17111', 17111, null, [], {}],
      action: ['delete', '', null, 'Hide'],
      cta: ['x', { ...CTA, color: 'red' }],
    },
  },
  {
    name: 'tags replace',
    method: 'PUT',
    path: '/walls/7016/posts/17111/products',
    body: { tags: [] },
    bad: { tags: [null, 'x', {}, Array.from({ length: 51 }, () => ({ productId: 7501, left: 1, top: 1 }))] },
  },
  {
    name: 'tags replace (tag fields)',
    method: 'PUT',
    path: '/walls/7016/posts/17111/products',
    body: { tags: [{ productId: 7501, left: 1, top: 1 }] },
    bad: { 'tags[0].productId': NOT_ID, 'tags[0].left': NOT_PERCENT, 'tags[0].top': NOT_PERCENT },
  },
  {
    name: 'tag add',
    method: 'POST',
    path: '/walls/7016/posts/17111/products',
    body: { productId: 7501, left: 1, top: 1, position: 0 },
    bad: { productId: NOT_ID, left: NOT_PERCENT, top: NOT_PERCENT, position: [-1, 1.5, '0', null] },
  },
  {
    name: 'tag update',
    method: 'PATCH',
    path: '/walls/7016/posts/17111/products/7501',
    body: { left: 1, top: 1, position: 0 },
    bad: { left: NOT_PERCENT, top: NOT_PERCENT, position: [-1, 'x'] },
  },
  {
    name: 'product create',
    method: 'POST',
    path: '/products',
    body: { accountId: 7004, name: 'P', price: 1, currency: 'EUR', url: 'https://x.example/p', image: '' },
    bad: {
      accountId: NOT_ID,
      name: [...NOT_TEXT, LONG(201)],
      price: [-1, '1', null, 1e13],
      sku: [LONG(201), 5, null],
      currencySymbol: [LONG(11), 1],
      currency: ['eur', 'EURO', 'E', 1],
      discount: [-5, 'x'],
      discountCurrencySymbol: [LONG(11)],
      discountCurrency: ['usd', 'US'],
      url: NOT_OPT_URL,
      image: NOT_OPT_URL,
      storeShopName: [LONG(201), 0],
      storeProductId: [LONG(201), 0],
      storeProductType: [LONG(201), false],
    },
  },
  {
    name: 'product update',
    method: 'PATCH',
    path: '/products/7506',
    body: { name: 'P', price: 2 },
    bad: { name: NOT_TEXT, price: [-1, null], url: NOT_OPT_URL },
  },
];

/** Sets `path` (`a.b`, `tags[0].left`) in a copy of `body`. */
function withField(body: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(body);
  const segs = path.replace(/\[(\d+)\]/g, '.$1').split('.');
  let node = copy as Record<string, unknown>;
  for (const seg of segs.slice(0, -1)) node = node[seg] as Record<string, unknown>;
  node[segs.at(-1)!] = value;
  return copy;
}

describeSample('management API validation', () => {
  let m: ManageServer;
  let auditBefore: number;
  beforeAll(async () => {
    m = await startManageServer();
    auditBefore = (await m.srv.store.db.selectFrom('audit_log').select('id').execute()).length;
  });
  afterAll(async () => m?.close());

  describe.each(CASES)('$name', (c) => {
    it('takes the valid body (the baseline the bad values vary)', async () => {
      // validity of the baseline is checked without writing: an unknown extra field is the only error
      const errors = failure(await m.api(c.method, c.path, { ...c.body, zzz: 1 }), 400);
      expect(errors).toEqual([{ field: 'zzz', message: 'zzz is not a known field' }]);
    });

    for (const [field, values] of Object.entries(c.bad)) {
      it(`names ${field} for each bad value`, async () => {
        for (const value of values) {
          const res = await m.api(c.method, c.path, withField(c.body, field, value));
          const errors = failure(res, 400);
          expect({
            value,
            fields: fields(errors).map((f) => (f.startsWith(`${field}.`) || f.startsWith(`${field}[`) ? field : f)),
          }).toEqual({
            value,
            fields: [field],
          });
          expect(errors[0]!.message).toContain(field.replace(/^.*\./, '').replace(/\[\d+\]$/, ''));
        }
      });
    }
  });

  it('lists every bad field of a body at once, with the responseMessage naming them all', async () => {
    const res = await m.api('POST', '/products', {
      accountId: 0,
      name: '',
      price: -1,
      currency: 'x',
      url: 'nope',
      color: 'red',
    });
    const errors = failure(res, 400);
    expect(fields(errors).sort()).toEqual(['accountId', 'color', 'currency', 'name', 'price', 'url']);
    for (const e of errors) expect(res.json().responseMessage).toContain(e.message);
  });

  it('lists the bad fields of path, query and body together', async () => {
    const errors = failure(await m.api('PATCH', '/walls/x/feeds/0?limit=5', { name: '', enabled: 'yes' }), 400);
    expect(fields(errors)).toEqual(['wallId', 'feedId', 'limit', 'name', 'enabled']);
    expect(errors[2]).toEqual({ field: 'limit', message: 'limit is not a known field' });
    expect(fields(failure(await m.api('GET', '/walls/0/posts?limit=0&media=gif'), 400))).toEqual([
      'wallId',
      'limit',
      'media',
    ]);
  });

  it('names missing required fields, unknown fields and empty changes', async () => {
    expect(failure(await m.api('POST', '/walls', { name: 'W' }), 400)).toEqual([
      { field: 'accountId', message: 'accountId is required' },
      { field: 'url', message: 'url is required' },
    ]);
    expect(failure(await m.api('PATCH', '/walls/7016', {}), 400)).toEqual([
      { field: 'body', message: 'body must name at least one field to change' },
    ]);
    expect(failure(await m.api('PATCH', '/walls/7016', { accountId: 7001 }), 400)).toEqual([
      { field: 'accountId', message: 'accountId is not a known field' },
    ]);
    for (const body of [[], 'text', 5, null]) {
      expect(failure(await m.api('POST', '/accounts', JSON.stringify(body)), 400)).toEqual([
        { field: 'body', message: 'body must be a JSON object' },
      ]);
    }
    expect(failure(await m.api('POST', '/accounts'), 400)).toEqual([
      { field: 'body', message: 'body must be a JSON object' },
    ]);
    expect(failure(await m.api('POST', '/accounts', '{"name":'), 400)).toEqual([
      { field: 'body', message: 'body must be valid JSON' },
    ]);
  });

  it('checks every query parameter', async () => {
    const q = async (path: string) => fields(failure(await m.api('GET', path), 400));
    for (const limit of ['0', '201', '-1', 'x', '1.5', ''])
      expect(await q(`/accounts?limit=${limit}`)).toEqual(['limit']);
    expect(await q('/accounts?limit=1&limit=2')).toEqual(['limit']);
    for (const cursor of ['a b', '!!', 'WzFd%20']) expect(await q(`/accounts?cursor=${cursor}`)).toEqual(['cursor']);
    expect(await q(`/walls?cursor=${Buffer.from('[1,2]').toString('base64url')}`)).toEqual(['cursor']);
    expect(await q('/walls?state=gone&accountId=x')).toEqual(['accountId', 'state']);
    expect(await q('/walls/7011/posts?status=shown&feedId=0&media=gif')).toEqual(['status', 'feedId', 'media']);
    expect(await q('/products?accountId=-3')).toEqual(['accountId']);
    expect(await q('/audit?targetType=planet&targetId=x&action=a%20b&tokenName=')).toEqual([
      'action',
      'targetType',
      'targetId',
      'tokenName',
    ]);
    expect(await q('/accounts?format=xml')).toEqual(['format']);
  });

  it('checks every path id', async () => {
    for (const path of [
      '/accounts/x',
      '/accounts/0',
      '/accounts/1e3',
      '/accounts/12345678901234567',
      '/walls/-1',
      '/products/0x1',
      '/accounts/1/keys/x',
    ]) {
      const errors = failure(await m.api('GET', path), 400);
      expect(errors[0]!.message).toMatch(/must be a positive integer/);
    }
  });

  it('wrote nothing while refusing', async () => {
    const after = (await m.srv.store.db.selectFrom('audit_log').select('id').execute()).length;
    expect(after).toBe(auditBefore);
    const wall = data<{ name: string; url: string }>(await m.api('GET', '/walls/7016'));
    expect(wall).toMatchObject({ name: 'Demo Tiny Wall', url: 'demo-tiny-wall' });
  });
});
