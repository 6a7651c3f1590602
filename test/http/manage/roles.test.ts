// Operator roles and account scopes, route by route: EVERY management route
// of the OpenAPI document (so a new one is in the matrix the moment it is
// registered) is called with every role, unscoped, scoped to the account it
// acts on, and scoped to another account, and must answer exactly the
// expected 2xx, 403 or 404. A token scoped to one account never sees a word
// of another's data, in any answer. One server; the matrix goes through
// in-process inject, the last checks through real HTTP.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, roleAllows, type Role } from '../../../src/domain/roles.js';
import { createAccount, createUserKey } from '../../../src/manage/accounts.js';
import { CLI_ACTOR, type Op } from '../../../src/manage/op.js';
import { listModerationPosts, setTags } from '../../../src/manage/posts.js';
import { createProduct } from '../../../src/manage/products.js';
import { addAccountOptOut } from '../../../src/manage/rights.js';
import { createSlide } from '../../../src/manage/screen.js';
import { createPublishableKey } from '../../../src/manage/publishable-keys.js';
import { createOperatorToken } from '../../../src/manage/tokens.js';
import { createFeed, createWall, deleteWall } from '../../../src/manage/walls.js';
import { createWebhook, testWebhook } from '../../../src/manage/webhooks.js';
import { createConnection } from '../../../src/manage/connections.js';
import { call } from '../../helpers/http.js';
import { NOW } from '../../helpers/sample.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { BASE, data, failure } from './helpers.js';

type Json = Record<string, unknown>;
type ScopeBy = 'account' | 'wall' | 'product' | 'webhook' | 'connection' | 'body-account' | 'filtered' | 'unscoped';

/** One tenant's records; every name and text of it carries its `secret`. */
interface Tenant {
  secret: string;
  account: number;
  userKey: string;
  userKeyId: number;
  wall: number;
  feed: number;
  post: number;
  product: number;
  publishableKey: number;
}

/** A request for one route on a tenant's records: the path parameters and the body. */
interface Call {
  /** numbers, but for a key that is text (an opt-out's network:handle) */
  params: Record<string, number | string>;
  body?: unknown;
}

/** What a route is expected to declare, and how to make a request to it that succeeds. */
interface Recipe {
  role: Role;
  scope: ScopeBy;
  /** made afresh before each call, so that deletes and the like succeed every time they may */
  make(t: Tenant): Promise<Call>;
}

let srv: TestServer;
let app: FastifyInstance;
let op: Op;
let seq = 0;
const unique = () => `${Date.now().toString(36)}-${++seq}`;

// ---------- fixtures, made with the services (as the CLI would) ----------

async function freshAccount(secret: string): Promise<number> {
  const a = await createAccount(op, { name: `account ${secret}`, plan: 'enterprise', dailyCallLimit: 1_000_000 });
  return a.id;
}
async function freshWall(t: Tenant): Promise<number> {
  const w = await createWall(op, { accountId: t.account, name: `wall ${t.secret}`, url: `wall-${unique()}` });
  return w.id;
}
async function freshFeed(t: Tenant, wallId = t.wall): Promise<number> {
  const f = await createFeed(op, wallId, { name: `feed ${t.secret}`, source: 'Mastodon', sourceType: 'hashtag' });
  return f.id;
}
async function polledFeed(t: Tenant): Promise<number> {
  const connector = { kind: 'rss' as const, url: 'http://127.0.0.1:9/feed.xml' };
  const f = await createFeed(op, t.wall, { name: `rss ${t.secret}`, source: 'RSS', sourceType: 'feed', connector });
  return f.id;
}
/** A post made through W3 with the tenant's user key; its id from the moderation view (newest first). */
async function freshPost(t: Tenant, wallId = t.wall): Promise<number> {
  const res = await app.inject({
    method: 'POST',
    url: `/api/v2/widget/create-post?user_key=${t.userKey}`,
    payload: { wallId, content: `post ${t.secret} ${unique()}` },
  });
  expect(res.statusCode, res.body).toBe(200);
  const page = await listModerationPosts(srv.store.db, wallId, {}, { limit: 1 });
  return page.data[0]!.id;
}
async function freshProduct(t: Tenant): Promise<number> {
  const p = await createProduct(op, { accountId: t.account, name: `product ${t.secret}`, price: 10 });
  return p.id;
}
/**
 * A webhook of the tenant's account (made where loopback is allowed, sent
 * where it is not: a test or replay is refused by the SSRF guard, fails fast, logged).
 */
