// The JSON a webhook receives for one change: the event id (evt_<seq>, the
// same on every attempt and replay), its type, when the change happened, and
// the post in the embed API's form while it still exists — its copies of
// pictures named by absolute URLs of `base` (src/domain/self-url.ts: there
// is no request, so PUBLIC_URL, else the listen address).
import type { Kysely } from 'kysely';
import { embedPost } from '../presenters/embed.js';
import type { EmbedPost } from '../schemas/embed.js';
import { parseDecisionDetail, type DecisionDetail } from '../domain/decision.js';
import { eventId, eventOfChange, TEST_EVENT } from '../domain/webhook-events.js';
import type { ChangeRow } from '../store/change-log.js';
import { picturesOfPosts } from '../store/media.js';
import { postsByIds } from '../store/posts.js';
import { findConnection } from '../store/connections.js';
import { connectionStatusText } from '../domain/connections.js';
import { productsOfPost } from '../store/products.js';
import type { Database } from '../store/schema.js';

export interface WebhookPayload {
  id: string;
  type: string;
  createdAt: string;
  data: {
    accountId: number;
    wallId: number | null;
    postId: string | null;
    post: EmbedPost | null;
    feedId?: number;
    /** `post.held` only: the rule's decision, explained (the embed form shows no moderation) */
    decision?: HeldDecision;
    /** `connection.failed`, `connection.expiring`: the connection as it is when sent (never its secrets) */
    connection?: ConnectionEvent;
  };
}

/** What a connection event says of the connection: who, which network, its status in words — no secret. */
export interface ConnectionEvent {
  id: number;
  accountId: number;
  network: string;
  name: string;
  status: string;
  statusDetail: string | null;
  statusText: string;
  expiresAt: string | null;
}

export interface HeldDecision {
  by: string;
  reason: string | null;
  detail: DecisionDetail | null;
}

/** The event of a change (null when the change is no event: an edit, a post created not visible). */
export async function payloadOfChange(
  db: Kysely<Database>,
  change: ChangeRow,
  base: string,
): Promise<WebhookPayload | null> {
  const type = eventOfChange(change.kind, change.visible);
  if (type === null) return null;
  if (change.connection_id != null) return connectionPayload(db, change, change.connection_id, type);
  let post: EmbedPost | null = null;
  let decision: HeldDecision | undefined;
  if (change.post_id !== null) {
    const [row] = await postsByIds(db, [change.post_id]);
    if (row) {
      const pictures = (await picturesOfPosts(db, [row.id])).get(row.id);
      post = embedPost(row, await productsOfPost(db, row.id), { base, pictures });
      // the decision as it stands when sent (a moderator may have acted since: then it is theirs)
      if (type === 'post.held' && row.decided_by !== null)
        decision = {
          by: row.decided_by,
          reason: row.decision_reason,
          detail: parseDecisionDetail(row.decision_detail),
        };
    }
  }
  return {
    id: eventId(change.seq),
    type,
    createdAt: new Date(change.at).toISOString(),
    data: {
      accountId: change.account_id,
      wallId: change.wall_id,
      postId: change.post_id === null ? null : String(change.post_id),
      post,
      ...(change.feed_id !== null ? { feedId: change.feed_id } : {}),
      ...(decision ? { decision } : {}),
    },
  };
}

/** A connection's event; null when the connection is gone (deleted since: nothing to tell). */
async function connectionPayload(
  db: Kysely<Database>,
  change: ChangeRow,
  connectionId: number,
  type: string,
): Promise<WebhookPayload | null> {
  const row = await findConnection(db, connectionId);
  if (!row) return null;
  const facts = {
    status: row.status,
    statusDetail: row.status_detail,
    statusAt: row.status_at,
    expiresAt: row.expires_at,
  };
  return {
    id: eventId(change.seq),
    type,
    createdAt: new Date(change.at).toISOString(),
    data: {
      accountId: change.account_id,
      wallId: null,
      postId: null,
      post: null,
      connection: {
        id: row.id,
        accountId: row.account_id,
        network: row.network,
        name: row.name,
        status: row.status,
        statusDetail: row.status_detail,
        // in words as of the event (a replay says what was true then): when it failed, or was warned of
        statusText: connectionStatusText(
          facts,
          (change.kind === 'connection_expiring' ? row.expiry_warned_at : row.status_at) ?? change.at,
        ),
        expiresAt: row.expires_at === null ? null : new Date(row.expires_at).toISOString(),
      },
    },
  };
}

/** The `webhook.test` event: no change behind it, an id of its own. */
export function testPayload(accountId: number, id: string, now: number): WebhookPayload {
  return {
    id,
    type: TEST_EVENT,
    createdAt: new Date(now).toISOString(),
    data: { accountId, wallId: null, postId: null, post: null },
  };
}
