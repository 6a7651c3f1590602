// Publishable keys: made, listed and revoked through the management API (and
// audited), stored hashed, and refused where they do not belong — as a
// publishable key is everywhere but the embed API, and a user key there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPublishableKey } from '../../../src/store/publishable-keys.js';
import { KEYS } from '../../helpers/http.js';
import { describeSample } from '../../helpers/sample.js';
import { embedError, startEmbedServer, type EmbedServer } from './helpers.js';

describeSample('publishable keys', () => {
  let s: EmbedServer;
  beforeAll(async () => {
    s = await startEmbedServer();
  });
  afterAll(async () => s?.close());

  it('are made with their plaintext once, stored as SHA-256 only, listed by prefix', async () => {
    const made = await s.makeKey(7011, ['https://Shop.Example:443/', 'http://localhost:8080']);
    expect(made.key).toMatch(/^pk_[A-Za-z0-9_-]{32}$/);
    expect(made.prefix).toBe(made.key.slice(0, 9));
    expect(made.origins).toEqual(['https://shop.example', 'http://localhost:8080']);
    expect(made.wallId).toBe(7011);
    const rows = await s.srv.store.db.selectFrom('publishable_keys').selectAll().where('id', '=', made.id).execute();
    expect(rows[0]!.key_hash).toBe(hashPublishableKey(made.key));
    expect(JSON.stringify(rows)).not.toContain(made.key);

    const list = await s.manage('GET', '/walls/7011/publishable-keys');
    expect(list.status).toBe(200);
    const page = list.json().responseData as { data: Record<string, unknown>[]; nextCursor: string | null };
    const listed = page.data.find((k) => k.id === made.id)!;
    expect(listed).toEqual({
      id: made.id,
      wallId: 7011,
      prefix: made.prefix,
      origins: made.origins,
      createdAt: made.createdAt,
      revokedAt: null,
    });
    expect(list.text).not.toContain(made.key);
    expect(list.text).not.toContain(hashPublishableKey(made.key));
  });

  it('refuse bad origins, every one named, and unknown walls', async () => {
    const res = await s.manage('POST', '/walls/7011/publishable-keys', {
      origins: ['https://ok.example', 'https://shop.example/path', 'javascript:alert(1)', 'ftp://x.example'],
    });
    expect(res.status).toBe(400);
    const fields = (res.json().fieldErrors as { field: string }[]).map((e) => e.field);
    expect(fields).toEqual(['origins[1]', 'origins[2]', 'origins[3]']);
    expect((await s.manage('POST', '/walls/999999/publishable-keys', {})).status).toBe(404);
    expect((await s.manage('GET', '/walls/999999/publishable-keys')).status).toBe(404);
    expect((await s.manage('POST', '/walls/7011/publishable-keys', { origins: 'x' })).status).toBe(400);
  });

  it('are audited: create and revoke, with the prefix, never the key', async () => {
    const made = await s.makeKey(7011);
    const revoked = await s.manage('DELETE', `/walls/7011/publishable-keys/${made.id}`);
    expect(revoked.status).toBe(200);
    expect((revoked.json().responseData as { revokedAt: string | null }).revokedAt).not.toBeNull();
    expect((await s.manage('DELETE', `/walls/7011/publishable-keys/${made.id}`)).status).toBe(409);
    expect((await s.manage('DELETE', `/walls/7012/publishable-keys/${made.id}`)).status).toBe(404);
    const audit = await s.manage('GET', `/audit?targetType=publishable_key&targetId=${made.id}`);
    expect(audit.status).toBe(200);
    const entries = (audit.json().responseData as { data: { action: string; tokenName: string }[] }).data;
    expect(entries.map((e) => e.action)).toEqual(['publishable_key.revoke', 'publishable_key.create']);
    expect(entries.every((e) => e.tokenName === 'embed-tests')).toBe(true);
    expect(audit.text).not.toContain(made.key);
  });

  it('go with their wall when it is purged', async () => {
    const wall = await s.manage('POST', '/walls', { accountId: 7001, name: 'Short-lived', url: 'short-lived' });
    expect(wall.status).toBe(201);
    const wallId = (wall.json().responseData as { id: number }).id;
    const made = await s.makeKey(wallId);
    expect((await s.embed(`/walls/${wallId}`, { key: made.key })).status).toBe(200);
    expect((await s.manage('DELETE', `/walls/${wallId}`)).status).toBe(200);
    embedError(await s.embed(`/walls/${wallId}`, { key: made.key }), 404);
    expect((await s.manage('POST', `/walls/${wallId}/purge`)).status).toBe(200);
    embedError(await s.embed(`/walls/${wallId}`, { key: made.key }), 401);
    const rows = await s.srv.store.db
      .selectFrom('publishable_keys')
      .select('id')
      .where('wall_id', '=', wallId)
      .execute();
    expect(rows).toEqual([]);
  });

  describe('refusals', () => {
    it('a publishable key is refused by the public API v2 and the management API', async () => {
      const { key } = await s.makeKey(7011);
      const v2 = await fetch(`${s.srv.baseUrl}/api/v2/widget/posts/7011?user_key=${key}`);
      expect(v2.status).toBe(401);
      const manage = await fetch(`${s.srv.baseUrl}/api/manage/v1/walls`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(manage.status).toBe(401);
    });

    it('the embed API refuses a user key, no key, a revoked key (at once), and a key of another wall', async () => {
      embedError(await s.embed('/walls/7011/posts', { key: KEYS.ent }), 401, /publishable key/);
      embedError(await s.embed('/walls/7011/posts'), 401);
      const made = await s.makeKey(7011);
      expect((await s.embed('/walls/7011/posts', { key: made.key })).status).toBe(200);
      await s.manage('DELETE', `/walls/7011/publishable-keys/${made.id}`);
      embedError(await s.embed('/walls/7011/posts', { key: made.key }), 401);
      const other = await s.makeKey(7013);
      embedError(await s.embed('/walls/7011/posts', { key: other.key }), 403, /another wall/);
      embedError(await s.embed('/walls/7011', { key: other.key }), 403);
    });

    it('a page whose origin the key does not allow is refused; an allowed one is echoed', async () => {
      const made = await s.makeKey(7011, ['https://shop.example']);
      const refused = await s.embed('/walls/7011/posts', { key: made.key }, { origin: 'https://evil.example' });
      embedError(refused, 403, /origin/);
      expect(refused.headers.get('access-control-allow-origin')).toBeNull();
      const allowed = await s.embed('/walls/7011/posts', { key: made.key }, { origin: 'https://shop.example' });
      expect(allowed.status).toBe(200);
      expect(allowed.headers.get('access-control-allow-origin')).toBe('https://shop.example');
      expect(allowed.headers.get('vary')).toMatch(/Origin/);
      // no Origin (a server, curl): nothing to check
      expect((await s.embed('/walls/7011/posts', { key: made.key })).status).toBe(200);
      const any = await s.makeKey(7011);
      const star = await s.embed('/walls/7011/posts', { key: any.key }, { origin: 'https://anywhere.example' });
      expect(star.headers.get('access-control-allow-origin')).toBe('*');
    });

    it('another site’s page loading the API without CORS (no Origin, Sec-Fetch-Site cross-site) is refused for an origin-bound key; Wallery’s own pages pass', async () => {
      const made = await s.makeKey(7011, ['https://shop.example']);
      const site = (fetchSite: string, origin?: string) =>
        s.embed('/walls/7011/posts', { key: made.key }, { 'sec-fetch-site': fetchSite, ...(origin ? { origin } : {}) });
      // an <iframe>, <img> or <script> of another site's page: the browser sends no Origin, but says where it came from
      for (const where of ['cross-site', 'same-site']) embedError(await site(where), 403, /origin/);
      // the hosted page and the console's preview are this origin: GET without Origin, POST with Wallery's own
      expect((await site('same-origin')).status).toBe(200);
      expect((await site('same-origin', s.srv.baseUrl)).status).toBe(200);
      // a URL typed in the address bar
      expect((await site('none')).status).toBe(200);
      // a key bound to no origin: any page
      const any = await s.makeKey(7011);
      const free = await s.embed('/walls/7011/posts', { key: any.key }, { 'sec-fetch-site': 'cross-site' });
      expect(free.status).toBe(200);
    });

    it('a deleted wall is 404; bad parameters are 400 in the envelope', async () => {
      const made = await s.makeKey(7015);
      embedError(await s.embed('/walls/7015/posts', { key: made.key }), 404);
      const { key } = await s.makeKey(7011);
      embedError(await s.embed('/walls/7011/posts', { key, limit: '0' }), 400, /limit/);
      embedError(await s.embed('/walls/7011/posts', { key, limit: '101' }), 400, /limit/);
      embedError(await s.embed('/walls/7011/posts', { key, cursor: 'bm9wZQ' }), 400, /cursor/);
      embedError(await s.embed('/walls/7011/posts', { key, cursor: '!!' }), 400, /cursor/);
    });
  });
});
