// Loading data-file records into the store, inside the caller's transaction,
// as they arrive (see reader.ts): each record is checked on arrival, rows are
// written in batches, and each batch is first checked against the store (ids
// already there, references that resolve). The first problem in file order
// ends the load; the caller's transaction then leaves the store unchanged.
import {
  authorKey,
  DEFAULT_RIGHTS_SETTINGS,
  templateProblems,
  type RightsAutoRequest,
  type RightsRequirement,
} from '../../domain/rights.js';
import { refreshHolds } from '../rights.js';
import { Type } from 'typebox';
import type { Insertable, Kysely } from 'kysely';
import { parseIsoInstant } from '../../domain/dates.js';
import { completeRules, type Rule, type RuleIn } from '../../domain/rules.js';
import { connectorProblem } from '../../schemas/connectors.js';
import { rulesErrors } from '../../schemas/validate.js';
import {
  brandingColumn,
  brandingProblems,
  checkBranding,
  DEFAULT_BRANDING,
  mergeBranding,
} from '../../domain/branding.js';
import type { EmbedTheme } from '../../domain/lists.js';
import { hashSecret, keyPrefix } from '../keys.js';
import { productColumns } from '../product-columns.js';
import type { Database } from '../schema.js';
import type { MediaKind } from '../../domain/lists.js';
import {
  AccountSchema,
  DataFileError,
  FeedHeadSchema,
  FeedShallowSchema,
  PostSchema,
  ProductSchema,
  recordCheck,
  SECTIONS,
  WallHeadSchema,
  WallShallowSchema,
  type DataEvent,
  type AccountRightsIn,
  type FeedHeadIn,
  type PostIn,
  type PostRightsIn,
  type Section,
  type WallHeadIn,
} from './format.js';
import { assignPostContent, assignPostFlags, postDefaults } from '../post-columns.js';
import { initialMediaStates, insertNewPostMedia, storedCopiesFor, type SyncOptions } from '../media-queue.js';

export const DEFAULT_DAILY_CALL_LIMIT = 1000;

export interface ImportCounts {
  accounts: number;
  userKeys: number;
  products: number;
  walls: number;
  feeds: number;
  posts: number;
}

const MEDIA_BY_TYPE: Record<number, MediaKind> = { 1: 'text', 2: 'image', 3: 'video', 4: 'image' };
const TYPE_BY_MEDIA: Record<MediaKind, number> = { text: 1, image: 2, video: 3 };

const checkAccount = recordCheck(AccountSchema);
const checkProduct = recordCheck(ProductSchema);
const checkWallShallow = recordCheck(WallShallowSchema);
const checkWallHead = recordCheck(WallHeadSchema);
const checkFeedShallow = recordCheck(FeedShallowSchema);
const checkFeedHead = recordCheck(FeedHeadSchema);
const checkPost = recordCheck(PostSchema);
const checkVersion = recordCheck(Type.Object({ version: Type.Literal(1) }));
const checkTop = recordCheck(Type.Object({}));
const checkSectionIsList = Object.fromEntries(
  SECTIONS.map((s) => [s, recordCheck(Type.Object({ [s]: Type.Array(Type.Unknown()) }))]),
) as Record<Section, (value: unknown, path: string) => unknown>;

/** Tables whose ids the file sets (and import never overwrites). */
type IdTable = 'accounts' | 'products' | 'walls' | 'feeds' | 'posts';
const WHAT: Record<IdTable, string> = {
  accounts: 'account',
  products: 'product',
  walls: 'wall',
  feeds: 'feed',
  posts: 'post',
};

/** Something to check against the store at the next batch, in file order (`seq`). */
interface Check<T> {
  seq: number;
  path: string;
  value: T;
}

/**
 * An id the store holds already — before this import, or because the file
 * has it twice. Which of the two is told once the transaction has rolled
 * back (`explain`): then the store shows only what was there before.
 */
