// What the change log records (its triggers: src/store/migrations/0015_changes.ts)
// and how a change-feed cursor is written. A cursor is the commit-order
// position of the last change a reader has seen; it is opaque to readers.

/** `held`: a rule put the post in the approval queue (on arrival, or later: src/store/migrations/0027_held_changes.ts). */
/** `rights_<state>`: the post's rights state changed (src/domain/rights.ts; migration 0034). */
export const POST_CHANGE_KINDS = [
  'created',
  'updated',
  'approved',
  'rejected',
  'hidden',
  'deleted',
  'held',
  'rights_requested',
  'rights_granted',
  'rights_declined',
  'rights_expired',
  'rights_revoked',
] as const;
export const WALL_CHANGE_KINDS = ['wall_deleted', 'wall_restored'] as const;
export const FEED_CHANGE_KINDS = ['feed_failing', 'feed_recovered'] as const;
/** An account's connection the network refused, or whose token expires soon (src/store/migrations/0032_connection_events.ts). */
export const CONNECTION_CHANGE_KINDS = ['connection_failed', 'connection_expiring'] as const;
export const CHANGE_KINDS = [
  ...POST_CHANGE_KINDS,
  ...WALL_CHANGE_KINDS,
  ...FEED_CHANGE_KINDS,
  ...CONNECTION_CHANGE_KINDS,
] as const;

export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** What a wall's change feed shows: its posts' changes and its own deletion or restoration. */
export const WALL_FEED_KINDS: readonly ChangeKind[] = [...POST_CHANGE_KINDS, ...WALL_CHANGE_KINDS];

/** `since=latest`: start from now (after a full read), not from the oldest kept change. */
export const LATEST_CURSOR = 'latest';

const CURSOR = /^[0-9]{1,15}$/;

export function encodeChangeCursor(seq: number): string {
  return String(seq);
}

/** The seq a cursor names, or null when it is not one of ours. */
export function decodeChangeCursor(cursor: string): number | null {
  return CURSOR.test(cursor) ? Number(cursor) : null;
}
