// Walls and their feeds for operators: every wall (deleted ones too), the
// soft delete of contract §7, restore and purge.
import type { Kysely } from 'kysely';
import { cleanWrite, FEED_RULES, NAME_RULES } from '../domain/writes.js';
import type { ConnectorSettings } from '../schemas/connectors.js';
import type { Database } from '../store/schema.js';
import {
  findWall,
  findWallWithCounts,
  insertWall,
  purgeWallRows,
  updateWallRow,
  wallsPage,
  wallWithSlug,
  type WallRow,
  type WallWithCounts,
} from '../store/walls.js';
import {
  deleteFeedRows,
  feedsPage,
  findFeedWithState,
  insertFeed,
  makeFeedDue,
  updateFeedRow,
  type FeedWithState,
} from '../store/feeds.js';
import { findAccount } from '../store/accounts.js';
import { audited, diff, type Op } from './op.js';
import { accountOf } from '../store/ownership.js';
import { conflict, found, invalid, notFound, stored } from '../domain/errors.js';
import { scopeFilter, type AccountScope } from '../domain/roles.js';
import { iso, isoOrNull } from '../domain/dates.js';
import { pageById, type Page, type PageRequest } from './paging.js';
import type { WallInput, WallPatch, WallRecord, WallState } from '../schemas/walls.js';
import {
  brandingColumn,
  brandingProblems,
  checkBranding,
  DEFAULT_BRANDING,
  mergeBranding,
  storedBranding,
  type Branding,
} from '../domain/branding.js';
import type { EmbedTheme } from '../domain/lists.js';
import type { FeedInput, FeedPatch, FeedRecord } from '../schemas/feeds.js';
import { checkFeedConnection } from './connections.js';
import { refreshHolds } from '../store/rights.js';

// ---------- walls ----------

const wallRecord = (r: WallWithCounts): WallRecord => ({
  id: r.id,
  accountId: r.account_id,
  name: r.name,
  url: r.url,
  profanity: r.profanity !== 0,
  moderation: r.moderation,
  layout: r.layout,
  theme: r.theme,
  columns: r.columns,
  allowFraming: r.allow_framing !== 0,
  mediaWait: r.media_wait !== 0,
  branding: storedBranding(r.branding),
  rightsRequired: r.rights_required,
  rightsAuto: r.rights_auto,
  createdAt: iso(r.created_at),
  deleted: r.deleted_at !== null,
  deletedAt: isoOrNull(r.deleted_at),
  feedCount: Number(r.feed_count),
  postCount: Number(r.post_count),
  approvedCount: Number(r.approved_count),
  pendingCount: Number(r.pending_count),
  rejectedCount: Number(r.rejected_count),
  hiddenCount: Number(r.hidden_count),
});

export async function listWalls(
  db: Kysely<Database>,
  filter: { accountId?: number; state?: WallState; scope?: AccountScope },
  page: PageRequest,
): Promise<Page<WallRecord>> {
  return pageById(
    page,
    (afterId, take) =>
      wallsPage(
        db,
        {
          accountIds: scopeFilter(filter.scope),
          accountId: filter.accountId,
          state: filter.state,
        },
        afterId,
        take,
      ),
    wallRecord,
  );
}

async function wallRow(db: Kysely<Database>, id: number): Promise<WallWithCounts> {
  return found(await findWallWithCounts(db, id), 'wall', id);
}

export async function getWall(db: Kysely<Database>, id: number): Promise<WallRecord> {
  return wallRecord(await wallRow(db, id));
}

/** 404 unless the wall exists (live or deleted). */
export async function requireWall(db: Kysely<Database>, id: number): Promise<WallRow> {
  return found(await findWall(db, id), 'wall', id);
}

/**
 * The branding a write leaves: `given` (a change, or null for none) merged
 * into `before`, checked field by field and then as a whole (the colour
 * pairs against WCAG AA, seen in the wall's `theme`); a 400 naming every
 * refused field (`branding.text`) otherwise.
 */
