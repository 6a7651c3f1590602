// Operator authentication of the management API: Bearer tokens only.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loggerOptions } from '../../../src/http/logger.js';
import { buildServer } from '../../../src/http/server.js';
import { ChangeBus } from '../../../src/store/changes.js';
import { CLI_ACTOR } from '../../../src/manage/op.js';
import { createOperatorToken, revokeOperatorToken } from '../../../src/manage/tokens.js';
import { call, KEYS } from '../../helpers/http.js';
import { describeSample } from '../../helpers/sample.js';
import { BASE, data, failure, makeToken, startManageServer, type ManageServer } from './helpers.js';

const UNAUTHORIZED = /operator token is required/;

describeSample('management API authentication', () => {
  let m: ManageServer;
  beforeAll(async () => {
    m = await startManageServer();
  });
  afterAll(async () => m?.close());

  it('answers a valid token', async () => {
    expect(data<{ data: unknown[] }>(await m.api('GET', '/accounts')).data.length).toBeGreaterThan(0);
  });

  it('refuses a call without a token: 401 in the envelope with WWW-Authenticate', async () => {
    const res = await m.api('GET', '/accounts', undefined, null);
    failure(res, 401, UNAUTHORIZED);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="wallery-manage"');
  });

  it.each([
    ['an unknown token', 'Bearer wop_thisIsNotAToken'],
    ['a malformed header', 'Bearer'],
    ['another scheme', `Basic ${Buffer.from('a:b').toString('base64')}`],
    ['the token without a scheme', 'wop_x'],
  ])('refuses %s', async (_name, header) => {
    const res = await call(m.srv.baseUrl, `${BASE}/accounts`, { headers: { authorization: header } });
    failure(res, 401, UNAUTHORIZED);
  });

  it('refuses a user key, as a Bearer token and as user_key', async () => {
    failure(await m.api('GET', '/accounts', undefined, KEYS.ent), 401, UNAUTHORIZED);
    const res = await call(m.srv.baseUrl, `${BASE}/accounts`, { query: { user_key: KEYS.ent } });
    failure(res, 401, UNAUTHORIZED);
    // a valid token with a user_key next to it is still judged by the token alone,
    // and user_key is not a parameter of the API
    const both = await call(m.srv.baseUrl, `${BASE}/accounts`, {
      query: { user_key: KEYS.ent },
      headers: { authorization: `Bearer ${m.token}` },
    });
    expect(failure(both, 400).map((e) => e.field)).toEqual(['user_key']);
  });

  it('refuses a revoked token from the next call on, on every route and method', async () => {
    const { id, token } = await makeToken(m.srv, 'short-lived');
    data(await m.api('GET', '/walls/7011', undefined, token));
    await revokeOperatorToken({ db: m.srv.store.db, actor: CLI_ACTOR, now: m.srv.clock.now }, String(id));
    failure(await m.api('GET', '/walls/7011', undefined, token), 401, UNAUTHORIZED);
    failure(await m.api('PATCH', '/walls/7011', { name: 'x' }, token), 401, UNAUTHORIZED);
    failure(
      await m.api('POST', '/walls/7011/posts/bulk', { postIds: [17001], action: 'hide' }, token),
      401,
      UNAUTHORIZED,
    );
    // nothing was written
    expect(data<{ name: string }>(await m.api('GET', '/walls/7011')).name).not.toBe('x');
  });

  it('checks the token before the body or parameters: 401 beats 400 and 404', async () => {
    failure(await m.api('PATCH', '/walls/abc', { name: 7 }, null), 401);
    failure(await m.api('GET', '/walls/999999', undefined, null), 401);
  });

  it('keeps last_used_at to the minute and stores only the token hash', async () => {
    const { id, token } = await makeToken(m.srv, 'clocked');
    const row = () =>
      m.srv.store.db.selectFrom('operator_tokens').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect((await row()).last_used_at).toBeNull();
    const t0 = m.srv.clock.now;
    await m.api('GET', '/accounts', undefined, token);
    expect((await row()).last_used_at).toBe(t0);
    m.srv.clock.now = t0 + 30_000;
    await m.api('GET', '/accounts', undefined, token);
    expect((await row()).last_used_at).toBe(t0);
    m.srv.clock.now = t0 + 61_000;
    await m.api('GET', '/accounts', undefined, token);
    expect((await row()).last_used_at).toBe(t0 + 61_000);
    m.srv.clock.now = t0;
    const all = await m.srv.store.db.selectFrom('operator_tokens').selectAll().execute();
    expect(JSON.stringify(all)).not.toContain(token);
    expect((await row()).token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('records the token name of every write in the audit log', async () => {
    const { token } = await makeToken(m.srv, 'named-operator');
    data(await m.api('PATCH', '/accounts/7004', { name: 'Demo Free (renamed)' }, token));
    const log = data<{ data: { tokenName: string; action: string; targetId: number }[] }>(
      await m.api('GET', '/audit?targetType=account&targetId=7004'),
    ).data;
    expect(log[0]).toMatchObject({ tokenName: 'named-operator', action: 'account.update', targetId: 7004 });
  });
});

describeSample('management API secrets in logs', () => {
  it('never writes an operator token to the log', async () => {
    const m = await startManageServer();
    try {
      const lines: string[] = [];
      const stream = new Writable({
        write(chunk: Buffer, _enc, cb) {
          lines.push(chunk.toString());
          cb();
        },
      });
      const logger = { ...(loggerOptions('trace') as object), stream };
      const app = await buildServer(
        { store: m.srv.store, now: Date.now, changes: new ChangeBus() },
        { logger: logger as never },
      );
      const made = await createOperatorToken({ db: m.srv.store.db, actor: CLI_ACTOR, now: Date.now() }, 'logged');
      for (const authorization of [`Bearer ${made.token}`, 'Bearer wop_Wrong-secret-token']) {
        await app.inject({ url: `${BASE}/accounts`, headers: { authorization } });
        await app.inject({
          method: 'PATCH',
          url: `${BASE}/walls/7011`,
          headers: { authorization },
          payload: { name: 3 },
        });
      }
      await app.close();
      const log = lines.join('');
      expect(log).toContain('/api/manage/v1/accounts');
      expect(log).not.toContain(made.token);
      expect(log).not.toContain('Wrong-secret-token');
    } finally {
      await m.close();
    }
  });
});
