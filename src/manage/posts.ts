// Moderation: every post of a wall (hidden ones too), one-post changes,
// atomic bulk actions and product tags. Each change is visible on the next
// public read; the wall is announced as changed after the commit. A post's
// record shows its pictures and Wallery's copies of them, named by absolute
// URLs of `mediaBase` (src/domain/self-url.ts: PUBLIC_URL, else the origin
// the request came to, else the listen address).
import type { Kysely, Selectable } from 'kysely';
import { storedChildren } from '../domain/media.js';
import { cleanPostEdit, cleanWrite, CTA_RULES, storedText } from '../domain/writes.js';
import type { Database, PostsTable } from '../store/schema.js';
import { audited, diff, type Op, type Tx } from './op.js';
import { decodeCursor, pageLimit, pageOf, type Page, type PageRequest } from './paging.js';
import { found, invalid, invalidField, ManageError, notFound, stored, type FieldError } from '../domain/errors.js';
import { iso } from '../domain/dates.js';
import { parseDecisionDetail } from '../domain/decision.js';
import { requireWall } from './walls.js';
import { languageOfContent } from './language.js';
import { TAGS_MAX } from '../schemas/posts.js';
import type {
  BulkInput,
  BulkResult,
  DecisionRecord,
  PictureRecord,
  PostMediaRecord,
  PostPatch,
  PostRecord,
  TagRecord,
} from '../schemas/posts.js';
import { fixedSelfUrl, selfBase } from '../domain/self-url.js';
import { mediaUrl, middleWidth } from '../presenters/media.js';
import { picturesOfPosts, type PostPicture } from '../store/media.js';
import type { PostState } from '../domain/lists.js';
import { ctaColumns, ctaOf, postContentOf, postFlagsOf } from '../store/post-columns.js';
import {
  bulkStateRows,
  findPostOfWall,
  moderationPostRows,
  postsOfWallByIds,
  updatePostRow,
  updatePostsOfWall,
  type ModerationFilter,
  type PostRow,
} from '../store/posts.js';
import { productAccounts } from '../store/products.js';
import { replaceTags, tagRowsOf } from '../store/tags.js';
import { refreshHolds } from '../store/rights.js';
import { syncPostMedia } from '../store/media-queue.js';

export type PostFilter = ModerationFilter;

/** Where a caller that names no base (the CLI, tests) says Wallery is: no PUBLIC_URL, the default port. */
const DEFAULT_MEDIA_BASE = selfBase(fixedSelfUrl(null));

/** Slot order: the items' (item:0, item:1, …), then the avatar. */
const slotRank = (slot: string) => (slot.startsWith('item:') ? Number(slot.slice(5)) : Number.MAX_SAFE_INTEGER);

function pictureRecord(p: PostPicture, mediaBase: string): PictureRecord {
  const stored = p.state === 'ready' ? p.stored : null;
  const width = stored ? middleWidth(stored.widths) : null;
  return {
    slot: p.slot,
    sourceUrl: p.sourceUrl,
    state: p.state,
    reason: p.reason,
    attempts: p.attempts,
    width: stored?.width ?? null,
    height: stored?.height ?? null,
    url: stored && width !== null ? mediaUrl(mediaBase, stored.hash, String(width)) : null,
  };
}

function mediaRecord(
  r: PostRow,
  pictures: ReadonlyMap<string, PostPicture> | undefined,
  mediaBase: string,
): PostMediaRecord {
  return {
    state: r.media_state,
    pictures: [...(pictures?.values() ?? [])]
      .sort((a, b) => slotRank(a.slot) - slotRank(b.slot))
      .map((p) => pictureRecord(p, mediaBase)),
  };
}

/** What a post's record shows besides its row: its product tags and its pictures. */
interface PostExtras {
  tags: Map<number, TagRecord[]>;
  pictures: Map<number, Map<string, PostPicture>>;
  mediaBase: string;
}

async function extrasOf(db: Kysely<Database>, postIds: number[], mediaBase: string): Promise<PostExtras> {
  return { tags: await tagsOf(db, postIds), pictures: await picturesOfPosts(db, postIds), mediaBase };
}

