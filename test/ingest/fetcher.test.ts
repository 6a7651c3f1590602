// The SSRF-guarded fetcher: address policy, redirects, caps, concurrency.
// Refused addresses are never connected to: every check happens before the
// connect (IP literals up front, names in the connect-time lookup).
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addressRefusal } from '../../src/net/address-policy.js';
import { FetchError, SsrfError } from '../../src/net/errors.js';
import { createFetcher, type Fetcher, type FetcherOptions } from '../../src/net/fetcher.js';
import type { Resolver } from '../../src/net/guard.js';
import { loopbackOnly } from '../helpers/loopback-only.js';
import { startFeeds, rssXml } from './fixtures/feeds.js';
import { startFixture, type Fixture, type Reply } from './fixtures/server.js';
import { startHarness, ingestState, type Harness } from './harness.js';

// Nothing here may connect beyond this machine, whatever the guard does.
let removeBelt: () => void;
beforeAll(() => {
  removeBelt = loopbackOnly();
});
afterAll(() => removeBelt());

const fixtures: Fixture[] = [];
const fetchers: Fetcher[] = [];
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  await Promise.all(fetchers.splice(0).map((f) => f.close()));
  await Promise.all(fixtures.splice(0).map((f) => f.close()));
});

async function fixture(handler: Fixture['handler']): Promise<Fixture> {
  const fx = await startFixture(handler);
  fixtures.push(fx);
  return fx;
}

function fetcher(over: Partial<FetcherOptions> = {}): Fetcher {
  const f = createFetcher({
    allowPrivateNetworks: ['127.0.0.0/8'],
    maxBytes: 64 * 1024,
    timeoutMs: 2000,
    hostConcurrency: 2,
    ...over,
  });
  fetchers.push(f);
  return f;
}

/** Names the tests control; anything else is unknown (no real DNS is ever asked). */
function resolver(map: Record<string, string[]>): Resolver {
  return async (name) => {
    const found = map[name];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

async function refusal(p: Promise<unknown>): Promise<SsrfError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SsrfError);
  return err as SsrfError;
}

describe('address policy', () => {
  it('refuses every non-global range and allows global unicast', () => {
    const cases: [string, string | null][] = [
      ['127.0.0.1', 'loopback'],
      ['10.1.2.3', 'private'],
      ['172.16.0.1', 'private'],
      ['192.168.1.1', 'private'],
      ['100.64.0.1', 'carrierGradeNat'],
      ['169.254.169.254', 'linkLocal'],
      ['224.0.0.251', 'multicast'],
      ['0.0.0.0', 'unspecified'],
      ['255.255.255.255', 'broadcast'],
      ['::1', 'loopback'],
      ['::', 'unspecified'],
      ['fe80::1', 'linkLocal'],
      ['fd00::1', 'uniqueLocal'],
      ['ff02::1', 'multicast'],
      ['::ffff:10.0.0.1', 'private'],
      ['64:ff9b::a00:1', 'private'],
      ['93.184.216.34', null],
      ['2606:2800:220:1:248:1893:25c8:1946', null],
      ['64:ff9b::5db8:d822', null],
    ];
    for (const [ip, range] of cases) expect(addressRefusal(ip, false), ip).toBe(range);
  });

  it('lets the operator allow all, or chosen ranges only', () => {
    expect(addressRefusal('10.0.0.1', true)).toBeNull();
    expect(addressRefusal('127.0.0.1', ['127.0.0.0/8'])).toBeNull();
    expect(addressRefusal('::ffff:127.0.0.1', ['127.0.0.0/8'])).toBeNull();
    expect(addressRefusal('10.0.0.1', ['127.0.0.0/8'])).toBe('private');
    expect(addressRefusal('fd00::5', ['fd00::/8'])).toBeNull();
  });
});

/**
 * IPv6 forms that carry an IPv4 address, each with the range of the address
 * it carries (all refused): judged by that address, whatever the IPv6 range.
 */
