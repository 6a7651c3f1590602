// The fingerprint of what upstream said about a post, stored with it
// (posts.upstream_hash): a poll rewrites a stored post only when its
// fingerprint changed, so an operator's edit stays until upstream edits the
// post, and an unchanged post costs no write, no revision, no change-log row
// and no webhook.
import { createHash } from 'node:crypto';
import { UPSTREAM_COLUMNS } from '../store/post-columns.js';
import type { IngestedPost } from '../store/ingest.js';

/** Upstream columns that came later: each counts in the fingerprint only when set. */
const LATER_COLUMNS: ReadonlySet<string> = new Set(['alt', 'repost', 'reply']);
const FINGERPRINTED_COLUMNS = UPSTREAM_COLUMNS.filter((c) => !LATER_COLUMNS.has(c));

/**
 * Fingerprint of what upstream said about a post (every upstream column but
 * the edit time). `alt`, `repost` and `reply` came later: each counts only
 * when set (alt text there, a flag 1), so a post without them keeps the
 * fingerprint it had before (no rewrite), and a flagged post stored before
 * its flag existed is rewritten once, with its flag, when next read.
 */
export function upstreamHash(p: IngestedPost): string {
  const values: unknown[] = FINGERPRINTED_COLUMNS.map((c) => p[c]);
  if (p.alt !== '') values.push(p.alt);
  if (p.repost !== 0) values.push({ repost: 1 });
  if (p.reply !== 0) values.push({ reply: 1 });
  return createHash('sha256').update(JSON.stringify(values)).digest('base64url');
}