export class IdConflict extends Error {
  constructor(
    readonly table: IdTable,
    readonly id: number,
    readonly path: string,
  ) {
    super(`${path}: id ${id} conflicts`);
  }

  async explain(db: Kysely<Database>): Promise<DataFileError> {
    const before = await db.selectFrom(this.table).select('id').where('id', '=', this.id).executeTakeFirst();
    const what = WHAT[this.table];
    return new DataFileError(
      this.path,
      before ? `${what} ${this.id} already exists in the store` : `duplicate ${what} id ${this.id}`,
    );
  }
}

/**
 * A reference to an account or product that is neither in the store nor
 * read so far, while the section that could hold it is still to come: the
 * file's sections are out of their load order, and it is read again section
 * by section (accounts, products, walls).
 */
export class SectionsOutOfOrder extends Error {}

/** A row as the loader writes it: its generated columns optional, as plain values. */
type Row<T extends keyof Database> = Omit<
  Database[T],
  'id' | 'enabled' | 'media_wait' | 'rights_required' | 'rights_auto'
> & {
  id?: number;
  enabled?: number;
  media_wait?: number;
  rights_required?: RightsRequirement;
  rights_auto?: RightsAutoRequest;
};

// Rows are checked and written a batch at a time. Larger batches save few
// round trips but keep more rows alive between collections: at 1,000 posts
// the peak of a large import was ~60 MB higher than at 250, no faster.
const BATCH = { posts: 250, other: 500 };

export class Loader {
  readonly counts: ImportCounts = { accounts: 0, userKeys: 0, products: 0, walls: 0, feeds: 0, posts: 0 };
  private seq = 0;
  private readonly ids: Record<IdTable, Check<number>[]> = {
    accounts: [],
    products: [],
    walls: [],
    feeds: [],
    posts: [],
  };
  private keyChecks: Check<string>[] = [];
  private readonly refs: Record<'accounts' | 'products', Check<number>[]> = { accounts: [], products: [] };
  private rows: {
    accounts: Row<'accounts'>[];
    user_keys: Row<'user_keys'>[];
    products: Row<'products'>[];
    walls: Row<'walls'>[];
    feeds: Row<'feeds'>[];
    posts: Row<'posts'>[];
    post_products: Database['post_products'][];
    post_uploads: Database['post_uploads'][];
    rights_settings: Database['rights_settings'][];
    rights_optouts: Database['rights_optouts'][];
    post_rights: Database['post_rights'][];
    rights_events: Insertable<Database['rights_events']>[];
  } = {
    accounts: [],
    user_keys: [],
    products: [],
    walls: [],
    feeds: [],
    posts: [],
    post_products: [],
    post_uploads: [],
    rights_settings: [],
    rights_optouts: [],
    post_rights: [],
    rights_events: [],
  };
  /** accounts and products known to be in the store (written by this import or there before) */
  private readonly known = { accounts: new Set<number>(), products: new Set<number>() };
  /** sections read to their end (a reference to them that does not resolve is a problem) */
  private readonly complete = new Set<Section>();
  private readonly started = new Set<Section>();
  private versionSeen = false;
  private wall: { id: number; path: string; head: Record<string, unknown> } | null = null;
  private feed: { id: number; path: string; source: string; head: Record<string, unknown> } | null = null;

  /** each wall's account (the pictures of its posts are the account's) */
  private readonly accountOfWall = new Map<number, number>();
  /** walls that require rights: their posts' holds are computed once everything is loaded */
  private readonly wallsRequiringRights = new Set<number>();

  constructor(
    private readonly trx: Kysely<Database>,
    private readonly now: number,
    private readonly onPosts?: (done: number) => void,
    /** how the posts' pictures are queued (`skip`: not fetched, `wallery import --skip-media`) */
    private readonly media: SyncOptions = {},
  ) {}

  /** Reading section by section: the sections before `section` are complete. */
  startPass(section: Section): void {
    for (const s of SECTIONS) {
      if (s === section) break;
      this.complete.add(s);
    }
  }

