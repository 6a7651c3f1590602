// The data file of contract §8: import (one transaction, ids kept, the first
// problem named by its JSON path) and export (what import reads back).
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Kysely } from 'kysely';
import { Type, type Static } from 'typebox';
import { Compile } from 'typebox/compile';
import { formatIso, parseIsoInstant } from '../domain/dates.js';
import { connectorProblem } from '../ingest/connector-settings.js';
import { resetIdSequences, type DialectHandle } from './dialect.js';
import { hashSecret, keyPrefix } from './keys.js';
import { productColumns } from './manage/products.js';
import type { Database, MediaKind } from './schema.js';

// ---------- format ----------

const Id = Type.Integer({ minimum: 1 });
const Str = Type.String();
const OptStr = Type.Optional(Type.String());
const NumOrNull = Type.Union([Type.Number(), Type.Null()]);
const Plan = Type.Union([
  Type.Literal('free'),
  Type.Literal('widget'),
  Type.Literal('commerce'),
  Type.Literal('enterprise'),
]);
const Media = Type.Union([Type.Literal('image'), Type.Literal('video'), Type.Literal('text')]);

const AccountSchema = Type.Object({
  id: Id,
  name: Str,
  plan: Plan,
  dailyCallLimit: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
  userKeys: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
  /** Wallery's own extension: keys exported as their SHA-256 (plaintext is never stored). */
  userKeyHashes: Type.Optional(Type.Array(Type.String({ pattern: '^[0-9a-f]{64}$' }))),
});

const ProductSchema = Type.Object({
  id: Id,
  accountId: Id,
  name: Str,
  sku: OptStr,
  price: Type.Number(),
  currencySymbol: OptStr,
  currency: OptStr,
  discount: Type.Optional(Type.Number()),
  discountCurrencySymbol: OptStr,
  discountCurrency: OptStr,
  url: OptStr,
  image: OptStr,
  storeShopName: OptStr,
  storeProductId: OptStr,
  storeProductType: OptStr,
  createdAt: Str,
  updatedAt: OptStr,
});

const PostSchema = Type.Object({
  id: Id,
  networkName: OptStr,
  postType: Type.Optional(Type.Integer({ minimum: 0 })),
  content: OptStr,
  picture: OptStr,
  file: OptStr,
  fileOriginal: OptStr,
  fileThumb: OptStr,
  mediaFile: OptStr,
  linkUrl: OptStr,
  authorName: OptStr,
  username: OptStr,
  userPicture: OptStr,
  score: Type.Optional(NumOrNull),
  rating: Type.Optional(NumOrNull),
  highlight: Type.Optional(Type.Integer({ minimum: 0 })),
  pin: Type.Optional(Type.Integer({ minimum: 0 })),
  tags: OptStr,
  location: OptStr,
  createdAt: Str,
  updatedAt: OptStr,
  media: Type.Optional(Media),
  hidden: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  cta: Type.Optional(
    Type.Union([
      Type.Null(),
      Type.Object({ color: Str, background: Str, status: Type.Integer(), url: Str, text: Str }),
    ]),
  ),
  children: Type.Optional(Type.Array(Type.Object({ image: Str, video: Str }))),
  products: Type.Optional(Type.Array(Type.Object({ productId: Id, left: Type.Number(), top: Type.Number() }))),
});

const FeedSchema = Type.Object({
  id: Id,
  name: Str,
  source: Str,
  sourceType: Str,
  createdAt: Type.Optional(Type.Union([Str, Type.Null()])),
  updatedAt: OptStr,
  /** ingestion setting (src/ingest/connector-settings.ts) */
  connector: Type.Optional(Type.Union([Type.Null(), Type.Object({ kind: Type.String() })])),
  enabled: Type.Optional(Type.Boolean()),
  posts: Type.Optional(Type.Array(PostSchema)),
});

const WallSchema = Type.Object({
  id: Id,
  accountId: Id,
  name: Str,
  url: Str,
  profanity: Type.Optional(Type.Integer({ minimum: 0 })),
  createdAt: Str,
  deleted: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  feeds: Type.Optional(Type.Array(FeedSchema)),
});

