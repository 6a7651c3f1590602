// Which addresses an outbound request may connect to (the SSRF guard's policy).
//
// Only globally routable unicast addresses are fetched unless the operator
// allows more (INGEST_ALLOW_PRIVATE_NETWORKS for feeds,
// WEBHOOK_ALLOW_PRIVATE_NETWORKS for webhooks: all, or a list of CIDR ranges).
// An IPv6 address that carries an IPv4 address — and so may be translated or
// tunnelled to it — is judged by that IPv4 address as well:
//   IPv4-mapped ::ffff:a.b.c.d, IPv4-translated ::ffff:0:a.b.c.d,
//   IPv4-compatible ::a.b.c.d (deprecated, still routed by some stacks),
//   NAT64 64:ff9b::/96 and the local-use 64:ff9b:1::/48 (RFC 6052/8215),
//   6to4 2002:AABB:CCDD::/16, Teredo 2001:0:S:S:f:p:C:C (server and the
//   client's obfuscated address), and ISATAP interface ids …:0:5efe:a.b.c.d
//   or …:200:5efe:a.b.c.d under any prefix.
// The address is refused when any IPv4 address it carries is refused.
import ipaddr from 'ipaddr.js';
import type { PrivateNetworks } from '../config.js';

type Addr = ipaddr.IPv4 | ipaddr.IPv6;

const v4 = (bytes: number[]) => new ipaddr.IPv4(bytes);

/** RFC 6052 §2.2: where a prefix of each length puts the IPv4 bytes (byte 8 is the zero "u" octet). */
const RFC6052_LAYOUTS: { ipv4: number[]; zero: number[] }[] = [
  { ipv4: [6, 7, 9, 10], zero: [8, 11, 12, 13, 14, 15] }, // /48
  { ipv4: [7, 9, 10, 11], zero: [8, 12, 13, 14, 15] }, // /56
  { ipv4: [9, 10, 11, 12], zero: [8, 13, 14, 15] }, // /64
  { ipv4: [12, 13, 14, 15], zero: [] }, // /96
];

/**
 * The IPv4 addresses an IPv6 address carries, by its form; none for a plain
 * IPv6 address. `::` and `::1` are IPv6's own unspecified and loopback.
 */
export function embeddedIPv4(addr: ipaddr.IPv6): ipaddr.IPv4[] {
  const b = addr.toByteArray();
  const tail = v4(b.slice(12, 16));
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  const found: ipaddr.IPv4[] = [];
  switch (addr.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return [tail];
    case 'rfc6052':
      if (b[4] === 0 && b[5] === 0) return [tail]; // the well-known 64:ff9b::/96
      // The local-use /48 may hold a NAT64 prefix of any RFC 6052 length:
      // every layout the address fits is a destination it may reach.
      for (const layout of RFC6052_LAYOUTS)
        if (layout.zero.every((i) => b[i] === 0)) found.push(v4(layout.ipv4.map((i) => b[i]!)));
      return found.length > 0 ? found : [tail];
    case '6to4':
      found.push(v4(b.slice(2, 6)));
      break;
    case 'teredo':
      found.push(v4(b.slice(4, 8)), v4(b.slice(12, 16).map((x) => x ^ 0xff)));
      break;
    case 'unspecified':
    case 'loopback':
      return [];
    default:
      if (zeros(0, 12)) return [tail]; // IPv4-compatible ::a.b.c.d
  }
  // ISATAP interface identifier, under any prefix (the prefix is judged too)
  if ((b[8] === 0 || b[8] === 2) && b[9] === 0 && b[10] === 0x5e && b[11] === 0xfe) found.push(tail);
  return found;
}

/** Ranges that carry an IPv4 address and are judged by it alone. */
const CARRIER_RANGES = new Set(['ipv4Mapped', 'rfc6145', 'rfc6052', '6to4', 'teredo']);

function allowedBy(addr: Addr, allow: PrivateNetworks): boolean {
  if (allow === true) return true;
  if (allow === false) return false;
  return allow.some((cidr) => {
    const [net, bits] = ipaddr.parseCIDR(cidr);
    return net.kind() === addr.kind() && addr.match([net, bits] as never);
  });
}

/** Null when the address may be fetched, else the name of the range that refuses it. */
function refusalOf(addr: Addr, allow: PrivateNetworks): string | null {
  const range = addr.range();
  return range === 'unicast' || allowedBy(addr, allow) ? null : range;
}

/** Null when the address may be fetched, else the name of its range (or of the range of the IPv4 address it carries). */
export function addressRefusal(ip: string, allow: PrivateNetworks): string | null {
  let addr: Addr;
  try {
    addr = ipaddr.parse(ip);
  } catch {
    return 'unparseable';
  }
  if (addr.kind() === 'ipv4') return refusalOf(addr, allow);
  const v6 = addr as ipaddr.IPv6;
  const carried = embeddedIPv4(v6);
  // an allowed IPv6 range allows what it carries
  if (allowedBy(v6, allow)) return null;
  for (const inner of carried) {
    const refused = refusalOf(inner, allow);
    if (refused !== null) return refused;
  }
  if (carried.length > 0 && (CARRIER_RANGES.has(v6.range()) || v6.range() === 'unicast')) return null;
  return refusalOf(v6, allow);
}
