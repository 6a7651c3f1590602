import type { Kysely } from 'kysely';
import { addColumns } from './helpers.js';

export const description =
  'posts keep what an automatic rule found when it decided: rule, label, score, threshold and model (JSON; null otherwise)';

export async function up(db: Kysely<unknown>): Promise<void> {
  // JSON, like a wall's rules: written and shown whole with the decision, never filtered on in SQL
  await addColumns(db, 'posts', [['decision_detail', 'text']]);
}