export const DataFileSchema = Type.Object({
  version: Type.Literal(1),
  accounts: Type.Optional(Type.Array(AccountSchema)),
  products: Type.Optional(Type.Array(ProductSchema)),
  walls: Type.Optional(Type.Array(WallSchema)),
});

export type DataFile = Static<typeof DataFileSchema>;
type PostIn = Static<typeof PostSchema>;

const checker = Compile(DataFileSchema);

export class DataFileError extends Error {
  constructor(
    readonly path: string,
    problem: string,
  ) {
    super(`${path}: ${problem}`);
    this.name = 'DataFileError';
  }
}

/** `/walls/0/feeds/1/id` → `$.walls[0].feeds[1].id` */
export function jsonPath(pointer: string): string {
  let out = '$';
  for (const raw of pointer.split('/').slice(1)) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^\d+$/.test(seg) ? `[${seg}]` : /^[A-Za-z_$][\w$]*$/.test(seg) ? `.${seg}` : `[${JSON.stringify(seg)}]`;
  }
  return out;
}

export const DEFAULT_DAILY_CALL_LIMIT = 1000;

const MEDIA_BY_TYPE: Record<number, MediaKind> = { 1: 'text', 2: 'image', 3: 'video', 4: 'image' };
const TYPE_BY_MEDIA: Record<MediaKind, number> = { text: 1, image: 2, video: 3 };

// ---------- import ----------

export interface ImportCounts {
  accounts: number;
  userKeys: number;
  products: number;
  walls: number;
  feeds: number;
  posts: number;
}

export type Progress = (postsDone: number, postsTotal: number) => void;

/** Validates the whole file first (nothing is written when it is bad), then loads it in one transaction. */
export async function importDataFile(
  store: DialectHandle,
  data: unknown,
  now: number,
  onProgress?: Progress,
): Promise<ImportCounts> {
  if (!checker.Check(data)) {
    const first = [...checker.Errors(data)][0];
    throw new DataFileError(jsonPath(first?.instancePath ?? ''), describe(first));
  }
  const file = data as DataFile;
  const plan = await planImport(store.db, file);
  const counts: ImportCounts = { accounts: 0, userKeys: 0, products: 0, walls: 0, feeds: 0, posts: 0 };
  const postsTotal = plan.posts.length;
  await store.db.transaction().execute(async (trx) => {
    for (const chunk of chunks(plan.accounts, 500))
      await trx
        .insertInto('accounts')
        .values(chunk.map((a) => ({ ...a, created_at: now })))
        .execute();
    counts.accounts = plan.accounts.length;
    for (const chunk of chunks(plan.keys, 500))
      await trx
        .insertInto('user_keys')
        .values(chunk.map((k) => ({ ...k, created_at: now })))
        .execute();
    counts.userKeys = plan.keys.length;
    for (const chunk of chunks(plan.products, 200)) await trx.insertInto('products').values(chunk).execute();
    counts.products = plan.products.length;
    for (const chunk of chunks(plan.walls, 500))
      await trx
        .insertInto('walls')
        .values(chunk.map((w) => ({ ...w, deleted_at: w.deleted_at === null ? null : now })))
        .execute();
    counts.walls = plan.walls.length;
    for (const chunk of chunks(plan.feeds, 500)) await trx.insertInto('feeds').values(chunk).execute();
    counts.feeds = plan.feeds.length;
    let done = 0;
    for (const chunk of chunks(plan.posts, 250)) {
      await trx.insertInto('posts').values(chunk).execute();
      done += chunk.length;
      onProgress?.(done, postsTotal);
    }
    counts.posts = postsTotal;
    for (const chunk of chunks(plan.tags, 500)) await trx.insertInto('post_products').values(chunk).execute();
  });
  await resetIdSequences(store, ['accounts', 'user_keys', 'walls', 'feeds', 'posts', 'products']);
  return counts;
}

function describe(err: { keyword?: string; message?: string; params?: Record<string, unknown> } | undefined): string {
  if (!err) return 'invalid';
  if (err.keyword === 'required')
    return `missing required field ${JSON.stringify(err.params?.requiredProperties ?? err.params?.missingProperty ?? '')}`;
  return err.message ?? 'invalid';
}

