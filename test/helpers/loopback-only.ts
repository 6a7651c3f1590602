// A safety belt for SSRF tests: while installed, a TCP connection to any
// address beyond this machine fails before a packet is sent, so a guard that
// wrongly lets an address through makes a test fail, never reach out.
import { isIP, Socket, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

function isLoopback(address: string): boolean {
  try {
    return ipaddr.process(address).range() === 'loopback';
  } catch {
    return false;
  }
}

class OutboundConnection extends Error {
  constructor(address: string) {
    super(`test tried to connect beyond this machine: ${address}`);
  }
}

/** Installs the belt; returns the function that removes it. */
export function loopbackOnly(): () => void {
  const connect = Socket.prototype.connect;
  Socket.prototype.connect = function (this: Socket, ...args: unknown[]) {
    const first = args[0];
    // net.connect passes its normalized [options, callback] pair
    const options = (Array.isArray(first) ? first[0] : first) as {
      host?: string;
      lookup?: LookupFunction;
      path?: string;
    };
    if (typeof options === 'object' && options !== null && options.path === undefined) {
      const host = options.host ?? 'localhost';
      if (isIP(host) !== 0 && !isLoopback(host)) throw new OutboundConnection(host);
      if (isIP(host) === 0 && options.lookup) {
        const lookup = options.lookup;
        options.lookup = ((hostname, opts, callback) =>
          lookup(hostname, opts, (err, address, family) => {
            const found = typeof address === 'string' ? [address] : (address ?? []).map((a) => a.address);
            const outside = found.find((a) => !isLoopback(a));
            if (!err && outside !== undefined) return callback(new OutboundConnection(outside), '', 0);
            callback(err, address as string, family as number);
          })) as LookupFunction;
      }
    }
    return connect.apply(this, args as Parameters<typeof connect>);
  } as typeof connect;
  return () => {
    Socket.prototype.connect = connect;
  };
}