const CARRYING: [form: string, address: string, range: string][] = [
  ['IPv4-mapped', '::ffff:127.0.0.1', 'loopback'],
  ['IPv4-mapped, hex', '::ffff:7f00:1', 'loopback'],
  ['IPv4-mapped, metadata', '::ffff:a9fe:a9fe', 'linkLocal'],
  ['IPv4-translated', '::ffff:0:10.0.0.1', 'private'],
  ['IPv4-compatible, hex', '::7f00:1', 'loopback'],
  ['IPv4-compatible, dotted', '::127.0.0.1', 'loopback'],
  ['IPv4-compatible, metadata', '::169.254.169.254', 'linkLocal'],
  ['IPv4-compatible, CGNAT', '::6440:1', 'carrierGradeNat'],
  ['NAT64 well-known prefix', '64:ff9b::7f00:1', 'loopback'],
  ['NAT64 well-known prefix, dotted', '64:ff9b::192.168.1.1', 'private'],
  ['NAT64 local-use /48, /96 layout', '64:ff9b:1::a00:1', 'private'],
  ['NAT64 local-use /48, /48 layout', '64:ff9b:1:7f00:1::', 'loopback'],
  ['NAT64 local-use /48, /64 layout', '64:ff9b:1:0:a9:fea9:fe00:0', 'linkLocal'],
  ['6to4', '2002:7f00:1::', 'loopback'],
  ['6to4, with a host part', '2002:a9fe:a9fe::1', 'linkLocal'],
  ['Teredo, private client (obfuscated 10.0.0.1)', '2001:0:5db8:d822::f5ff:fffe', 'private'],
  ['Teredo, loopback client (obfuscated 127.0.0.1)', '2001:0:5db8:d822::80ff:fffe', 'loopback'],
  ['Teredo, private server', '2001:0:a00:1::a247:27dd', 'private'],
  ['ISATAP under a global prefix', '2a00:1450:4001::5efe:7f00:1', 'loopback'],
  ['ISATAP (u/l bit) under a global prefix', '2a00:1450:4001::200:5efe:a00:1', 'private'],
  ['ISATAP, dotted', '2a00:1450:4001:0:0:5efe:192.168.0.1', 'private'],
];

/** The same forms carrying a global address: not refused (never fetched here: no traffic leaves this machine). */
const CARRYING_GLOBAL: string[] = [
  '::ffff:5db8:d822',
  '::ffff:0:93.184.216.34',
  '::5db8:d822',
  '64:ff9b::5db8:d822',
  '64:ff9b:1::5db8:d822',
  '2002:5db8:d822::1',
  '2001:0:5db8:d822::a247:27dd',
  '2a00:1450:4001::5efe:5db8:d822',
];