function* chunks<T>(rows: T[], size: number): Generator<T[]> {
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
}

function instant(value: string, path: string): number {
  const ms = parseIsoInstant(value);
  if (ms === null) throw new DataFileError(path, `${JSON.stringify(value)} is not an ISO 8601 date-time`);
  return ms;
}

interface ImportPlan {
  accounts: (Omit<Database['accounts'], 'id'> & { id: number })[];
  keys: { account_id: number; key_hash: string; prefix: string; last_used_at: null; revoked_at: null }[];
  products: (Omit<Database['products'], 'id'> & { id: number })[];
  walls: (Omit<Database['walls'], 'id'> & { id: number })[];
  feeds: (Omit<Database['feeds'], 'id' | 'enabled'> & { id: number; enabled: number })[];
  posts: (Omit<Database['posts'], 'id'> & { id: number })[];
  tags: Database['post_products'][];
}

/** Converts and cross-checks the file (ids unique, references resolvable, dates valid) before any write. */
async function planImport(db: Kysely<Database>, file: DataFile): Promise<ImportPlan> {
  const plan: ImportPlan = { accounts: [], keys: [], products: [], walls: [], feeds: [], posts: [], tags: [] };
  const seen = {
    accounts: new Set<number>(),
    products: new Map<number, number>(),
    walls: new Set<number>(),
    feeds: new Set<number>(),
    posts: new Set<number>(),
    keys: new Set<string>(),
  };
  const unique = (set: Set<number> | Map<number, number>, id: number, path: string, what: string) => {
    if (set.has(id)) throw new DataFileError(path, `duplicate ${what} id ${id}`);
  };

  const existing = await existingIds(db, file);
  const accountKnown = (id: number) => seen.accounts.has(id) || existing.accounts.has(id);

  (file.accounts ?? []).forEach((a, i) => {
    const path = `$.accounts[${i}]`;
    unique(seen.accounts, a.id, `${path}.id`, 'account');
    if (existing.accounts.has(a.id))
      throw new DataFileError(`${path}.id`, `account ${a.id} already exists in the store`);
    seen.accounts.add(a.id);
    plan.accounts.push({
      id: a.id,
      name: a.name,
      plan: a.plan,
      daily_call_limit: a.dailyCallLimit ?? DEFAULT_DAILY_CALL_LIMIT,
      created_at: 0,
    });
    const hashes = [
      ...(a.userKeys ?? []).map((k, j) => ({
        hash: hashSecret(k),
        prefix: keyPrefix(k),
        path: `${path}.userKeys[${j}]`,
      })),
      ...(a.userKeyHashes ?? []).map((h, j) => ({ hash: h, prefix: '', path: `${path}.userKeyHashes[${j}]` })),
    ];
    for (const k of hashes) {
      if (seen.keys.has(k.hash) || existing.keyHashes.has(k.hash))
        throw new DataFileError(k.path, 'duplicate user key');
      seen.keys.add(k.hash);
      plan.keys.push({ account_id: a.id, key_hash: k.hash, prefix: k.prefix, last_used_at: null, revoked_at: null });
    }
  });

  (file.products ?? []).forEach((p, i) => {
    const path = `$.products[${i}]`;
    unique(seen.products, p.id, `${path}.id`, 'product');
    if (existing.products.has(p.id))
      throw new DataFileError(`${path}.id`, `product ${p.id} already exists in the store`);
    if (!accountKnown(p.accountId)) throw new DataFileError(`${path}.accountId`, `no account ${p.accountId}`);
    seen.products.set(p.id, p.accountId);
    const createdAt = instant(p.createdAt, `${path}.createdAt`);
    plan.products.push({
      id: p.id,
      ...productColumns(p),
      created_at: createdAt,
      updated_at: p.updatedAt === undefined ? createdAt : instant(p.updatedAt, `${path}.updatedAt`),
    });
  });
  const productKnown = (id: number) => seen.products.has(id) || existing.products.has(id);

  (file.walls ?? []).forEach((w, i) => {
    const path = `$.walls[${i}]`;
    unique(seen.walls, w.id, `${path}.id`, 'wall');
    if (existing.walls.has(w.id)) throw new DataFileError(`${path}.id`, `wall ${w.id} already exists in the store`);
    if (!accountKnown(w.accountId)) throw new DataFileError(`${path}.accountId`, `no account ${w.accountId}`);
    seen.walls.add(w.id);
    // Slugs are not checked here: the data file is authoritative and the
    // contract does not make them unique; the management API keeps new and
    // edited slugs unique within an account.
    plan.walls.push({
      id: w.id,
      account_id: w.accountId,
      name: w.name,
      url: w.url,
      profanity: w.profanity ?? 0,
      created_at: instant(w.createdAt, `${path}.createdAt`),
      // the instant is set at insert; a marker is enough here
      deleted_at: w.deleted === true ? 1 : null,
    });
    (w.feeds ?? []).forEach((f, j) => {
      const fpath = `${path}.feeds[${j}]`;
      unique(seen.feeds, f.id, `${fpath}.id`, 'feed');
      if (existing.feeds.has(f.id)) throw new DataFileError(`${fpath}.id`, `feed ${f.id} already exists in the store`);
      seen.feeds.add(f.id);
      const feedCreated =
        f.createdAt === null || f.createdAt === undefined ? null : instant(f.createdAt, `${fpath}.createdAt`);
      const connector = f.connector ?? null;
      if (connector !== null) {
        const problem = connectorProblem(connector);
        if (problem) throw new DataFileError(`${fpath}.connector`, problem);
      }
      plan.feeds.push({
        id: f.id,
        wall_id: w.id,
        name: f.name,
        source: f.source,
        source_type: f.sourceType,
        created_at: feedCreated,
        updated_at: f.updatedAt === undefined ? (feedCreated ?? 0) : instant(f.updatedAt, `${fpath}.updatedAt`),
        connector: connector === null ? null : JSON.stringify(connector),
        enabled: f.enabled === false ? 0 : 1,
      });
      (f.posts ?? []).forEach((p, k) => {
        const ppath = `${fpath}.posts[${k}]`;
        unique(seen.posts, p.id, `${ppath}.id`, 'post');
        if (existing.posts.has(p.id))
          throw new DataFileError(`${ppath}.id`, `post ${p.id} already exists in the store`);
        seen.posts.add(p.id);
        plan.posts.push(postRow(p, w.id, f.id, f.source, ppath));
        (p.products ?? []).forEach((t, n) => {
          if (!productKnown(t.productId))
            throw new DataFileError(`${ppath}.products[${n}].productId`, `no product ${t.productId}`);
          plan.tags.push({ post_id: p.id, product_id: t.productId, position: n, left_pct: t.left, top_pct: t.top });
        });
      });
    });
  });
  return plan;
}

