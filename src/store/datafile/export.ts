// Export: the whole store as a data file that import reads back, written as
// it is read (rows in pages; nothing of the file is held in memory).
import { createWriteStream, existsSync, statSync, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Kysely, Selectable } from 'kysely';
import { storedBranding } from '../../domain/branding.js';
import { formatIso } from '../../domain/dates.js';
import { storedChildren } from '../../domain/media.js';
import { parseDecisionDetail } from '../../domain/decision.js';
import { commitPartial, createPrivateFile, partialPathFor, removePartial } from '../backup/files.js';
import type {
  Database,
  PostProductsTable,
  PostRightsTable,
  PostsTable,
  PostUploadsTable,
  RightsEventsTable,
} from '../schema.js';
import type { ImportCounts } from './loader.js';
import { ctaOf, postContentOf, setPostFlagsOf } from '../post-columns.js';

/**
 * Writes the whole store as a data file, streaming posts feed by feed. The
 * file holds the store's data: it is written beside `path` with mode 0600
 * (whatever the umask) and renamed to `path` once complete, so `path` is
 * never half written and never readable by others. A path that is no regular
 * file (`/dev/stdout`, a pipe) is written to as it is.
 */
export async function exportDataFile(db: Kysely<Database>, path: string): Promise<ImportCounts> {
  if (existsSync(path) && !statSync(path).isFile()) return writeDataFile(db, createWriteStream(path));
  const partial = partialPathFor(path);
  removePartial(partial);
  try {
    const counts = await writeDataFile(db, createWriteStream(partial, { fd: createPrivateFile(partial) }));
    commitPartial(partial, path);
    return counts;
  } catch (err) {
    removePartial(partial);
    throw err;
  }
}

async function writeDataFile(db: Kysely<Database>, out: WriteStream): Promise<ImportCounts> {
  // a write that fails (a full disk) fails the export at the next write, not the process
  let failed: Error | undefined;
  out.on('error', (err) => (failed = err));
  const write = async (text: string) => {
    if (failed) throw failed;
    if (!out.write(text, 'utf8')) await once(out, 'drain');
  };
  try {
    const counts = await writeRecords(db, write);
    out.end();
    await once(out, 'finish');
    return counts;
  } finally {
    out.destroy();
  }
}

type Write = (text: string) => Promise<void>;

/** The data file's sections in order: accounts, products, walls (each with its feeds and their posts). */
async function writeRecords(db: Kysely<Database>, write: Write): Promise<ImportCounts> {
  const counts: ImportCounts = { accounts: 0, userKeys: 0, products: 0, walls: 0, feeds: 0, posts: 0 };
  await write('{"version":1,\n"accounts":[');
  await writeAccounts(db, write, counts);
  await write('],\n"products":[');
  await writeProducts(db, write, counts);
  await write('],\n"walls":[');
  await writeWalls(db, write, counts);
  await write(']}\n');
  return counts;
}

/** Each account with the hashes of its live user keys (never a key itself). */
async function writeAccounts(db: Kysely<Database>, write: Write, counts: ImportCounts): Promise<void> {
  const accounts = await db.selectFrom('accounts').selectAll().orderBy('id').execute();
  const keys = await db
    .selectFrom('user_keys')
    .select(['account_id', 'key_hash'])
    .where('revoked_at', 'is', null)
    .orderBy('id')
    .execute();
  const settings = new Map(
    (await db.selectFrom('rights_settings').select(['account_id', 'settings']).execute()).map((r) => [
      r.account_id,
      r.settings,
    ]),
  );
  for (const [i, a] of accounts.entries()) {
    const hashes = keys.filter((k) => k.account_id === a.id).map((k) => k.key_hash);
    counts.userKeys += hashes.length;
    const rights = await accountRights(db, a.id, settings.get(a.id));
    const rec = {
      id: a.id,
      name: a.name,
      plan: a.plan,
      dailyCallLimit: a.daily_call_limit,
      userKeys: [],
      userKeyHashes: hashes,
      ...(rights ? { rights } : {}),
    };
    await write(`${i ? ',' : ''}\n${JSON.stringify(rec)}`);
  }
  counts.accounts = accounts.length;
}

/**
 * An account's rights settings (without `connections`: connections are not
 * in the data file) and opt-out list, oldest first; undefined when it has
 * neither.
 */
async function accountRights(db: Kysely<Database>, accountId: number, stored: string | undefined) {
  const optOuts = await db
    .selectFrom('rights_optouts')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('created_at')
    .orderBy('author')
    .execute();
  if (stored === undefined && optOuts.length === 0) return undefined;
  const { connections: _connections, ...settings } = (stored ? JSON.parse(stored) : {}) as Record<string, unknown>;
  return {
    ...(stored !== undefined ? { settings } : {}),
    ...(optOuts.length > 0
      ? {
          optOuts: optOuts.map((o) => ({
            author: o.author,
            reason: o.reason,
            postId: o.post_id,
            note: o.note,
            createdAt: formatIso(o.created_at),
          })),
        }
      : {}),
  };
}

async function writeProducts(db: Kysely<Database>, write: Write, counts: ImportCounts): Promise<void> {
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
}

