// Attendee uploads' store side (migration 0029): each wall's submission page
// settings, an upload written as a post of the wall's upload feed together
// with its consent, its picture and the digest of its deletion token (one
// transaction), the spent proof-of-work challenges, and the erasure an
// author asks for with their private link.
import type { Kysely, Selectable } from 'kysely';
import {
  DEFAULT_SUBMISSION,
  UPLOAD_FEED,
  type SubmissionSettings,
  type UploadLanguage,
  type UploadModeration,
} from '../domain/uploads.js';
import type { ModerationMode } from '../domain/lists.js';
import { isUniqueViolation } from './dialect.js';
import { upsertPostsIn, type IngestedPost, type PostWriteDecisions } from './ingest.js';
import { deleteUnreferencedBlobs, recordBlob, refreshPostMediaStates, type BlobRecord } from './media-queue.js';
import { builtInFeedId } from './feeds.js';
import type { Database, WallSubmissionsTable } from './schema.js';

type SubmissionRow = Selectable<WallSubmissionsTable>;

/** The settings and what only the server reads of them (the challenges' key). */
export interface StoredSubmission extends SubmissionSettings {
  wallId: number;
  challengeKey: string;
}

function settingsOf(row: SubmissionRow): StoredSubmission {
  return {
    wallId: Number(row.wall_id),
    enabled: row.enabled === 1,
    title: row.title,
    terms: row.terms,
    consentText: row.consent_text,
    consentVersion: row.consent_version,
    moderation: row.moderation,
    language: row.language as UploadLanguage,
    maxBytes: Number(row.max_bytes),
    perIpPerHour: row.per_ip_per_hour,
    perWallPerMinute: row.per_wall_per_minute,
    challengeKey: row.challenge_key,
  };
}

/** The wall's submission settings; the defaults (off) when it never had any. */
export async function findSubmission(db: Kysely<Database>, wallId: number): Promise<StoredSubmission | null> {
  const row = await db.selectFrom('wall_submissions').selectAll().where('wall_id', '=', wallId).executeTakeFirst();
  return row ? settingsOf(row) : null;
}

/** The defaults of a wall that never had settings (off: nothing is taken until an operator turns it on). */
export const defaultSubmission = (wallId: number, challengeKey: string): StoredSubmission => ({
  wallId,
  ...DEFAULT_SUBMISSION,
  consentVersion: 1,
  challengeKey,
});

/**
 * Writes the wall's settings (made on first write with `challengeKey`): a
 * changed consent text takes the next version. The upload feed, when there is
 * one, follows the moderation choice (queue: manual, else the wall's mode).
 * Returns what is stored now.
 */
export async function saveSubmission(
  db: Kysely<Database>,
  wallId: number,
  patch: Partial<Omit<SubmissionSettings, 'consentVersion'>>,
  challengeKey: string,
  now: number,
): Promise<StoredSubmission> {
  return db.transaction().execute((trx) => saveSubmissionIn(trx, wallId, patch, challengeKey, now));
}

/** saveSubmission inside the caller's transaction (the management API's, with its audit entry). */
export async function saveSubmissionIn(
  trx: Kysely<Database>,
  wallId: number,
  patch: Partial<Omit<SubmissionSettings, 'consentVersion'>>,
  challengeKey: string,
  now: number,
): Promise<StoredSubmission> {
  const before = (await findSubmission(trx, wallId)) ?? defaultSubmission(wallId, challengeKey);
  const next = { ...before, ...patch };
  const consentVersion = next.consentText !== before.consentText ? before.consentVersion + 1 : before.consentVersion;
  const values = {
    enabled: next.enabled ? 1 : 0,
    title: next.title,
    terms: next.terms,
    consent_text: next.consentText,
    consent_version: consentVersion,
    moderation: next.moderation,
    language: next.language,
    max_bytes: next.maxBytes,
    per_ip_per_hour: next.perIpPerHour,
    per_wall_per_minute: next.perWallPerMinute,
    updated_at: now,
  };
  await trx
    .insertInto('wall_submissions')
    .values({ wall_id: wallId, challenge_key: before.challengeKey, ...values })
    .onConflict((oc) => oc.column('wall_id').doUpdateSet(values))
    .execute();
  await trx
    .updateTable('feeds')
    .set({ moderation: feedModeration(next.moderation) })
    .where('wall_id', '=', wallId)
    .where('source', '=', UPLOAD_FEED.source)
    .where('source_type', '=', UPLOAD_FEED.sourceType)
    .execute();
  return { ...next, consentVersion };
}

/** The upload feed's own mode: `queue` holds everything (manual), so the image check's release holds it too. */
const feedModeration = (m: UploadModeration): ModerationMode | null => (m === 'queue' ? 'manual' : null);

/**
 * Takes a proof-of-work challenge as spent until `expiresAt`; false when it
 * was spent already (a replay). Spent challenges past their expiry are dropped.
 */