function postRow(p: PostIn, wallId: number, feedId: number, source: string, path: string) {
  const createdAt = instant(p.createdAt, `${path}.createdAt`);
  const media: MediaKind = p.media ?? MEDIA_BY_TYPE[p.postType ?? 0] ?? (p.file ? 'image' : 'text');
  const cta = p.cta ?? null;
  return {
    id: p.id,
    wall_id: wallId,
    feed_id: feedId,
    external_id: null,
    upstream_hash: null,
    network_name: p.networkName ?? source,
    post_type: p.postType ?? TYPE_BY_MEDIA[media],
    content: p.content ?? '',
    picture: p.picture ?? '',
    file: p.file ?? '',
    file_original: p.fileOriginal ?? '',
    file_thumb: p.fileThumb ?? '',
    media_file: p.mediaFile ?? '',
    link_url: p.linkUrl ?? '',
    author_name: p.authorName ?? '',
    username: p.username ?? '',
    user_picture: p.userPicture ?? '',
    score: p.score ?? null,
    rating: p.rating ?? null,
    highlight: p.highlight ?? 0,
    pin: p.pin ?? 0,
    tags: p.tags ?? '',
    location: p.location ?? '',
    created_at: createdAt,
    updated_at: p.updatedAt === undefined ? createdAt : instant(p.updatedAt, `${path}.updatedAt`),
    media,
    hidden: p.hidden === true ? 1 : 0,
    has_cta: cta ? 1 : 0,
    cta_color: cta?.color ?? '',
    cta_background: cta?.background ?? '',
    cta_status: cta?.status ?? 0,
    cta_url: cta?.url ?? '',
    cta_text: cta?.text ?? '',
    children: JSON.stringify((p.children ?? []).map((c) => ({ image: c.image, video: c.video }))),
  };
}