async function freshWebhook(t: Tenant): Promise<number> {
  const url = `http://127.0.0.1:9/hook-${t.secret}`;
  const settings = { secretKey: null, allowPrivateNetworks: ['127.0.0.0/8'] };
  return (await createWebhook(op, { accountId: t.account, url, events: ['post.approved'] }, settings)).id;
}
/** The key connections are sealed with on this server (set on its context in beforeAll). */
const CONNECTION_KEY = Buffer.alloc(32, 5);
async function freshConnection(t: Tenant): Promise<number> {
  const body = {
    network: 'x' as const,
    name: `conn ${t.secret}`,
    authKind: 'token' as const,
    accessToken: `tok-${unique()}`,
  };
  return (await createConnection(op, t.account, body, { secretKey: CONNECTION_KEY })).id;
}
async function loggedDelivery(t: Tenant): Promise<{ webhookId: number; deliveryId: number }> {
  const webhookId = await freshWebhook(t);
  const d = await testWebhook(op, webhookId, { secretKey: null, timeoutMs: 2000, allowPrivateNetworks: false });
  return { webhookId, deliveryId: d.id };
}
async function taggedPost(t: Tenant): Promise<number> {
  const post = await freshPost(t);
  await setTags(op, t.wall, post, [{ productId: t.product, left: 10, top: 20 }]);
  return post;
}
async function freshSlide(t: Tenant): Promise<number> {
  return (await createSlide(op, t.wall, { title: `slide ${t.secret}` })).id;
}
async function deletedWall(t: Tenant): Promise<number> {
  const wall = await freshWall(t);
  await deleteWall(op, wall);
  return wall;
}

async function makeTenant(secret: string): Promise<Tenant> {
  const account = await freshAccount(secret);
  const key = await createUserKey(op, account);
  const t = { secret, account, userKey: key.key, userKeyId: key.id } as Tenant;
  t.wall = await freshWall(t);
  t.feed = await freshFeed(t);
  t.post = await freshPost(t);
  t.product = await freshProduct(t);
  await setTags(op, t.wall, t.post, [{ productId: t.product, left: 10, top: 20 }]);
  t.publishableKey = (await createPublishableKey(op, t.wall, { origins: [] })).id;
  return t;
}

// ---------- the expected access of every management route ----------

const same = (params: Record<string, number>) => async () => ({ params });

