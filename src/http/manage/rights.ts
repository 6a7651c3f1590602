// Rights management: an account's settings and opt-out list, asking for a
// wall's posts, a post's rights with their evidence, answers recorded by
// hand, and the evidence report (JSON, or CSV with Accept: text/csv, or a PDF
// with Accept: application/pdf).
// Reads: any role; asking and recording: moderators; settings: editors.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';
import { Type } from 'typebox';
import {
  addAccountOptOut,
  getPostRights,
  getRightsSettings,
  listAccountOptOuts,
  recordPostAnswer,
  removeAccountOptOut,
  reportFileName,
  requestWallRights,
  rightsReport,
  rightsReportCsv,
  rightsReportPdfOf,
  REPORT_COLUMNS,
  updateRightsSettings,
} from '../../manage/rights.js';
import { rightsFetcher } from '../../rights/fetcher.js';
import { perServer } from '../per-server.js';
import type { RightsDeps } from '../../rights/service.js';
import {
  OptOutBody,
  OptOutParams,
  OptOutRecord,
  RequestOutcomes,
  RightsAnswerBody,
  RightsRecord,
  RightsReport,
  RightsReportQuery,
  RightsRequestBody,
  RightsSettingsPatch,
  RightsSettingsRecord,
} from '../../schemas/rights.js';
import { access } from './access.js';
import { opOf } from './auth.js';
import { db, doc, num, ok } from './common.js';
import { manageRoute } from './route.js';
import { AccountParams, Ok, PostParams, WallParams, responses } from './schemas.js';

const TAG = 'manage: rights';
const CSV_TYPE = 'text/csv; charset=utf-8';
const PDF_TYPE = 'application/pdf';

/** One guarded fetcher and one memory of the channels (sessions) per server, closed with it. */
const asking = perServer(
  (app) => ({
    fetcher: rightsFetcher(app.ctx.oauth?.allowPrivateNetworks ?? false),
    memory: new Map<string, unknown>(),
  }),
  ({ fetcher }) => fetcher.close(),
);

/** What asking needs from a request's server: its store, key, clock, fetcher and memory. */
function depsOf(request: FastifyRequest): RightsDeps {
  const app = request.server;
  const { fetcher, memory } = asking.of(app);
  return {
    db: app.ctx.store.db,
    secretKey: app.ctx.connectionKey ?? null,
    fetcher,
    memory,
    now: app.ctx.now,
    ...(app.ctx.rightsListenMs !== undefined ? { listenMs: app.ctx.rightsListenMs } : {}),
    // the server's caches and streams hear of a change at once
    announce: (wallId) => app.ctx.changes.wallChanged(wallId),
  };
}