/** `account/url` of the walls the store holds for these accounts. */
/** Ids of the file that the store already holds (import never overwrites). */
async function existingIds(db: Kysely<Database>, file: DataFile) {
  const wanted = {
    accounts: (file.accounts ?? []).map((a) => a.id),
    products: (file.products ?? []).map((p) => p.id),
    walls: (file.walls ?? []).map((w) => w.id),
    feeds: (file.walls ?? []).flatMap((w) => (w.feeds ?? []).map((f) => f.id)),
    posts: (file.walls ?? []).flatMap((w) => (w.feeds ?? []).flatMap((f) => (f.posts ?? []).map((p) => p.id))),
  };
  const found = async (table: 'accounts' | 'products' | 'walls' | 'feeds' | 'posts', ids: number[]) => {
    const out = new Set<number>();
    for (const chunk of chunks(ids, 900)) {
      const rows = await db.selectFrom(table).select('id').where('id', 'in', chunk).execute();
      for (const r of rows) out.add(r.id);
    }
    return out;
  };
  // Referenced accounts/products may already be in the store.
  const refAccounts = [...(file.products ?? []).map((p) => p.accountId), ...(file.walls ?? []).map((w) => w.accountId)];
  const refProducts = (file.walls ?? []).flatMap((w) =>
    (w.feeds ?? []).flatMap((f) => (f.posts ?? []).flatMap((p) => (p.products ?? []).map((t) => t.productId))),
  );
  const keyHashes = new Set<string>();
  const allHashes = (file.accounts ?? []).flatMap((a) => [
    ...(a.userKeys ?? []).map(hashSecret),
    ...(a.userKeyHashes ?? []),
  ]);
  for (const chunk of chunks(allHashes, 900)) {
    const rows = await db.selectFrom('user_keys').select('key_hash').where('key_hash', 'in', chunk).execute();
    for (const r of rows) keyHashes.add(r.key_hash);
  }
  return {
    accounts: await found('accounts', [...new Set([...wanted.accounts, ...refAccounts])]),
    products: await found('products', [...new Set([...wanted.products, ...refProducts])]),
    walls: await found('walls', wanted.walls),
    feeds: await found('feeds', wanted.feeds),
    posts: await found('posts', wanted.posts),
    keyHashes,
  };
}

// ---------- export ----------