describe('IPv6 forms that carry an IPv4 address', () => {
  it.each(CARRYING)('%s (%s) is judged by its IPv4 address: %s', (_form, address, range) => {
    expect(addressRefusal(address, false)).toBe(range);
  });

  it.each(CARRYING_GLOBAL)('%s carries a global address: allowed', (address) => {
    expect(addressRefusal(address, false)).toBeNull();
  });

  it('the operator’s allowance for the IPv4 range covers every form carrying it', () => {
    for (const [, address, range] of CARRYING) {
      expect(addressRefusal(address, true), address).toBeNull();
      if (address.startsWith('64:ff9b:1:')) continue; // below
      if (range === 'loopback') expect(addressRefusal(address, ['127.0.0.0/8']), address).toBeNull();
      else expect(addressRefusal(address, ['127.0.0.0/8']), address).toBe(range);
    }
    // The local-use NAT64 /48 is read in every RFC 6052 layout the address
    // fits, and the /96 one always fits: 0.0.0.0 here needs allowing too.
    expect(addressRefusal('64:ff9b:1:7f00:1::', ['127.0.0.0/8'])).toBe('unspecified');
    expect(addressRefusal('64:ff9b:1:7f00:1::', ['127.0.0.0/8', '0.0.0.0/8'])).toBeNull();
    // an allowed IPv6 range allows what it carries
    expect(addressRefusal('64:ff9b::7f00:1', ['64:ff9b::/96'])).toBeNull();
    // an ISATAP id does not make a non-global prefix acceptable
    expect(addressRefusal('fd00::5efe:5db8:d822', false)).toBe('uniqueLocal');
    expect(addressRefusal('fe80::5efe:5db8:d822', false)).toBe('linkLocal');
  });

  it.each(CARRYING)(
    '%s: the fetcher refuses %s as a URL and as a DNS answer, before connecting',
    async (_f, address, range) => {
      const f = fetcher({ allowPrivateNetworks: false, resolve: resolver({ 'carrier.test': [address] }) });
      const literal = await refusal(f.fetch({ url: `http://[${address}]:8080/feed.xml` }));
      expect(literal.message).toMatch(new RegExp(`^refused: [0-9a-f:.]+ is a ${range} address$`));
      const named = await refusal(f.fetch({ url: 'http://carrier.test:8080/feed.xml' }));
      expect(named.message).toBe(`refused: carrier.test resolves to ${address}, a ${range} address`);
      // and on a redirect hop, from a fixture the operator allowed: 127.0.0.1,
      // which allows the forms carrying it, so those are not tried here (a
      // refused form is never connected to; an allowed one would be)
      if (range === 'loopback') return;
      const fx = await fixture(() => ({ status: 302, headers: { location: `http://[${address}]/` } }));
      const hop = await refusal(fetcher({ allowPrivateNetworks: ['127.0.0.1/32'] }).fetch({ url: `${fx.origin}/` }));
      expect(hop.message).toMatch(new RegExp(`is a ${range} address$`));
    },
  );
});