export async function rightsRoutes(fastify: FastifyInstance) {
  fastify.addHook('onClose', asking.close);
  const route = manageRoute(fastify, TAG);

  route.get(
    '/accounts/:accountId/rights-settings',
    {
      access: ['viewer', 'account'],
      summary: 'An account’s rights settings',
      description:
        'The request template, grant hashtag, decline words, limits and the connection that asks on each network.',
      params: AccountParams,
      ok: [200, RightsSettingsRecord, 'the settings (defaults until changed)'],
      errors: [404],
    },
    async (request) => await getRightsSettings(db(request), num(request.params.accountId)),
  );

  route.patch(
    '/accounts/:accountId/rights-settings',
    {
      access: ['editor', 'account'],
      summary: 'Change an account’s rights settings',
      description:
        'Only the fields given change. The template must say how to grant ({hashtag} or the hashtag itself); each connection named must be ' +
        'the account’s and of that network.',
      params: AccountParams,
      body: RightsSettingsPatch,
      ok: [200, RightsSettingsRecord, 'the settings after the change'],
      errors: [404, 409],
    },
    async (request) => await updateRightsSettings(opOf(request), num(request.params.accountId), request.body),
  );

  route.post(
    '/walls/:wallId/rights/requests',
    {
      access: ['moderator', 'wall'],
      summary: 'Ask for the rights to posts of a wall',
      description:
        'Each post is asked on its own: by a reply on its network through the account’s connection where Wallery can (Mastodon, Bluesky, …), ' +
        'else by hand (`method: manual` in the outcome, with the text to send). A post is refused when its author is on the opt-out list, ' +
        'when the daily limits are reached (per author, per account), or when its rights are not to be asked (requested, granted, declined, revoked). ' +
        'The answer is heard by the rights watcher beside ingestion.',
      params: WallParams,
      body: RightsRequestBody,
      ok: [200, RequestOutcomes, 'what happened to each post, in the order given'],
      errors: [404, 409],
    },
    async (request) =>
      await requestWallRights(
        opOf(request),
        depsOf(request),
        num(request.params.wallId),
        request.body.postIds,
        request.body.method,
      ),
  );

  route.get(
    '/walls/:wallId/posts/:postId/rights',
    {
      access: ['viewer', 'wall'],
      summary: 'A post’s rights and their evidence',
      description: 'Its state, the request and the answer (texts, links, times) and every step, oldest first.',
      params: PostParams,
      ok: [200, RightsRecord, 'the post’s rights'],
      errors: [404],
    },
    async (request) => await getPostRights(db(request), num(request.params.wallId), num(request.params.postId)),
  );

  route.post(
    '/walls/:wallId/posts/:postId/rights/answer',
    {
      access: ['moderator', 'wall'],
      summary: 'Record an author’s answer by hand',
      description:
        'For an answer Wallery cannot read (a network asked by hand, an e-mail): granted, declined (the author goes on the opt-out list) ' +
        'or revoked (only after a grant). Kept in the evidence with who recorded it. 409 for a revoke without a grant.',
      params: PostParams,
      body: RightsAnswerBody,
      ok: [200, RightsRecord, 'the post’s rights after it'],
      errors: [404, 409],
    },
    async (request) =>
      await recordPostAnswer(opOf(request), num(request.params.wallId), num(request.params.postId), request.body),
  );

  route.get(
    '/accounts/:accountId/rights/opt-outs',
    {
      access: ['viewer', 'account'],
      summary: 'The authors never asked again',
      description: 'Authors who declined, and those an operator put on the list; newest first.',
      params: AccountParams,
      ok: [200, Type.Array(OptOutRecord), 'the opt-out list'],
      errors: [404],
    },
    async (request) => await listAccountOptOuts(db(request), num(request.params.accountId)),
  );

  route.post(
    '/accounts/:accountId/rights/opt-outs',
    {
      access: ['moderator', 'account'],
      summary: 'Put an author on the opt-out list',
      description: 'They are never asked again (by hand or by a rule). 409 when already on it.',
      params: AccountParams,
      body: OptOutBody,
      ok: [201, OptOutRecord, 'the entry'],
      errors: [404, 409],
    },
    async (request) => await addAccountOptOut(opOf(request), num(request.params.accountId), request.body),
  );

  route.delete(
    '/accounts/:accountId/rights/opt-outs/:author',
    {
      access: ['moderator', 'account'],
      summary: 'Take an author off the opt-out list',
      description: 'For an author who asked to be asked again. `author` is network:handle, as the list shows it.',
      params: OptOutParams,
      ok: [200, OptOutRecord, 'the entry as it was'],
      errors: [404, 409],
    },
    async (request) => await removeAccountOptOut(opOf(request), num(request.params.accountId), request.params.author),
  );

  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/accounts/:accountId/rights/report',
    {
      config: access('viewer', 'account'),
      schema: {
        ...doc(
          TAG,
          'The rights evidence report',
          'Every post the account asked about (filter by `wallId`, `state`), oldest request first: the request’s and the answer’s links, ' +
            `texts and times, who decided. With \`Accept: text/csv\`: a CSV download for the legal team (header row \`${REPORT_COLUMNS.join(',')}\`); ` +
            'with `Accept: application/pdf`: the same as a PDF to file (the counts by state, then each post’s evidence, links clickable).',
        ),
        params: AccountParams,
        querystring: RightsReportQuery,
        response: {
          ...responses({}, 404),
          200: {
            description:
              'the report (JSON), or CSV when Accept asks for text/csv, or a PDF when it asks for application/pdf',
            headers: {
              'Content-Disposition': { description: 'CSV and PDF only: a download', schema: { type: 'string' } },
              Vary: { description: 'the answer depends on Accept', schema: { const: 'Accept' } },
            },
            content: {
              'application/json': { schema: Ok(RightsReport, 'the report') },
              'text/csv': {
                schema: Type.String({
                  description: 'a header row, then one row per post',
                  anyOf: [{ title: 'header row, then one row per post', pattern: `^${REPORT_COLUMNS.join(',')}\\n` }],
                }),
              },
              // a binary body is described by its media type (OpenAPI 3.1); the handler sends its bytes
              [PDF_TYPE]: {
                schema: Type.Unsafe<Buffer>({
                  type: 'string',
                  contentMediaType: PDF_TYPE,
                  description: 'the report as a PDF document (A4)',
                }),
              },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const filter = { ...(q.wallId ? { wallId: num(q.wallId) } : {}), ...(q.state ? { state: q.state } : {}) };
      const report = await rightsReport(db(request), num(request.params.accountId), filter, request.server.ctx.now());
      reply.header('Vary', 'Accept');
      const type = new Negotiator(request.raw).mediaType(['application/json', 'text/csv', PDF_TYPE]);
      if (type === 'text/csv')
        return reply
          .type(CSV_TYPE)
          .header('Content-Disposition', `attachment; filename="${reportFileName(report, 'csv')}"`)
          .send(rightsReportCsv(report));
      if (type === PDF_TYPE) {
        const pdf = await rightsReportPdfOf(db(request), report, filter, request.server.ctx.rightsReportFont ?? null);
        return reply
          .type(PDF_TYPE)
          .header('Content-Disposition', `attachment; filename="${reportFileName(report, 'pdf')}"`)
          .send(pdf);
      }
      return ok(report);
    },
  );
}