function postRecord(r: PostRow, extras: PostExtras): PostRecord {
  const tags = extras.tags.get(r.id) ?? [];
  return {
    id: r.id,
    wallId: r.wall_id,
    feedId: r.feed_id,
    feedName: r.feed_name,
    externalId: r.external_id,
    ...postContentOf(r),
    children: storedChildren(r.children),
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
    state: r.state,
    decision: decisionOf(r),
    hidden: r.hidden !== 0,
    pinned: r.pin !== 0,
    highlighted: r.highlight !== 0,
    ...postFlagsOf(r),
    cta: ctaOf(r),
    products: tags,
    copies: mediaRecord(r, extras.pictures.get(r.id), extras.mediaBase),
    rights: { state: r.rights_state, held: r.rights_hold !== 0 },
  };
}

type DecisionColumns = Pick<
  Selectable<PostsTable>,
  'decided_by' | 'decided_at' | 'decision_reason' | 'decision_detail'
>;

/** The last moderation decision of a stored post, or null when the mode alone placed it. */
export function decisionOf(r: DecisionColumns): DecisionRecord | null {
  return r.decided_by === null
    ? null
    : {
        by: r.decided_by,
        at: iso(r.decided_at ?? 0),
        reason: r.decision_reason,
        detail: parseDecisionDetail(r.decision_detail),
      };
}

/** The columns of a decision made now by the operation's actor. */
function decisionColumns(op: Op, state: PostState, reason: string | null) {
  return { state, decided_by: op.actor.name, decided_at: op.now, decision_reason: reason, decision_detail: null };
}

/** A reason as stored: plain text on one line, trimmed; '' or absent → null. */
function cleanReason(reason: string | undefined): string | null {
  if (reason === undefined) return null;
  const text = storedText(reason).trim();
  return text === '' ? null : text;
}

async function tagsOf(db: Kysely<Database>, postIds: number[]): Promise<Map<number, TagRecord[]>> {
  const out = new Map<number, TagRecord[]>();
  const rows = await tagRowsOf(db, postIds);
  for (const r of rows) {
    const list = out.get(r.post_id) ?? [];
    // positions are renumbered 0… here: imported data may have gaps
    list.push({
      productId: r.product_id,
      productName: r.name,
      left: r.left_pct,
      top: r.top_pct,
      position: list.length,
    });
    out.set(r.post_id, list);
  }
  return out;
}

/**
 * The moderation view: newest first (then larger id first), hidden posts
 * included unless filtered out; the queue (`state: 'pending'`) oldest first.
 */
export async function listModerationPosts(
  db: Kysely<Database>,
  wallId: number,
  filter: PostFilter,
  page: PageRequest,
  mediaBase = DEFAULT_MEDIA_BASE,
): Promise<Page<PostRecord>> {
  await requireWall(db, wallId);
  const after = decodeCursor(page.cursor, 2);
  const limit = pageLimit(page);
  const rows = await moderationPostRows(db, wallId, filter, after as [number, number] | null, limit + 1);
  const extras = await extrasOf(
    db,
    rows.slice(0, limit).map((r) => r.id),
    mediaBase,
  );
  return pageOf(
    rows,
    limit,
    (r) => [r.created_at, r.id],
    (r) => postRecord(r, extras),
  );
}

async function postRow(db: Kysely<Database>, wallId: number, postId: number): Promise<PostRow> {
  await requireWall(db, wallId);
  return found(await findPostOfWall(db, wallId, postId), 'post', postId);
}

async function loadPost(
  db: Kysely<Database>,
  wallId: number,
  postId: number,
  mediaBase = DEFAULT_MEDIA_BASE,
): Promise<PostRecord> {
  const row = await postRow(db, wallId, postId);
  return postRecord(row, await extrasOf(db, [postId], mediaBase));
}

export const getModerationPost = loadPost;

/** The wall's posts of these ids as the moderation view shows them (ids not found are left out). */
export async function moderationPostsByIds(
  db: Kysely<Database>,
  wallId: number,
  postIds: readonly number[],
  mediaBase = DEFAULT_MEDIA_BASE,
): Promise<Map<number, PostRecord>> {
  const out = new Map<number, PostRecord>();
  if (postIds.length === 0) return out;
  const rows = await postsOfWallByIds(db, wallId, postIds);
  const extras = await extrasOf(
    db,
    rows.map((r) => r.id),
    mediaBase,
  );
  for (const r of rows) out.set(r.id, postRecord(r, extras));
  return out;
}