describe('fetching', () => {
  it('refuses a loopback URL without the setting, before any connection', async () => {
    const fx = await fixture(() => ({ body: 'secret' }));
    const err = await refusal(fetcher({ allowPrivateNetworks: false }).fetch({ url: `${fx.origin}/admin` }));
    expect(err.message).toBe('refused: 127.0.0.1 is a loopback address');
    await refusal(fetcher({ allowPrivateNetworks: false }).fetch({ url: `http://[::1]:${fx.port}/` }));
    // a name resolving to loopback (the system's own answer for localhost)
    const byName = await refusal(
      fetcher({ allowPrivateNetworks: false }).fetch({ url: `http://localhost:${fx.port}/` }),
    );
    expect(byName.message).toMatch(/^refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address$/);
    expect(fx.requests).toHaveLength(0);
    // with the setting it is fetched
    expect((await fetcher({ allowPrivateNetworks: true }).fetch({ url: `${fx.origin}/admin` })).bytes.toString()).toBe(
      'secret',
    );
  });

  it('refuses a host name that resolves to a private address (or to any refused one among several)', async () => {
    const f = fetcher({
      resolve: resolver({
        'intranet.test': ['10.0.0.7'],
        'mixed.test': ['93.184.216.34', '192.168.0.10'],
        'meta.test': ['169.254.169.254'],
        'v6.test': ['fd12::1'],
      }),
    });
    expect((await refusal(f.fetch({ url: 'http://intranet.test/feed.xml' }))).message).toBe(
      'refused: intranet.test resolves to 10.0.0.7, a private address',
    );
    expect((await refusal(f.fetch({ url: 'https://mixed.test/' }))).message).toBe(
      'refused: mixed.test resolves to 192.168.0.10, a private address',
    );
    expect((await refusal(f.fetch({ url: 'http://meta.test/latest/meta-data/' }))).message).toContain('linkLocal');
    expect((await refusal(f.fetch({ url: 'http://v6.test/' }))).message).toContain('uniqueLocal');
    expect((await refusal(f.fetch({ url: 'http://10.0.0.7/' }))).message).toBe(
      'refused: 10.0.0.7 is a private address',
    );
    expect((await refusal(f.fetch({ url: 'http://[fe80::1]/' }))).message).toBe(
      'refused: fe80::1 is a linkLocal address',
    );
  });

  it('checks every redirect hop: to a private IP, to a name resolving to one, to another scheme', async () => {
    const fx = await fixture((req, url) => {
      if (url.pathname === '/to-ip') return { status: 302, headers: { location: 'http://10.0.0.7/feed.xml' } };
      if (url.pathname === '/to-name') return { status: 301, headers: { location: 'http://intranet.test/feed.xml' } };
      if (url.pathname === '/to-file') return { status: 307, headers: { location: 'file:///etc/passwd' } };
      if (url.pathname === '/to-meta')
        return { status: 308, headers: { location: 'http://169.254.169.254/latest/meta-data/' } };
      if (url.pathname === '/hop') return { status: 302, headers: { location: '/final' } };
      if (url.pathname === '/loop') return { status: 302, headers: { location: '/loop' } };
      return { body: `at ${url.pathname}` };
    });
    const f = fetcher({ resolve: resolver({ 'intranet.test': ['10.0.0.7'] }) });
    expect((await refusal(f.fetch({ url: `${fx.origin}/to-ip` }))).message).toBe(
      'refused: 10.0.0.7 is a private address',
    );
    expect((await refusal(f.fetch({ url: `${fx.origin}/to-name` }))).message).toBe(
      'refused: intranet.test resolves to 10.0.0.7, a private address',
    );
    expect((await refusal(f.fetch({ url: `${fx.origin}/to-file` }))).message).toBe(
      'refused: file: URLs are not fetched (http and https only)',
    );
    expect((await refusal(f.fetch({ url: `${fx.origin}/to-meta` }))).message).toContain('linkLocal');
    const ok = await f.fetch({ url: `${fx.origin}/hop` });
    expect(ok).toMatchObject({ status: 200, url: `${fx.origin}/final` });
    expect(ok.bytes.toString()).toBe('at /final');
    const loop = await f.fetch({ url: `${fx.origin}/loop` }).catch((e: unknown) => e);
    expect(loop).toBeInstanceOf(FetchError);
    expect((loop as FetchError).kind).toBe('redirect');
  });

  it('drops credentials when a redirect leaves the origin', async () => {
    const b = await fixture(() => ({ body: 'b' }));
    const a = await fixture(() => ({ status: 302, headers: { location: `http://other.test:${b.port}/x` } }));
    const f = fetcher({ resolve: resolver({ 'other.test': ['127.0.0.1'] }) });
    await f.fetch({ url: `${a.origin}/`, headers: { authorization: 'Bearer secret', 'if-none-match': 'W/"1"' } });
    expect(a.requests[0]!.headers.authorization).toBe('Bearer secret');
    expect(b.requests[0]!.headers.authorization).toBeUndefined();
    expect(b.requests[0]!.headers['if-none-match']).toBeUndefined();
  });

  it('refuses other schemes and URLs with credentials', async () => {
    const f = fetcher();
    expect((await refusal(f.fetch({ url: 'ftp://example.com/feed' }))).message).toContain('ftp:');
    expect((await refusal(f.fetch({ url: 'http://user:pw@example.com/' }))).message).toContain('credentials');
  });

  it('caps the body: announced, streamed, or inflated from gzip', async () => {
    // made once, before any request: only the size cap may end these fetches
    const bomb = gzipSync(Buffer.alloc(10_000_000, 0));
    const fx = await fixture((req, url): Reply => {
      if (url.pathname === '/announced')
        return { headers: { 'content-length': String(200_000) }, body: Buffer.alloc(200_000, 97) };
      if (url.pathname === '/chunked')
        return { headers: { 'transfer-encoding': 'chunked' }, body: Buffer.alloc(100_000, 97) };
      if (url.pathname === '/bomb') return { headers: { 'content-encoding': 'gzip' }, body: bomb };
      return { body: 'ok' };
    });
    const f = fetcher({ timeoutMs: 60_000 });
    for (const path of ['/announced', '/chunked', '/bomb']) {
      const err = await f.fetch({ url: `${fx.origin}${path}` }).catch((e: unknown) => e);
      expect(err, path).toBeInstanceOf(FetchError);
      expect((err as FetchError).kind, path).toBe('too_large');
    }
    expect((await f.fetch({ url: `${fx.origin}/fine` })).bytes.toString()).toBe('ok');
  });

  it('caps the time: an upstream that never answers is cut at timeoutMs', async () => {
    // The upstream holds the request until the test ends, so only the
    // fetcher's own timer can end the fetch (undici's defaults are minutes).
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const fx = await fixture(async (req, url): Promise<Reply> => {
      if (url.pathname === '/slow') await held;
      return { body: 'ok' };
    });
    const f = fetcher({ timeoutMs: 300 });
    try {
      const started = Date.now();
      const slow = await f.fetch({ url: `${fx.origin}/slow` }).catch((e: unknown) => e);
      expect(slow).toBeInstanceOf(FetchError);
      expect((slow as FetchError).kind).toBe('timeout');
      expect((slow as FetchError).message).toBe(`127.0.0.1:${fx.port} did not answer within 300 ms`);
      expect(Date.now() - started).toBeLessThan(30_000);
      expect((await f.fetch({ url: `${fx.origin}/fine` })).bytes.toString()).toBe('ok');
    } finally {
      release();
    }
  });

  it('keeps at most `hostConcurrency` requests in flight per host', async () => {
    let inFlight = 0;
    let most = 0;
    const fx = await fixture(async () => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, 60));
      inFlight--;
      return { body: 'x' };
    });
    const f = fetcher({ hostConcurrency: 2 });
    await Promise.all(Array.from({ length: 6 }, (_, i) => f.fetch({ url: `${fx.origin}/${i}` })));
    expect(fx.requests).toHaveLength(6);
    expect(most).toBe(2);
  });
});

