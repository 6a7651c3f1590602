// Webhook signing secrets at rest, seen to when a process starts (`serve`,
// `start`, `wallery worker`):
// - WEBHOOK_SECRET_KEY unset while webhooks exist: one warning line. Their
//   secrets sit in the database — and in every backup, dump and export of
//   it — as they are. Wallery has no production mode to refuse in, and
//   refusing to start would stop deliveries that work, so it warns.
// - WEBHOOK_SECRET_KEY set: the secrets stored plain (made before the key
//   was set) are encrypted with it, each endpoint's only if unchanged since
//   read, so a rotation or another process starting at once is never undone.
import type { Kysely } from 'kysely';
import { sealPlain } from '../domain/secret-box.js';
import type { WorkerLogger } from '../jobs/log.js';
import type { Database } from '../store/schema.js';
import { countWebhooks, replaceStoredSecrets, webhooksWithPlainSecrets } from '../store/webhooks.js';

export interface SecretsAtRest {
  /** endpoints whose plain secrets this call encrypted */
  sealed: number;
  /** endpoints found with plain secrets that this call did not encrypt (no key; or changed meanwhile by a rotation or another process) */
  plain: number;
}

export async function secureStoredSecrets(
  db: Kysely<Database>,
  key: Buffer | null,
  log: Pick<WorkerLogger, 'info' | 'warn'>,
): Promise<SecretsAtRest> {
  const plain = await webhooksWithPlainSecrets(db);
  if (key === null) {
    const total = await countWebhooks(db);
    if (plain.length > 0)
      log.warn(
        { webhooks: total, plainSecrets: plain.length },
        `WEBHOOK_SECRET_KEY is not set: the signing secrets of ${plain.length} webhook(s) are stored in plain text, in the database and in its backups and exports. Set it (openssl rand -base64 32) and restart: they are encrypted at start.`,
      );
    else if (total > 0)
      log.warn(
        { webhooks: total },
        `WEBHOOK_SECRET_KEY is not set: the signing secrets of ${total} webhook(s) are encrypted and cannot be read, so nothing is delivered to them. Set the key they were encrypted with.`,
      );
    return { sealed: 0, plain: plain.length };
  }
  let sealed = 0;
  for (const row of plain) {
    const to = {
      secret: sealPlain(row.secret, key),
      previous_secret: row.previous_secret === null ? null : sealPlain(row.previous_secret, key),
    };
    if (await replaceStoredSecrets(db, row.id, row, to)) sealed++;
  }
  if (sealed > 0)
    log.info({ sealed }, `encrypted the plain-text signing secrets of ${sealed} webhook(s) with WEBHOOK_SECRET_KEY`);
  return { sealed, plain: plain.length - sealed };
}