/** Keyed by `METHOD /path` as in the OpenAPI document (below /api/manage/v1). A route missing here fails the test. */
const RECIPES: Record<string, Recipe> = {
  'GET /accounts': { role: 'viewer', scope: 'filtered', make: same({}) },
  'POST /accounts': {
    role: 'admin',
    scope: 'unscoped',
    make: async (t) => ({ params: {}, body: { name: `account ${t.secret} ${unique()}`, plan: 'free' } }),
  },
  'GET /accounts/{accountId}': {
    role: 'viewer',
    scope: 'account',
    make: async (t) => ({ params: { accountId: t.account } }),
  },
  'PATCH /accounts/{accountId}': {
    role: 'admin',
    scope: 'unscoped',
    make: async (t) => ({ params: { accountId: t.account }, body: { dailyCallLimit: 1_000_000 } }),
  },
  'DELETE /accounts/{accountId}': {
    role: 'admin',
    scope: 'unscoped',
    make: async (t) => ({ params: { accountId: await freshAccount(t.secret) } }),
  },
  'GET /accounts/{accountId}/usage': {
    role: 'viewer',
    scope: 'account',
    make: async (t) => ({ params: { accountId: t.account } }),
  },
  'GET /accounts/{accountId}/keys': {
    role: 'viewer',
    scope: 'account',
    make: async (t) => ({ params: { accountId: t.account } }),
  },
  'POST /accounts/{accountId}/keys': {
    role: 'editor',
    scope: 'account',
    make: async (t) => ({ params: { accountId: t.account } }),
  },
  'GET /accounts/{accountId}/keys/{keyId}': {
    role: 'viewer',
    scope: 'account',
    make: async (t) => ({ params: { accountId: t.account, keyId: t.userKeyId } }),
  },
  'DELETE /accounts/{accountId}/keys/{keyId}': {
    role: 'editor',
    scope: 'account',
    make: async (t) => ({ params: { accountId: t.account, keyId: (await createUserKey(op, t.account)).id } }),
  },
  'GET /audit': { role: 'viewer', scope: 'filtered', make: same({}) },
  'GET /attention': { role: 'viewer', scope: 'filtered', make: same({}) },
  'GET /tokens': { role: 'admin', scope: 'unscoped', make: same({}) },
  'GET /tokens/current': { role: 'viewer', scope: 'filtered', make: same({}) },
  'POST /tokens': {
    role: 'admin',
    scope: 'unscoped',
    make: async (t) => ({ params: {}, body: { name: 'colleague', role: 'moderator', accounts: [t.account] } }),
  },
  'DELETE /tokens/{tokenId}': {
    role: 'admin',
    scope: 'unscoped',
    make: async () => ({ params: { tokenId: (await createOperatorToken(op, 'to revoke')).id } }),
  },
  'GET /walls': { role: 'viewer', scope: 'filtered', make: same({}) },
  'POST /walls': {
    role: 'editor',
    scope: 'body-account',
    make: async (t) => ({
      params: {},
      body: { accountId: t.account, name: `wall ${t.secret}`, url: `wall-${unique()}` },
    }),
  },
  'GET /walls/{wallId}': { role: 'viewer', scope: 'wall', make: async (t) => ({ params: { wallId: t.wall } }) },
  'PATCH /walls/{wallId}': {
    role: 'editor',
    scope: 'wall',
    make: async (t) => ({ params: { wallId: t.wall }, body: { profanity: true } }),
  },
  'DELETE /walls/{wallId}': {
    role: 'editor',
    scope: 'wall',
    make: async (t) => ({ params: { wallId: await freshWall(t) } }),
  },
  'POST /walls/{wallId}/restore': {
    role: 'editor',
    scope: 'wall',
    make: async (t) => ({ params: { wallId: await deletedWall(t) } }),
  },
  'GET /walls/{wallId}/submission': {
    role: 'viewer',
    scope: 'wall',
    make: async (t) => ({ params: { wallId: t.wall } }),
  },
  'PUT /walls/{wallId}/submission': {
    role: 'editor',
    scope: 'wall',
    make: async (t) => ({ params: { wallId: t.wall }, body: { terms: `Be kind ${t.secret}` } }),
  },
  'GET /walls/{wallId}/rules': { role: 'viewer', scope: 'wall', make: async (t) => ({ params: { wallId: t.wall } }) },
  'PUT /walls/{wallId}/rules': {
    role: 'moderator',
    scope: 'wall',
    make: async (t) => ({
      params: { wallId: t.wall },
      body: { rules: [{ kind: 'keyword', action: 'reject', words: ['spoiler'], match: 'any' }] },
    }),
  },
  'POST /walls/{wallId}/rules/apply': {
    role: 'moderator',
    scope: 'wall',
    make: async (t) => ({ params: { wallId: t.wall }, body: {} }),
  },
  'POST /walls/{wallId}/purge': {
    role: 'editor',
    scope: 'wall',
    make: async (t) => ({ params: { wallId: await deletedWall(t) } }),
  },
  'GET /walls/{wallId}/feeds': { role: 'viewer', scope: 'wall', make: async (t) => ({ params: { wallId: t.wall } }) },
  'POST /walls/{wallId}/feeds': {
    role: 'editor',
    scope: 'wall',
    make: async (t) => ({
      params: { wallId: t.wall },
      body: { name: `feed ${t.secret}`, source: 'Mastodon', sourceType: 'hashtag' },
    }),
  },
  'GET /walls/{wallId}/feeds/{feedId}': {
    role: 'viewer',
    scope: 'wall',
    make: async (t) => ({ params: { wallId: t.wall, feedId: t.feed } }),
  },
  'PATCH /walls/{wallId}/feeds/{feedId}': {
    role: 'editor',
    scope: 'wall',
    make: async (t) => ({ params: { wallId: t.wall, feedId: t.feed }, body: { enabled: true } }),
  },
  'DELETE /walls/{wallId}/feeds/{feedId}': {
    role: 'editor',
    scope: 'wall',
    make: async (t) => ({ params: { wallId: t.wall, feedId: await freshFeed(t) } }),
  },
  'POST /walls/{wallId}/feeds/{feedId}/poll': {
    role: 'moderator',
    scope: 'wall',
    // this server does not poll (no ingestion runtime): the feed is made due (`scheduled`)
    make: async (t) => ({ params: { wallId: t.wall, feedId: await polledFeed(t) } }),
  },
  'GET /walls/{wallId}/posts': { role: 'viewer', scope: 'wall', make: async (t) => ({ params: { wallId: t.wall } }) },
  'GET /walls/{wallId}/screen': { role: 'viewer', scope: 'wall', make: async (t) => ({ params: { wallId: t.wall } }) },
  'PATCH /walls/{wallId}/screen': {
    role: 'moderator',
    scope: 'wall',
    make: async (t) => ({ params: { wallId: t.wall }, body: { paused: true } }),
  },
  'PUT /walls/{wallId}/screen/schedule': {
    role: 'editor',
    scope: 'wall',
    make: async (t) => ({
      params: { wallId: t.wall },
      body: { schedule: [{ at: '2026-07-04T18:00:00Z', action: 'on' }] },
    }),
  },
  'GET /walls/{wallId}/screen/slides': {
    role: 'viewer',
    scope: 'wall',
    make: async (t) => ({ params: { wallId: t.wall } }),
  },
  'POST /walls/{wallId}/screen/slides': {
    role: 'editor',
    scope: 'wall',
    make: async (t) => ({ params: { wallId: t.wall }, body: { title: `slide ${t.secret}` } }),
  },
  'PATCH /walls/{wallId}/screen/slides/{slideId}': {
    role: 'editor',
    scope: 'wall',
    make: async (t) => ({ params: { wallId: t.wall, slideId: await freshSlide(t) }, body: { sponsor: true } }),
  },
  'DELETE /walls/{wallId}/screen/slides/{slideId}': {
    role: 'editor',
    scope: 'wall',
    make: async (t) => ({ params: { wallId: t.wall, slideId: await freshSlide(t) } }),
  },
  'GET /walls/{wallId}/changes': {
    role: 'viewer',
    scope: 'wall',
    make: async (t) => ({ params: { wallId: t.wall } }),
  },
  'GET /walls/{wallId}/posts/{postId}': {
    role: 'viewer',
    scope: 'wall',
    make: async (t) => ({ params: { wallId: t.wall, postId: t.post } }),
  },
  'PATCH /walls/{wallId}/posts/{postId}': {
    role: 'moderator',
    scope: 'wall',
    make: async (t) => ({ params: { wallId: t.wall, postId: t.post }, body: { pinned: true } }),
  },
  'POST /walls/{wallId}/posts/bulk': {
    role: 'moderator',
    scope: 'wall',
    make: async (t) => ({ params: { wallId: t.wall }, body: { postIds: [t.post], action: 'highlight' } }),
  },
  'GET /walls/{wallId}/posts/{postId}/products': {
    role: 'viewer',
    scope: 'wall',
    make: async (t) => ({ params: { wallId: t.wall, postId: t.post } }),
  },
  'PUT /walls/{wallId}/posts/{postId}/products': {
    role: 'editor',
    scope: 'wall',
    make: async (t) => ({
      params: { wallId: t.wall, postId: t.post },
      body: { tags: [{ productId: t.product, left: 10, top: 20 }] },
    }),
  },
  'POST /walls/{wallId}/posts/{postId}/products': {
    role: 'editor',
    scope: 'wall',
    make: async (t) => ({
      params: { wallId: t.wall, postId: await freshPost(t) },
      body: { productId: t.product, left: 50, top: 50 },
    }),
  },
  'PATCH /walls/{wallId}/posts/{postId}/products/{productId}': {
    role: 'editor',
    scope: 'wall',
    make: async (t) => ({ params: { wallId: t.wall, postId: t.post, productId: t.product }, body: { left: 15 } }),
  },
  'DELETE /walls/{wallId}/posts/{postId}/products/{productId}': {
    role: 'editor',
    scope: 'wall',
    make: async (t) => ({ params: { wallId: t.wall, postId: await taggedPost(t), productId: t.product } }),
  },
  'GET /walls/{wallId}/publishable-keys': {
    role: 'viewer',
    scope: 'wall',
    make: async (t) => ({ params: { wallId: t.wall } }),
  },
  'POST /walls/{wallId}/publishable-keys': {
    role: 'editor',
    scope: 'wall',
    make: async (t) => ({ params: { wallId: t.wall }, body: { origins: ['https://shop.example'] } }),
  },
  'DELETE /walls/{wallId}/publishable-keys/{keyId}': {
    role: 'editor',
    scope: 'wall',
    make: async (t) => ({
      params: { wallId: t.wall, keyId: (await createPublishableKey(op, t.wall, { origins: [] })).id },
    }),
  },
  'GET /products': { role: 'viewer', scope: 'filtered', make: same({}) },
  'POST /products': {
    role: 'editor',
    scope: 'body-account',
    make: async (t) => ({ params: {}, body: { accountId: t.account, name: `product ${t.secret}`, price: 3 } }),
  },
  'GET /products/{productId}': {
    role: 'viewer',
    scope: 'product',
    make: async (t) => ({ params: { productId: t.product } }),
  },
  'GET /products/{productId}/analytics': {
    role: 'viewer',
    scope: 'product',
    make: async (t) => ({ params: { productId: t.product } }),
  },
  'GET /walls/{wallId}/analytics': {
    role: 'viewer',
    scope: 'wall',
    make: async (t) => ({ params: { wallId: t.wall } }),
  },
  'PATCH /products/{productId}': {
    role: 'editor',
    scope: 'product',
    make: async (t) => ({ params: { productId: t.product }, body: { price: 12 } }),
  },
  'DELETE /products/{productId}': {
    role: 'editor',
    scope: 'product',
    make: async (t) => ({ params: { productId: await freshProduct(t) } }),
  },
  'GET /webhooks': { role: 'viewer', scope: 'filtered', make: same({}) },
  'POST /webhooks': {
    role: 'editor',
    scope: 'body-account',
    make: async (t) => ({
      params: {},
      body: { accountId: t.account, url: `https://hooks.example/${t.secret}`, events: ['post.hidden'] },
    }),
  },
  'GET /webhooks/{webhookId}': {
    role: 'viewer',
    scope: 'webhook',
    make: async (t) => ({ params: { webhookId: await freshWebhook(t) } }),
  },
  'PATCH /webhooks/{webhookId}': {
    role: 'editor',
    scope: 'webhook',
    make: async (t) => ({ params: { webhookId: await freshWebhook(t) }, body: { enabled: false } }),
  },
  'DELETE /webhooks/{webhookId}': {
    role: 'editor',
    scope: 'webhook',
    make: async (t) => ({ params: { webhookId: await freshWebhook(t) } }),
  },
  'POST /webhooks/{webhookId}/rotate-secret': {
    role: 'editor',
    scope: 'webhook',
    make: async (t) => ({ params: { webhookId: await freshWebhook(t) } }),
  },
  'POST /webhooks/{webhookId}/test': {
    role: 'editor',
    scope: 'webhook',
    make: async (t) => ({ params: { webhookId: await freshWebhook(t) } }),
  },
  'GET /webhooks/{webhookId}/deliveries': {
    role: 'viewer',
    scope: 'webhook',
    make: async (t) => ({ params: (await loggedDelivery(t)) as unknown as Record<string, number> }),
  },
  'POST /webhooks/{webhookId}/deliveries/{deliveryId}/replay': {
    role: 'editor',
    scope: 'webhook',
    make: async (t) => ({ params: (await loggedDelivery(t)) as unknown as Record<string, number> }),
  },
  'GET /accounts/{accountId}/connections': {
    role: 'viewer',
    scope: 'account',
    make: async (t) => ({ params: { accountId: t.account } }),
  },
  'POST /accounts/{accountId}/connections': {
    role: 'editor',
    scope: 'account',
    make: async (t) => ({
      params: { accountId: t.account },
      body: { network: 'x', name: `conn ${t.secret}`, authKind: 'token', accessToken: `tok-${unique()}` },
    }),
  },
  'GET /connections/{connectionId}': {
    role: 'viewer',
    scope: 'connection',
    make: async (t) => ({ params: { connectionId: await freshConnection(t) } }),
  },
  'PATCH /connections/{connectionId}': {
    role: 'editor',
    scope: 'connection',
    make: async (t) => ({ params: { connectionId: await freshConnection(t) }, body: { name: `renamed ${t.secret}` } }),
  },
  'DELETE /connections/{connectionId}': {
    role: 'editor',
    scope: 'connection',
    make: async (t) => ({ params: { connectionId: await freshConnection(t) } }),
  },
  'GET /accounts/{accountId}/connect/networks': {
    role: 'viewer',
    scope: 'account',
    make: async (t) => ({ params: { accountId: t.account } }),
  },
  'POST /accounts/{accountId}/connect': {
    role: 'editor',
    scope: 'account',
    make: async (t) => ({ params: { accountId: t.account }, body: { network: 'x' } }),
  },
  'GET /accounts/{accountId}/rights-settings': {
    role: 'viewer',
    scope: 'account',
    make: async (t) => ({ params: { accountId: t.account } }),
  },
  'PATCH /accounts/{accountId}/rights-settings': {
    role: 'editor',
    scope: 'account',
    make: async (t) => ({ params: { accountId: t.account }, body: { brand: `brand ${t.secret}` } }),
  },
  'POST /walls/{wallId}/rights/requests': {
    role: 'moderator',
    scope: 'wall',
    make: async (t) => ({ params: { wallId: t.wall }, body: { postIds: [t.post], method: 'manual' } }),
  },
  'GET /walls/{wallId}/posts/{postId}/rights': {
    role: 'viewer',
    scope: 'wall',
    make: async (t) => ({ params: { wallId: t.wall, postId: t.post } }),
  },
  'POST /walls/{wallId}/posts/{postId}/rights/answer': {
    role: 'moderator',
    scope: 'wall',
    make: async (t) => ({ params: { wallId: t.wall, postId: t.post }, body: { state: 'granted', note: t.secret } }),
  },
  'GET /accounts/{accountId}/rights/opt-outs': {
    role: 'viewer',
    scope: 'account',
    make: async (t) => ({ params: { accountId: t.account } }),
  },
  'POST /accounts/{accountId}/rights/opt-outs': {
    role: 'moderator',
    scope: 'account',
    make: async (t) => ({ params: { accountId: t.account }, body: { network: 'x', username: `u-${unique()}` } }),
  },
  'DELETE /accounts/{accountId}/rights/opt-outs/{author}': {
    role: 'moderator',
    scope: 'account',
    make: async (t) => ({
      params: {
        accountId: t.account,
        author: (await addAccountOptOut(op, t.account, { network: 'x', username: `u-${unique()}` })).author,
      },
    }),
  },
  'GET /accounts/{accountId}/rights/report': {
    role: 'viewer',
    scope: 'account',
    make: async (t) => ({ params: { accountId: t.account } }),
  },
};

