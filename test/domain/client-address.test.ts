// Per-client limits count an IPv4 address, or an IPv6 /64 (what one subscriber holds).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clientKey } from '../../src/domain/client-address.js';

describe('clientKey', () => {
  it('is the IPv4 address itself, also when a dual-stack socket reports it IPv4-mapped', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:cb00:7107')).toBe('203.0.113.7');
  });

  it('is the /64 of an IPv6 address, however it is written', () => {
    expect(clientKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:0DB8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(clientKey('::1')).toBe('::/64');
    expect(clientKey('fe80::1%eth0')).toBe('fe80::/64');
  });

  it('gives every address of one /64 one key, and addresses of two /64s two', () => {
    const group = fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 4, maxLength: 4 });
    fc.assert(
      fc.property(group, group, group, (prefix, a, b) => {
        const hex = (n: number[]) => n.map((x) => x.toString(16)).join(':');
        expect(clientKey(`${hex(prefix)}:${hex(a)}`)).toBe(clientKey(`${hex(prefix)}:${hex(b)}`));
        const other = [...prefix.slice(0, 3), (prefix[3]! + 1) % 0x10000];
        expect(clientKey(`${hex(prefix)}:${hex(a)}`)).not.toBe(clientKey(`${hex(other)}:${hex(a)}`));
      }),
    );
  });

  it('leaves text that is no address as it is', () => {
    expect(clientKey('unknown')).toBe('unknown');
  });
});
