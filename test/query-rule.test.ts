// The lint rule that keeps every query in src/store/ (eslint.config.js), held
// against planted violations: it fails if the rule stops catching anything.
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { QUERY_STARTS } from '../eslint.config.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const eslint = new ESLint({ cwd: root });

/** The messages of the query rule for this text, linted as if it stood at `path`. */
async function queryErrors(path: string, text: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath: `${root}${path}` });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
}

const PLANTED = {
  selectFrom: `export const q = (db: any) => db.selectFrom('walls').selectAll().execute();`,
  insertInto: `export const q = (db: any) => db.insertInto('walls').values({}).execute();`,
  updateTable: `export const q = (trx: any) => trx.updateTable('posts').set({ hidden: 1 }).execute();`,
  deleteFrom: `export const q = (db: any) => db.deleteFrom('feeds').execute();`,
  replaceInto: `export const q = (db: any) => db.replaceInto('feeds').values({}).execute();`,
  mergeInto: `export const q = (db: any) => db.mergeInto('feeds').execute();`,
  'sql tag': `declare const sql: any;\nexport const q = (db: any) => sql\`select 1\`.execute(db);`,
  'sql.raw': `declare const sql: any;\nexport const q = () => sql.raw('select 1');`,
};

describe('queries live in src/store/', () => {
  it('every query start is in the planted set', () => {
    expect(QUERY_STARTS.every((name) => name in PLANTED)).toBe(true);
  });

  for (const [what, text] of Object.entries(PLANTED)) {
    it(`${what} outside src/store/ is an error, and allowed inside it`, async () => {
      for (const path of ['src/manage/planted.ts', 'src/http/manage/planted.ts', 'src/cli/planted.ts']) {
        const errors = await queryErrors(path, text);
        expect(errors, path).toHaveLength(1);
        expect(errors[0]).toMatch(/src\/store\//);
      }
      expect(await queryErrors('src/store/planted.ts', text)).toEqual([]);
    });
  }
});
