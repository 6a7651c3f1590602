// POST /events: the embed's beacons (navigator.sendBeacon sends text/plain,
// which this route parses as JSON; bodies over 64 KiB are refused, 413). Authenticated by the
// publishable key, whose wall they count for; the key's origin rules and the
// analytics rate limits apply (access.ts). Answers 202 `{}` to whatever it
// keeps — a bot's beacon, a repeat, events naming posts not on the wall are
// dropped, not refused, so nothing tells a sender what was counted. Logged
// at warn and above only: no client address of a beacon reaches the logs.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { isbot } from 'isbot';
import { LRUCache } from 'lru-cache';
import { eventProblem } from '../../domain/analytics.js';
import { ApiError, MESSAGES } from '../errors.js';
import { EmbedEventsBody, EmbedKeyQuery, eventsResponses } from './schemas.js';

/** A beacon holds at most 50 small events: a few KiB. */
export const EVENTS_BODY_LIMIT = 64 * 1024;

declare module 'fastify' {
  interface FastifyRequest {
    /** the beacon's body as it came (its digest tells a resend) */
    beaconText: string | null;
  }
}

export async function embedEventsRoute(fastify: FastifyInstance) {
  // isbot's one large regular expression, once per user agent seen lately (browsers send few distinct ones)
  const bots = new LRUCache<string, boolean>({ max: 1000 });
  const isBot = (ua: string) => {
    let verdict = bots.get(ua);
    if (verdict === undefined) bots.set(ua, (verdict = isbot(ua)));
    return verdict;
  };
  // This route's own parser: JSON whatever the Content-Type (sendBeacon sends
  // text/plain), at most EVENTS_BODY_LIMIT, and the text kept for the digest.
  const json = fastify.getDefaultJsonParser('error', 'remove');
  fastify.decorateRequest('beaconText', null);
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', { parseAs: 'string', bodyLimit: EVENTS_BODY_LIMIT }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString();
    request.beaconText = text;
    json(request, text, done);
  });
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/events',
    {
      logLevel: 'warn',
      config: { embedEvents: true },
      schema: {
        tags: ['embed'],
        summary: 'Report what visitors saw and clicked (analytics beacons)',
        description:
          'Up to 50 events per call, for the wall of the key: `impression` (a post at least half visible for 1 s; ' +
          'once per page view), `click` (the post’s link), `cta_click`, `product_click` and `wall_load` (once per page ' +
          'view). `Content-Type: text/plain` is read as JSON (what `navigator.sendBeacon` sends; no CORS preflight). ' +
          'No cookies, and nothing about the visitor is stored: the counts are per wall, post, product and UTC day.',
        querystring: EmbedKeyQuery,
        body: EmbedEventsBody,
        response: eventsResponses(),
      },
    },
    async (request, reply) => {
      const problem = request.body.events.map(eventProblem).find((p) => p !== null);
      if (problem) throw new ApiError(400, problem);
      reply.code(202);
      const recorder = request.server.ctx.analytics;
      const ua = request.headers['user-agent'];
      if (!recorder || (typeof ua === 'string' && isBot(ua))) return {};
      const grant = request.embedGrant!;
      const { wallGone } = await recorder.record(
        grant.wallId,
        request.body,
        request.server.ctx.now(),
        request.beaconText ?? undefined,
      );
      if (wallGone) throw new ApiError(404, MESSAGES.wallNotFound);
      return {};
    },
  );
}