/** Moderation and content edit of one post (only the fields given change). */
export async function updatePost(
  op: Op,
  wallId: number,
  postId: number,
  edit: PostPatch,
  mediaBase = DEFAULT_MEDIA_BASE,
): Promise<PostRecord> {
  const patch = stored(cleanPostEdit(edit));
  if (patch.reason !== undefined && patch.state === undefined)
    throw invalidField('reason', 'reason goes with state: the reason of a decision');
  const reason = cleanReason(patch.reason);
  // detected before the transaction: the detector's first load takes a fifth of a second
  const lang = patch.content !== undefined ? await languageOfContent(patch.content) : undefined;
  return audited(op, async (tx) => {
    const before = await loadPost(tx.trx, wallId, postId, mediaBase);
    await updatePostRow(tx.trx, postId, {
      ...(patch.state !== undefined ? decisionColumns(op, patch.state, reason) : {}),
      ...(patch.content !== undefined ? { content: patch.content, lang, updated_at: op.now } : {}),
      ...(patch.hidden !== undefined ? { hidden: patch.hidden ? 1 : 0 } : {}),
      ...(patch.pinned !== undefined ? { pin: patch.pinned ? 1 : 0 } : {}),
      ...(patch.highlighted !== undefined ? { highlight: patch.highlighted ? 1 : 0 } : {}),
      ...(patch.cta !== undefined ? ctaColumns(patch.cta) : {}),
    });
    let after = await loadPost(tx.trx, wallId, postId, mediaBase);
    // an edit of what the post shows as media re-queues its pictures (today's patch holds no media field)
    if (mediaOf(before) !== mediaOf(after)) {
      await syncPostMedia(tx.trx, [postId], op.now);
      after = await loadPost(tx.trx, wallId, postId, mediaBase);
    }
    const { content: _c, products: _p, decision: _d, copies: _m, ...b } = before;
    const { content: _c2, products: _p2, decision: _d2, copies: _m2, ...a } = after;
    const changed = diff(b, a);
    if (patch.state !== undefined) Object.assign(changed.after, { state: after.state, reason });
    if (patch.content !== undefined && patch.content !== before.content) {
      // the text itself can be long: the summary keeps its length and start
      Object.assign(changed.before, { content: preview(before.content) });
      Object.assign(changed.after, { content: preview(after.content) });
    }
    // a person overriding an automatic decision: the audit keeps what the rule had said
    const overrode =
      patch.state !== undefined && before.decision && /^(rule|check):/.test(before.decision.by)
        ? { overrode: { by: before.decision.by, reason: before.decision.reason } }
        : {};
    tx.audit({
      action: 'post.update',
      targetType: 'post',
      targetId: postId,
      ...changed,
      details: { wallId, ...overrode },
    });
    tx.wallChanged(wallId);
    return after;
  });
}

/** The fields of a post record its pictures come from (src/domain/media-sources.ts), as one comparable string. */
const mediaOf = (r: PostRecord) =>
  JSON.stringify([r.media, r.picture, r.file, r.fileThumb, r.mediaFile, r.children, r.alt, r.userPicture]);

const preview = (text: string) => (text.length <= 200 ? text : `${text.slice(0, 200)}… (${text.length} characters)`);

// ---------- bulk ----------

