// Publishable key → grant answers kept in memory, so an embed read costs no
// key query. Dropped when they can change: a change of the key's wall (a key
// created or revoked announces its wall — on this instance at once, on the
// others through PostgreSQL's notifications, on SQLite through data_version),
// of its account, or `all`; and in any case after `ttlMs`. Unknown keys are
// never cached.
import type { ChangeBus } from '../../store/changes.js';
import {
  findPublishableKeyByHash,
  hashPublishableKey,
  type PublishableKeyGrant,
} from '../../store/publishable-keys.js';
import { SecretCache } from '../secret-cache.js';

export class PublishableKeyCache extends SecretCache<PublishableKeyGrant> {
  constructor(changes: ChangeBus, ttlMs: number) {
    super(changes, {
      ttlMs,
      max: 50_000,
      hash: hashPublishableKey,
      find: findPublishableKeyByHash,
      accountOf: (grant) => grant.accountId,
      wallOf: (grant) => grant.wallId,
    });
  }
}
