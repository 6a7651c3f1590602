// Webhooks through the management API, with a real receiver on 127.0.0.1:
// the secret shown once (and encrypted at rest), validation, the test
// event, approving a post → a signed post.approved, the delivery log,
// replay with the same event id, rotation, disable and delete.
import { createServer } from 'node:http';
import { createServer as createNetServer, type Server as NetServer } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { NO_ANSWER } from '../../../src/domain/delivery-outcome.js';
import type { Role } from '../../../src/domain/roles.js';
import { CLI_ACTOR } from '../../../src/manage/op.js';
import { createOperatorToken } from '../../../src/manage/tokens.js';
import type { Resolver } from '../../../src/net/guard.js';
import { WebhookRuntime } from '../../../src/webhooks/runtime.js';
import { describeSample } from '../../helpers/sample.js';
import { Receiver, verifyLikeTheGuide, WEBHOOK_CONFIG, WEBHOOK_SETTINGS } from '../../webhooks/helpers.js';
import { data, failure, fields, startManageServer, type ManageServer } from './helpers.js';

const SETTINGS = WEBHOOK_SETTINGS;
const CONFIG = WEBHOOK_CONFIG;

interface Hook {
  id: number;
  accountId: number;
  url: string;
  events: string[];
  enabled: boolean;
  state: string;
  secret?: string;
  lastEventId: string | null;
}
interface Delivery {
  id: number;
  eventId: string;
  type: string;
  attempt: number;
  status: string;
  httpStatus: number | null;
  latencyMs: number;
  error: string | null;
  replay: boolean;
}