/** The columns an action writes, and the same change as the API names it (for the audit log). */
function bulkChange(
  op: Op,
  input: BulkInput,
): {
  set: Partial<Selectable<PostsTable>>;
  field: 'hidden' | 'pinned' | 'highlighted' | 'cta' | 'state';
  value: unknown;
} {
  switch (input.action) {
    case 'approve':
    case 'reject': {
      const state = input.action === 'approve' ? 'approved' : 'rejected';
      return { set: decisionColumns(op, state, cleanReason(input.reason)), field: 'state', value: state };
    }
    case 'hide':
    case 'unhide':
      return { set: { hidden: input.action === 'hide' ? 1 : 0 }, field: 'hidden', value: input.action === 'hide' };
    case 'pin':
    case 'unpin':
      return { set: { pin: input.action === 'pin' ? 1 : 0 }, field: 'pinned', value: input.action === 'pin' };
    case 'highlight':
    case 'unhighlight':
      return {
        set: { highlight: input.action === 'highlight' ? 1 : 0 },
        field: 'highlighted',
        value: input.action === 'highlight',
      };
    case 'setCta':
      if (!input.cta) throw invalidField('cta', 'cta is required for setCta');
      return { set: ctaColumns(input.cta), field: 'cta', value: input.cta };
    case 'clearCta':
      return { set: ctaColumns(null), field: 'cta', value: null };
  }
}

type BulkState = Pick<
  Selectable<PostsTable>,
  | 'id'
  | 'hidden'
  | 'pin'
  | 'highlight'
  | 'has_cta'
  | 'cta_color'
  | 'cta_background'
  | 'cta_status'
  | 'cta_url'
  | 'cta_text'
  | 'state'
>;

function apiState(r: BulkState) {
  return {
    state: r.state,
    hidden: r.hidden !== 0,
    pinned: r.pin !== 0,
    highlighted: r.highlight !== 0,
    cta: ctaOf(r),
  };
}

/**
 * One action on up to 500 posts of a wall, all or nothing: every id is
 * checked first, and one that is not a post of this wall changes nothing.
 */
export async function bulkModerate(op: Op, wallId: number, request: BulkInput): Promise<BulkResult> {
  const input = request.cta ? { ...request, cta: stored(cleanWrite(request.cta, CTA_RULES, 'cta.')) } : request;
  if (input.reason !== undefined && input.action !== 'approve' && input.action !== 'reject')
    throw invalidField('reason', 'reason goes with approve or reject');
  const { set, field, value } = bulkChange(op, input);
  const ids = [...new Set(input.postIds)];
  return audited(op, async (tx) => {
    await requireWall(tx.trx, wallId);
    const rows: BulkState[] = await bulkStateRows(tx.trx, wallId, ids);
    const found = new Map(rows.map((r) => [r.id, r]));
    const problems: FieldError[] = [];
    input.postIds.forEach((id, i) => {
      if (!found.has(id))
        problems.push({ field: `postIds[${i}]`, message: `post ${id} is not a post of wall ${wallId}` });
    });
    if (problems.length > 0) throw invalid(problems);
    const changedRows = rows.filter((r) => JSON.stringify(apiState(r)[field]) !== JSON.stringify(value));
    if ((await updatePostsOfWall(tx.trx, wallId, ids, set)) !== ids.length) {
      throw new ManageError(409, 'posts of this wall changed during the action; nothing was changed, retry');
    }
    // before: the posts that changed, with their former value; after: the one new value
    const before: Record<string, Record<string, unknown>> = {};
    for (const r of changedRows) before[r.id] = { [field]: apiState(r)[field] };
    tx.audit({
      action: `posts.bulk.${input.action}`,
      targetType: 'wall',
      targetId: wallId,
      before,
      after: { [field]: value, ...(field === 'state' ? { reason: set.decision_reason ?? null } : {}) },
      details: { postIds: ids },
    });
    tx.wallChanged(wallId);
    return { action: input.action, postIds: ids, changed: changedRows.length };
  });
}

// ---------- product tags ----------

export interface TagInput {
  productId: number;
  left: number;
  top: number;
}

export async function listTags(db: Kysely<Database>, wallId: number, postId: number): Promise<TagRecord[]> {
  await postRow(db, wallId, postId);
  return (await tagsOf(db, [postId])).get(postId) ?? [];
}

/** Checks that every product exists and belongs to the wall's account; field names follow `fieldOf`. */
async function checkProducts(
  db: Kysely<Database>,
  accountId: number,
  productIds: number[],
  fieldOf: (i: number) => string,
) {
  const owner = await productAccounts(db, productIds);
  const problems: FieldError[] = [];
  const seen = new Set<number>();
  productIds.forEach((id, i) => {
    const field = fieldOf(i);
    // a product of another account is told apart from none at all by no one: it would leak across accounts
    if (owner.get(id) !== accountId)
      problems.push({ field, message: `product ${id} is not a product of account ${accountId}` });
    else if (seen.has(id)) problems.push({ field, message: `product ${id} is tagged twice` });
    seen.add(id);
  });
  if (problems.length > 0) throw invalid(problems);
}

