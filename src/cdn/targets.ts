// Where purges go: a Varnish (or any cache taking the same request) by an
// HTTP BAN, and the purge-by-tag APIs of Cloudflare, Fastly and Bunny. Each
// adapter sends one request for a batch of tags; a failure says whether it
// is worth retrying (network, 429, 5xx) or not (a refused token, a bad zone).
// Tokens are sent in headers only and never appear in an error or a log.
import { AbortError } from 'p-retry';

export type PurgeTargetSpec =
  /** BAN <url> with `Surrogate-Key: tag tag…` (deploy/varnish/wallery.vcl bans the objects carrying one) */
  | { kind: 'varnish'; url: string }
  /** POST /client/v4/zones/{zone}/purge_cache {"tags": […]}, Authorization: Bearer <token> */
  | { kind: 'cloudflare'; zoneId: string; token: string }
  /** POST /service/{id}/purge with `Surrogate-Key: tag tag…` and Fastly-Key */
  | { kind: 'fastly'; serviceId: string; key: string }
  /** POST /pullzone/{id}/purgeCache {"CacheTag": tag} with AccessKey: one tag a request */
  | { kind: 'bunny'; pullZoneId: string; key: string };

export type PurgeTargetKind = PurgeTargetSpec['kind'];

export interface PurgeTarget {
  /** the `target` label of the metrics and the logs: the kind, never a URL or a token */
  readonly name: PurgeTargetKind;
  /** most tags one request may carry (the provider's documented limit, or lower) */
  readonly batch: number;
  /** purges these tags; throws p-retry's AbortError when retrying cannot help */
  purge(tags: string[]): Promise<void>;
}

/** The providers' API hosts; tests point them at local fixture servers. */
export interface ApiBases {
  cloudflare: string;
  fastly: string;
  bunny: string;
}

export const API_BASES: ApiBases = {
  cloudflare: 'https://api.cloudflare.com',
  fastly: 'https://api.fastly.com',
  bunny: 'https://api.bunny.net',
};

/** One request's time cap. */
export const PURGE_TIMEOUT_MS = 10_000;

async function send(name: PurgeTargetKind, url: string, init: RequestInit): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(PURGE_TIMEOUT_MS) });
  } catch (error) {
    // a network failure or the time cap: worth retrying (the cause names no secret)
    throw new Error(`${name} purge request failed: ${(error as Error).message}`);
  }
  if (res.ok) return res;
  await res.body?.cancel();
  const message = `${name} purge answered ${res.status}`;
  if (res.status === 429 || res.status >= 500) throw new Error(message);
  throw new AbortError(message);
}

export function purgeTarget(spec: PurgeTargetSpec, bases: ApiBases = API_BASES): PurgeTarget {
  switch (spec.kind) {
    case 'varnish':
      return {
        name: 'varnish',
        // the ban expression grows with each tag; keep a request's header short
        batch: 100,
        purge: async (tags) => {
          const res = await send('varnish', spec.url, { method: 'BAN', headers: { 'Surrogate-Key': tags.join(' ') } });
          await res.body?.cancel();
        },
      };
    case 'cloudflare':
      return {
        name: 'cloudflare',
        // 30 tags a call is the limit every plan has had; newer plans take 100
        batch: 30,
        purge: async (tags) => {
          const res = await send(
            'cloudflare',
            `${bases.cloudflare}/client/v4/zones/${encodeURIComponent(spec.zoneId)}/purge_cache`,
            {
              method: 'POST',
              headers: { Authorization: `Bearer ${spec.token}`, 'Content-Type': 'application/json' },
              body: JSON.stringify({ tags }),
            },
          );
          const answer = (await res.json().catch(() => null)) as { success?: boolean } | null;
          if (answer?.success === false) throw new AbortError('cloudflare purge answered success: false');
        },
      };
    case 'fastly':
      return {
        name: 'fastly',
        batch: 256,
        purge: async (tags) => {
          const res = await send('fastly', `${bases.fastly}/service/${encodeURIComponent(spec.serviceId)}/purge`, {
            method: 'POST',
            headers: { 'Fastly-Key': spec.key, 'Surrogate-Key': tags.join(' '), Accept: 'application/json' },
          });
          await res.body?.cancel();
        },
      };
    case 'bunny':
      return {
        name: 'bunny',
        batch: 1,
        purge: async (tags) => {
          const res = await send('bunny', `${bases.bunny}/pullzone/${encodeURIComponent(spec.pullZoneId)}/purgeCache`, {
            method: 'POST',
            headers: { AccessKey: spec.key, 'Content-Type': 'application/json' },
            body: JSON.stringify({ CacheTag: tags[0] }),
          });
          await res.body?.cancel();
        },
      };
  }
}
