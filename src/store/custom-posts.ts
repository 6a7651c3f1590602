// Custom posts (W3 and the management API's create): written on the wall's
// custom feed, made on first use, with the Idempotency-Key of contract §7.
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { MediaKind } from '../domain/lists.js';
import { isUniqueViolation } from './dialect.js';
import { initialMediaStates, syncPostMedia } from './media-queue.js';
import { builtInFeedId } from './feeds.js';
import { postDefaults } from './post-columns.js';

export interface CustomPostInput {
  wallId: number;
  accountId: number;
  content: string;
  postFile: string;
  authorName: string;
  authorPicture: string;
  link: string;
  media: MediaKind;
  /** the language of its content (src/manage/language.ts); null or absent: unknown */
  lang?: string | null;
  now: number;
  idempotencyKey: string | null;
}

export const CUSTOM_FEED = { name: 'Custom', source: 'Custom', sourceType: 'post' } as const;
export const CUSTOM_POST_TYPE = 5;
/** How long an Idempotency-Key is remembered (contract §7). */
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;

/**
 * Creates a custom post on the wall's custom feed (made on first use). With an
 * idempotency key, a retry within 24 h returns the first post instead of a new one.
 * Returns the post id and whether it was created by this call.
 */
export async function createCustomPost(
  db: Kysely<Database>,
  input: CustomPostInput,
): Promise<{ postId: number; created: boolean }> {
  try {
    return await db.transaction().execute(async (trx) => {
      if (input.idempotencyKey !== null) {
        const prior = await trx
          .selectFrom('idempotency_keys')
          .select(['post_id', 'created_at'])
          .where('account_id', '=', input.accountId)
          .where('idem_key', '=', input.idempotencyKey)
          .executeTakeFirst();
        if (prior && prior.created_at > input.now - IDEMPOTENCY_TTL_MS) {
          return { postId: prior.post_id, created: false };
        }
        if (prior) {
          await trx
            .deleteFrom('idempotency_keys')
            .where('account_id', '=', input.accountId)
            .where('idem_key', '=', input.idempotencyKey)
            .execute();
        }
      }
      const feedId = await customFeedId(trx, input.wallId, input.now);
      const isVideo = input.media === 'video';
      const isImage = input.media === 'image';
      const columns = {
        ...postDefaults(),
        wall_id: input.wallId,
        feed_id: feedId,
        network_name: 'Custom',
        post_type: CUSTOM_POST_TYPE,
        content: input.content,
        picture: isImage ? input.postFile : '',
        file: input.postFile,
        media_file: isVideo ? input.postFile : '',
        link_url: input.link,
        author_name: input.authorName,
        user_picture: input.authorPicture,
        created_at: input.now,
        updated_at: input.now,
        media: input.media,
        lang: input.lang ?? null,
        children:
          isImage || isVideo
            ? JSON.stringify([{ image: isImage ? input.postFile : '', video: isVideo ? input.postFile : '' }])
            : '[]',
      };
      // its pictures queued for the media worker, its media state set from the start
      const [mediaState] = await initialMediaStates(trx, [columns]);
      const inserted = await trx
        .insertInto('posts')
        .values({ ...columns, media_state: mediaState! })
        .returning('id')
        .executeTakeFirstOrThrow();
      await syncPostMedia(trx, [inserted.id], input.now);
      if (input.idempotencyKey !== null) {
        await trx
          .insertInto('idempotency_keys')
          .values({
            account_id: input.accountId,
            idem_key: input.idempotencyKey,
            post_id: inserted.id,
            created_at: input.now,
          })
          .execute();
      }
      return { postId: inserted.id, created: true };
    });
  } catch (err) {
    // A concurrent retry with the same key won the race (PostgreSQL); answer with its post.
    if (input.idempotencyKey !== null && isUniqueViolation(err)) {
      const prior = await db
        .selectFrom('idempotency_keys')
        .select('post_id')
        .where('account_id', '=', input.accountId)
        .where('idem_key', '=', input.idempotencyKey)
        .executeTakeFirst();
      if (prior) return { postId: prior.post_id, created: false };
    }
    throw err;
  }
}

const customFeedId = (trx: Kysely<Database>, wallId: number, now: number) =>
  builtInFeedId(trx, wallId, CUSTOM_FEED, now);
