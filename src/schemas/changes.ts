// A wall's change feed (GET /api/manage/v1/walls/{id}/changes): what changed
// since a cursor, in commit order, and the cursor to ask with next.
import { Type, type Static } from 'typebox';
import { LATEST_CURSOR, WALL_FEED_KINDS } from '../domain/changes.js';
import { Instant, Nullable, pageQuery, Record, strict } from './fields.js';
import { PostRecord } from './posts.js';

export const ChangesQuery = Type.Object(
  {
    since: Type.Optional(
      Type.String({
        pattern: `^(?:${LATEST_CURSOR}|[0-9]{1,15})$`,
        'x-error': `since must be a cursor this API returned, or ${LATEST_CURSOR}`,
        description:
          `the \`cursor\` of the previous answer; \`${LATEST_CURSOR}\`: no changes, just the cursor of now ` +
          '(start a mirror with it, then read the posts); absent: from the oldest change kept',
      }),
    ),
    limit: pageQuery.limit,
  },
  strict,
);

export const ChangeRecord = Record({
  cursor: Type.String({ description: 'this change’s place in commit order (opaque)' }),
  kind: Type.Enum([...WALL_FEED_KINDS], {
    description: 'what happened: to a post, or (`wall_deleted`, `wall_restored`; postId null) to the wall',
  }),
  postId: Nullable(Type.Integer()),
  visible: Type.Boolean({ description: 'the post was shown by the public reads right after this change' }),
  at: Instant,
  post: Type.Union([PostRecord, Type.Null()], {
    description: 'the post as it is NOW (later changes may follow); null when it no longer exists',
  }),
});

export const ChangesPage = Record({
  changes: Type.Array(ChangeRecord),
  cursor: Type.String({ description: 'pass as `since` next time: the place after the last change given' }),
  hasMore: Type.Boolean({ description: 'more changes are waiting: ask again at once' }),
});

export type ChangeRecord = Static<typeof ChangeRecord>;
export type ChangesPage = Static<typeof ChangesPage>;
