// What the network connector tests (X, Reddit, Tumblr, Flickr) share: a feed
// that reads with a connection of the harness's account, and the checks that
// a secret shows up nowhere the feed's poll wrote to.
import { expect } from 'vitest';
import type { ConnectionSecret } from '../../../src/connections/secrets.js';
import { findConnection } from '../../../src/store/connections.js';
import { addConnection } from '../../helpers/connections.js';
import { ACCOUNT, ingestState, storedPosts, type Harness } from '../harness.js';

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
