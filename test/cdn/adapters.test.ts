// The purge adapters against local fixture servers that check each
// provider's documented request (method, path, auth header, tags), and the
// purger's queue: coalesced tags, batches, retries of a 5xx, no retry of a
// refused token, counts per outcome, and no token in what it logs.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CdnPurger } from '../../src/cdn/purger.js';
import { purgeTarget, type ApiBases } from '../../src/cdn/targets.js';
import { tagHeaders, sharedCacheControl } from '../../src/cdn/tags.js';
import { loadCdnConfig } from '../../src/config.js';
import { ChangeBus } from '../../src/store/changes.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

const TOKEN = 'secret-token-never-logged';

describe('CDN purge adapters and queue', () => {
  let server: Server;
  let bases: ApiBases;
  const seen: Seen[] = [];
  /** status codes to answer next, in order (then 200) */
  const failures: number[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
        const status = failures.shift() ?? 200;
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ success: status === 200 }));
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    bases = { cloudflare: base, fastly: base, bunny: base };
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const purgeOnce = async (target: ReturnType<typeof purgeTarget>, tags: string[]) => {
    seen.length = 0;
    const purger = new CdnPurger([target], { tagPrefix: 'wallery', minRetryMs: 1, maxRetryMs: 5 });
    purger.purge(tags);
    await purger.idle();
    return purger;
  };

  it('Cloudflare: POST /client/v4/zones/{zone}/purge_cache {"tags": […]} with a Bearer token', async () => {
    await purgeOnce(purgeTarget({ kind: 'cloudflare', zoneId: 'zone123', token: TOKEN }, bases), ['wallery-w1']);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.method).toBe('POST');
    expect(seen[0]!.url).toBe('/client/v4/zones/zone123/purge_cache');
    expect(seen[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(seen[0]!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(seen[0]!.body)).toEqual({ tags: ['wallery-w1'] });
  });

  it('Fastly: POST /service/{id}/purge with Surrogate-Key and Fastly-Key', async () => {
    await purgeOnce(purgeTarget({ kind: 'fastly', serviceId: 'svc1', key: TOKEN }, bases), [
      'wallery-w1',
      'wallery-a2',
    ]);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/service/svc1/purge' });
    expect(seen[0]!.headers['fastly-key']).toBe(TOKEN);
    expect(seen[0]!.headers['surrogate-key']).toBe('wallery-w1 wallery-a2');
  });

  it('Bunny: POST /pullzone/{id}/purgeCache {"CacheTag": tag} with AccessKey, one tag a request', async () => {
    await purgeOnce(purgeTarget({ kind: 'bunny', pullZoneId: '42', key: TOKEN }, bases), ['wallery-w1', 'wallery-a2']);
    expect(seen.map((s) => [s.method, s.url, s.headers.accesskey, JSON.parse(s.body)])).toEqual([
      ['POST', '/pullzone/42/purgeCache', TOKEN, { CacheTag: 'wallery-w1' }],
      ['POST', '/pullzone/42/purgeCache', TOKEN, { CacheTag: 'wallery-a2' }],
    ]);
  });

  it('Varnish: BAN with the tags in Surrogate-Key', async () => {
    // Node's HTTP parser knows no BAN method: the fixture reads the request's head off the socket
    const heads: string[] = [];
    const raw = createNetServer((socket) => {
      let head = '';
      socket.on('data', (d: Buffer) => {
        head += d.toString();
        if (head.includes('\r\n\r\n')) {
          heads.push(head);
          socket.end('HTTP/1.1 200 Banned\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
        }
      });
    });
    raw.listen(0, '127.0.0.1');
    await once(raw, 'listening');
    const url = `http://127.0.0.1:${(raw.address() as { port: number }).port}/`;
    const purger = await purgeOnce(purgeTarget({ kind: 'varnish', url }), ['wallery-w1', 'wallery-a2']);
    raw.close();
    expect(purger.stats.purges.varnish).toEqual({ purged: 1, retried: 0, failed: 0 });
    expect(heads).toHaveLength(1);
    expect(heads[0]).toMatch(/^BAN \/ HTTP\/1\.1\r\n/);
    expect(heads[0]).toMatch(/\r\nsurrogate-key: wallery-w1 wallery-a2\r\n/i);
  });

  it('changes on the bus become tags, coalesced into one request; `all` makes the others moot', async () => {
    seen.length = 0;
    const bus = new ChangeBus();
    const purger = new CdnPurger([purgeTarget({ kind: 'fastly', serviceId: 's', key: TOKEN }, bases)], {
      tagPrefix: 'wallery',
    }).attach(bus);
    bus.wallChanged(7);
    bus.wallChanged(7);
    bus.accountChanged(3);
    await purger.idle();
    bus.wallChanged(8);
    bus.publish({ kind: 'all' });
    bus.wallChanged(9);
    await purger.idle();
    expect(seen.map((s) => s.headers['surrogate-key'])).toEqual(['wallery-w7 wallery-a3', 'wallery']);
    await purger.close();
    bus.wallChanged(10);
    await purger.idle();
    expect(seen).toHaveLength(2);
  });

  it('a 5xx or 429 is retried; a refused token is given up at once, logged without the token', async () => {
    failures.push(503, 429);
    const ok = await purgeOnce(purgeTarget({ kind: 'cloudflare', zoneId: 'z', token: TOKEN }, bases), ['wallery-w1']);
    expect(seen).toHaveLength(3);
    expect(ok.stats.purges.cloudflare).toEqual({ purged: 1, retried: 2, failed: 0 });

    failures.push(403);
    const logged: unknown[] = [];
    seen.length = 0;
    const refused = new CdnPurger([purgeTarget({ kind: 'cloudflare', zoneId: 'z', token: TOKEN }, bases)], {
      tagPrefix: 'wallery',
      minRetryMs: 1,
      log: { warn: (details, message) => logged.push(details, message) },
    });
    refused.purge(['wallery-w1']);
    await refused.idle();
    expect(seen).toHaveLength(1);
    expect(refused.stats.purges.cloudflare).toEqual({ purged: 0, retried: 0, failed: 1 });
    expect(JSON.stringify(logged)).toContain('cloudflare purge answered 403');
    expect(JSON.stringify(logged)).not.toContain(TOKEN);
  });

  it('headers: s-maxage and the tags of a wall and its account', () => {
    const caching = { sharedMaxAge: 3600, tagPrefix: 'wallery' };
    expect(sharedCacheControl(5, caching)).toBe(
      'public, max-age=5, s-maxage=3600, stale-while-revalidate=30, stale-if-error=86400',
    );
    expect(tagHeaders(caching, 12, 3)).toEqual({
      'Surrogate-Key': 'wallery wallery-a3 wallery-w12',
      'Cache-Tag': 'wallery,wallery-a3,wallery-w12',
      'CDN-Tag': 'wallery,wallery-a3,wallery-w12',
    });
  });

  it('CDN_* settings: targets, their secrets required, a long s-maxage once purges are on', () => {
    expect(loadCdnConfig({})).toEqual({ targets: [], tagPrefix: 'wallery', sharedMaxAge: 5 });
    const config = loadCdnConfig({
      CDN_PURGE: 'varnish:http://10.0.0.5:6081, cloudflare:abc123,fastly:SVC,bunny:42',
      CDN_CLOUDFLARE_TOKEN: 'cf',
      CDN_FASTLY_KEY: 'fk',
      CDN_BUNNY_KEY: 'bk',
      CDN_TAG_PREFIX: 'shop-wall',
    });
    expect(config.sharedMaxAge).toBe(3600);
    expect(config.tagPrefix).toBe('shop-wall');
    expect(config.targets).toEqual([
      { kind: 'varnish', url: 'http://10.0.0.5:6081/' },
      { kind: 'cloudflare', zoneId: 'abc123', token: 'cf' },
      { kind: 'fastly', serviceId: 'SVC', key: 'fk' },
      { kind: 'bunny', pullZoneId: '42', key: 'bk' },
    ]);
    expect(() => loadCdnConfig({ CDN_PURGE: 'cloudflare:abc' })).toThrow(/CDN_CLOUDFLARE_TOKEN must be set/);
    expect(() => loadCdnConfig({ CDN_PURGE: 'akamai:x' })).toThrow(/CDN_PURGE must list targets/);
    expect(() => loadCdnConfig({ CDN_PURGE: 'varnish:ftp://x' })).toThrow(/http/);
    expect(() => loadCdnConfig({ CDN_TAG_PREFIX: 'Bad Prefix' })).toThrow(/CDN_TAG_PREFIX/);
  });
});
