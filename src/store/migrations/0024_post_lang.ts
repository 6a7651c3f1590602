import type { Kysely } from 'kysely';
import { addColumns } from './helpers.js';

export const description =
  'posts keep the language their text is written in (ISO 639-1, detected by eld; null when unknown or not detected yet)';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Detected, not upstream's: ingestion writes it with each post it inserts
  // or rewrites, the management API with each content it writes. Posts
  // stored before stay null; the moderation rules detect theirs when they
  // ask (src/domain/rules.ts), so no pass over every post is needed here.
  await addColumns(db, 'posts', [['lang', 'text']]);
}