function brandingAfter(before: Branding, given: unknown, theme: EmbedTheme | null): Branding {
  const change = given === null ? null : checkBranding(given);
  if (change && change.problems.length > 0) throw invalid(change.problems);
  const after = change === null ? mergeBranding(DEFAULT_BRANDING, {}) : mergeBranding(before, change.value);
  const problems = brandingProblems(after, theme);
  if (problems.length > 0) throw invalid(problems);
  return after;
}

async function ensureSlugFree(db: Kysely<Database>, accountId: number, url: string, exceptWall: number | null) {
  const taken = await wallWithSlug(db, accountId, url, exceptWall);
  if (taken !== undefined) throw conflict(`url "${url}" is already used by wall ${taken} of account ${accountId}`);
}

export async function createWall(op: Op, given: WallInput): Promise<WallRecord> {
  const input = stored(cleanWrite(given, NAME_RULES));
  const branding = brandingAfter(DEFAULT_BRANDING, input.branding ?? {}, input.theme ?? null);
  return audited(op, async (tx) => {
    if (!(await findAccount(tx.trx, input.accountId))) throw notFound('account', input.accountId);
    await ensureSlugFree(tx.trx, input.accountId, input.url, null);
    const id = await insertWall(tx.trx, {
      account_id: input.accountId,
      name: input.name,
      url: input.url,
      profanity: input.profanity ? 1 : 0,
      moderation: input.moderation ?? 'auto',
      rules: '[]',
      layout: input.layout ?? null,
      theme: input.theme ?? null,
      columns: input.columns ?? null,
      allow_framing: input.allowFraming ? 1 : 0,
      media_wait: input.mediaWait === true ? 1 : 0,
      branding: brandingColumn(branding),
      rights_required: input.rightsRequired ?? 'none',
      rights_auto: input.rightsAuto ?? 'off',
      created_at: op.now,
      deleted_at: null,
    });
    const rec = wallRecord(await wallRow(tx.trx, id));
    tx.audit({ action: 'wall.create', targetType: 'wall', targetId: id, after: rec });
    tx.wallChanged(id);
    return rec;
  });
}

export async function updateWall(op: Op, id: number, change: WallPatch): Promise<WallRecord> {
  const patch = stored(cleanWrite(change, NAME_RULES));
  return audited(op, async (tx) => {
    const before = wallRecord(await wallRow(tx.trx, id));
    if (patch.url !== undefined) await ensureSlugFree(tx.trx, before.accountId, patch.url, id);
    // the colours are checked again when the branding or the theme it is seen in changes
    const theme = patch.theme !== undefined ? patch.theme : before.theme;
    const branding =
      patch.branding !== undefined || patch.theme !== undefined
        ? brandingAfter(before.branding as Branding, patch.branding === undefined ? {} : patch.branding, theme)
        : undefined;
    await updateWallRow(tx.trx, id, {
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.url !== undefined ? { url: patch.url } : {}),
      ...(patch.profanity !== undefined ? { profanity: patch.profanity ? 1 : 0 } : {}),
      ...(patch.moderation !== undefined ? { moderation: patch.moderation } : {}),
      ...(patch.layout !== undefined ? { layout: patch.layout } : {}),
      ...(patch.theme !== undefined ? { theme: patch.theme } : {}),
      ...(patch.columns !== undefined ? { columns: patch.columns } : {}),
      ...(patch.allowFraming !== undefined ? { allow_framing: patch.allowFraming ? 1 : 0 } : {}),
      ...(patch.mediaWait !== undefined ? { media_wait: patch.mediaWait ? 1 : 0 } : {}),
      ...(branding !== undefined ? { branding: brandingColumn(branding) } : {}),
      ...(patch.rightsRequired !== undefined ? { rights_required: patch.rightsRequired } : {}),
      ...(patch.rightsAuto !== undefined ? { rights_auto: patch.rightsAuto } : {}),
    });
    // a new requirement holds (or frees) the wall's posts at once
    if (patch.rightsRequired !== undefined && patch.rightsRequired !== before.rightsRequired)
      await refreshHolds(tx.trx, id);
    const after = wallRecord(await wallRow(tx.trx, id));
    tx.audit({ action: 'wall.update', targetType: 'wall', targetId: id, ...diff(before, after) });
    tx.wallChanged(id);
    return after;
  });
}

