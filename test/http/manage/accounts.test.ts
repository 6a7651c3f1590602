// Accounts, usage and user keys through the management API, observed
// through the public API v2.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { KEYS, MSG } from '../../helpers/http.js';
import { describeSample, NOW } from '../../helpers/sample.js';
import { data, failure, startManageServer, type ManageServer } from './helpers.js';

interface Account {
  id: number;
  name: string;
  plan: string;
  dailyCallLimit: number;
  createdAt: string;
}
interface Key {
  id: number;
  accountId: number;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  key?: string;
}
interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

describeSample('accounts, usage and keys', () => {
  let m: ManageServer;
  beforeAll(async () => {
    m = await startManageServer();
  });
  afterAll(async () => m?.close());

  it('lists accounts oldest first, page by page with an opaque cursor', async () => {
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Page<Account> = data(await m.api('GET', `/accounts?limit=2${cursor ? `&cursor=${cursor}` : ''}`));
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data.map((a) => a.id));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== null && pages < 10);
    expect(seen.slice(0, 5)).toEqual([7001, 7002, 7003, 7004, 7005]);
    expect(new Set(seen).size).toBe(seen.length);
    expect(pages).toBeGreaterThanOrEqual(3);
    const all: Page<Account> = data(await m.api('GET', '/accounts'));
    expect(all.nextCursor).toBeNull();
    expect(all.data.map((a) => a.id)).toEqual(seen);
    expect(all.data[0]).toEqual({
      id: 7001,
      name: 'Demo Outdoor',
      plan: 'enterprise',
      dailyCallLimit: 10000000,
      createdAt: new Date(NOW).toISOString(),
    });
  });

  it('refuses a cursor it did not make', async () => {
    const errors = failure(await m.api('GET', '/accounts?cursor=bm9wZQ'), 400);
    expect(errors).toEqual([{ field: 'cursor', message: 'cursor is not one this API returned' }]);
  });

  it('creates, reads, changes and deletes an account', async () => {
    const made: Account = data(await m.api('POST', '/accounts', { name: 'Harbour Festival', plan: 'widget' }), 201);
    expect(made).toMatchObject({ name: 'Harbour Festival', plan: 'widget', dailyCallLimit: 1000 });
    expect(data(await m.api('GET', `/accounts/${made.id}`))).toEqual(made);
    const changed: Account = data(
      await m.api('PATCH', `/accounts/${made.id}`, { plan: 'enterprise', dailyCallLimit: 5 }),
    );
    expect(changed).toEqual({ ...made, plan: 'enterprise', dailyCallLimit: 5 });
    expect(data(await m.api('DELETE', `/accounts/${made.id}`))).toEqual(changed);
    failure(await m.api('GET', `/accounts/${made.id}`), 404, `account ${made.id} not found`);
    failure(await m.api('DELETE', `/accounts/${made.id}`), 404);
    failure(await m.api('PATCH', '/accounts/424242', { name: 'x' }), 404, 'account 424242 not found');
  });

  it('refuses to delete an account that still has walls', async () => {
    failure(await m.api('DELETE', '/accounts/7002'), 409, /still has walls/);
    expect(data<Account>(await m.api('GET', '/accounts/7002')).id).toBe(7002);
    expect((await m.v2('/widget/wallInfo/7013', {}, KEYS.wid)).status).toBe(200);
  });

  it('a plan change takes effect on the next public call', async () => {
    expect((await m.v2('/commerce/getGalleryInfo/7014', {}, KEYS.com)).status).toBe(200);
    data(await m.api('PATCH', '/accounts/7003', { plan: 'widget' }));
    expect((await m.v2('/commerce/getGalleryInfo/7014', {}, KEYS.com)).status).toBe(401);
    expect((await m.v2('/widget/wallInfo/7014', {}, KEYS.com)).status).toBe(200);
    data(await m.api('PATCH', '/accounts/7003', { plan: 'commerce' }));
    expect((await m.v2('/commerce/getGalleryInfo/7014', {}, KEYS.com)).status).toBe(200);
  });

  it('a daily call limit change takes effect on the next public call', async () => {
    const made: Account = data(
      await m.api('POST', '/accounts', { name: 'Tiny', plan: 'widget', dailyCallLimit: 0 }),
      201,
    );
    const key: Key = data(await m.api('POST', `/accounts/${made.id}/keys`), 201);
    const wall = data<{ id: number }>(await m.api('POST', '/walls', { accountId: made.id, name: 'W', url: 'w' }), 201);
    expect((await m.v2(`/widget/wallInfo/${wall.id}`, {}, key.key)).status).toBe(429);
    data(await m.api('PATCH', `/accounts/${made.id}`, { dailyCallLimit: 100 }));
    const res = await m.v2(`/widget/wallInfo/${wall.id}`, {}, key.key);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toBe('100');
  });

  it('reports calls per UTC day for the last 30 days', async () => {
    const made: Account = data(await m.api('POST', '/accounts', { name: 'Counted', plan: 'widget' }), 201);
    const key: Key = data(await m.api('POST', `/accounts/${made.id}/keys`), 201);
    const wall = data<{ id: number }>(
      await m.api('POST', '/walls', { accountId: made.id, name: 'W', url: 'counted' }),
      201,
    );
    const day = 86_400_000;
    let usage: { accountId: number; dailyCallLimit: number; days: { day: string; calls: number }[] };
    try {
      m.srv.clock.now = NOW - 2 * day;
      for (let i = 0; i < 3; i++) await m.v2(`/widget/wallInfo/${wall.id}`, {}, key.key);
      m.srv.clock.now = NOW;
      for (let i = 0; i < 2; i++) await m.v2(`/widget/posts/${wall.id}`, {}, key.key);
      await m.v2('/widget/posts/999999', {}, key.key); // a 404 counts too
      // the first call of a new day settles the days before it (the quota
      // counter may hold calls of the current day reserved ahead)
      m.srv.clock.now = NOW + day;
      await m.v2(`/widget/wallInfo/${wall.id}`, {}, key.key);
      usage = data(await m.api('GET', `/accounts/${made.id}/usage`));
    } finally {
      m.srv.clock.now = NOW;
    }
    expect(usage.accountId).toBe(made.id);
    expect(usage.dailyCallLimit).toBe(1000);
    expect(usage.days).toHaveLength(30);
    expect(usage.days[0]!.day).toBe('2025-12-18');
    expect(usage.days[29]!.day).toBe('2026-01-16');
    expect(usage.days[28]).toEqual({ day: '2026-01-15', calls: 3 });
    expect(usage.days[26]).toEqual({ day: '2026-01-13', calls: 3 });
    expect(usage.days[29]!.calls).toBe(1); // what was answered, not what the quota counter reserved ahead
    expect(usage.days.slice(0, 26).every((d) => d.calls === 0)).toBe(true);
    failure(await m.api('GET', '/accounts/424242/usage'), 404);
  });

  it('makes a user key shown once that works on the public API, lists it by prefix, revokes it', async () => {
    const made: Key = data(await m.api('POST', '/accounts/7002/keys'), 201);
    expect(made.key).toMatch(/^wk_[A-Za-z0-9_-]{32}$/);
    expect(made).toMatchObject({ accountId: 7002, prefix: made.key!.slice(0, 8), lastUsedAt: null, revokedAt: null });
    expect((await m.v2('/widget/wallInfo/7013', {}, made.key)).status).toBe(200);

    const listed: Page<Key> = data(await m.api('GET', '/accounts/7002/keys'));
    const row = listed.data.find((k) => k.id === made.id)!;
    expect(row).not.toHaveProperty('key');
    expect(row.lastUsedAt).toBe(new Date(NOW).toISOString());
    expect(JSON.stringify(listed)).not.toContain(made.key);
    expect(data(await m.api('GET', `/accounts/7002/keys/${made.id}`))).toEqual(row);

    const revoked: Key = data(await m.api('DELETE', `/accounts/7002/keys/${made.id}`));
    expect(revoked.revokedAt).toBe(new Date(NOW).toISOString());
    const after = await m.v2('/widget/wallInfo/7013', {}, made.key);
    expect(after.status).toBe(401);
    expect(after.json().responseMessage).toBe(MSG.unauthorized);
    failure(await m.api('DELETE', `/accounts/7002/keys/${made.id}`), 409, /already revoked/);
    // a key is only found under its own account
    failure(await m.api('GET', `/accounts/7001/keys/${made.id}`), 404);
    failure(await m.api('POST', '/accounts/424242/keys'), 404);
  });

  it('tracks a key’s last use to the minute, not on every call', async () => {
    const made: Key = data(await m.api('POST', '/accounts/7002/keys'), 201);
    const lastUsed = async () => data<Key>(await m.api('GET', `/accounts/7002/keys/${made.id}`)).lastUsedAt;
    try {
      await m.v2('/widget/wallInfo/7013', {}, made.key);
      expect(await lastUsed()).toBe(new Date(NOW).toISOString());
      m.srv.clock.now = NOW + 59_000;
      await m.v2('/widget/wallInfo/7013', {}, made.key);
      expect(await lastUsed()).toBe(new Date(NOW).toISOString());
      m.srv.clock.now = NOW + 60_000;
      await m.v2('/widget/wallInfo/7013', {}, made.key);
      expect(await lastUsed()).toBe(new Date(NOW + 60_000).toISOString());
    } finally {
      m.srv.clock.now = NOW;
    }
  });

  it('announces account changes to the change bus', async () => {
    const changes = await m.changesDuring(async () => {
      data(await m.api('PATCH', '/accounts/7005', { dailyCallLimit: 6 }));
      const key: Key = data(await m.api('POST', '/accounts/7005/keys'), 201);
      data(await m.api('DELETE', `/accounts/7005/keys/${key.id}`));
    });
    expect(changes).toEqual([
      { kind: 'account', accountId: 7005 },
      { kind: 'account', accountId: 7005 },
      { kind: 'account', accountId: 7005 },
    ]);
  });
});