// ---------- the routes, from the document ----------

interface Route {
  key: string;
  method: string;
  path: string;
  declared: { role?: unknown; scope?: unknown };
  success: number;
}

function documentedRoutes(): Route[] {
  const doc = app.swagger() as unknown as { paths: Record<string, Record<string, Json>> };
  const routes: Route[] = [];
  for (const [fullPath, operations] of Object.entries(doc.paths)) {
    if (!fullPath.startsWith(`${BASE}/`)) continue;
    const path = fullPath.slice(BASE.length);
    for (const [method, operation] of Object.entries(operations)) {
      const codes = Object.keys(operation.responses as Json).map(Number);
      routes.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        declared: { role: operation['x-wallery-role'], scope: operation['x-wallery-scope'] },
        success: codes.find((c) => c >= 200 && c < 300)!,
      });
    }
  }
  return routes;
}

const urlOf = (path: string, params: Record<string, number | string>) =>
  BASE +
  path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`no value for {${name}} in ${path}`);
    return encodeURIComponent(String(value));
  });

/** Who calls: a role, and its scope: none, the tenant's own account, or another tenant's. */
type Reach = 'unscoped' | 'own' | 'other';
interface Caller {
  role: Role;
  reach: Reach;
  token: string;
}

function expectedStatus(recipe: Recipe, success: number, caller: Caller): number {
  if (!roleAllows(caller.role, recipe.role)) return 403;
  if (recipe.scope === 'unscoped' && caller.reach !== 'unscoped') return 403;
  if (caller.reach === 'other' && recipe.scope !== 'filtered') return 404;
  return success;
}