async function changeTags(
  op: Op,
  wallId: number,
  postId: number,
  action: string,
  change: (current: TagInput[], accountId: number, tx: Tx) => Promise<TagInput[]>,
): Promise<TagRecord[]> {
  return audited(op, async (tx) => {
    const wall = await requireWall(tx.trx, wallId);
    await postRow(tx.trx, wallId, postId);
    const before = (await tagsOf(tx.trx, [postId])).get(postId) ?? [];
    const next = await change(
      before.map((t) => ({ productId: t.productId, left: t.left, top: t.top })),
      wall.account_id,
      tx,
    );
    if (next.length > TAGS_MAX) throw invalidField('tags', `a post carries at most ${TAGS_MAX} product tags`);
    await replaceTags(tx.trx, postId, next);
    // a wall that requires rights for shoppable posts holds (or frees) the post as its tags change
    await refreshHolds(tx.trx, wallId, [postId]);
    const after = (await tagsOf(tx.trx, [postId])).get(postId) ?? [];
    const brief = (list: TagRecord[]) => list.map((t) => ({ productId: t.productId, left: t.left, top: t.top }));
    tx.audit({
      action,
      targetType: 'post',
      targetId: postId,
      before: brief(before),
      after: brief(after),
      details: { wallId },
    });
    tx.wallChanged(wallId);
    return after;
  });
}

/** Replaces the post's tags with `tags`, in that order. */
export function setTags(op: Op, wallId: number, postId: number, tags: TagInput[]): Promise<TagRecord[]> {
  return changeTags(op, wallId, postId, 'post.tags.set', async (_current, accountId, tx) => {
    await checkProducts(
      tx.trx,
      accountId,
      tags.map((t) => t.productId),
      (i) => `tags[${i}].productId`,
    );
    return tags;
  });
}

/** Tags one more product, at `position` (default: last). */
export function addTag(
  op: Op,
  wallId: number,
  postId: number,
  tag: TagInput & { position?: number },
): Promise<TagRecord[]> {
  return changeTags(op, wallId, postId, 'post.tags.add', async (current, accountId, tx) => {
    await checkProducts(tx.trx, accountId, [tag.productId], () => 'productId');
    if (current.some((t) => t.productId === tag.productId)) {
      throw new ManageError(409, `product ${tag.productId} is already tagged on post ${postId}; change it with PATCH`);
    }
    const position = tag.position ?? current.length;
    if (position > current.length) throw invalidField('position', `position must be from 0 to ${current.length}`);
    const next = [...current];
    next.splice(position, 0, { productId: tag.productId, left: tag.left, top: tag.top });
    return next;
  });
}

/** Moves a tag's hotspot and/or its position in the tag order. */
export function updateTag(
  op: Op,
  wallId: number,
  postId: number,
  productId: number,
  patch: { left?: number; top?: number; position?: number },
): Promise<TagRecord[]> {
  return changeTags(op, wallId, postId, 'post.tags.update', async (current) => {
    const index = current.findIndex((t) => t.productId === productId);
    if (index < 0) throw notFound(`tag of product ${productId} on post`, postId);
    const tag = {
      ...current[index]!,
      ...(patch.left !== undefined ? { left: patch.left } : {}),
      ...(patch.top !== undefined ? { top: patch.top } : {}),
    };
    const next = current.filter((_, i) => i !== index);
    const position = patch.position ?? index;
    if (position > next.length) throw invalidField('position', `position must be from 0 to ${next.length}`);
    next.splice(position, 0, tag);
    return next;
  });
}

export function removeTag(op: Op, wallId: number, postId: number, productId: number): Promise<TagRecord[]> {
  return changeTags(op, wallId, postId, 'post.tags.remove', async (current) => {
    if (!current.some((t) => t.productId === productId)) throw notFound(`tag of product ${productId} on post`, postId);
    return current.filter((t) => t.productId !== productId);
  });
}
