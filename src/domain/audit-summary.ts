// What the audit log keeps of a write: the changed fields before and after,
// each as it is while small, and a digest once it is large. A moderator can
// send a 1 MiB rule list as often as the rate limit lets them; keeping its
// before and after in full made five such writes 9 MB of audit log. The
// digest still tells whether two versions are the same, and how large.
import { createHash } from 'node:crypto';

/** The largest value (its JSON, in UTF-8 bytes) the log keeps as it is. */
export const AUDIT_VALUE_MAX_BYTES = 4096;

/** The largest summary: past it, every value of it that is not tiny becomes a digest. */
export const AUDIT_SUMMARY_MAX_BYTES = 16_384;

/** How much of a large value's JSON its digest shows. */
export const AUDIT_PREVIEW_CHARS = 200;

/** A value too large to keep, as the log keeps it. */
export interface AuditDigest {
  truncated: true;
  /** SHA-256 of the value's JSON (UTF-8), hex */
  sha256: string;
  /** the length of that JSON in bytes */
  bytes: number;
  /** its first AUDIT_PREVIEW_CHARS characters, then `…` */
  preview: string;
}

/** `value` itself when its JSON is at most `max` bytes; else its digest. */
export function boundedValue(value: unknown, max = AUDIT_VALUE_MAX_BYTES): unknown {
  const json = JSON.stringify(value) ?? 'null';
  const bytes = Buffer.byteLength(json);
  if (bytes <= max) return value;
  const digest: AuditDigest = {
    truncated: true,
    sha256: createHash('sha256').update(json).digest('hex'),
    bytes,
    preview: `${previewOf(json)}…`,
  };
  return digest;
}

/** The first characters of `json`, never half of a surrogate pair. */
function previewOf(json: string): string {
  const cut = json.slice(0, AUDIT_PREVIEW_CHARS);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A field map (`before`, `after`) field by field; anything else as one value. */
const boundedFields = (v: unknown, max: number) =>
  isRecord(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, boundedValue(x, max)])) : boundedValue(v, max);

/**
 * An audit entry's summary (`before`, `after` and the details of the action)
 * as stored: every field of before and after, and every detail, bounded to
 * AUDIT_VALUE_MAX_BYTES; when many such fields still add up to more than
 * AUDIT_SUMMARY_MAX_BYTES, each field over a small share of it becomes a
 * digest too. The summary stays a map of the same keys either way.
 */
export function boundedSummary(summary: Record<string, unknown>): Record<string, unknown> {
  const bound = (max: number) =>
    Object.fromEntries(
      Object.entries(summary).map(([k, v]) => [
        k,
        k === 'before' || k === 'after' ? boundedFields(v, max) : boundedValue(v, max),
      ]),
    );
  const first = bound(AUDIT_VALUE_MAX_BYTES);
  if (Buffer.byteLength(JSON.stringify(first)) <= AUDIT_SUMMARY_MAX_BYTES) return first;
  return bound(AUDIT_PREVIEW_CHARS);
}
