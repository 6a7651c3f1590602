// Webhook signatures (Stripe's scheme) and the secret box, as pure functions.
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newWebhookSecret, openSecret, sealSecret, SecretBoxError } from '../../src/domain/secret-box.js';
import { eventId, eventOfChange, kindsOfEvents, WEBHOOK_EVENTS } from '../../src/domain/webhook-events.js';
import { signatureHeader, verifySignature } from '../../src/domain/webhook-signature.js';

const T = 1_770_000_000;

describe('webhook signatures', () => {
  it('is t=<unix>,v1=<hex HMAC-SHA256(secret, "t.body")>', () => {
    const body = '{"id":"evt_1"}';
    const expected = createHmac('sha256', 'whsec_x').update(`${T}.${body}`).digest('hex');
    expect(signatureHeader('whsec_x', T, body)).toBe(`t=${T},v1=${expected}`);
  });

  it('verifies what it signs, within the tolerance, and nothing else', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        fc.string(),
        fc.integer({ min: -300, max: 300 }),
        (secret, body, skew) => {
          expect(verifySignature(secret, signatureHeader(secret, T, body), body, T + skew)).toEqual({ ok: true, t: T });
        },
      ),
    );
  });

  it('refuses a changed body, another secret, a stale or malformed header', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string(), fc.string({ minLength: 1 }), (secret, body, extra) => {
        const header = signatureHeader(secret, T, body);
        expect(verifySignature(secret, header, body + extra, T)).toEqual({ ok: false, reason: 'mismatch' });
        expect(verifySignature(`${secret}!`, header, body, T)).toEqual({ ok: false, reason: 'mismatch' });
        expect(verifySignature(secret, header, body, T + 301)).toEqual({ ok: false, reason: 'stale' });
      }),
    );
    for (const bad of [undefined, '', 't=abc,v1=00', `t=${T}`, 'v1=' + '0'.repeat(64), `t=${T},v1=xyz`])
      expect(verifySignature('s', bad, 'b', T)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('accepts any of several v1 values (a rotated secret overlapping)', () => {
    const header = signatureHeader(['old', 'new'], T, 'b');
    expect(verifySignature('old', header, 'b', T).ok).toBe(true);
    expect(verifySignature('new', header, 'b', T).ok).toBe(true);
  });
});

describe('the secret box', () => {
  const key = Buffer.alloc(32, 1);

  it('opens what it sealed, with the key or without one (plain)', () => {
    fc.assert(
      fc.property(fc.string(), (secret) => {
        const sealed = sealSecret(secret, key);
        expect(sealed.startsWith('gcm1:')).toBe(true);
        expect(sealed).not.toContain(secret.length > 3 ? secret : '\u0000');
        expect(openSecret(sealed, key)).toBe(secret);
        expect(openSecret(sealSecret(secret, null), null)).toBe(secret);
      }),
    );
  });

  it('refuses a wrong or missing key and a tampered box, without the secret in the message', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const sealed = sealSecret(secret, key);
    expect(() => openSecret(sealed, Buffer.alloc(32, 2))).toThrow(SecretBoxError);
    expect(() => openSecret(sealed, null)).toThrow(/WEBHOOK_SECRET_KEY is not set/);
    const tampered = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BB' : 'AA');
    expect(() => openSecret(tampered, key)).toThrow(SecretBoxError);
    try {
      openSecret(sealed, Buffer.alloc(32, 2));
    } catch (err) {
      expect((err as Error).message).not.toContain(secret);
    }
  });
});

describe('webhook events', () => {
  it('maps change kinds to events; a post created not visible and an edit are none', () => {
    expect(eventOfChange('created', true)).toBe('post.created');
    expect(eventOfChange('created', false)).toBeNull();
    expect(eventOfChange('updated', true)).toBeNull();
    expect(eventOfChange('wall_restored', true)).toBeNull();
    expect(eventOfChange('feed_failing', false)).toBe('feed.failing');
    expect(eventOfChange('held', false)).toBe('post.held');
    expect(kindsOfEvents([...WEBHOOK_EVENTS]).sort()).toEqual(
      [
        'approved',
        'connection_expiring',
        'connection_failed',
        'created',
        'deleted',
        'feed_failing',
        'feed_recovered',
        'held',
        'hidden',
        'rejected',
        'rights_declined',
        'rights_expired',
        'rights_granted',
        'rights_requested',
        'rights_revoked',
        'wall_deleted',
      ].sort(),
    );
    expect(kindsOfEvents(['post.approved'])).toEqual(['approved']);
    expect(eventOfChange('connection_failed', false)).toBe('connection.failed');
    expect(eventOfChange('connection_expiring', false)).toBe('connection.expiring');
    expect(eventOfChange('rights_granted', true)).toBe('post.rights_granted');
    expect(eventOfChange('rights_declined', false)).toBe('post.rights_declined');
    expect(eventId(42)).toBe('evt_42');
  });
});
