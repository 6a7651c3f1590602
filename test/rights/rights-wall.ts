// What the rights channel tests share: the ingestion harness's wall (a real
// server, real HTTP, the store of the project under test) made to require
// rights, a connection that asks, the service's deps and a RightsWatcher on
// the same store with the harness's clock, an SSRF-guarded fetcher allowing
// loopback only (the fixture networks), announcing on the server's change
// bus; and readers for what the public sees and what the change log says.
import { expect } from 'vitest';
import type { Kysely } from 'kysely';
import { createFetcher, type Fetcher } from '../../src/net/fetcher.js';
import { RightsWatcher } from '../../src/rights/watcher.js';
import { LISTEN_MS, type RightsDeps } from '../../src/rights/service.js';
import { changesAfter } from '../../src/store/change-log.js';
import { findConnection } from '../../src/store/connections.js';
import {
  findPostRights,
  refreshHolds,
  rightsEventsOf,
  saveRightsSettings,
  type StoredRightsSettings,
} from '../../src/store/rights.js';
import type { Database } from '../../src/store/schema.js';
import { DEFAULT_RIGHTS_SETTINGS, type RightsAutoRequest } from '../../src/domain/rights.js';
import { eventOfChange } from '../../src/domain/webhook-events.js';
import type { ConnectionSecret } from '../../src/connections/secrets.js';
import { addConnection } from '../helpers/connections.js';
import { KEY } from '../ingest/networks/connected-feed.js';
import { ACCOUNT, WALL, startHarness, widgetPosts, type FeedSpec, type Harness } from '../ingest/harness.js';

export { ACCOUNT, WALL };

/** The account's rights settings in these tests: a brand, its hashtag, room for several requests to one author. */
export const SETTINGS: StoredRightsSettings = {
  ...DEFAULT_RIGHTS_SETTINGS,
  grantHashtag: 'YesHarbor',
  brand: 'Harbor Coffee',
  declineWords: ['no', 'no thanks', '#NoThanks'],
  perAuthorPerDay: 5,
  perDay: 50,
  expireDays: 14,
  connections: {},
};

export interface RightsWall {
  h: Harness;
  db: Kysely<Database>;
  fetcher: Fetcher;
  watcher: RightsWatcher;
  /** one watcher pass once the next listen is due: the clock moved on by `afterMs` (default LISTEN_MS) first */
  listen(afterMs?: number): ReturnType<RightsWatcher['runOnce']>;
  /** the service's deps as the management API would give them (its own memory) */
  deps(): RightsDeps;
  connect(
    network: string,
    secret: ConnectionSecret,
    extra?: { instance?: string; accountName?: string },
  ): Promise<number>;
  close(): Promise<void>;
}

/** A harness wall with these feeds that requires rights for every post (`all`), its feeds polled once. */
export async function rightsWall(
  feeds: FeedSpec[],
  options: { settings?: Partial<StoredRightsSettings>; auto?: RightsAutoRequest } = {},
): Promise<RightsWall> {
  const h = await startHarness(feeds);
  const db = h.server.store.db;
  await db
    .updateTable('walls')
    .set({ rights_required: 'all', rights_auto: options.auto ?? 'off' })
    .where('id', '=', WALL)
    .execute();
  await refreshHolds(db, WALL);
  await saveRightsSettings(db, ACCOUNT, { ...SETTINGS, ...(options.settings ?? {}) }, h.clock.now);
  const fetcher = createFetcher({
    allowPrivateNetworks: ['127.0.0.0/8'],
    timeoutMs: 10_000,
    maxBytes: 1024 * 1024,
    hostConcurrency: 4,
  });
  const announce = (wallId: number) => h.server.app.ctx.changes.wallChanged(wallId);
  const watcher = new RightsWatcher({
    db,
    secretKey: KEY,
    allowPrivateNetworks: ['127.0.0.0/8'],
    fetcher,
    now: () => h.clock.now,
    owner: 'rights-test',
    changes: h.server.app.ctx.changes,
  });
  const memory = new Map<string, unknown>();
  return {
    h,
    db,
    fetcher,
    watcher,
    listen(afterMs = LISTEN_MS) {
      h.clock.now += afterMs;
      return watcher.runOnce();
    },
    deps: () => ({ db, secretKey: KEY, fetcher, memory, now: () => h.clock.now, announce }),
    connect: (network, secret, extra = {}) =>
      addConnection(db, {
        accountId: ACCOUNT,
        network,
        secret,
        key: KEY,
        ...(extra.instance ? { instance: extra.instance } : {}),
        ...(extra.accountName ? { externalAccountName: extra.accountName } : {}),
        now: h.clock.now,
      }),
    async close() {
      await watcher.stop();
      await fetcher.close();
      await h.close();
    },
  };
}

/** The wall's posts as the public reads them (v2 widget JSON over HTTP): their links. */
export async function publicLinks(h: Harness): Promise<string[]> {
  return (await widgetPosts(h)).map((p) => String(p.postLinkUrl));
}

/** A stored post by its upstream id. */
export async function postByExternalId(db: Kysely<Database>, externalId: string) {
  return db.selectFrom('posts').selectAll().where('external_id', '=', externalId).executeTakeFirstOrThrow();
}

/** The post's rights changes in the change log: kind, visible, and the webhook event each is. */
export async function rightsChanges(db: Kysely<Database>, postId: number) {
  const rows = await changesAfter(db, { after: 0, wallId: WALL, limit: 1000 });
  return rows
    .filter((r) => r.post_id === postId && r.kind.startsWith('rights_'))
    .map((r) => ({ kind: r.kind, visible: r.visible, event: eventOfChange(r.kind, r.visible) }));
}

/** The post's rights row, which must exist. */
export async function rightsOf(db: Kysely<Database>, postId: number) {
  const row = await findPostRights(db, postId);
  expect(row, `post ${postId} has rights`).toBeDefined();
  return row!;
}

export async function eventKinds(db: Kysely<Database>, postId: number): Promise<string[]> {
  return (await rightsEventsOf(db, postId)).map((e) => e.kind);
}

export async function connectionStatus(db: Kysely<Database>, id: number) {
  const row = await findConnection(db, id);
  return { status: row?.status, detail: row?.status_detail ?? null };
}

export async function optOuts(db: Kysely<Database>) {
  return db.selectFrom('rights_optouts').select(['author', 'reason']).where('account_id', '=', ACCOUNT).execute();
}