  /**
   * Takes one event; a problem (with the ones before it checked first) ends
   * the load. Synchronous unless a batch is written (most events just add a
   * row): a million posts do not make a million promises.
   */
  handle(event: DataEvent): Promise<void> | void {
    let pending: Promise<void> | void;
    try {
      pending = this.take(event);
    } catch (err) {
      return this.failed(err);
    }
    if (pending) return pending.catch((err: unknown) => this.failed(err));
  }

  /** Problems found on arrival come after everything already read: what is pending may hold an earlier one. */
  private async failed(err: unknown): Promise<never> {
    if (err instanceof DataFileError) await this.flush();
    throw err;
  }

  /** The end of the file: writes what is pending, checks what only the end can tell. */
  async finish(): Promise<ImportCounts> {
    await this.flush();
    if (!this.versionSeen) checkVersion({}, '$');
    // a post lacking the rights its wall requires is held (its rights and product tags are all in now)
    for (const wallId of this.wallsRequiringRights) await refreshHolds(this.trx, wallId);
    return this.counts;
  }

  private take(event: DataEvent): Promise<void> | void {
    switch (event.kind) {
      case 'top':
        checkTop(event.value, '$');
        return;
      case 'field':
        if (event.key === 'version') {
          checkVersion({ version: event.value }, '$');
          this.versionSeen = true;
        } else checkSectionIsList[event.key as Section]({ [event.key]: event.value }, '$');
        return;
      case 'sectionStart':
        if (this.started.has(event.name)) throw new DataFileError(`$.${event.name}`, 'appears twice in the file');
        this.started.add(event.name);
        return;
      case 'sectionEnd':
        this.complete.add(event.name);
        return;
      case 'account':
        return this.account(event.value, `$.accounts[${event.index}]`);
      case 'product':
        return this.product(event.value, `$.products[${event.index}]`);
      case 'wall':
        return this.wallEvent(event.index, event.value, event.whole);
      case 'feed':
        return this.feedEvent(event.index, event.value, event.whole);
      case 'post':
        return this.post(event.value, `${this.feed!.path}.posts[${event.index}]`);
      case 'wallEnd':
        return this.wallTail(event.tail);
      case 'feedEnd':
        return this.feedTail(event.tail);
    }
  }

  // ---------- records ----------

  private expectId(table: IdTable, id: number, path: string): void {
    this.ids[table].push({ seq: this.seq++, path, value: id });
  }

  private expectRef(table: 'accounts' | 'products', id: number, path: string): void {
    this.refs[table].push({ seq: this.seq++, path, value: id });
  }

  private account(value: unknown, path: string): Promise<void> | void {
    const a = checkAccount(value, path);
    this.expectId('accounts', a.id, `${path}.id`);
    this.rows.accounts.push({
      id: a.id,
      name: a.name,
      plan: a.plan,
      daily_call_limit: a.dailyCallLimit ?? DEFAULT_DAILY_CALL_LIMIT,
      created_at: this.now,
    });
    const keys = [
      ...(a.userKeys ?? []).map((k, j) => ({
        hash: hashSecret(k),
        prefix: keyPrefix(k),
        path: `${path}.userKeys[${j}]`,
      })),
      ...(a.userKeyHashes ?? []).map((h, j) => ({ hash: h, prefix: '', path: `${path}.userKeyHashes[${j}]` })),
    ];
    for (const k of keys) {
      this.keyChecks.push({ seq: this.seq++, path: k.path, value: k.hash });
      this.rows.user_keys.push({
        account_id: a.id,
        key_hash: k.hash,
        prefix: k.prefix,
        created_at: this.now,
        last_used_at: null,
        revoked_at: null,
      });
    }
    if (a.rights) this.accountRights(a.id, a.rights, `${path}.rights`);
    return this.flushIfFull();
  }

