// No cache entry outlives its TTL: when the announcement of a change is lost,
// a revoked key or a changed read is still gone once the TTL has passed.
// Clocks are injected, so nothing here waits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyCache } from '../../src/http/key-cache.js';
import { ResponseCache } from '../../src/http/v2/response-cache.js';
import { ChangeBus } from '../../src/store/changes.js';
import { createUserKey, revokeUserKey } from '../../src/store/keys.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const TTL = 5000;

describe('key cache', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    await server.store.db
      .insertInto('accounts')
      .values({ id: 1, name: 'A', plan: 'enterprise', daily_call_limit: 10, created_at: 0 })
      .execute();
  });
  afterAll(() => server?.close());

  it('stops accepting a key revoked without a word within the TTL, counted from the lookup', async () => {
    const clock = { now: 1_000_000 };
    const keys = new KeyCache(new ChangeBus(), { ttlMs: TTL, clock: () => clock.now });
    const key = await createUserKey(server.store.db, 1, 0);
    expect(await keys.lookup(server.store.db, key)).toMatchObject({ accountId: 1 });
    // revoked in the store; no change is announced (a lost notification)
    expect(await revokeUserKey(server.store.db, key, 1)).toBe(true);
    clock.now += TTL - 1;
    expect(await keys.lookup(server.store.db, key)).toMatchObject({ accountId: 1 }); // still the cached answer
    clock.now += 2;
    expect(await keys.lookup(server.store.db, key)).toBeNull();
    keys.close();
  });

  it('still drops an account’s keys at once when the change is announced', async () => {
    const bus = new ChangeBus();
    const keys = new KeyCache(bus, { ttlMs: TTL, clock: () => 1_000_000 });
    const key = await createUserKey(server.store.db, 1, 0);
    expect(await keys.lookup(server.store.db, key)).not.toBeNull();
    await revokeUserKey(server.store.db, key, 1);
    bus.accountChanged(1);
    expect(await keys.lookup(server.store.db, key)).toBeNull();
    keys.close();
  });
});

describe('response cache', () => {
  const entry = { body: Buffer.from('{"a":1}'), contentType: 'application/json', wallId: 7, accountId: 1 };

  it('forgets an entry once the TTL has passed since the answer was started', () => {
    const clock = { now: 1_000_000 };
    const cache = new ResponseCache(new ChangeBus(), { maxBytes: 1 << 20, ttlMs: TTL, clock: () => clock.now });
    const start = cache.now();
    clock.now += 300; // building the answer took this long
    cache.set('k', entry, start);
    clock.now += TTL - 301;
    expect(cache.get('k')).toBeDefined();
    clock.now += 2;
    expect(cache.get('k')).toBeUndefined();
    // its index went with it: a later announcement finds nothing to drop
    cache.invalidate({ kind: 'wall', wallId: 7 });
    expect(cache.size).toBe(0);
    cache.close();
  });
});
