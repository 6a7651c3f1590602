// Which pages may use a publishable key: its origins, Wallery's own pages, and
// what browsers say of a request without an Origin (Sec-Fetch-Site).
import { describe, expect, it } from 'vitest';
import { normaliseOrigin, originAllowed, requestMayUseKey } from '../../src/domain/origins.js';

const BOUND = ['https://shop.example'];

describe('origins', () => {
  it('are compared in normalised form', () => {
    expect(normaliseOrigin('HTTPS://Shop.Example:443/')).toBe('https://shop.example');
    expect(normaliseOrigin('https://shop.example/path')).toBeNull();
    expect(originAllowed(BOUND, 'https://SHOP.example')).toBe(true);
    expect(originAllowed(BOUND, 'https://evil.example')).toBe(false);
  });

  it('a key bound to origins: an allowed Origin passes, another does not, whatever Sec-Fetch-Site claims but same-origin', () => {
    expect(requestMayUseKey(BOUND, 'https://shop.example', 'cross-site')).toBe(true);
    expect(requestMayUseKey(BOUND, 'https://evil.example', 'cross-site')).toBe(false);
    expect(requestMayUseKey(BOUND, 'https://evil.example', undefined)).toBe(false);
    // Wallery's own page (the hosted page's beacons carry Wallery's origin)
    expect(requestMayUseKey(BOUND, 'https://wallery.example', 'same-origin')).toBe(true);
  });

  it('a key bound to origins: no Origin passes from Wallery’s own pages, typed URLs and non-browsers, never from another site’s page', () => {
    expect(requestMayUseKey(BOUND, undefined, 'same-origin')).toBe(true);
    expect(requestMayUseKey(BOUND, undefined, 'none')).toBe(true);
    expect(requestMayUseKey(BOUND, undefined, undefined)).toBe(true);
    expect(requestMayUseKey(BOUND, undefined, 'cross-site')).toBe(false);
    expect(requestMayUseKey(BOUND, undefined, 'same-site')).toBe(false);
  });

  it('a key bound to no origin: every page', () => {
    for (const site of ['cross-site', 'same-site', 'same-origin', 'none', undefined])
      for (const origin of ['https://anywhere.example', undefined])
        expect(requestMayUseKey([], origin, site)).toBe(true);
  });
});