describeSample('webhooks (management API)', () => {
  let m: ManageServer;
  let rx: Receiver;
  let worker: WebhookRuntime;
  beforeAll(async () => {
    m = await startManageServer();
    m.srv.app.ctx.webhooks = SETTINGS;
    worker = new WebhookRuntime({ db: m.srv.store.db, config: CONFIG });
  });
  afterAll(async () => {
    await worker?.stop();
    await m?.close();
  });
  beforeEach(async () => {
    rx = await new Receiver().start();
  });
  afterEach(async () => rx.close());

  const create = async (events = ['post.approved']) => {
    const made = data<Hook>(await m.api('POST', '/webhooks', { accountId: 7001, url: rx.url, events }), 201);
    rx.secret = made.secret!;
    return made;
  };

  it('creates a webhook: the secret is shown once and stored encrypted; audit entries never hold it', async () => {
    const made = await create();
    expect(made).toMatchObject({
      accountId: 7001,
      url: rx.url,
      events: ['post.approved'],
      enabled: true,
      state: 'active',
    });
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const read = data<Hook>(await m.api('GET', `/webhooks/${made.id}`));
    expect(read).not.toHaveProperty('secret');
    const { secret: _s, ...rest } = made;
    expect(read).toEqual(rest);
    const list = data<{ data: Hook[] }>(await m.api('GET', '/webhooks?accountId=7001')).data;
    expect(list.map((h) => h.id)).toContain(made.id);
    expect(JSON.stringify(list)).not.toContain(made.secret);
    const row = await m.srv.store.db
      .selectFrom('webhooks')
      .select('secret')
      .where('id', '=', made.id)
      .executeTakeFirstOrThrow();
    expect(row.secret.startsWith('gcm1:')).toBe(true);
    expect(row.secret).not.toContain(made.secret!.slice(6));
    const audit = await m.srv.store.db.selectFrom('audit_log').select(['action', 'summary']).execute();
    expect(audit.some((a) => a.action === 'webhook.create')).toBe(true);
    expect(JSON.stringify(audit)).not.toContain(made.secret);
  });

  it('refuses bad input with every bad field named', async () => {
    const bad = failure(
      await m.api('POST', '/webhooks', { accountId: 0, url: 'ftp://x.example', events: ['post.nope'] }),
      400,
    );
    expect(fields(bad).sort()).toEqual(['accountId', 'events[0]', 'url'].sort());
    expect(bad.find((e) => e.field === 'url')!.message).toMatch(/http/);
    expect(
      fields(failure(await m.api('POST', '/webhooks', { accountId: 7001, url: rx.url, events: [] }), 400)),
    ).toEqual(['events']);
    expect(
      fields(
        failure(
          await m.api('POST', '/webhooks', {
            accountId: 7001,
            url: 'https://u:p@x.example/h',
            events: ['post.hidden'],
          }),
          400,
        ),
      ),
    ).toEqual(['url']);
    expect(fields(failure(await m.api('POST', '/webhooks', { url: rx.url, events: ['post.hidden'] }), 400))).toEqual([
      'accountId',
    ]);
    failure(await m.api('POST', '/webhooks', { accountId: 999_999, url: rx.url, events: ['post.hidden'] }), 404);
    failure(await m.api('PATCH', '/webhooks/1', {}), 400);
    failure(await m.api('GET', '/webhooks/999999'), 404);
  });

  it('sends a signed webhook.test now and answers with the attempt; a failing receiver shows in it', async () => {
    const h = await create();
    const ok = data<Delivery>(await m.api('POST', `/webhooks/${h.id}/test`));
    expect(ok).toMatchObject({ type: 'webhook.test', status: 'delivered', httpStatus: 204, attempt: 1, replay: false });
    expect(rx.received).toHaveLength(1);
    expect(rx.received[0]).toMatchObject({ type: 'webhook.test', eventId: ok.eventId, verified: true });
    rx.mode = 'fail';
    const failed = data<Delivery>(await m.api('POST', `/webhooks/${h.id}/test`));
    expect(failed).toMatchObject({ status: 'failed', httpStatus: 503, error: 'the endpoint answered 503' });
    // who sent it by hand, and how it went
    const audit = await sentByHand(h.id);
    expect(audit).toEqual([
      { action: 'webhook.test', details: { eventId: ok.eventId, status: 'delivered', httpStatus: 204 } },
      { action: 'webhook.test', details: { eventId: failed.eventId, status: 'failed', httpStatus: 503 } },
    ]);
  });

  it('shows the whole URL only to who may edit the webhook; viewers, moderators and the audit log get origin and path', async () => {
    const url = `${rx.url}?token=tok_9f2a1c&tenant=7001`;
    const op = { db: m.srv.store.db, actor: CLI_ACTOR, now: m.srv.clock.now };
    const token = async (role: Role, accounts: number[] | null = null) =>
      (await createOperatorToken(op, { name: `${role}-${accounts ?? 'all'}`, role, accounts })).token;
    const [viewer, moderator, editor, scopedEditor] = [
      await token('viewer'),
      await token('moderator', [7001]),
      await token('editor'),
      await token('editor', [7001]),
    ];
    const made = data<Hook>(
      await m.api('POST', '/webhooks', { accountId: 7001, url, events: ['post.approved'] }, editor),
      201,
    );
    expect(made.url).toBe(url);
    const readAs = async (as: string) => ({
      one: data<Hook>(await m.api('GET', `/webhooks/${made.id}`, undefined, as)).url,
      listed: data<{ data: Hook[] }>(await m.api('GET', '/webhooks?accountId=7001', undefined, as)).data.find(
        (h) => h.id === made.id,
      )!.url,
    });
    for (const as of [m.token, editor, scopedEditor]) expect(await readAs(as)).toEqual({ one: url, listed: url });
    for (const as of [viewer, moderator]) {
      expect(await readAs(as)).toEqual({ one: rx.url, listed: rx.url });
      const answers = [
        await m.api('GET', `/webhooks/${made.id}`, undefined, as),
        await m.api('GET', '/webhooks', undefined, as),
        await m.api('GET', '/audit?targetType=webhook', undefined, as),
      ];
      for (const res of answers) expect(res.text).not.toContain('tok_9f2a1c');
    }
    // an editor's change and the delete: whole URLs in the answers, origin and path in the audit log
    const moved = `${rx.url}/v2?token=tok_77aa01`;
    expect(data<Hook>(await m.api('PATCH', `/webhooks/${made.id}`, { url: moved }, editor)).url).toBe(moved);
    expect(data<Hook>(await m.api('DELETE', `/webhooks/${made.id}`, undefined, editor)).url).toBe(moved);
    const stored = await m.srv.store.db
      .selectFrom('audit_log')
      .select(['action', 'summary'])
      .where('target_type', '=', 'webhook')
      .where('target_id', '=', made.id)
      .orderBy('id')
      .execute();
    expect(stored.map((a) => a.action)).toEqual(['webhook.create', 'webhook.update', 'webhook.delete']);
    expect(JSON.stringify(stored)).not.toMatch(/tok_/);
    const summaries = stored.map((a) => JSON.parse(a.summary) as { before: { url?: string }; after: { url?: string } });
    expect(summaries.map((a) => [a.before?.url, a.after?.url])).toEqual([
      [undefined, rx.url],
      [rx.url, `${rx.url}/v2`],
      [`${rx.url}/v2`, undefined],
    ]);
    // an entry written before URLs were stored so is shown so too
    await m.srv.store.db
      .insertInto('audit_log')
      .values({
        at: m.srv.clock.now,
        token_id: null,
        token_name: 'cli',
        action: 'webhook.create',
        target_type: 'webhook',
        target_id: made.id,
        account_id: 7001,
        summary: JSON.stringify({ before: null, after: { id: made.id, url } }),
      })
      .execute();
    for (const as of [viewer, m.token]) {
      const read = data<{ data: { summary: { after: { url: string } | null } }[] }>(
        await m.api('GET', `/audit?targetType=webhook&targetId=${made.id}&action=webhook.create`, undefined, as),
      );
      expect(read.data.map((e) => e.summary.after?.url)).toEqual([rx.url, rx.url]);
    }
  });

  /** Listens on a free loopback port; the port. */
  async function listen(server: NetServer): Promise<number> {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as { port: number }).port;
  }

  it('a test or replay says delivered, or failed with an HTTP status, never why no answer came', async () => {
    // a port nobody listens on (refused) and one whose server hangs up on every connection (closed)
    const gone = createServer();
    const closedPort = await listen(gone);
    await new Promise((resolve) => gone.close(resolve));
    const hangUp = createNetServer((socket) => socket.destroy());
    const hangUpPort = await listen(hangUp);
    // a name that resolves to an address the policy refuses, and one that does not resolve
    const resolve: Resolver = async (name) => {
      if (name === 'intranet.example') return [{ address: '10.0.0.7', family: 4 }];
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
    };
    m.srv.app.ctx.webhooks = { ...SETTINGS, resolve };
    try {
      const targets = [
        `http://127.0.0.1:${closedPort}/hook`,
        `http://127.0.0.1:${hangUpPort}/hook`,
        'http://intranet.example/hook',
        'http://nowhere.example/hook',
      ];
      const seen: unknown[] = [];
      for (const url of targets) {
        const h = data<Hook>(
          await m.api('POST', '/webhooks', { accountId: 7001, url, events: ['post.approved'] }),
          201,
        );
        const tested = await m.api('POST', `/webhooks/${h.id}/test`);
        const attempt = data<Delivery>(tested);
        const replayed = await m.api('POST', `/webhooks/${h.id}/deliveries/${attempt.id}/replay`);
        const log = await m.api('GET', `/webhooks/${h.id}/deliveries`);
        const read = await m.api('GET', `/webhooks/${h.id}`);
        for (const res of [tested, replayed, log, read])
          expect(res.text).not.toMatch(/ECONNREFUSED|other side closed|socket|ENOTFOUND|10\.0\.0\.7|loopback|private/i);
        const shown = (d: Delivery) => ({ status: d.status, httpStatus: d.httpStatus, error: d.error });
        expect(shown(attempt)).toEqual({ status: 'failed', httpStatus: null, error: NO_ANSWER });
        seen.push([
          shown(attempt),
          shown(data<Delivery>(replayed)),
          data<{ data: Delivery[] }>(log).data.map(shown),
          (await sentByHand(h.id)).map((a) => a.details),
        ]);
        await m.api('DELETE', `/webhooks/${h.id}`);
      }
      // refused, closed, refused by policy, not resolved: four answers alike
      expect(new Set(seen.map((s) => JSON.stringify(s).replace(/"evt_test_[0-9a-f]+"/g, '"evt"'))).size).toBe(1);
    } finally {
      m.srv.app.ctx.webhooks = SETTINGS;
      await new Promise((resolve) => hangUp.close(resolve));
    }
  });

  it('refuses, at create and change, an address in the URL that WEBHOOK_ALLOW_PRIVATE_NETWORKS does not allow', async () => {
    m.srv.app.ctx.webhooks = { ...SETTINGS, allowPrivateNetworks: false };
    try {
      for (const [url, range] of [
        ['http://127.0.0.1:9/hook', 'loopback'],
        ['http://localhost:9/hook', 'loopback'],
        ['http://[::1]:9/hook', 'loopback'],
        ['http://10.1.2.3/hook', 'private'],
        ['http://169.254.169.254/latest/meta-data', 'linkLocal'],
      ]) {
        const bad = failure(await m.api('POST', '/webhooks', { accountId: 7001, url, events: ['post.approved'] }), 400);
        expect(bad).toEqual([{ field: 'url', message: expect.stringContaining(`a ${range} address`) }]);
        expect(bad[0]!.message).toMatch(/WEBHOOK_ALLOW_PRIVATE_NETWORKS/);
      }
      // a name is not resolved when the webhook is made (the guard checks every address when sending)
      const h = data<Hook>(
        await m.api('POST', '/webhooks', {
          accountId: 7001,
          url: 'https://hooks.example.com/wallery',
          events: ['post.approved'],
        }),
        201,
      );
      expect(
        fields(failure(await m.api('PATCH', `/webhooks/${h.id}`, { url: 'http://127.0.0.1:9/hook' }), 400)),
      ).toEqual(['url']);
      await m.api('DELETE', `/webhooks/${h.id}`);
    } finally {
      m.srv.app.ctx.webhooks = SETTINGS;
    }
    // where the setting allows loopback, it may be used
    const allowed = await m.api('POST', '/webhooks', {
      accountId: 7001,
      url: 'http://127.0.0.1:9/hook',
      events: ['post.approved'],
    });
    await m.api('DELETE', `/webhooks/${data<Hook>(allowed, 201).id}`);
  });

  /** The audit entries of events sent by hand to the webhook, oldest first. */
  async function sentByHand(id: number) {
    const rows = await m.srv.store.db
      .selectFrom('audit_log')
      .select(['action', 'summary'])
      .where('target_type', '=', 'webhook')
      .where('target_id', '=', id)
      .where('action', 'in', ['webhook.test', 'webhook.replay'])
      .orderBy('id')
      .execute();
    return rows.map((r) => {
      const { eventId, status, httpStatus } = JSON.parse(r.summary) as Record<string, unknown>;
      return { action: r.action, details: { eventId, status, httpStatus } };
    });
  }

  it('approving a post sends a signed post.approved; the delivery log shows it; a replay sends the same event id', async () => {
    const h = await create(['post.approved']);
    data(await m.api('PATCH', '/walls/7011/posts/17040', { state: 'pending' }));
    data(await m.api('PATCH', '/walls/7011/posts/17040', { state: 'approved' }));
    await worker.runOnce();
    expect(rx.received.map((r) => [r.type, r.verified])).toEqual([['post.approved', true]]);
    const sent = rx.received[0]!;
    expect(sent.body).toMatchObject({
      type: 'post.approved',
      data: { wallId: 7011, postId: '17040', post: { id: '17040' } },
    });
    const log = data<{ data: Delivery[]; nextCursor: string | null }>(
      await m.api('GET', `/webhooks/${h.id}/deliveries`),
    );
    expect(log.data).toHaveLength(1);
    expect(log.data[0]).toMatchObject({
      eventId: sent.eventId,
      type: 'post.approved',
      status: 'delivered',
      httpStatus: 204,
    });
    expect(log.data[0]!.latencyMs).toBeGreaterThanOrEqual(0);
    expect(data<Hook>(await m.api('GET', `/webhooks/${h.id}`)).lastEventId).toBe(sent.eventId);
    const replayed = data<Delivery>(await m.api('POST', `/webhooks/${h.id}/deliveries/${log.data[0]!.id}/replay`));
    expect(replayed).toMatchObject({ eventId: sent.eventId, replay: true, status: 'delivered', attempt: 2 });
    expect(rx.ids()).toEqual([sent.eventId, sent.eventId]);
    expect(rx.received[1]!.verified).toBe(true);
    expect(await sentByHand(h.id)).toEqual([
      { action: 'webhook.replay', details: { eventId: sent.eventId, status: 'delivered', httpStatus: 204 } },
    ]);
    failure(await m.api('POST', `/webhooks/${h.id}/deliveries/999999/replay`), 404);
    // paged, newest first
    const page = data<{ data: Delivery[]; nextCursor: string | null }>(
      await m.api('GET', `/webhooks/${h.id}/deliveries?limit=1`),
    );
    expect(page.data[0]!.replay).toBe(true);
    const next = data<{ data: Delivery[] }>(
      await m.api('GET', `/webhooks/${h.id}/deliveries?limit=1&cursor=${page.nextCursor}`),
    );
    expect(next.data[0]!.replay).toBe(false);
  });

  it('rotates the secret, changes, disables and deletes a webhook', async () => {
    const h = await create();
    const rotated = data<Hook>(await m.api('POST', `/webhooks/${h.id}/rotate-secret`));
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(h.secret);
    rx.secret = rotated.secret!;
    data(await m.api('POST', `/webhooks/${h.id}/test`));
    expect(rx.received[0]!.verified).toBe(true);
    // for a day the old secret signs too (a second v1): a receiver not yet switched still verifies
    const sig = String(rx.received[0]!.headers['wallery-signature']);
    expect(sig.match(/v1=/g)).toHaveLength(2);
    expect(verifyLikeTheGuide(h.secret!, sig, JSON.stringify(rx.received[0]!.body))).toBe(true);
    m.srv.clock.now += 24 * 3_600_000 + 1;
    try {
      data(await m.api('POST', `/webhooks/${h.id}/test`));
    } finally {
      m.srv.clock.now -= 24 * 3_600_000 + 1;
    }
    expect(String(rx.received[1]!.headers['wallery-signature']).match(/v1=/g)).toHaveLength(1);
    rx.received.splice(1);
    const changed = data<Hook>(
      await m.api('PATCH', `/webhooks/${h.id}`, { events: ['post.hidden', 'wall.deleted'], enabled: false }),
    );
    expect(changed).toMatchObject({ events: ['post.hidden', 'wall.deleted'], enabled: false });
    // disabled: an event is not sent
    data(await m.api('PATCH', '/walls/7011/posts/17043', { hidden: true }));
    await worker.runOnce();
    expect(rx.received).toHaveLength(1);
    // enabled again: from the cursor
    data(await m.api('PATCH', `/webhooks/${h.id}`, { enabled: true }));
    await worker.runOnce();
    expect(rx.received.map((r) => r.type)).toEqual(['webhook.test', 'post.hidden']);
    expect(data<Hook>(await m.api('DELETE', `/webhooks/${h.id}`)).id).toBe(h.id);
    failure(await m.api('GET', `/webhooks/${h.id}`), 404);
  });

  it('rotates with expireOldNow: from the next delivery only the new secret signs', async () => {
    const h = await create();
    // a rotation with the overlap first: two secrets in force…
    const overlapping = data<Hook>(await m.api('POST', `/webhooks/${h.id}/rotate-secret`, {}));
    // …then the leak: neither of them signs any more
    const fresh = data<Hook>(await m.api('POST', `/webhooks/${h.id}/rotate-secret`, { expireOldNow: true }));
    expect(fresh.secret).toMatch(/^whsec_/);
    rx.secret = fresh.secret!;
    const sent = data<Delivery>(await m.api('POST', `/webhooks/${h.id}/test`));
    expect(sent.status).toBe('delivered');
    const got = rx.received[0]!;
    const sig = String(got.headers['wallery-signature']);
    expect(sig.match(/v1=/g)).toHaveLength(1);
    expect(got.verified).toBe(true);
    for (const old of [h.secret!, overlapping.secret!])
      expect(verifyLikeTheGuide(old, sig, JSON.stringify(got.body))).toBe(false);
    // who revoked, in the audit log
    const audit = await m.srv.store.db
      .selectFrom('audit_log')
      .select('summary')
      .where('action', '=', 'webhook.rotate_secret')
      .where('target_id', '=', h.id)
      .orderBy('id')
      .execute();
    expect(audit.map((a) => (JSON.parse(a.summary) as { expireOldNow: boolean }).expireOldNow)).toEqual([false, true]);
    expect(JSON.stringify(audit)).not.toContain('whsec_');
    // a body that is not the option is named
    expect(
      fields(
        failure(await m.api('POST', `/webhooks/${h.id}/rotate-secret`, { expireOldNow: 'yes', now: 1 }), 400),
      ).sort(),
    ).toEqual(['expireOldNow', 'now']);
  });
});