/** Each wall, its head first; its feeds are written inside it. */
async function writeWalls(db: Kysely<Database>, write: Write, counts: ImportCounts): Promise<void> {
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
      // Wallery's extensions are written only where they differ from what their absence means
      ...(w.moderation !== 'auto' ? { moderation: w.moderation } : {}),
      ...(w.rules !== '[]' ? { rules: JSON.parse(w.rules) as unknown } : {}),
      ...(w.layout !== null ? { layout: w.layout } : {}),
      ...(w.theme !== null ? { theme: w.theme } : {}),
      ...(w.columns !== null ? { columns: w.columns } : {}),
      ...(w.allow_framing !== 0 ? { allowFraming: true } : {}),
      ...(w.media_wait !== 0 ? { mediaWait: true } : {}),
      ...(w.branding !== null ? { branding: storedBranding(w.branding) } : {}),
      ...(w.rights_required !== 'none' ? { rightsRequired: w.rights_required } : {}),
      ...(w.rights_auto !== 'off' ? { rightsAuto: w.rights_auto } : {}),
    };
    await write(`${i ? ',' : ''}\n${JSON.stringify(head).slice(0, -1)},"feeds":[`);
    await writeFeeds(db, write, counts, w.id);
    await write(']}');
  }
  counts.walls = walls.length;
}

async function writeFeeds(db: Kysely<Database>, write: Write, counts: ImportCounts, wallId: number): Promise<void> {
  const feeds = await db.selectFrom('feeds').selectAll().where('wall_id', '=', wallId).orderBy('id').execute();
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
      ...(f.moderation !== null ? { moderation: f.moderation } : {}),
    };
    await write(`${j ? ',' : ''}\n${JSON.stringify(fhead).slice(0, -1)},"posts":[`);
    await writePosts(db, write, counts, f.id);
    await write(']}');
  }
  counts.feeds += feeds.length;
}

/** A feed's posts, a page of 1,000 at a time with their product tags. */
async function writePosts(db: Kysely<Database>, write: Write, counts: ImportCounts, feedId: number): Promise<void> {
  let after = 0;
  let first = true;
  for (;;) {
    const posts = await db
      .selectFrom('posts')
      .selectAll()
      .where('feed_id', '=', feedId)
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
    const uploads = new Map(
      (
        await db
          .selectFrom('post_uploads')
          .selectAll()
          .where(
            'post_id',
            'in',
            posts.map((p) => p.id),
          )
          .execute()
      ).map((u) => [u.post_id, u]),
    );
    const asked = posts.filter((p) => p.rights_state !== null).map((p) => p.id);
    const rights = new Map(
      (asked.length > 0
        ? await db.selectFrom('post_rights').selectAll().where('post_id', 'in', asked).execute()
        : []
      ).map((r) => [r.post_id, r]),
    );
    const events =
      asked.length > 0
        ? await db.selectFrom('rights_events').selectAll().where('post_id', 'in', asked).orderBy('id').execute()
        : [];
    for (const p of posts) {
      const row = rights.get(p.id);
      const rec = postRecord(p, tags, uploads.get(p.id), row && rightsRecord(row, events));
      await write(`${first ? '' : ','}\n${JSON.stringify(rec)}`);
      first = false;
    }
    counts.posts += posts.length;
    after = posts[posts.length - 1]!.id;
  }
}

/** A post as the data file holds it. */
function postRecord(
  p: Selectable<PostsTable>,
  tags: Selectable<PostProductsTable>[],
  upload: Selectable<PostUploadsTable> | undefined,
  rights: ReturnType<typeof rightsRecord> | undefined,
) {
  // alt text is Wallery's own extension: written only where there is some
  const { alt, ...content } = postContentOf(p);
  const rec = {
    id: p.id,
    ...content,
    highlight: p.highlight,
    pin: p.pin,
    createdAt: formatIso(p.created_at),
    updatedAt: formatIso(p.updated_at),
    hidden: p.hidden === 1,
    cta: ctaOf(p),
    children: storedChildren(p.children),
    ...(alt !== '' ? { alt } : {}),
    ...setPostFlagsOf(p),
    ...(p.state !== 'approved' ? { state: p.state } : {}),
    ...(p.decided_by !== null
      ? {
          decision: {
            by: p.decided_by,
            at: formatIso(p.decided_at ?? 0),
            reason: p.decision_reason,
            ...(p.decision_detail !== null ? { detail: parseDecisionDetail(p.decision_detail) } : {}),
          },
        }
      : {}),
    products: tags
      .filter((t) => t.post_id === p.id)
      .map((t) => ({ productId: t.product_id, left: t.left_pct, top: t.top_pct })),
    ...(upload
      ? {
          upload: {
            consentVersion: upload.consent_version,
            consentText: upload.consent_text,
            consentedAt: formatIso(upload.consented_at),
            deleteTokenHash: upload.delete_token_hash,
            uploaderHash: upload.uploader_hash,
          },
        }
      : {}),
    ...(rights ? { rights } : {}),
  };
  return rec;
}

const isoOrNull = (ms: number | null) => (ms === null ? null : formatIso(ms));

/** A post's rights as the data file holds them: the evidence row and its trail (what listens for an answer is not kept). */
function rightsRecord(r: Selectable<PostRightsTable>, events: Selectable<RightsEventsTable>[]) {
  return {
    state: r.state,
    method: r.method,
    network: r.network,
    author: r.author,
    authorName: r.author_name,
    postUrl: r.post_url,
    requestText: r.request_text,
    requestId: r.request_id,
    requestUrl: r.request_url,
    requestRef: r.request_ref === null ? null : (JSON.parse(r.request_ref) as unknown),
    authorRef: r.author_ref,
    requestedAt: formatIso(r.requested_at),
    requestedBy: r.requested_by,
    expiresAt: isoOrNull(r.expires_at),
    answerId: r.answer_id,
    answerUrl: r.answer_url,
    answerText: r.answer_text,
    answeredAt: isoOrNull(r.answered_at),
    answerEditedAt: isoOrNull(r.answer_edited_at),
    decidedBy: r.decided_by,
    note: r.note,
    events: events
      .filter((e) => e.post_id === r.post_id)
      .map((e) => ({
        at: formatIso(e.at),
        kind: e.kind,
        actor: e.actor,
        detail: JSON.parse(e.detail) as Record<string, unknown>,
      })),
  };
}
