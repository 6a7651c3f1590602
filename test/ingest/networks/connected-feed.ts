// What the network connector tests share: a harness wall with one feed that
// reads through a connection (the connection stored first, sealed under KEY,
// then the feed naming it), or a connection given to a feed of a running
// harness; and the checks that a secret shows up nowhere a poll wrote to.
import { expect } from 'vitest';
import type { ConnectionSecret } from '../../../src/connections/secrets.js';
import { findConnection } from '../../../src/store/connections.js';
import { addConnection } from '../../helpers/connections.js';
import type { ConnectionFailure } from '../../../src/ingest/runtime.js';
import { ACCOUNT, NOW, WALL, ingestState, startHarness, storedPosts, type Harness } from '../harness.js';

/** The secret box key the test connections are sealed with. */
export const KEY = Buffer.alloc(32, 11);

export interface ConnectedWall {
  h: Harness;
  /** the feed's connection (null: the feed names none) */
  connectionId: number | null;
  /** `connection.failed` announcements of the runtime */
  failures: ConnectionFailure[];
}

export async function connectedWall(
  feedId: number,
  connector: Record<string, unknown>,
  connection: { network: string; token: string; instance: string } | null,
): Promise<ConnectedWall> {
  const failures: ConnectionFailure[] = [];
  const h = await startHarness([], { runtime: { secretKey: KEY, onConnectionFailed: (f) => failures.push(f) } });
  const connectionId = connection
    ? await addConnection(h.server.store.db, {
        accountId: ACCOUNT,
        network: connection.network,
        secret: { accessToken: connection.token },
        key: KEY,
        instance: connection.instance,
        now: NOW,
      })
    : null;
  await h.server.store.db
    .insertInto('feeds')
    .values({
      id: feedId,
      wall_id: WALL,
      name: `${String(connector.kind)} feed`,
      source: 'Pending',
      source_type: 'pending',
      connector: JSON.stringify({ ...connector, ...(connectionId !== null ? { connectionId } : {}) }),
      enabled: 1,
      moderation: null,
      created_at: NOW,
      updated_at: NOW,
    })
    .execute();
  return { h, connectionId, failures };
}

/** Everything ingestion stored and shows (posts, ingestion states and their errors, connections, feeds), as text to search. */
export async function storedText(h: Harness): Promise<string> {
  const db = h.server.store.db;
  const posts = await db.selectFrom('posts').selectAll().execute();
  const states = await db.selectFrom('feed_ingest_state').selectAll().execute();
  const connections = await db
    .selectFrom('connections')
    .select(['name', 'status', 'status_detail', 'secret'])
    .execute();
  const feeds = await db.selectFrom('feeds').selectAll().execute();
  return JSON.stringify({ posts, states, connections, feeds });
}

/** Stores a connection for `network` and points the feed's connector at it; the connection's id. */
export async function connectFeed(
  h: Harness,
  feedId: number,
  network: string,
  secret: ConnectionSecret,
  connector: Record<string, unknown>,
): Promise<number> {
  const id = await addConnection(h.server.store.db, {
    accountId: ACCOUNT,
    network,
    secret,
    authKind: secret.apiKey ? 'api_key' : 'token',
    now: h.clock.now,
  });
  await h.server.store.db
    .updateTable('feeds')
    .set({ connector: JSON.stringify({ ...connector, connectionId: id }) })
    .where('id', '=', feedId)
    .execute();
  return id;
}

/**
 * The feed given a connection of `network` on `instance` whose token must
 * not reach `upstream` (another instance's, another network's), then polled
 * once due: no request reached the upstream; what the poll said.
 */
export async function pollRefusingConnection(
  h: Harness,
  upstream: { requests: unknown[] },
  feedId: number,
  connector: Record<string, unknown>,
  connection: { network: string; instance: string },
): Promise<string | null | undefined> {
  const connectionId = await addConnection(h.server.store.db, {
    accountId: ACCOUNT,
    network: connection.network,
    secret: { accessToken: 'elsewhere-token' },
    key: KEY,
    instance: connection.instance,
    now: NOW,
  });
  await h.server.store.db
    .updateTable('feeds')
    .set({ connector: JSON.stringify({ ...connector, connectionId }) })
    .where('id', '=', feedId)
    .execute();
  h.clock.now = (await ingestState(h, feedId)).next_poll_at;
  upstream.requests.length = 0;
  const [report] = await h.poll();
  expect(upstream.requests).toEqual([]);
  return report?.message;
}

export async function connectionOf(h: Harness, id: number) {
  const row = await findConnection(h.server.store.db, id);
  if (!row) throw new Error(`no connection ${id}`);
  return row;
}

/** The secret is in no stored post, no ingestion state (error, warning, cursor) and no connection detail. */
export async function expectSecretNowhere(h: Harness, feedId: number, connectionId: number, secret: string) {
  const texts = [
    JSON.stringify(await storedPosts(h, feedId)),
    JSON.stringify(await ingestState(h, feedId)),
    String((await connectionOf(h, connectionId)).status_detail ?? ''),
  ];
  for (const text of texts) expect(text).not.toContain(secret);
}
