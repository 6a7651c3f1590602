// Analytics reports: a wall's (JSON, or its days as CSV with Accept:
// text/csv) and a product's. Reads: any role may call them.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import Negotiator from 'negotiator';
import { Type } from 'typebox';
import { analyticsCsv, CSV_COLUMNS, csvFileName, productAnalytics, wallAnalytics } from '../../manage/analytics.js';
import { AnalyticsQuery, ProductAnalytics, WallAnalytics } from '../../schemas/analytics.js';
import { manageRoute } from './route.js';
import { access } from './access.js';
import { db, doc, num, ok } from './common.js';
import { Ok, ProductParams, WallParams, responses } from './schemas.js';

const CSV_TYPE = 'text/csv; charset=utf-8';
const CSV_PATTERN = `^${CSV_COLUMNS.join(',')}\\n(?:\\d{4}-\\d{2}-\\d{2}(?:,\\d+){5},\\d+(?:\\.\\d+)?\\n)*$`;
const TAG = 'manage: analytics';
const RANGE_NOTE =
  '`from` and `to` are UTC days (YYYY-MM-DD), inclusive; by default the 30 days ending today; at most 366 days. ' +
  'Counted from the embed’s beacons (POST /api/embed/v1/events), written about once a second.';

export async function analyticsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const route = manageRoute(fastify, TAG);

  app.get(
    '/walls/:wallId/analytics',
    {
      config: access('viewer', 'wall'),
      schema: {
        ...doc(
          TAG,
          'A wall’s analytics',
          `Totals, every day, the top posts and products. ${RANGE_NOTE} With \`Accept: text/csv\`: the days as CSV ` +
            '(a header row `day,wallLoads,impressions,clicks,ctaClicks,productClicks,ctr`), as a download.',
        ),
        params: WallParams,
        querystring: AnalyticsQuery,
        response: {
          ...responses({}, 404),
          200: {
            description: 'the report (JSON), or its days as CSV when Accept asks for text/csv',
            headers: {
              'Content-Disposition': {
                description: 'CSV only: a download named after the wall and the range',
                schema: { type: 'string' },
              },
              Vary: { description: 'the answer depends on Accept', schema: { const: 'Accept' } },
            },
            content: {
              'application/json': { schema: Ok(WallAnalytics, 'the report') },
              'text/csv': {
                schema: Type.String({
                  description: 'the days, one row each, after a header row',
                  anyOf: [{ title: 'header row, then one row per day', pattern: CSV_PATTERN }],
                }),
              },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const report = await wallAnalytics(
        db(request),
        num(request.params.wallId),
        request.query,
        request.server.ctx.now(),
      );
      reply.header('Vary', 'Accept');
      const wanted = new Negotiator(request.raw).mediaType(['application/json', 'text/csv']);
      if (wanted === 'text/csv')
        return reply
          .type(CSV_TYPE)
          .header('Content-Disposition', `attachment; filename="${csvFileName(report)}"`)
          .send(analyticsCsv(report));
      return ok(report);
    },
  );

  route.get(
    '/products/:productId/analytics',
    {
      access: ['viewer', 'product'],
      summary: 'A product’s analytics',
      description: `Its clicks in total, every day, and per wall. ${RANGE_NOTE}`,
      params: ProductParams,
      query: AnalyticsQuery,
      ok: [200, ProductAnalytics, 'the report'],
      errors: [404],
    },
    async (request) =>
      await productAnalytics(db(request), num(request.params.productId), request.query, request.server.ctx.now()),
  );
}
