// The guarded fetcher rights requests go out through, made the same way by
// each of its users: the watcher, the management API and the CLI. A reply
// and the answers to it are small JSON documents; a network slow to answer
// is given up on after 20 s.
import { createFetcher, type Fetcher, type FetcherOptions } from '../net/fetcher.js';

export function rightsFetcher(
  allowPrivateNetworks: FetcherOptions['allowPrivateNetworks'],
  resolve?: FetcherOptions['resolve'],
): Fetcher {
  return createFetcher({
    allowPrivateNetworks,
    timeoutMs: 20_000,
    maxBytes: 1024 * 1024,
    hostConcurrency: 4,
    userAgent: 'Wallery/0.1 (self-hosted social wall; rights requests)',
    ...(resolve ? { resolve } : {}),
  });
}
