// `wallery webhooks …`: real processes on a real SQLite file, a real receiver
// on 127.0.0.1. The secret is printed once (and encrypted at rest with
// WEBHOOK_SECRET_KEY); test, deliveries and replay work from the CLI alone.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_ANSWER } from '../../src/domain/delivery-outcome.js';
import { runCli } from '../helpers/cli.js';
import { hasSampleData, SAMPLE_DATA_PATH, SKIP_NO_SAMPLE } from '../helpers/server.js';
import { Receiver, verifyLikeTheGuide } from '../webhooks/helpers.js';

const ENV = {
  WEBHOOK_SECRET_KEY: Buffer.alloc(32, 3).toString('base64'),
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: '127.0.0.0/8',
};

describe.skipIf(!hasSampleData)(`wallery webhooks (${hasSampleData ? 'sample data' : SKIP_NO_SAMPLE})`, () => {
  let dir: string;
  let db: string;
  let rx: Receiver;
  const cli = (...args: string[]) => runCli([...args, '--database', db], ENV);
  const json = async (...args: string[]) => {
    const r = await cli(...args, '--json');
    expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return JSON.parse(r.stdout) as Record<string, unknown>;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wallery-cli-webhooks-'));
    db = join(dir, 'wallery.db');
    expect((await runCli(['import', SAMPLE_DATA_PATH, '--database', db])).code).toBe(0);
    rx = await new Receiver().start();
  });
  afterAll(async () => {
    await rx?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists its commands', async () => {
    const r = await runCli(['webhooks', '--help']);
    expect(r.code).toBe(0);
    const listed = [...r.stdout.matchAll(/^ {2}([\w-]+)(?: |$)/gm)].map((x) => x[1]).filter((c) => c !== 'help');
    expect(listed).toEqual([
      'list',
      'create',
      'get',
      'update',
      'delete',
      'rotate-secret',
      'test',
      'deliveries',
      'replay',
    ]);
  });

  it('create (secret once), list, get, test, deliveries, replay, update, delete', async () => {
    const made = await cli(
      'webhooks',
      'create',
      '--account',
      '7001',
      '--url',
      rx.url,
      '--events',
      'post.approved,post.hidden',
      '--json',
    );
    expect(made.code, made.stderr).toBe(0);
    expect(made.stderr).toMatch(/shown this once/);
    const hook = JSON.parse(made.stdout) as { id: number; secret: string; events: string[] };
    expect(hook.secret).toMatch(/^whsec_/);
    expect(hook.events).toEqual(['post.approved', 'post.hidden']);
    rx.secret = hook.secret;
    const id = String(hook.id);

    const list = await cli('webhooks', 'list', '--account', '7001');
    expect(list.stdout).toMatch(/^id\s+accountId\s+url\s+events\s+enabled\s+state/);
    expect(list.stdout).toContain(rx.url);
    expect(list.stdout).not.toContain(hook.secret);
    expect(await json('webhooks', 'get', id)).not.toHaveProperty('secret');

    const tested = await json('webhooks', 'test', id);
    expect(tested).toMatchObject({ type: 'webhook.test', status: 'delivered', httpStatus: 204 });
    expect(rx.received.map((r) => [r.type, r.verified])).toEqual([['webhook.test', true]]);

    const log = (await json('webhooks', 'deliveries', id)) as { data: { id: number; eventId: string }[] };
    expect(log.data).toHaveLength(1);
    const replayed = await json('webhooks', 'replay', id, String(log.data[0]!.id));
    expect(replayed).toMatchObject({ eventId: log.data[0]!.eventId, replay: true, status: 'delivered' });
    expect(rx.ids()).toEqual([log.data[0]!.eventId, log.data[0]!.eventId]);

    expect(await json('webhooks', 'update', id, '--disable', '--events', 'post.deleted')).toMatchObject({
      enabled: false,
      events: ['post.deleted'],
    });
    expect(await json('webhooks', 'update', id, '--enable')).toMatchObject({ enabled: true, state: 'active' });

    rx.mode = 'fail';
    const failed = await cli('webhooks', 'test', id);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/failed/);

    expect((await cli('webhooks', 'delete', id)).stdout).toBe(`webhook ${id} deleted\n`);
    const gone = await cli('webhooks', 'get', id);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toBe(`wallery: webhook ${id} not found\n`);
  });

  it('with only INGEST_ALLOW_PRIVATE_NETWORKS, a receiver on loopback is refused when made and when sent to', async () => {
    rx.mode = 'ok';
    const ingestOnly = { WEBHOOK_SECRET_KEY: ENV.WEBHOOK_SECRET_KEY, INGEST_ALLOW_PRIVATE_NETWORKS: '127.0.0.0/8' };
    const create = ['webhooks', 'create', '--account', '7001', '--url', rx.url, '--events', 'post.approved'];
    const refused = await runCli([...create, '--database', db], ingestOnly);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/url points to a loopback address/);
    const made = (await json(...create)) as { id: number; secret: string };
    rx.secret = made.secret;
    const before = rx.received.length;
    const sent = await runCli(['webhooks', 'test', String(made.id), '--json', '--database', db], ingestOnly);
    expect(sent.code).toBe(1);
    expect(rx.received).toHaveLength(before);
    // the attempt says no more than that no answer came; the operator's stderr says why
    expect(JSON.parse(sent.stdout)).toMatchObject({ status: 'failed', httpStatus: null, error: NO_ANSWER });
    expect(sent.stderr).toBe(`wallery: webhook ${made.id}: no HTTP answer: refused: 127.0.0.1 is a loopback address\n`);
    // with WEBHOOK_ALLOW_PRIVATE_NETWORKS it delivers
    expect(await json('webhooks', 'test', String(made.id))).toMatchObject({ status: 'delivered', httpStatus: 204 });
    expect((await cli('webhooks', 'delete', String(made.id))).code).toBe(0);
  });

  it('rotate-secret --expire-old-now: only the new secret signs from the next delivery', async () => {
    rx.mode = 'ok';
    // the CLI is the operator's: a URL is shown whole, its query too
    const url = `${rx.url}?token=tok_cli_3`;
    const made = (await json('webhooks', 'create', '--account', '7001', '--url', url, '--events', 'post.approved')) as {
      id: number;
      secret: string;
    };
    const id = String(made.id);
    expect(await json('webhooks', 'get', id)).toMatchObject({ url });
    expect((await cli('webhooks', 'list', '--account', '7001')).stdout).toContain(url);
    const signatures = async () => {
      const tested = await json('webhooks', 'test', id);
      expect(tested).toMatchObject({ status: 'delivered' });
      const got = rx.received.at(-1)!;
      return { got, sig: String(got.headers['wallery-signature']) };
    };
    // a plain rotation: the old secret signs too, for a day
    const rotated = (await json('webhooks', 'rotate-secret', id)) as { secret: string };
    rx.secret = rotated.secret;
    expect((await signatures()).sig.match(/v1=/g)).toHaveLength(2);
    // the secret leaked: no old one signs any more
    const revoked = await cli('webhooks', 'rotate-secret', id, '--expire-old-now', '--json');
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stderr).toMatch(/shown this once/);
    rx.secret = (JSON.parse(revoked.stdout) as { secret: string }).secret;
    const { got, sig } = await signatures();
    expect(sig.match(/v1=/g)).toHaveLength(1);
    expect(got.verified).toBe(true);
    for (const old of [made.secret, rotated.secret])
      expect(verifyLikeTheGuide(old, sig, JSON.stringify(got.body))).toBe(false);
    expect((await cli('webhooks', 'delete', id)).code).toBe(0);
  });

  it('refuses bad options with every problem named', async () => {
    const r = await cli('webhooks', 'create', '--account', '7001', '--url', 'ftp://x', '--events', 'post.nope');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/url must/);
    expect(r.stderr).toMatch(/each event must be one of/);
  });
});
