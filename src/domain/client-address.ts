// The "client" a per-client limit counts: one IPv4 address, or one IPv6 /64.
// An IPv6 host is usually given a whole /64 (SLAAC, privacy addresses that
// change daily), so counting single IPv6 addresses would give one machine 2^64
// budgets; a /64 is what one subscriber holds. An IPv4-mapped IPv6 address
// (`::ffff:a.b.c.d`, as a dual-stack socket reports IPv4 peers) is its IPv4.
import ipaddr from 'ipaddr.js';

/** The prefix length one IPv6 client is counted by. */
export const IPV6_CLIENT_PREFIX = 64;

/**
 * The key of the client an address belongs to: the IPv4 address itself, or
 * the /64 of an IPv6 address (`2001:db8:1:2::/64`). Text that is no address
 * (a test's made-up peer, a proxy's odd header) is its own key.
 */
export function clientKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address); // IPv4-mapped IPv6 becomes IPv4
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const bytes = (parsed as ipaddr.IPv6).toByteArray();
  for (let i = IPV6_CLIENT_PREFIX / 8; i < 16; i++) bytes[i] = 0;
  return `${ipaddr.fromByteArray(bytes).toString()}/${IPV6_CLIENT_PREFIX}`;
}
