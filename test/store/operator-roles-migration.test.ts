// Migration 0010 on a store made before it: every operator token becomes an
// admin of every account (as it was), and the audit entries already written
// get the account of their target where that still exists.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOperator, generateOperatorToken, listOperatorTokens } from '../../src/manage/tokens.js';
import { migrateTo } from '../../src/store/migrations.js';
import { hashSecret, keyPrefix } from '../../src/store/keys.js';
import { openStore, type Store } from '../../src/store/store.js';
import { createTestDatabase, dropTestDatabase, testStoreKind } from '../helpers/services.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
let dir: string;
let store: Store;
let dropDb = async () => {};

describe('migration 0010: operator roles', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wallery-roles-'));
    if (testStoreKind() === 'sqlite') {
      store = openStore({ kind: 'sqlite', path: join(dir, 'wallery.db') });
    } else {
      const db = await createTestDatabase();
      store = openStore({ kind: 'postgres', url: db.url });
      dropDb = () => dropTestDatabase(db.name);
    }
    await migrateTo(store.db as never, store.name, '0009_publishable_keys');
  });
  afterAll(async () => {
    await store?.close();
    await dropDb();
    rmSync(dir, { recursive: true, force: true });
  });

  it('makes every token an unscoped admin and gives the audit entries their account', async () => {
    const db = store.db;
    const token = generateOperatorToken();
    await db
      .insertInto('operator_tokens')
      .values({ name: 'old', token_hash: hashSecret(token), prefix: keyPrefix(token), created_at: NOW })
      .execute();
    const account = await db
      .insertInto('accounts')
      .values({ name: 'a', plan: 'enterprise', daily_call_limit: 10, created_at: NOW })
      .returning('id')
      .executeTakeFirstOrThrow();
    const wall = await db
      .insertInto('walls')
      // the columns of later migrations do not exist yet
      .values({ account_id: account.id, name: 'w', url: 'w', profanity: 0, created_at: NOW } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    const entry = (targetType: string, targetId: number | null) => ({
      at: NOW,
      token_id: null,
      token_name: 'cli',
      action: `${targetType}.x`,
      target_type: targetType,
      target_id: targetId,
      summary: '{}',
    });
    // no account_id: the column does not exist yet
    await db
      .insertInto('audit_log')
      .values([entry('account', account.id), entry('wall', wall.id), entry('wall', 999), entry('operator_token', 1)])
      .execute();

    expect((await store.migrate())[0]).toBe('0010_operator_roles');

    const [made] = await listOperatorTokens(db);
    expect(made).toMatchObject({ name: 'old', role: 'admin', accounts: null });
    expect(await findOperator(db, token, NOW)).toMatchObject({ name: 'old', role: 'admin', accounts: null });
    const rows = await db
      .selectFrom('audit_log')
      .select(['target_type', 'target_id', 'account_id'])
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.target_type, r.target_id, r.account_id])).toEqual([
      ['account', account.id, account.id],
      ['wall', wall.id, account.id],
      ['wall', 999, null],
      ['operator_token', 1, null],
    ]);
  });
});
