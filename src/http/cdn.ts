// What the server tells CDNs, and the purge hook: the embed API and the
// hosted page read `app.cdn` for their s-maxage and tags (src/cdn/tags.ts);
// with purge targets configured (CDN_PURGE), every change the bus announces
// is purged by tag (src/cdn/purger.ts), without a write ever waiting for it.
import type { FastifyInstance } from 'fastify';
import type { CdnConfig } from '../config.js';
import { CdnPurger } from '../cdn/purger.js';
import { DEFAULT_CDN_CACHING, type CdnCaching } from '../cdn/tags.js';
import { purgeTarget, type ApiBases } from '../cdn/targets.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** s-maxage and tag prefix of the answers CDNs may keep */
    cdn: CdnCaching;
    /** the purge hook; null without purge targets */
    cdnPurger: CdnPurger | null;
  }
}

export interface CdnOptions extends Partial<CdnConfig> {
  /** the providers' API hosts (tests: local fixture servers) */
  apiBases?: ApiBases;
}

export function registerCdn(app: FastifyInstance, options: CdnOptions = {}): void {
  const caching: CdnCaching = {
    sharedMaxAge: options.sharedMaxAge ?? DEFAULT_CDN_CACHING.sharedMaxAge,
    tagPrefix: options.tagPrefix ?? DEFAULT_CDN_CACHING.tagPrefix,
  };
  app.decorate('cdn', caching);
  const targets = (options.targets ?? []).map((spec) => purgeTarget(spec, options.apiBases));
  const purger =
    targets.length > 0
      ? new CdnPurger(targets, { tagPrefix: caching.tagPrefix, log: app.log.child({ component: 'cdn' }) }).attach(
          app.ctx.changes,
        )
      : null;
  app.decorate('cdnPurger', purger);
  if (purger) {
    if (app.ctx.metrics) app.ctx.metrics.sources.cdnPurges = purger;
    app.addHook('onClose', () => purger.close());
  }
}