/** The soft delete of contract §7: the wall is 404 on the public API until restored. */
export async function deleteWall(op: Op, id: number): Promise<WallRecord> {
  return audited(op, async (tx) => {
    const before = await wallRow(tx.trx, id);
    if (before.deleted_at !== null) throw conflict(`wall ${id} is already deleted`);
    await updateWallRow(tx.trx, id, { deleted_at: op.now });
    tx.audit({
      action: 'wall.delete',
      targetType: 'wall',
      targetId: id,
      before: { deletedAt: null },
      after: { deletedAt: iso(op.now) },
    });
    tx.wallChanged(id);
    return wallRecord({ ...before, deleted_at: op.now });
  });
}

export async function restoreWall(op: Op, id: number): Promise<WallRecord> {
  return audited(op, async (tx) => {
    const before = await wallRow(tx.trx, id);
    if (before.deleted_at === null) throw conflict(`wall ${id} is not deleted`);
    await updateWallRow(tx.trx, id, { deleted_at: null });
    tx.audit({
      action: 'wall.restore',
      targetType: 'wall',
      targetId: id,
      before: { deletedAt: iso(before.deleted_at) },
      after: { deletedAt: null },
    });
    tx.wallChanged(id);
    return wallRecord({ ...before, deleted_at: null });
  });
}

/** Erases a deleted wall with its feeds, posts and tags for good; a live wall is refused. */
export async function purgeWall(op: Op, id: number): Promise<WallRecord> {
  return audited(op, async (tx) => {
    const before = wallRecord(await wallRow(tx.trx, id));
    if (!before.deleted) throw conflict(`wall ${id} is live; delete it first`);
    await purgeWallRows(tx.trx, id);
    tx.audit({ action: 'wall.purge', targetType: 'wall', targetId: id, accountId: before.accountId, before });
    tx.wallChanged(id);
    return before;
  });
}

// ---------- feeds ----------

const feedRecord = (r: FeedWithState): FeedRecord => ({
  id: r.id,
  wallId: r.wall_id,
  name: r.name,
  source: r.source,
  sourceType: r.source_type,
  connector: r.connector === null ? null : (JSON.parse(r.connector) as ConnectorSettings),
  enabled: r.enabled !== 0,
  moderation: r.moderation,
  createdAt: isoOrNull(r.created_at),
  updatedAt: iso(r.updated_at),
  postCount: Number(r.post_count),
  ...(r.st_next_poll_at === null
    ? {}
    : {
        ingest: {
          lastPolledAt: isoOrNull(r.st_last_polled_at),
          lastSuccessAt: isoOrNull(r.st_last_success_at),
          nextPollAt: isoOrNull(r.st_next_poll_at),
          intervalSeconds: Number(r.st_interval_s),
          consecutiveFailures: Number(r.st_failures ?? 0),
          lastError: r.st_last_error,
          lastErrorAt: isoOrNull(r.st_last_error_at),
          failing: r.st_failing === 1,
          warnings: Number(r.st_last_warnings ?? 0),
          lastWarning: r.st_last_warning,
          lastWarningAt: isoOrNull(r.st_last_warning_at),
        },
      }),
});

export async function listFeeds(db: Kysely<Database>, wallId: number, page: PageRequest): Promise<Page<FeedRecord>> {
  await requireWall(db, wallId);
  return pageById(page, (afterId, take) => feedsPage(db, wallId, afterId, take), feedRecord);
}

/** The feed; with `wallId`, a feed of another wall is 404 too. */
async function feedRow(db: Kysely<Database>, feedId: number, wallId?: number): Promise<FeedWithState> {
  if (wallId !== undefined) await requireWall(db, wallId);
  return found(await findFeedWithState(db, feedId, wallId), 'feed', feedId);
}