describe('the guard in a poll', () => {
  it('a feed pointing at loopback fails without the setting; a redirect to the metadata address fails with it', async () => {
    const fx = await startFeeds();
    fixtures.push(fx);
    fx.documents.set('/feed.xml', { body: rssXml([]), type: 'application/rss+xml' });
    h = await startHarness([{ id: 301, name: 'local', connector: { kind: 'rss', url: `${fx.origin}/feed.xml` } }], {
      config: { allowPrivateNetworks: false },
    });
    expect((await h.poll())[0]).toMatchObject({
      status: 'failed',
      message: 'refused: 127.0.0.1 is a loopback address',
    });
    expect(fx.requests).toHaveLength(0);
    expect((await ingestState(h, 301)).last_error).toBe('refused: 127.0.0.1 is a loopback address');
    await h.close();

    fx.queue.push({ status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data/iam/' } });
    h = await startHarness([{ id: 301, name: 'local', connector: { kind: 'rss', url: `${fx.origin}/feed.xml` } }]);
    expect((await h.poll())[0]).toMatchObject({
      status: 'failed',
      message: 'refused: 169.254.169.254 is a linkLocal address',
    });
  });

  it('a feed whose host name resolves to a private address fails', async () => {
    h = await startHarness(
      [{ id: 302, name: 'intranet', connector: { kind: 'rss', url: 'http://intranet.test/feed.xml' } }],
      {
        resolve: resolver({ 'intranet.test': ['192.168.10.20'] }),
      },
    );
    expect((await h.poll())[0]).toMatchObject({
      status: 'failed',
      message: 'refused: intranet.test resolves to 192.168.10.20, a private address',
    });
  });
});
