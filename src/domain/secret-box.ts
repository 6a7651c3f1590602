// Webhook signing secrets at rest. A signing key must be usable to sign, so
// it cannot be hashed like a user key: with WEBHOOK_SECRET_KEY set it is
// encrypted with AES-256-GCM (random 96-bit IV, auth tag checked on read);
// without, it is stored as it is (docs/security.md says to set the key in
// production). The stored form says which: `gcm1:<iv>.<tag>.<ciphertext>`
// (base64url) or `plain:<secret>`.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const GCM = 'gcm1:';
const PLAIN = 'plain:';

/** How a secret stored without a key starts (the store finds them by it). */
export const PLAIN_PREFIX = PLAIN;

/** A fresh signing secret, `whsec_` + 32 random bytes in base64url. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** The stored form of `secret` under `key` (32 bytes), or plain without a key. */
export function sealSecret(secret: string, key: Buffer | null): string {
  if (!key) return PLAIN + secret;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ct = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return `${GCM}${iv.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}.${ct.toString('base64url')}`;
}

/** The stored form under `key` of a secret stored plain (made before the key was set); any other form as it is. */
export function sealPlain(stored: string, key: Buffer): string {
  return stored.startsWith(PLAIN) ? sealSecret(stored.slice(PLAIN.length), key) : stored;
}

export class SecretBoxError extends Error {
  override name = 'SecretBoxError';
}

/** The secret from its stored form; throws SecretBoxError when the key is missing or wrong (never the secret). */
export function openSecret(
  stored: string,
  key: Buffer | null,
  what = 'webhook secret',
  keyName = 'WEBHOOK_SECRET_KEY',
): string {
  if (stored.startsWith(PLAIN)) return stored.slice(PLAIN.length);
  if (!stored.startsWith(GCM)) throw new SecretBoxError(`the stored ${what} has an unknown form`);
  if (!key) throw new SecretBoxError(`the ${what} is encrypted and ${keyName} is not set`);
  const [iv, tag, ct] = stored.slice(GCM.length).split('.');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv ?? '', 'base64url'));
    decipher.setAuthTag(Buffer.from(tag ?? '', 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ct ?? '', 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretBoxError(`the ${what} cannot be decrypted with ${keyName} (a different key?)`);
  }
}