  /** An account's rights settings (merged over the defaults, the template checked) and opt-out list. */
  private accountRights(accountId: number, rights: AccountRightsIn, path: string): void {
    if (rights.settings) {
      const given = rights.settings;
      const settings = {
        ...DEFAULT_RIGHTS_SETTINGS,
        ...given,
        ...(given.grantHashtag !== undefined ? { grantHashtag: given.grantHashtag.replace(/^#/, '') } : {}),
        connections: {},
      };
      const [problem] = templateProblems(settings);
      if (problem) throw new DataFileError(`${path}.settings.template`, problem.replace(/^template /, ''));
      this.rows.rights_settings.push({
        account_id: accountId,
        settings: JSON.stringify(settings),
        updated_at: this.now,
      });
    }
    const seen = new Set<string>();
    (rights.optOuts ?? []).forEach((o, j) => {
      const at = `${path}.optOuts[${j}]`;
      const author = o.author.trim().toLowerCase();
      if (seen.has(author)) throw new DataFileError(`${at}.author`, `${author} is on the list twice`);
      seen.add(author);
      this.rows.rights_optouts.push({
        account_id: accountId,
        author,
        reason: o.reason,
        post_id: o.postId ?? null,
        note: o.note ?? null,
        created_at: instant(o.createdAt, `${at}.createdAt`),
      });
    });
  }

  private product(value: unknown, path: string): Promise<void> | void {
    const p = checkProduct(value, path);
    this.expectId('products', p.id, `${path}.id`);
    this.expectRef('accounts', p.accountId, `${path}.accountId`);
    const createdAt = instant(p.createdAt, `${path}.createdAt`);
    this.rows.products.push({
      id: p.id,
      ...productColumns(p),
      created_at: createdAt,
      updated_at: p.updatedAt === undefined ? createdAt : instant(p.updatedAt, `${path}.updatedAt`),
    });
    return this.flushIfFull();
  }

  private async wallEvent(index: number, value: unknown, whole: boolean): Promise<void> {
    const path = `$.walls[${index}]`;
    const w: WallHeadIn & { feeds?: unknown[] } = whole ? checkWallShallow(value, path) : checkWallHead(value, path);
    this.expectId('walls', w.id, `${path}.id`);
    this.expectRef('accounts', w.accountId, `${path}.accountId`);
    this.rows.walls.push(wallRow(w, path, this.now));
    this.accountOfWall.set(w.id, w.accountId);
    if ((w.rightsRequired ?? 'none') !== 'none') this.wallsRequiringRights.add(w.id);
    this.wall = { id: w.id, path, head: value as Record<string, unknown> };
    if (!whole) return this.flushIfFull();
    for (const [j, feed] of (w.feeds ?? []).entries()) await this.feedEvent(j, feed, true);
    this.wall = null;
    await this.flushIfFull();
  }

  private async feedEvent(index: number, value: unknown, whole: boolean): Promise<void> {
    const wall = this.wall!;
    const path = `${wall.path}.feeds[${index}]`;
    const f: FeedHeadIn & { posts?: unknown[] } = whole ? checkFeedShallow(value, path) : checkFeedHead(value, path);
    this.expectId('feeds', f.id, `${path}.id`);
    this.rows.feeds.push(feedRow(f, wall.id, path));
    this.feed = { id: f.id, path, source: f.source, head: value as Record<string, unknown> };
    if (!whole) return this.flushIfFull();
    for (const [k, post] of (f.posts ?? []).entries()) await this.post(post, `${path}.posts[${k}]`);
    this.feed = null;
  }

  private post(value: unknown, path: string): Promise<void> | void {
    const p = checkPost(value, path);
    const feed = this.feed!;
    this.expectId('posts', p.id, `${path}.id`);
    this.rows.posts.push(postRow(p, this.wall!.id, feed.id, feed.source, path));
    (p.products ?? []).forEach((t, n) => {
      this.expectRef('products', t.productId, `${path}.products[${n}].productId`);
      this.rows.post_products.push({
        post_id: p.id,
        product_id: t.productId,
        position: n,
        left_pct: t.left,
        top_pct: t.top,
      });
    });
    if (p.upload) {
      const at = instant(p.upload.consentedAt, `${path}.upload.consentedAt`);
      this.rows.post_uploads.push({
        post_id: p.id,
        wall_id: this.wall!.id,
        consent_version: p.upload.consentVersion,
        consent_text: p.upload.consentText,
        consented_at: at,
        delete_token_hash: p.upload.deleteTokenHash,
        uploader_hash: p.upload.uploaderHash,
      });
    }
    if (p.rights) this.postRights(p, p.rights, feed.source, `${path}.rights`);
    return this.flushIfFull();
  }

  /** A post's rights: the evidence row and its trail. */
  private postRights(p: PostIn, r: PostRightsIn, source: string, path: string): void {
    const wallId = this.wall!.id;
    const accountId = this.accountOfWall.get(wallId)!;
    const network = r.network ?? p.networkName ?? source;
    const optInstant = (value: string | null | undefined, field: string) =>
      value === null || value === undefined ? null : instant(value, `${path}.${field}`);
    this.rows.post_rights.push({
      post_id: p.id,
      account_id: accountId,
      wall_id: wallId,
      network,
      author: r.author ?? authorKey(network, p.username ?? ''),
      author_name: r.authorName ?? p.authorName ?? '',
      post_url: r.postUrl ?? p.linkUrl ?? '',
      state: r.state,
      method: r.method,
      // the connection a reply was sent with is not in the file: nothing listens for its answer
      connection_id: null,
      request_text: r.requestText ?? '',
      request_id: r.requestId ?? null,
      request_url: r.requestUrl ?? null,
      request_ref: r.requestRef === undefined || r.requestRef === null ? null : JSON.stringify(r.requestRef),
      author_ref: r.authorRef ?? null,
      requested_at: instant(r.requestedAt, `${path}.requestedAt`),
      requested_by: r.requestedBy,
      expires_at: optInstant(r.expiresAt, 'expiresAt'),
      answer_id: r.answerId ?? null,
      answer_url: r.answerUrl ?? null,
      answer_text: r.answerText ?? null,
      answered_at: optInstant(r.answeredAt, 'answeredAt'),
      answer_edited_at: optInstant(r.answerEditedAt, 'answerEditedAt'),
      decided_by: r.decidedBy ?? null,
      note: r.note ?? null,
      listen_at: null,
      lease_owner: null,
      lease_until: null,
      updated_at: this.now,
    });
    (r.events ?? []).forEach((e, n) =>
      this.rows.rights_events.push({
        post_id: p.id,
        account_id: accountId,
        at: instant(e.at, `${path}.events[${n}].at`),
        kind: e.kind,
        actor: e.actor,
        detail: JSON.stringify(e.detail ?? {}),
      }),
    );
  }

  /** Fields of a wall after its feeds: checked with the ones before, then written over the row. */
  private async wallTail(tail: Record<string, unknown>): Promise<void> {
    const wall = this.wall!;
    this.wall = null;
    if (Object.keys(tail).length === 0) return;
    const merged = mergeTail(wall.head, tail, wall.path, 'feeds');
    const w = checkWallHead(merged, wall.path);
    const { id: _id, ...row } = wallRow(w, wall.path, this.now);
    if ((w.rightsRequired ?? 'none') !== 'none') this.wallsRequiringRights.add(wall.id);
    await this.flush();
    await this.trx.updateTable('walls').set(row).where('id', '=', wall.id).execute();
  }

  private async feedTail(tail: Record<string, unknown>): Promise<void> {
    const feed = this.feed!;
    this.feed = null;
    if (Object.keys(tail).length === 0) return;
    const merged = mergeTail(feed.head, tail, feed.path, 'posts');
    const f = checkFeedHead(merged, feed.path);
    const { id: _id, ...row } = feedRow(f, this.wall!.id, feed.path);
    await this.flush();
    await this.trx.updateTable('feeds').set(row).where('id', '=', feed.id).execute();
  }

  // ---------- batches ----------

  private flushIfFull(): Promise<void> | void {
    const r = this.rows;
    if (
      r.posts.length >= BATCH.posts ||
      r.post_products.length >= BATCH.other ||
      r.post_rights.length >= BATCH.posts ||
      r.rights_events.length >= BATCH.other ||
      r.rights_optouts.length >= BATCH.other ||
      r.accounts.length + r.user_keys.length + r.products.length + r.walls.length + r.feeds.length >= BATCH.other
    )
      return this.flush();
  }

  /** Checks the pending records against the store (the earliest problem wins), then writes them. */
  private async flush(): Promise<void> {
    const problems: { seq: number; error: Error }[] = [];
    for (const table of Object.keys(this.ids) as IdTable[]) {
      const first = new Map<number, Check<number>>();
      for (const c of this.ids[table]) {
        if (first.has(c.value)) problems.push({ seq: c.seq, error: new IdConflict(table, c.value, c.path) });
        else first.set(c.value, c);
      }
      for (const id of await this.existing(table, [...first.keys()]))
        problems.push({ seq: first.get(id)!.seq, error: new IdConflict(table, id, first.get(id)!.path) });
    }
    const hashes = new Set<string>();
    const taken = await this.existingKeys(this.keyChecks.map((k) => k.value));
    for (const k of this.keyChecks) {
      if (hashes.has(k.value) || taken.has(k.value))
        problems.push({ seq: k.seq, error: new DataFileError(k.path, 'duplicate user key') });
      hashes.add(k.value);
    }
    for (const table of ['accounts', 'products'] as const) {
      const known = this.known[table];
      const pending = new Set(this.ids[table].map((c) => c.value));
      const unknown = [...new Set(this.refs[table].map((r) => r.value))].filter(
        (id) => !known.has(id) && !pending.has(id),
      );
      for (const id of await this.existing(table, unknown)) known.add(id);
      for (const r of this.refs[table]) {
        if (known.has(r.value) || pending.has(r.value)) continue;
        if (!this.complete.has(table)) throw new SectionsOutOfOrder();
        problems.push({ seq: r.seq, error: new DataFileError(r.path, `no ${WHAT[table]} ${r.value}`) });
      }
    }
    const written = {
      accounts: this.ids.accounts.map((c) => c.value),
      products: this.ids.products.map((c) => c.value),
    };
    for (const table of Object.keys(this.ids) as IdTable[]) this.ids[table] = [];
    this.keyChecks = [];
    this.refs.accounts = [];
    this.refs.products = [];
    const rows = this.rows;
    this.rows = {
      accounts: [],
      user_keys: [],
      products: [],
      walls: [],
      feeds: [],
      posts: [],
      post_products: [],
      post_uploads: [],
      rights_settings: [],
      rights_optouts: [],
      post_rights: [],
      rights_events: [],
    };
    if (problems.length > 0) throw problems.reduce((a, b) => (b.seq < a.seq ? b : a)).error;

    await this.insert('accounts', rows.accounts, 500);
    await this.insert('user_keys', rows.user_keys, 500);
    await this.insert('rights_settings', rows.rights_settings, 500);
    await this.insert('rights_optouts', rows.rights_optouts, 500);
    await this.insert('products', rows.products, 200);
    await this.insert('walls', rows.walls, 500);
    await this.insert('feeds', rows.feeds, 500);
    // each post carries its media state from the start; its pictures are queued for the media worker
    const stored = await storedCopiesFor(this.trx, rows.posts, this.media);
    const states = await initialMediaStates(this.trx, rows.posts, this.media, stored);
    rows.posts.forEach((p, i) => (p.media_state = states[i]!));
    await this.insert('posts', rows.posts, 250);
    await insertNewPostMedia(
      this.trx,
      rows.posts.map((p) => Object.assign(p, { id: p.id!, account_id: this.accountOfWall.get(p.wall_id)! })),
      this.now,
      this.media,
      stored,
    );
    await this.insert('post_products', rows.post_products, 500);
    await this.insert('post_uploads', rows.post_uploads, 500);
    await this.insert('post_rights', rows.post_rights, 100);
    await this.insert('rights_events', rows.rights_events, 500);
    for (const id of written.accounts) this.known.accounts.add(id);
    for (const id of written.products) this.known.products.add(id);
    this.counts.accounts += rows.accounts.length;
    this.counts.userKeys += rows.user_keys.length;
    this.counts.products += rows.products.length;
    this.counts.walls += rows.walls.length;
    this.counts.feeds += rows.feeds.length;
    this.counts.posts += rows.posts.length;
    if (rows.posts.length > 0) this.onPosts?.(this.counts.posts);
  }

  private async insert<T extends keyof Database>(table: T, rows: unknown[], size: number): Promise<void> {
    for (let i = 0; i < rows.length; i += size)
      await this.trx
        .insertInto(table)
        .values(rows.slice(i, i + size) as never)
        .execute();
  }

  private async existing(table: IdTable, ids: number[]): Promise<number[]> {
    const found: number[] = [];
    for (let i = 0; i < ids.length; i += 900) {
      const rows = await this.trx
        .selectFrom(table)
        .select('id')
        .where('id', 'in', ids.slice(i, i + 900))
        .execute();
      for (const r of rows) found.push(r.id);
    }
    return found;
  }

  private async existingKeys(hashes: string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let i = 0; i < hashes.length; i += 900) {
      const rows = await this.trx
        .selectFrom('user_keys')
        .select('key_hash')
        .where('key_hash', 'in', hashes.slice(i, i + 900))
        .execute();
      for (const r of rows) found.add(r.key_hash);
    }
    return found;
  }
}

function mergeTail(
  head: Record<string, unknown>,
  tail: Record<string, unknown>,
  path: string,
  childKey: string,
): Record<string, unknown> {
  for (const key of Object.keys(tail)) {
    if (key in head || key === childKey)
      throw new DataFileError(`${path}.${key}`, `${key} appears twice in the object`);
  }
  return { ...head, ...tail };
}

function instant(value: string, path: string): number {
  const ms = parseIsoInstant(value);
  if (ms === null) throw new DataFileError(path, `${JSON.stringify(value)} is not an ISO 8601 date-time`);
  return ms;
}

function wallRow(w: WallHeadIn, path: string, now: number): Row<'walls'> & { id: number } {
  // Slugs are not checked here: the data file is authoritative and the
  // contract does not make them unique; the management API keeps new and
  // edited slugs unique within an account.
  return {
    id: w.id,
    account_id: w.accountId,
    name: w.name,
    url: w.url,
    profanity: w.profanity ?? 0,
    moderation: w.moderation ?? 'auto',
    rules: w.rules === undefined ? '[]' : JSON.stringify(rulesIn(w.rules, `${path}.rules`)),
    layout: w.layout ?? null,
    theme: w.theme ?? null,
    columns: w.columns ?? null,
    allow_framing: w.allowFraming === true ? 1 : 0,
    media_wait: w.mediaWait === true ? 1 : 0,
    branding: w.branding == null ? null : brandingIn(w.branding, w.theme ?? null, `${path}.branding`),
    rights_required: w.rightsRequired ?? 'none',
    rights_auto: w.rightsAuto ?? 'off',
    created_at: instant(w.createdAt, `${path}.createdAt`),
    deleted_at: w.deleted === true ? now : null,
  };
}

/**
 * A wall's `rules` as stored (ids kept, the absent ones assigned, defaults
 * written out); the first problem, as the management API words it, at its path.
 */
function rulesIn(value: unknown, path: string): Rule[] {
  const [first] = rulesErrors(value, 'rules');
  if (first) {
    // `rules[2].words` → `$.walls[0].rules[2].words`; the message without its own copy of the field
    const at = `${path}${first.field.slice('rules'.length)}`;
    throw new DataFileError(at, first.message.replace(/^rules(\[\d+\])?(\.\w+)?:? /, ''));
  }
  return completeRules(value as RuleIn[]);
}

/**
 * A wall's `branding` as stored (null when all defaults): its fields as the
 * management API checks them, then its colour pairs against WCAG AA; the
 * first problem at its path (`$.walls[0].branding.text`).
 */
function brandingIn(value: unknown, theme: EmbedTheme | null, path: string): string | null {
  const checked = checkBranding(value, 'branding');
  const branding = mergeBranding(DEFAULT_BRANDING, checked.value);
  const [first] = checked.problems.length > 0 ? checked.problems : brandingProblems(branding, theme);
  if (first) {
    const at = `${path}${first.field.slice('branding'.length)}`;
    throw new DataFileError(at, first.message.replace(/^branding(\.[\w-]+)*:? /, ''));
  }
  return brandingColumn(branding);
}

function feedRow(f: FeedHeadIn, wallId: number, path: string): Row<'feeds'> & { id: number } {
  const created = f.createdAt === null || f.createdAt === undefined ? null : instant(f.createdAt, `${path}.createdAt`);
  const connector = f.connector ?? null;
  if (connector !== null) {
    const problem = connectorProblem(connector);
    if (problem) throw new DataFileError(`${path}.connector`, problem);
  }
  return {
    id: f.id,
    wall_id: wallId,
    name: f.name,
    source: f.source,
    source_type: f.sourceType,
    created_at: created,
    updated_at: f.updatedAt === undefined ? (created ?? 0) : instant(f.updatedAt, `${path}.updatedAt`),
    connector: connector === null ? null : JSON.stringify(connector),
    enabled: f.enabled === false ? 0 : 1,
    moderation: f.moderation ?? null,
  };
}

function postRow(p: PostIn, wallId: number, feedId: number, source: string, path: string): Row<'posts'> {
  const createdAt = instant(p.createdAt, `${path}.createdAt`);
  const media: MediaKind = p.media ?? MEDIA_BY_TYPE[p.postType ?? 0] ?? (p.file ? 'image' : 'text');
  const cta = p.cta ?? null;
  // property by property on a fresh defaults row (see postDefaults): files hold millions of posts
  const row = assignPostContent(postDefaults(), p) as Row<'posts'>;
  row.id = p.id;
  row.wall_id = wallId;
  row.feed_id = feedId;
  row.network_name = p.networkName ?? source;
  row.post_type = p.postType ?? TYPE_BY_MEDIA[media];
  row.highlight = p.highlight ?? 0;
  row.pin = p.pin ?? 0;
  row.created_at = createdAt;
  row.updated_at = p.updatedAt === undefined ? createdAt : instant(p.updatedAt, `${path}.updatedAt`);
  row.media = media;
  row.hidden = p.hidden === true ? 1 : 0;
  assignPostFlags(row, p);
  if (p.state !== undefined) row.state = p.state;
  // the hold follows once the wall's posts are all in (Loader.finish)
  if (p.rights) row.rights_state = p.rights.state;
  if (p.decision) {
    row.decided_by = p.decision.by;
    row.decided_at = instant(p.decision.at, `${path}.decision.at`);
    row.decision_reason = p.decision.reason ?? null;
    row.decision_detail = p.decision.detail ? JSON.stringify(p.decision.detail) : null;
  }
  if (cta) {
    row.has_cta = 1;
    row.cta_color = cta.color;
    row.cta_background = cta.background;
    row.cta_status = cta.status;
    row.cta_url = cta.url;
    row.cta_text = cta.text;
  }
  row.children = JSON.stringify(
    (p.children ?? []).map((c) => ({ image: c.image, video: c.video, ...(c.alt ? { alt: c.alt } : {}) })),
  );
  return row;
}