/** Writes the whole store as a data file, streaming posts feed by feed. */
export async function exportDataFile(db: Kysely<Database>, path: string): Promise<ImportCounts> {
  const out = createWriteStream(path, { encoding: 'utf8' });
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  const counts: ImportCounts = { accounts: 0, userKeys: 0, products: 0, walls: 0, feeds: 0, posts: 0 };

  await write('{"version":1,\n"accounts":[');
  const accounts = await db.selectFrom('accounts').selectAll().orderBy('id').execute();
  const keys = await db
    .selectFrom('user_keys')
    .select(['account_id', 'key_hash'])
    .where('revoked_at', 'is', null)
    .orderBy('id')
    .execute();
  for (const [i, a] of accounts.entries()) {
    const hashes = keys.filter((k) => k.account_id === a.id).map((k) => k.key_hash);
    counts.userKeys += hashes.length;
    const rec = {
      id: a.id,
      name: a.name,
      plan: a.plan,
      dailyCallLimit: a.daily_call_limit,
      userKeys: [],
      userKeyHashes: hashes,
    };
    await write(`${i ? ',' : ''}\n${JSON.stringify(rec)}`);
  }
  counts.accounts = accounts.length;

  await write('],\n"products":[');
  const products = await db.selectFrom('products').selectAll().orderBy('id').execute();
  for (const [i, p] of products.entries()) {
    const rec = {
      id: p.id,
      accountId: p.account_id,
      name: p.name,
      sku: p.sku,
      price: p.price,
      currencySymbol: p.currency_symbol,
      currency: p.currency,
      discount: p.discount,
      discountCurrencySymbol: p.discount_currency_symbol,
      discountCurrency: p.discount_currency,
      url: p.url,
      image: p.image,
      storeShopName: p.store_shop_name,
      storeProductId: p.store_product_id,
      storeProductType: p.store_product_type,
      createdAt: formatIso(p.created_at),
      updatedAt: formatIso(p.updated_at),
    };
    await write(`${i ? ',' : ''}\n${JSON.stringify(rec)}`);
  }
  counts.products = products.length;

  await write('],\n"walls":[');
  const walls = await db.selectFrom('walls').selectAll().orderBy('id').execute();
  for (const [i, w] of walls.entries()) {
    const head = {
      id: w.id,
      accountId: w.account_id,
      name: w.name,
      url: w.url,
      profanity: w.profanity,
      createdAt: formatIso(w.created_at),
      deleted: w.deleted_at !== null,
    };
    await write(`${i ? ',' : ''}\n${JSON.stringify(head).slice(0, -1)},"feeds":[`);
    const feeds = await db.selectFrom('feeds').selectAll().where('wall_id', '=', w.id).orderBy('id').execute();
    for (const [j, f] of feeds.entries()) {
      const fhead = {
        id: f.id,
        name: f.name,
        source: f.source,
        sourceType: f.source_type,
        createdAt: f.created_at === null ? null : formatIso(f.created_at),
        updatedAt: formatIso(f.updated_at),
        ...(f.connector === null ? {} : { connector: JSON.parse(f.connector) as unknown }),
        ...(f.enabled === 0 ? { enabled: false } : {}),
      };
      await write(`${j ? ',' : ''}\n${JSON.stringify(fhead).slice(0, -1)},"posts":[`);
      let after = 0;
      let first = true;
      for (;;) {
        const posts = await db
          .selectFrom('posts')
          .selectAll()
          .where('feed_id', '=', f.id)
          .where('id', '>', after)
          .orderBy('id')
          .limit(1000)
          .execute();
        if (posts.length === 0) break;
        const tags = await db
          .selectFrom('post_products')
          .selectAll()
          .where(
            'post_id',
            'in',
            posts.map((p) => p.id),
          )
          .orderBy('post_id')
          .orderBy('position')
          .execute();
        for (const p of posts) {
          const rec = {
            id: p.id,
            networkName: p.network_name,
            postType: p.post_type,
            content: p.content,
            picture: p.picture,
            file: p.file,
            fileOriginal: p.file_original,
            fileThumb: p.file_thumb,
            mediaFile: p.media_file,
            linkUrl: p.link_url,
            authorName: p.author_name,
            username: p.username,
            userPicture: p.user_picture,
            score: p.score,
            rating: p.rating,
            highlight: p.highlight,
            pin: p.pin,
            tags: p.tags,
            location: p.location,
            createdAt: formatIso(p.created_at),
            updatedAt: formatIso(p.updated_at),
            media: p.media,
            hidden: p.hidden === 1,
            cta: p.has_cta
              ? {
                  color: p.cta_color,
                  background: p.cta_background,
                  status: p.cta_status,
                  url: p.cta_url,
                  text: p.cta_text,
                }
              : null,
            children: JSON.parse(p.children) as unknown,
            products: tags
              .filter((t) => t.post_id === p.id)
              .map((t) => ({ productId: t.product_id, left: t.left_pct, top: t.top_pct })),
          };
          await write(`${first ? '' : ','}\n${JSON.stringify(rec)}`);
          first = false;
        }
        counts.posts += posts.length;
        after = posts[posts.length - 1]!.id;
      }
      await write(']}');
    }
    counts.feeds += feeds.length;
    await write(']}');
  }
  counts.walls = walls.length;
  await write(']}\n');
  out.end();
  await once(out, 'finish');
  return counts;
}
