// Signing webhook deliveries, Stripe's scheme: `Wallery-Signature:
// t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`. The
// timestamp is inside the signed text, so a captured delivery cannot be
// replayed later than the receiver's tolerance; several v1 values may be
// given (a receiver accepts any), which is how a rotated secret overlaps.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'Wallery-Signature';
/** How old a signature a receiver should accept (seconds): the advice of docs/guides/webhooks-and-change-feed.md. */
export const SIGNATURE_TOLERANCE_S = 300;

/** hex HMAC-SHA256 of `<t>.<body>` */
export function signaturePayload(secret: string, t: number, body: string): string {
  return createHmac('sha256', secret).update(`${t}.${body}`, 'utf8').digest('hex');
}

/** The header value for `body` signed at `t` (unix seconds) with each secret. */
export function signatureHeader(secrets: string | readonly string[], t: number, body: string): string {
  const list = typeof secrets === 'string' ? [secrets] : secrets;
  return [`t=${t}`, ...list.map((s) => `v1=${signaturePayload(s, t, body)}`)].join(',');
}

export type VerifyResult = { ok: true; t: number } | { ok: false; reason: 'malformed' | 'stale' | 'mismatch' };

/**
 * What a receiver does: parse the header, check the timestamp is within
 * `toleranceS` of `nowS`, recompute the HMAC of the raw body and compare in
 * constant time with every v1 value.
 */
export function verifySignature(
  secret: string,
  header: string | undefined,
  body: string,
  nowS: number,
  toleranceS = SIGNATURE_TOLERANCE_S,
): VerifyResult {
  if (!header) return { ok: false, reason: 'malformed' };
  let t: number | null = null;
  const v1: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const k = part.slice(0, eq).trim();
    const v = part.slice(eq + 1).trim();
    if (k === 't' && /^\d{1,12}$/.test(v)) t = Number(v);
    else if (k === 'v1' && /^[0-9a-f]{64}$/.test(v)) v1.push(v);
  }
  if (t === null || v1.length === 0) return { ok: false, reason: 'malformed' };
  if (Math.abs(nowS - t) > toleranceS) return { ok: false, reason: 'stale' };
  const expected = Buffer.from(signaturePayload(secret, t, body), 'hex');
  const match = v1.some((v) => timingSafeEqual(Buffer.from(v, 'hex'), expected));
  return match ? { ok: true, t } : { ok: false, reason: 'mismatch' };
}
