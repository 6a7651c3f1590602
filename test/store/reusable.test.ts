// reusableQuery: compiled once per database, run with each call's values;
// a query holding a parameter that is not an argument is refused at once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reusableQuery } from '../../src/store/reusable.js';
import { openTestStore, type TestStore } from '../helpers/store.js';

let dir: string;
let t: TestStore;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wallery-reusable-'));
  t = await openTestStore(dir);
  const now = Date.now();
  await t.store.db
    .insertInto('accounts')
    .values([1, 2].map((id) => ({ id, name: `a${id}`, plan: 'enterprise', daily_call_limit: 10, created_at: now })))
    .execute();
  await t.store.db
    .insertInto('walls')
    .values(
      [11, 12, 21].map((id) => ({
        id,
        account_id: Math.floor(id / 10),
        name: `w${id}`,
        url: '',
        profanity: 0,
        moderation: 'auto' as const,
        rules: '[]',
        allow_framing: 0,
        created_at: now,
      })),
    )
    .execute();
});
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('reusableQuery', () => {
  it('answers each call with its own values', async () => {
    const wallsOf = reusableQuery((db, accountId: number, above: number) =>
      db.selectFrom('walls').select('id').where('account_id', '=', accountId).where('id', '>', above).orderBy('id'),
    );
    expect((await wallsOf(t.store.db, 1, 0)).map((r) => Number(r.id))).toEqual([11, 12]);
    expect((await wallsOf(t.store.db, 2, 0)).map((r) => Number(r.id))).toEqual([21]);
    expect((await wallsOf(t.store.db, 1, 11)).map((r) => Number(r.id))).toEqual([12]);
    expect(await wallsOf(t.store.db, 3, 0)).toEqual([]);
  });

  it('refuses a query with a parameter of its own', async () => {
    const named = reusableQuery((db, accountId: number) =>
      db.selectFrom('walls').select('id').where('account_id', '=', accountId).where('name', '=', 'w11'),
    );
    await expect(named(t.store.db, 1)).rejects.toThrow(/parameters must be exactly its arguments/);
  });
});
