// A wall's moderation rules: read, replace (or dry-run), apply to stored posts.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { applyRules, getRules, putRules } from '../../manage/rules.js';
import { access } from './access.js';
import { opOf } from './auth.js';
import { db, doc, num, ok } from './common.js';
import { Ok, responses, WallParams } from './schemas.js';
import { ApplyBody, ApplyRecord, RulesBody, RulesQuery, RulesRecord, type RulesInput } from '../../schemas/rules.js';
import { NoQuery } from '../../schemas/fields.js';

export async function ruleRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tag = 'manage: moderation rules';

  app.get(
    '/walls/:wallId/rules',
    {
      config: access('viewer', 'wall'),
      schema: {
        ...doc(
          tag,
          'A wall’s moderation rules',
          'In order: the first rule that matches a post decides, then the mode.',
        ),
        params: WallParams,
        querystring: NoQuery,
        response: responses({ 200: Ok(RulesRecord, 'the rules') }, 404),
      },
    },
    async (request) => ok(await getRules(db(request), num(request.params.wallId))),
  );

  app.put(
    '/walls/:wallId/rules',
    {
      config: access('moderator', 'wall'),
      schema: {
        ...doc(
          tag,
          'Replace a wall’s moderation rules',
          'Ids are assigned when absent. New posts are judged at ingestion; stored ones only by `…/rules/apply`. ' +
            '`?dryRun=true` saves nothing and reports, per rule, the pending posts it would decide and change.',
        ),
        params: WallParams,
        querystring: RulesQuery,
        body: RulesBody,
        response: responses({ 200: Ok(RulesRecord, 'the rules as stored (or as they would be)') }, 404, 409),
      },
    },
    async (request) =>
      ok(
        await putRules(
          opOf(request),
          num(request.params.wallId),
          request.body as unknown as RulesInput,
          request.query.dryRun === 'true',
        ),
      ),
  );

  app.post(
    '/walls/:wallId/rules/apply',
    {
      config: access('moderator', 'wall'),
      schema: {
        ...doc(
          tag,
          'Apply a wall’s rules to its stored posts',
          'Judges the pending posts (and the approved ones with `includeApproved`); rejected posts stay as they are. Counts per rule.',
        ),
        params: WallParams,
        body: ApplyBody,
        response: responses({ 200: Ok(ApplyRecord, 'what the rules did') }, 404, 409),
      },
    },
    async (request) => ok(await applyRules(opOf(request), num(request.params.wallId), request.body ?? {})),
  );
}
