// GET /api/embed/v1/walls/{id}/stream — the wall's changes as Server-Sent
// Events (stream-hub.ts). The answer is written on the raw response: SSE is
// a plain text framing, and the stream outlives Fastify's reply cycle.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { sendError } from '../envelope.js';
import { clientOf, corsHeaders } from './access.js';
import { requireEmbedWall } from './routes.js';
import { requestBase } from '../self-url.js';
import { EMBED_MESSAGES, EmbedStreamQuery, EmbedWallParams, streamResponses } from './schemas.js';

/** When a client over its stream cap may try again (the embed polls meanwhile), s */
const CLIENT_STREAMS_RETRY_S = 30;

export async function embedStreamRoute(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/walls/:wallId/stream',
    {
      // a HEAD would hold a stream open without ever reading it
      exposeHeadRoute: false,
      schema: {
        tags: ['embed'],
        summary: 'Live changes of a wall (Server-Sent Events)',
        description:
          'A post that becomes visible or changes is an `upsert`, one hidden or deleted a `remove`; `reset` asks the ' +
          'client to reload the first page; `screen` carries the wall’s whole live screen state (sent first, and on every ' +
          'change: pause, spotlight, slides, posts hidden from the screen, layout, theme, QR, schedule). ' +
          'Over the per-instance cap of open streams: 503; over the cap of one ' +
          'client (an IPv4 address or an IPv6 /64): 429 — poll the posts instead.',
        params: EmbedWallParams,
        querystring: EmbedStreamQuery,
        response: streamResponses(),
      },
    },
    async (request, reply) => {
      const hub = request.server.embedStreams;
      const wallId = Number(request.params.wallId);
      await requireEmbedWall(request, wallId);
      if (hub.full) return sendError(reply, 'json', 503, EMBED_MESSAGES.streamsFull);
      // one address cannot hold the instance's streams: its next one is refused, the ones it holds go on
      const client = clientOf(request);
      if (hub.clientFull(client)) {
        reply.header('Retry-After', CLIENT_STREAMS_RETRY_S);
        return sendError(reply, 'json', 429, EMBED_MESSAGES.clientStreams);
      }
      const header = request.headers['last-event-id'];
      const lastEventId = typeof header === 'string' ? header : request.query.lastEventId;
      const origin = typeof request.headers.origin === 'string' ? request.headers.origin : undefined;
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        ...Object.fromEntries(
          Object.entries(reply.getHeaders()).filter(([name]) => name.toLowerCase().startsWith('x-ratelimit-')),
        ),
        ...corsHeaders(request.embedGrant, origin),
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-cache, no-transform',
        // proxies (nginx) must pass events on at once
        'X-Accel-Buffering': 'no',
      });
      res.write('retry: 2000\n\n');
      hub.attach({ res, wallId, key: request.query.key, client, base: requestBase(request) }, lastEventId);
    },
  );
}
