// What needs an operator's attention across the walls the token sees (the
// console's Home), in one read.
import type { FastifyInstance } from 'fastify';
import { attention, NEAR_QUOTA_PERCENT } from '../../manage/attention.js';
import { AttentionRecord } from '../../schemas/attention.js';
import { scopeOf } from './access.js';
import { db } from './common.js';
import { manageRoute } from './route.js';

export async function attentionRoutes(app: FastifyInstance) {
  manageRoute(app, 'manage: attention').get(
    '/attention',
    {
      access: ['viewer', 'filtered'],
      summary: 'What needs attention',
      description:
        'Across the live walls the token sees: posts waiting for a decision per wall, enabled feeds whose last poll ' +
        'failed, webhook endpoints that are failing or were disabled by failures, accounts that used ' +
        `${NEAR_QUOTA_PERCENT} % or more of their daily call limit today, and today’s impressions and clicks (UTC day; ` +
        'the analytics counters are written about once a second). Each list holds the first 50, with its total.',
      ok: [200, AttentionRecord, 'what needs attention'],
    },
    async (request) => attention(db(request), scopeOf(request), request.server.ctx.now(), request.server.ctx.quota),
  );
}
