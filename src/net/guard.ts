// The SSRF guard of every outbound request (feeds, webhooks):
//
// - http and https only, no credentials in the URL: checkUrl, on every
//   redirect hop a caller follows.
// - Every address a host name resolves to is checked where the connection is
//   made (undici's `connect.lookup`), so DNS rebinding between a check and the
//   connect cannot slip through; IP literals, which skip the lookup, are
//   checked before the request (checkUrl). Loopback, private, link-local,
//   CGNAT, multicast, unspecified and every other non-global range is refused
//   unless the operator allows it (all, or a list of CIDR ranges); IPv6 forms
//   that carry an IPv4 address are judged by it (address-policy.ts).
// - One time cap on the connect, the headers and the body (guardedAgent).
import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress, LookupAllOptions, LookupOneOptions } from 'node:dns';
import { isIP } from 'node:net';
import { Agent } from 'undici';
import type { PrivateNetworks } from '../config.js';
import { addressRefusal } from './address-policy.js';
import { FetchError, SsrfError } from './errors.js';

export type ResolvedAddress = { address: string; family: number };
/** Host name → addresses (the default is the system resolver, like Node's own lookup). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface GuardOptions {
  allowPrivateNetworks: PrivateNetworks;
  timeoutMs: number;
  /** tests inject a resolver that maps names to chosen addresses */
  resolve?: Resolver;
}

const systemResolve: Resolver = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses)));
  });

type LookupCallback = (err: NodeJS.ErrnoException | null, address?: string | LookupAddress[], family?: number) => void;

/** A `net.connect` lookup that refuses a host if any address it resolves to is refused. */
function guardedLookup(resolve: Resolver, allow: PrivateNetworks) {
  return (hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback) => {
    resolve(hostname).then(
      (found) => {
        const wanted =
          options.family === 4 || options.family === 6 ? found.filter((a) => a.family === options.family) : found;
        if (wanted.length === 0) {
          const err: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
          err.code = 'ENOTFOUND';
          return callback(err);
        }
        for (const a of wanted) {
          const refused = addressRefusal(a.address, allow);
          if (refused !== null) {
            return callback(new SsrfError(`refused: ${hostname} resolves to ${a.address}, a ${refused} address`));
          }
        }
        if (options.all)
          return callback(
            null,
            wanted.map((a) => ({ address: a.address, family: a.family })),
          );
        return callback(null, wanted[0]!.address, wanted[0]!.family);
      },
      (err: NodeJS.ErrnoException) => callback(err),
    );
  };
}

/**
 * The dispatcher of guarded requests: it connects only to addresses the
 * policy allows (the connect-time lookup) and caps connect, headers and body
 * in time. Requests through it still pass each URL through checkUrl first.
 */
export function guardedAgent(options: GuardOptions): Agent {
  return new Agent({
    connect: {
      lookup: guardedLookup(options.resolve ?? systemResolve, options.allowPrivateNetworks) as never,
      timeout: options.timeoutMs,
    },
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    keepAliveTimeout: 10_000,
  });
}

/** Checks scheme and IP-literal hosts of one hop (names are checked at connect time). */
export function checkUrl(raw: string, allow: PrivateNetworks): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FetchError('scheme', `not a valid URL: ${raw.slice(0, 200)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SsrfError(`refused: ${url.protocol} URLs are not fetched (http and https only)`);
  }
  if (url.username !== '' || url.password !== '') throw new SsrfError('refused: URLs with credentials are not fetched');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) {
    const refused = addressRefusal(host, allow);
    if (refused !== null) throw new SsrfError(`refused: ${host} is a ${refused} address`);
  }
  return url;
}
