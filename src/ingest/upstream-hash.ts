// The fingerprint of what upstream said about a post, stored with it
// (posts.upstream_hash): a poll rewrites a stored post only when its
// fingerprint changed, so an operator's edit stays until upstream edits the
// post, and an unchanged post costs no write, no revision, no change-log row
// and no webhook. Which columns count, and how, is the registry's
// (src/domain/post-fields.ts `upstream`).
import { createHash } from 'node:crypto';
import { ALWAYS_FINGERPRINTED, LATER_COLUMNS } from '../domain/post-fields.js';
import type { IngestedPost } from '../store/ingest.js';

/**
 * Fingerprint of what upstream said about a post (every upstream column but
 * the edit time). A column that came later (`alt`, `repost`, `reply`, …)
 * counts only when it differs from its default (its value, or a flag
 * `{ column: 1 }`), so a post without it keeps the fingerprint it had before
 * (no rewrite), and a post that has it, stored before the column existed, is
 * rewritten once, with it, when next read.
 */
export function upstreamHash(p: IngestedPost): string {
  const values: unknown[] = ALWAYS_FINGERPRINTED.map((c) => p[c]);
  for (const later of LATER_COLUMNS) {
    const value = p[later.column];
    if (value !== later.default) values.push(later.as === 'value' ? value : { [later.column]: 1 });
  }
  return createHash('sha256').update(JSON.stringify(values)).digest('base64url');
}