export async function getFeed(db: Kysely<Database>, feedId: number, wallId?: number): Promise<FeedRecord> {
  return feedRecord(await feedRow(db, feedId, wallId));
}

export async function createFeed(op: Op, wallId: number, given: FeedInput): Promise<FeedRecord> {
  const input = stored(cleanWrite(given, FEED_RULES));
  return audited(op, async (tx) => {
    await requireWall(tx.trx, wallId);
    await checkFeedConnection(tx.trx, wallId, input.connector);
    const id = await insertFeed(tx.trx, {
      wall_id: wallId,
      name: input.name,
      source: input.source,
      source_type: input.sourceType,
      created_at: op.now,
      updated_at: op.now,
      connector: input.connector == null ? null : JSON.stringify(input.connector),
      enabled: input.enabled === false ? 0 : 1,
      moderation: input.moderation ?? null,
    });
    const rec = feedRecord(await feedRow(tx.trx, id));
    tx.audit({ action: 'feed.create', targetType: 'feed', targetId: id, after: rec, details: { wallId } });
    tx.wallChanged(wallId);
    return rec;
  });
}

export async function updateFeed(op: Op, feedId: number, change: FeedPatch, wallId?: number): Promise<FeedRecord> {
  const patch = stored(cleanWrite(change, FEED_RULES));
  return audited(op, async (tx) => {
    const before = feedRecord(await feedRow(tx.trx, feedId, wallId));
    if (patch.connector !== undefined) await checkFeedConnection(tx.trx, before.wallId, patch.connector);
    await updateFeedRow(tx.trx, feedId, {
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.source !== undefined ? { source: patch.source } : {}),
      ...(patch.sourceType !== undefined ? { source_type: patch.sourceType } : {}),
      ...(patch.connector !== undefined
        ? { connector: patch.connector === null ? null : JSON.stringify(patch.connector) }
        : {}),
      ...(patch.enabled !== undefined ? { enabled: patch.enabled ? 1 : 0 } : {}),
      ...(patch.moderation !== undefined ? { moderation: patch.moderation } : {}),
      updated_at: op.now,
    });
    const after = feedRecord(await feedRow(tx.trx, feedId));
    const changed = diff(before, after);
    delete changed.before.updatedAt;
    delete changed.after.updatedAt;
    tx.audit({
      action: 'feed.update',
      targetType: 'feed',
      targetId: feedId,
      ...changed,
      details: { wallId: after.wallId },
    });
    tx.wallChanged(after.wallId);
    return after;
  });
}

/**
 * "Poll now": the feed must have a connector, be enabled and be on a live
 * wall (409 otherwise, in words). Marks it due at once, so whichever poller
 * runs (this process's, or a worker's next round) takes it first; the
 * caller polls it in-process when it can.
 */
export async function requestPoll(op: Op, feedId: number, wallId: number): Promise<FeedRecord> {
  const feed = feedRecord(await feedRow(op.db, feedId, wallId));
  const wall = await requireWall(op.db, wallId);
  if (wall.deleted_at !== null) throw conflict(`wall ${wallId} is deleted: restore it to poll its feeds`);
  if (feed.connector === null)
    throw conflict(`feed ${feedId} has no connector: give it one (RSS, Mastodon, …) to poll it`);
  if (!feed.enabled) throw conflict(`feed ${feedId} is disabled: enable it to poll it`);
  await makeFeedDue(op.db, feedId, op.now);
  return feed;
}

/** Deletes a feed with its posts (and their product tags). */
export async function deleteFeed(op: Op, feedId: number, wallId?: number): Promise<FeedRecord> {
  return audited(op, async (tx) => {
    const before = feedRecord(await feedRow(tx.trx, feedId, wallId));
    const accountId = await accountOf(tx.trx, 'wall', before.wallId);
    await deleteFeedRows(tx.trx, feedId);
    tx.audit({
      action: 'feed.delete',
      targetType: 'feed',
      targetId: feedId,
      accountId,
      before,
      details: { wallId: before.wallId },
    });
    tx.wallChanged(before.wallId);
    return before;
  });
}