export async function spendChallenge(
  db: Kysely<Database>,
  challenge: string,
  expiresAt: number,
  now: number,
): Promise<boolean> {
  await db.deleteFrom('upload_challenges').where('expires_at', '<', now).execute();
  try {
    await db.insertInto('upload_challenges').values({ challenge, expires_at: expiresAt }).execute();
    return true;
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
}

/** What the wall's moderation needs to judge an upload. */
export interface UploadWall {
  accountId: number;
  wallModeration: ModerationMode;
  rules: string;
  profanity: boolean;
}

export async function uploadWallOf(db: Kysely<Database>, wallId: number): Promise<UploadWall | null> {
  const row = await db
    .selectFrom('walls')
    .select(['account_id', 'moderation', 'rules', 'profanity'])
    .where('id', '=', wallId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row
    ? { accountId: row.account_id, wallModeration: row.moderation, rules: row.rules, profanity: row.profanity !== 0 }
    : null;
}

export interface UploadInput {
  wallId: number;
  moderation: UploadModeration;
  post: IngestedPost;
  decisions: PostWriteDecisions;
  /** the stored picture (its files written already), or null for a text post */
  picture: BlobRecord | null;
  consent: { version: number; text: string; at: number };
  deleteTokenHash: string;
  uploaderHash: string;
  now: number;
}

/**
 * Writes an upload in one transaction: the post on the wall's upload feed
 * (made on first use) through the same upsert as ingestion (the wall's rules
 * and history rules, its media queued), its picture ready at once (the bytes
 * came with the request: no worker fetches them), its consent and token
 * digest. Returns the post's id and the state it arrived in.
 */
export async function insertUpload(
  db: Kysely<Database>,
  input: UploadInput,
): Promise<{ postId: number; state: string; decidedBy: string | null }> {
  return db.transaction().execute(async (trx) => {
    const feedId = await uploadFeedId(trx, input.wallId, input.moderation, input.now);
    await upsertPostsIn(trx, input.wallId, feedId, [input.post], input.decisions, input.now, { rightsExempt: true });
    const post = await trx
      .selectFrom('posts')
      .select(['id', 'state', 'decided_by'])
      .where('feed_id', '=', feedId)
      .where('external_id', '=', input.post.external_id)
      .executeTakeFirstOrThrow();
    if (input.picture) {
      await recordBlob(trx, input.picture, input.now);
      await trx
        .updateTable('post_media')
        .set({ state: 'ready', hash: input.picture.hash, reason: null, updated_at: input.now })
        .where('post_id', '=', post.id)
        .where('slot', '!=', 'avatar')
        .execute();
      await refreshPostMediaStates(trx, [post.id]);
    }
    await trx
      .insertInto('post_uploads')
      .values({
        post_id: post.id,
        wall_id: input.wallId,
        consent_version: input.consent.version,
        consent_text: input.consent.text,
        consented_at: input.consent.at,
        delete_token_hash: input.deleteTokenHash,
        uploader_hash: input.uploaderHash,
      })
      .execute();
    return { postId: post.id, state: post.state, decidedBy: post.decided_by };
  });
}

const uploadFeedId = (trx: Kysely<Database>, wallId: number, moderation: UploadModeration, now: number) =>
  builtInFeedId(trx, wallId, UPLOAD_FEED, now, feedModeration(moderation));

/** An upload found by the digest of its deletion token. */
export interface UploadRecord {
  postId: number;
  wallId: number;
  content: string;
  authorName: string;
  consentVersion: number;
  consentedAt: number;
}

export async function findUploadByToken(db: Kysely<Database>, tokenHash: string): Promise<UploadRecord | null> {
  const row = await db
    .selectFrom('post_uploads as u')
    .innerJoin('posts as p', 'p.id', 'u.post_id')
    .select(['u.post_id', 'u.wall_id', 'p.content', 'p.author_name', 'u.consent_version', 'u.consented_at'])
    .where('u.delete_token_hash', '=', tokenHash)
    .executeTakeFirst();
  return row
    ? {
        postId: row.post_id,
        wallId: Number(row.wall_id),
        content: row.content,
        authorName: row.author_name,
        consentVersion: row.consent_version,
        consentedAt: row.consented_at,
      }
    : null;
}

/**
 * Erases an upload at its author's request: the post (its consent row and
 * picture rows go with it; the change log says `deleted`, so screens drop
 * it) and the stored pictures no other post shows. Returns the hashes of the
 * pictures whose files the caller removes from the media storage, or null
 * when the token names no post (deleted already).
 */
export async function deleteUploadByToken(db: Kysely<Database>, tokenHash: string): Promise<string[] | null> {
  const hashes = await db.transaction().execute(async (trx) => {
    const upload = await trx
      .selectFrom('post_uploads')
      .select('post_id')
      .where('delete_token_hash', '=', tokenHash)
      .executeTakeFirst();
    if (!upload) return null;
    const pictures = await trx
      .selectFrom('post_media')
      .select('hash')
      .where('post_id', '=', upload.post_id)
      .where('hash', 'is not', null)
      .execute();
    await trx.deleteFrom('posts').where('id', '=', upload.post_id).execute();
    return pictures.map((p) => p.hash!);
  });
  if (hashes === null) return null;
  return deleteUnreferencedBlobs(db, [...new Set(hashes)]);
}

/** The consent on record of these posts (the uploads among them), by post id: for exports. */
export async function consentsOfPosts(
  db: Kysely<Database>,
  postIds: readonly number[],
): Promise<Map<number, { version: number; text: string; at: number }>> {
  const out = new Map<number, { version: number; text: string; at: number }>();
  for (let i = 0; i < postIds.length; i += 500) {
    const rows = await db
      .selectFrom('post_uploads')
      .select(['post_id', 'consent_version', 'consent_text', 'consented_at'])
      .where('post_id', 'in', postIds.slice(i, i + 500))
      .execute();
    for (const r of rows) out.set(r.post_id, { version: r.consent_version, text: r.consent_text, at: r.consented_at });
  }
  return out;
}
