// Webhook event types and how each comes from a change-log row.
import type { ChangeKind } from './changes.js';

export const WEBHOOK_EVENTS = [
  'post.created',
  'post.approved',
  'post.rejected',
  'post.held',
  'post.hidden',
  'post.deleted',
  'post.rights_requested',
  'post.rights_granted',
  'post.rights_declined',
  'post.rights_expired',
  'post.rights_revoked',
  'wall.deleted',
  'feed.failing',
  'feed.recovered',
  'connection.failed',
  'connection.expiring',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** Sent by `POST /webhooks/{id}/test` only; never subscribed to. */
export const TEST_EVENT = 'webhook.test';

const BY_KIND: Partial<Record<ChangeKind, WebhookEvent>> = {
  created: 'post.created',
  approved: 'post.approved',
  rejected: 'post.rejected',
  held: 'post.held',
  hidden: 'post.hidden',
  deleted: 'post.deleted',
  rights_requested: 'post.rights_requested',
  rights_granted: 'post.rights_granted',
  rights_declined: 'post.rights_declined',
  rights_expired: 'post.rights_expired',
  rights_revoked: 'post.rights_revoked',
  wall_deleted: 'wall.deleted',
  feed_failing: 'feed.failing',
  feed_recovered: 'feed.recovered',
  connection_failed: 'connection.failed',
  connection_expiring: 'connection.expiring',
};

/** The event a change is, or null (an edit, or a post created not visible: it is announced when approved). */
export function eventOfChange(kind: ChangeKind, visible: boolean): WebhookEvent | null {
  if (kind === 'created' && !visible) return null;
  return BY_KIND[kind] ?? null;
}

/** The change kinds that make these events (to ask the change log for those only). */
export function kindsOfEvents(events: readonly string[]): ChangeKind[] {
  return (Object.entries(BY_KIND) as [ChangeKind, WebhookEvent][])
    .filter(([, e]) => events.includes(e))
    .map(([k]) => k);
}

/** `evt_<seq>`: one change, one id, whatever the delivery or attempt (receivers dedupe by it). */
export const eventId = (seq: number) => `evt_${seq}`;
