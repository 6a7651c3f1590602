// A wall's moderation rules: read, replace (or dry-run), apply to stored posts.
import type { FastifyInstance } from 'fastify';
import { applyRules, getRules, putRules } from '../../manage/rules.js';
import { opOf } from './auth.js';
import { manageRoute } from './route.js';
import { db, num } from './common.js';
import { WallParams } from './schemas.js';
import { ApplyBody, ApplyRecord, RulesBody, RulesQuery, RulesRecord, type RulesInput } from '../../schemas/rules.js';
import { NoQuery } from '../../schemas/fields.js';

export async function ruleRoutes(app: FastifyInstance) {
  const tag = 'manage: moderation rules';
  const route = manageRoute(app, tag);

  route.get(
    '/walls/:wallId/rules',
    {
      access: ['viewer', 'wall'],
      summary: 'A wall’s moderation rules',
      description:
        'In order: the first rule that matches a post decides, then the mode. `providers` names the moderation providers configured on this server, which a `provider` rule may name.',
      params: WallParams,
      query: NoQuery,
      ok: [200, RulesRecord, 'the rules'],
      errors: [404],
    },
    async (request) => getRules(db(request), num(request.params.wallId), request.server.ctx.moderationProviders),
  );

  route.put(
    '/walls/:wallId/rules',
    {
      access: ['moderator', 'wall'],
      summary: 'Replace a wall’s moderation rules',
      description:
        'Ids are assigned when absent. New posts are judged at ingestion; stored ones only by `…/rules/apply`. ' +
        '`?dryRun=true` saves nothing and reports, per rule, the pending posts it would decide and change. ' +
        'A `provider` rule naming a provider not configured on this server is refused (400).',
      params: WallParams,
      query: RulesQuery,
      body: RulesBody,
      ok: [200, RulesRecord, 'the rules as stored (or as they would be)'],
      errors: [404, 409],
    },
    async (request) =>
      await putRules(
        opOf(request),
        num(request.params.wallId),
        request.body as unknown as RulesInput,
        request.query.dryRun === 'true',
        request.server.ctx.moderationProviders,
      ),
  );

  route.post(
    '/walls/:wallId/rules/apply',
    {
      access: ['moderator', 'wall'],
      summary: 'Apply a wall’s rules to its stored posts',
      description:
        'Judges the pending posts (and the approved ones with `includeApproved`); rejected posts stay as they are. Counts per rule.',
      params: WallParams,
      body: ApplyBody,
      ok: [200, ApplyRecord, 'what the rules did'],
      errors: [404, 409],
    },
    async (request) => applyRules(opOf(request), num(request.params.wallId), request.body ?? {}),
  );
}