/** The parameter (or body field) that finds a route's account, to make a request about a record that does not exist. */
function missingVariant(recipe: Recipe, c: Call): { call: Call; id: number } | null {
  const MISSING = 987_654_321;
  const name = {
    account: 'accountId',
    wall: 'wallId',
    product: 'productId',
    webhook: 'webhookId',
    connection: 'connectionId',
  }[recipe.scope as string];
  if (name) return { call: { ...c, params: { ...c.params, [name]: MISSING } }, id: Number(c.params[name]) };
  if (recipe.scope === 'body-account') {
    const body = c.body as { accountId: number };
    return { call: { ...c, body: { ...body, accountId: MISSING } }, id: body.accountId };
  }
  return null;
}

let A: Tenant;
let B: Tenant;
const callers: Caller[] = [];
const tokenFor = (role: Role, reach: Reach) => callers.find((c) => c.role === role && c.reach === reach)!.token;

async function inject(method: string, url: string, token: string, body?: unknown) {
  return app.inject({
    method: method as 'GET',
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(body !== undefined ? { payload: body as Json } : {}),
  });
}

describe('operator roles and account scopes, route by route', () => {
  beforeAll(async () => {
    srv = await startTestServer({ now: NOW });
    app = srv.app;
    // the connect flow's start: an OAuth app to sign in with
    app.ctx.oauth = {
      config: { apps: { x: { clientId: 'roles-client', clientSecret: 'roles-secret', baseUrl: null } } },
      allowPrivateNetworks: false,
    };
    app.ctx.connectionKey = CONNECTION_KEY;
    op = { db: srv.store.db, actor: CLI_ACTOR, now: NOW };
    A = await makeTenant('SECRET-OF-A');
    B = await makeTenant('SECRET-OF-B');
    for (const role of ROLES) {
      const token = async (accounts: number[] | null) =>
        (await createOperatorToken(op, { name: `${role}-${accounts?.join('-') ?? 'all'}`, role, accounts })).token;
      callers.push({ role, reach: 'unscoped', token: await token(null) });
      callers.push({ role, reach: 'own', token: await token([A.account]) });
      callers.push({ role, reach: 'other', token: await token([B.account]) });
    }
  });
  afterAll(async () => {
    await srv?.close();
  });

  it('every management route declares its role and scope in the document, as this test expects', () => {
    const routes = documentedRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(Object.keys(RECIPES).length);
    const problems: string[] = [];
    for (const r of routes) {
      const recipe = RECIPES[r.key];
      if (!recipe) problems.push(`${r.key}: no recipe in roles.test.ts (add its role, scope and a request)`);
      else if (r.declared.role !== recipe.role || r.declared.scope !== recipe.scope)
        problems.push(
          `${r.key}: declares ${String(r.declared.role)}/${String(r.declared.scope)}, expected ${recipe.role}/${recipe.scope}`,
        );
    }
    for (const key of Object.keys(RECIPES))
      if (!routes.some((r) => r.key === key)) problems.push(`${key}: in the recipes but not a route`);
    // the document lists what the server routes (openapi.test.ts checks that in full); here: the management part
    const served = app.routeCatalog.filter((r) => r.url.startsWith(`${BASE}/`) && r.method !== 'HEAD');
    expect(served.length).toBe(routes.length);
    expect(problems).toEqual([]);
  });

  it('every route × every role × unscoped, own account, another account: exactly 2xx, 403 or 404', async () => {
    const seen: string[] = [];
    const wrong: string[] = [];
    let calls = 0;
    for (const route of documentedRoutes()) {
      const recipe = RECIPES[route.key];
      if (!recipe) continue; // reported by the test above
      // a refused call changes nothing: its request serves the next caller (fresh records only after a success)
      let spare: Call | undefined;
      for (const caller of callers) {
        const c = spare ?? (await recipe.make(A));
        const res = await inject(route.method, urlOf(route.path, c.params), caller.token, c.body);
        calls++;
        const expected = expectedStatus(recipe, route.success, caller);
        spare = expected >= 300 ? c : undefined;
        const label = `${route.key} as ${caller.role} (${caller.reach})`;
        if (res.statusCode !== expected) {
          wrong.push(`${label}: ${res.statusCode}, expected ${expected}: ${res.body}`);
          continue;
        }
        const body = res.json() as Json;
        if (expected === 403) {
          expect(body.responseMessage, label).toMatch(
            recipe.scope === 'unscoped' && roleAllows(caller.role, recipe.role)
              ? /^this token is limited to accounts and cannot /
              : new RegExp(`^this token's role \\(${caller.role}\\) cannot `),
          );
        }
        if (expected === 404) {
          // exactly the answer a record that does not exist gets, with its id
          const missing = missingVariant(recipe, c)!;
          const real = await inject(
            route.method,
            urlOf(route.path, missing.call.params),
            tokenFor('admin', 'unscoped'),
            missing.call.body,
          );
          expect(real.statusCode, label).toBe(404);
          expect(res.body, label).toBe(real.body.replaceAll('987654321', String(missing.id)));
        }
        // another account's token never reads a word of this one's records
        if (caller.reach === 'other') expect(res.body, label).not.toContain(A.secret);
        if (caller.reach === 'own' && expected < 300) expect(res.body, label).not.toContain(B.secret);
        seen.push(`${route.key}|${caller.role}|${caller.reach}|${res.statusCode}`);
      }
    }
    expect(wrong).toEqual([]);
    // every route got each kind of answer it can give: no route is only ever refused
    expect(calls).toBe(documentedRoutes().length * callers.length);
    for (const route of documentedRoutes()) {
      expect(
        seen.some((s) => s.startsWith(`${route.key}|`) && /\|2\d\d$/.test(s)),
        route.key,
      ).toBe(true);
    }
  });

  it('lists, counts and the audit log of a scoped token hold its accounts only', async () => {
    const own = tokenFor('viewer', 'own');
    const accounts = (await inject('GET', `${BASE}/accounts?limit=100`, own)).json().responseData.data as Json[];
    expect(accounts.map((a) => a.id)).toEqual([A.account]);
    const walls = (await inject('GET', `${BASE}/walls?limit=100`, own)).json().responseData.data as Json[];
    expect(walls.length).toBeGreaterThan(0);
    expect(new Set(walls.map((w) => w.accountId))).toEqual(new Set([A.account]));
    const products = (await inject('GET', `${BASE}/products?limit=100`, own)).json().responseData.data as Json[];
    expect(new Set(products.map((p) => p.accountId))).toEqual(new Set([A.account]));
    const audit = (await inject('GET', `${BASE}/audit?limit=100`, own)).json().responseData.data as Json[];
    expect(audit.length).toBeGreaterThan(0);
    expect(new Set(audit.map((e) => e.accountId))).toEqual(new Set([A.account]));
    expect(JSON.stringify(audit)).not.toContain(B.secret);
    // asking for the other account by name gives what an account without records gives: nothing
    for (const url of [
      `/walls?accountId=${B.account}`,
      `/products?accountId=${B.account}`,
      `/audit?targetType=wall&targetId=${B.wall}`,
      `/audit?targetType=account&targetId=${B.account}`,
    ]) {
      const res = await inject('GET', BASE + url, own);
      expect(res.statusCode, url).toBe(200);
      expect(res.json().responseData, url).toEqual({ data: [], nextCursor: null });
    }
    // an unscoped token sees the other account's entries, and those of operator tokens (no account)
    const everyone = tokenFor('viewer', 'unscoped');
    const ofB = (await inject('GET', `${BASE}/audit?targetType=account&targetId=${B.account}`, everyone)).json()
      .responseData.data as Json[];
    expect(ofB.map((e) => [e.action, e.accountId])).toEqual([['account.create', B.account]]);
    const tokens = (await inject('GET', `${BASE}/audit?targetType=operator_token&limit=200`, everyone)).json()
      .responseData.data as Json[];
    expect(tokens.length).toBeGreaterThanOrEqual(callers.length);
    expect(new Set(tokens.map((e) => e.accountId))).toEqual(new Set([null]));
    const scopedTokens = (await inject('GET', `${BASE}/audit?targetType=operator_token`, own)).json().responseData;
    expect(scopedTokens).toEqual({ data: [], nextCursor: null });
  });

  it('a product of another account tagged on a post is refused like one that does not exist', async () => {
    const res = await inject(
      'POST',
      `${BASE}/walls/${A.wall}/posts/${await freshPost(A)}/products`,
      tokenFor('editor', 'own'),
      { productId: B.product, left: 1, top: 1 },
    );
    const missing = await inject(
      'POST',
      `${BASE}/walls/${A.wall}/posts/${await freshPost(A)}/products`,
      tokenFor('editor', 'own'),
      { productId: 987654321, left: 1, top: 1 },
    );
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe(missing.body.replaceAll('987654321', String(B.product)));
    expect(res.body).not.toContain(B.secret);
  });

  it('over real HTTP: a moderator hides a post of its account; 403 for a wall change, 404 for another account', async () => {
    const token = tokenFor('moderator', 'own');
    const api = (method: string, path: string, body?: unknown) =>
      call(srv.baseUrl, BASE + path, { method, body, headers: { authorization: `Bearer ${token}` } });
    const post = await freshPost(A);
    const hidden = await api('PATCH', `/walls/${A.wall}/posts/${post}`, { hidden: true });
    expect(data<{ hidden: boolean }>(hidden).hidden).toBe(true);
    failure(
      await api('PATCH', `/walls/${A.wall}`, { name: 'renamed' }),
      403,
      "this token's role (moderator) cannot change a wall’s name, URL slug or profanity flag: that needs editor or admin",
    );
    failure(await api('PATCH', `/walls/${B.wall}/posts/${B.post}`, { hidden: true }), 404, `wall ${B.wall} not found`);
    failure(await api('GET', `/accounts/${B.account}`), 404, `account ${B.account} not found`);
    failure(
      await api('POST', '/accounts', { name: 'x', plan: 'free' }),
      403,
      "this token's role (moderator) cannot create an account: that needs admin",
    );
    // the refusal comes before the body is read: a bad body is still a 403
    failure(await api('DELETE', `/walls/${A.wall}`, 'not json'), 403);
    // the post of the other account did not change
    const other = await call(srv.baseUrl, `${BASE}/walls/${B.wall}/posts/${B.post}`, {
      headers: { authorization: `Bearer ${tokenFor('admin', 'unscoped')}` },
    });
    expect(data<{ hidden: boolean }>(other).hidden).toBe(false);
  });

  it('an unscoped admin makes a scoped moderator token through the API; it works as made, until revoked', async () => {
    const admin = tokenFor('admin', 'unscoped');
    const made = await inject('POST', `${BASE}/tokens`, admin, {
      name: 'anna',
      role: 'moderator',
      accounts: [A.account],
    });
    expect(made.statusCode, made.body).toBe(201);
    const rec = made.json().responseData as Json;
    expect(rec).toMatchObject({ name: 'anna', role: 'moderator', accounts: [A.account], revokedAt: null });
    const token = rec.token as string;
    expect((await inject('GET', `${BASE}/walls/${A.wall}`, token)).statusCode).toBe(200);
    expect((await inject('GET', `${BASE}/walls/${B.wall}`, token)).statusCode).toBe(404);
    expect((await inject('DELETE', `${BASE}/walls/${A.wall}`, token)).statusCode).toBe(403);
    const listed = (await inject('GET', `${BASE}/tokens?limit=200`, admin)).json().responseData.data as Json[];
    expect(listed.find((t) => t.id === rec.id)).toMatchObject({ role: 'moderator', accounts: [A.account] });
    expect(JSON.stringify(listed)).not.toContain(token);
    const missing = await inject('POST', `${BASE}/tokens`, admin, { name: 'x', accounts: [987654321] });
    expect([missing.statusCode, missing.json().responseMessage]).toEqual([404, 'account 987654321 not found']);
    const bad = await inject('POST', `${BASE}/tokens`, admin, { name: 'x', role: 'owner', accounts: [0] });
    expect(bad.statusCode).toBe(400);
    expect((bad.json().fieldErrors as Json[]).map((e) => e.field)).toEqual(['role', 'accounts[0]']);
    expect((await inject('DELETE', `${BASE}/tokens/${rec.id as number}`, admin)).statusCode).toBe(200);
    expect((await inject('GET', `${BASE}/walls/${A.wall}`, token)).statusCode).toBe(401);
  });

  it('the document states the role of each management route', () => {
    const doc = app.swagger() as unknown as { paths: Record<string, Record<string, Json>> };
    const del = doc.paths[`${BASE}/walls/{wallId}`]!.delete!;
    expect(del['x-wallery-role']).toBe('editor');
    expect(del.description).toContain('**Role:** editor or admin (403 for viewer, moderator).');
    expect(Object.keys(del.responses as Json)).toContain('403');
    const list = doc.paths[`${BASE}/walls`]!.get!;
    expect(list['x-wallery-role']).toBe('viewer');
    expect(Object.keys(list.responses as Json)).not.toContain('403');
  });
});

describe('a management route without an access declaration', () => {
  it('cannot be registered', async () => {
    const { default: Fastify } = await import('fastify');
    const { declareAccess } = await import('../../../src/http/manage/access.js');
    const bare = Fastify();
    bare.addHook('onRoute', declareAccess);
    let error: unknown;
    try {
      bare.get('/undeclared', async () => 'x');
      await bare.ready();
    } catch (err) {
      error = err;
    }
    expect(String(error)).toMatch(/GET \/undeclared declares no access/);
    await bare.close().catch(() => undefined);
  });
});
