// A wall with feeds of Meta's networks, each reading through a connection of
// its own stored in the test's store (one harness serves a whole describe:
// each test polls its own feed), and the checks the three suites share.
import { expect } from 'vitest';
import { addConnection } from '../../helpers/connections.js';
import { ACCOUNT, NOW, ingestState, startHarness, storedPosts, type Harness } from '../harness.js';
import type { ConnectionFailure } from '../../../src/ingest/runtime.js';

export interface MetaFeed {
  id: number;
  connector: Record<string, unknown>;
  network: string;
  token: string;
  accountId?: string;
  accountName?: string;
}

export interface MetaWalls {
  h: Harness;
  /** feed id → its connection's id */
  connection: Map<number, number>;
  /** what the runtime announced (the `connection.failed` webhook's source), in order */
  failures: ConnectionFailure[];
}

/** A harness whose feeds read with new connections (their ids filled in the connector settings). */
export async function metaWalls(feeds: MetaFeed[]): Promise<MetaWalls> {
  // feeds are stored with a placeholder connection id; the real one is set once the connection exists
  const failures: ConnectionFailure[] = [];
  const h = await startHarness(
    feeds.map((f) => ({ id: f.id, name: `${f.network} feed ${f.id}`, connector: { ...f.connector, connectionId: 1 } })),
    { runtime: { onConnectionFailed: (event) => failures.push(event) } },
  );
  const connection = new Map<number, number>();
  for (const f of feeds) {
    const id = await addConnection(h.server.store.db, {
      accountId: ACCOUNT,
      network: f.network,
      authKind: 'oauth',
      secret: { accessToken: f.token },
      externalAccountId: f.accountId,
      externalAccountName: f.accountName,
      now: NOW,
    });
    connection.set(f.id, id);
    await h.server.store.db
      .updateTable('feeds')
      .set({ connector: JSON.stringify({ ...f.connector, connectionId: id }) })
      .where('id', '=', f.id)
      .execute();
  }
  return { h, connection, failures };
}

export async function connectionRow(h: Harness, id: number) {
  return h.server.store.db.selectFrom('connections').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** Polls one feed once (forced) and returns its report. */
export async function pollFeed(h: Harness, feedId: number) {
  const [report] = await h.poll(feedId);
  return report!;
}

/** The token appears in no stored post, no feed status and no connection status. */
export async function expectTokenNowhere(h: Harness, token: string): Promise<void> {
  const db = h.server.store.db;
  const texts = [
    JSON.stringify(await db.selectFrom('posts').selectAll().execute()),
    JSON.stringify(await db.selectFrom('feed_ingest_state').selectAll().execute()),
    JSON.stringify(await db.selectFrom('feeds').selectAll().execute()),
    JSON.stringify(await db.selectFrom('connections').select(['name', 'status', 'status_detail']).execute()),
  ];
  for (const text of texts) expect(text).not.toContain(token);
}

export { ingestState, storedPosts };
