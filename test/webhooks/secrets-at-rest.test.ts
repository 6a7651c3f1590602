// Webhook signing secrets at rest when a process starts: without
// WEBHOOK_SECRET_KEY, one warning line while webhooks exist (serve, start and
// the worker say it); with it, the secrets stored in plain text before are
// encrypted, the one kept after a rotation too, and sign as before. On the
// project's store (SQLite, and PostgreSQL in the postgres project).
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openSecret } from '../../src/domain/secret-box.js';
import { createAccount } from '../../src/manage/accounts.js';
import { CLI_ACTOR } from '../../src/manage/op.js';
import { createWebhook, rotateWebhookSecret } from '../../src/manage/webhooks.js';
import { replaceStoredSecrets } from '../../src/store/webhooks.js';
import { secureStoredSecrets } from '../../src/webhooks/secrets-at-rest.js';
import { startCli } from '../helpers/cli.js';
import { makeTempDir, removeDir } from '../helpers/server.js';
import { openTestStore, type TestStore } from '../helpers/store.js';

const KEY = Buffer.alloc(32, 11);
const NO_KEY = { secretKey: null, allowPrivateNetworks: false as const };
const WARNING = /WEBHOOK_SECRET_KEY is not set: the signing secrets of (\d+) webhook\(s\) are stored in plain text/;

let dir: string;
let ts: TestStore;
let accountId: number;
const op = () => ({ db: ts.store.db, actor: CLI_ACTOR, now: Date.now() });

/** What a log was told. */
function recorder() {
  const lines: { level: 'info' | 'warn'; msg: string }[] = [];
  return {
    lines,
    info: (_: object, msg?: string) => void lines.push({ level: 'info', msg: msg ?? '' }),
    warn: (_: object, msg?: string) => void lines.push({ level: 'warn', msg: msg ?? '' }),
  };
}

/** A webhook made without a key, its secret as given; rotated once: the one before is kept too. */
async function plainHook(rotated = false): Promise<{ id: number; secrets: string[] }> {
  const url = 'https://hooks.example.com/wallery';
  const made = await createWebhook(op(), { accountId, url, events: ['post.approved'] }, NO_KEY);
  if (!rotated) return { id: made.id, secrets: [made.secret] };
  const next = await rotateWebhookSecret(op(), made.id, NO_KEY);
  return { id: made.id, secrets: [next.secret, made.secret] };
}

const stored = (id: number) =>
  ts.store.db
    .selectFrom('webhooks')
    .select(['secret', 'previous_secret'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

beforeAll(async () => {
  dir = makeTempDir();
  ts = await openTestStore(dir);
});
afterAll(async () => {
  await ts?.close();
  removeDir(dir);
});
beforeEach(async () => {
  await ts.store.db.deleteFrom('webhook_deliveries').execute();
  await ts.store.db.deleteFrom('webhooks').execute();
  await ts.store.db.deleteFrom('accounts').execute();
  accountId = (await createAccount(op(), { name: 'Harbor Books', plan: 'enterprise', dailyCallLimit: 1000 })).id;
});

describe('webhook secrets at rest', () => {
  it('without WEBHOOK_SECRET_KEY: one warning while webhooks exist, and nothing is changed', async () => {
    const quiet = recorder();
    expect(await secureStoredSecrets(ts.store.db, null, quiet)).toEqual({ sealed: 0, plain: 0 });
    expect(quiet.lines).toEqual([]);
    const hooks = [await plainHook(), await plainHook(true)];
    const told = recorder();
    expect(await secureStoredSecrets(ts.store.db, null, told)).toEqual({ sealed: 0, plain: 2 });
    expect(told.lines).toEqual([{ level: 'warn', msg: expect.stringMatching(WARNING) }]);
    expect(told.lines[0]!.msg).toMatch(/of 2 webhook\(s\).*backups.*openssl rand -base64 32/);
    for (const h of hooks) expect((await stored(h.id)).secret).toMatch(/^plain:/);
  });

  it('with the key: the plain secrets are encrypted, the one kept after a rotation too, and read as before; twice is once', async () => {
    const hooks = [await plainHook(), await plainHook(true)];
    const told = recorder();
    expect(await secureStoredSecrets(ts.store.db, KEY, told)).toEqual({ sealed: 2, plain: 0 });
    expect(told.lines).toEqual([
      { level: 'info', msg: 'encrypted the plain-text signing secrets of 2 webhook(s) with WEBHOOK_SECRET_KEY' },
    ]);
    for (const h of hooks) {
      const row = await stored(h.id);
      const now = [row.secret, row.previous_secret].filter((s) => s !== null);
      expect(now).toHaveLength(h.secrets.length);
      for (const s of now) expect(s).toMatch(/^gcm1:/);
      expect(now.map((s) => openSecret(s, KEY))).toEqual(h.secrets);
      expect(JSON.stringify(row)).not.toContain(h.secrets[0]!.slice(6));
    }
    const again = recorder();
    expect(await secureStoredSecrets(ts.store.db, KEY, again)).toEqual({ sealed: 0, plain: 0 });
    expect(again.lines).toEqual([]);
  });

  it('never undoes a change made between its read and its write', async () => {
    const h = await plainHook();
    const read = await stored(h.id);
    // a rotation meanwhile
    const rotated = await rotateWebhookSecret(op(), h.id, { secretKey: KEY });
    expect(await replaceStoredSecrets(ts.store.db, h.id, read, { secret: 'gcm1:x', previous_secret: null })).toBe(
      false,
    );
    expect(openSecret((await stored(h.id)).secret, KEY)).toBe(rotated.secret);
  });

  it('serve and the worker warn once at start without the key; started with it, they encrypt', async () => {
    const h = await plainHook();
    const children: ChildProcess[] = [];
    const run = async (args: string[], env: Record<string, string>, ready: RegExp) => {
      const { child, output } = await startCli(
        [...args, '--database', ts.database],
        { LOG_LEVEL: 'info', ...env },
        ready,
      );
      children.push(child);
      child.kill('SIGTERM');
      await once(child, 'exit');
      return output();
    };
    try {
      const serve = ['serve', '--port', '0', '--host', '127.0.0.1'];
      for (const [args, ready] of [
        [serve, /wallery listening/],
        [['worker'], /wallery worker: polling/],
      ] as const) {
        const out = await run([...args], {}, ready);
        expect(
          [...out.matchAll(new RegExp(WARNING, 'g'))].map((m) => m[1]),
          out,
        ).toEqual(['1']);
      }
      expect((await stored(h.id)).secret).toMatch(/^plain:/);
      const sealedBy = await run(['worker'], { WEBHOOK_SECRET_KEY: KEY.toString('base64') }, /wallery worker: polling/);
      expect(sealedBy).toMatch(/encrypted the plain-text signing secrets of 1 webhook\(s\) with WEBHOOK_SECRET_KEY/);
      expect(sealedBy).not.toMatch(WARNING);
      const row = await stored(h.id);
      expect(openSecret(row.secret, KEY)).toBe(h.secrets[0]);
    } finally {
      for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    }
  });
});
