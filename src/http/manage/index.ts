// Management API v1 (`/api/manage/v1`): operator-token auth, its own error
// handler (the v2 envelope plus fieldErrors), all-at-once validation, and
// one module per resource.
import type { FastifyInstance } from 'fastify';
import { authorizeRole, declareAccess, enforceScope } from './access.js';
import { accountRoutes } from './accounts.js';
import { analyticsRoutes } from './analytics.js';
import { attentionRoutes } from './attention.js';
import { auditRoutes } from './audit.js';
import { changeRoutes } from './changes.js';
import { connectRoutes } from './connect.js';
import { connectionRoutes } from './connections.js';
import { rightsRoutes } from './rights.js';
import { authenticateOperator } from './auth.js';
import { manageErrorHandler } from './errors.js';
import { postRoutes } from './posts.js';
import { ruleRoutes } from './rules.js';
import { screenRoutes } from './screen.js';
import { submissionRoutes } from './submissions.js';
import { NoQuery } from '../../schemas/fields.js';
import { productRoutes } from './products.js';
import { publishableKeyRoutes } from './publishable-keys.js';
import { tokenRoutes } from './tokens.js';
import { validateRequest } from './validation.js';
import { wallRoutes } from './walls.js';
import { webhookRoutes } from './webhooks.js';
import { writeLimit } from './write-limit.js';

export const MANAGE_PREFIX = '/api/manage/v1';

export interface ManageOptions {
  /**
   * Writes a minute per operator token (MANAGE_WRITE_RATE_LIMIT); absent or
   * 0: none. openRuntime passes the setting (default 1200); a test's bare
   * server has none unless it asks.
   */
  writeRateLimit?: number;
}

export async function registerManage(app: FastifyInstance, options: ManageOptions = {}) {
  await app.register(
    async (manage) => {
      manage.decorateRequest('operator', null);
      // JSON whatever Content-Type says, like v2; an empty body is no body
      // (action routes take none), and a route that needs one says so in a 400.
      const json = manage.getDefaultJsonParser('error', 'remove');
      manage.removeAllContentTypeParsers();
      manage.addContentTypeParser('*', { parseAs: 'string' }, (request, body, done) => {
        const text = body.toString();
        if (text.trim() === '') return done(null, undefined);
        return json(request, text, done);
      });
      manage.setErrorHandler(manageErrorHandler);
      // Validation runs in one preValidation hook (validation.ts) so that a
      // 400 lists the bad fields of path, query and body together; Fastify's
      // own per-part validation, which stops at the first bad part, is off.
      manage.setValidatorCompiler(() => () => true);
      // Unknown query parameters are refused everywhere, also on routes that take none.
      manage.addHook('onRoute', (route) => {
        if (route.schema && !route.schema.querystring) route.schema = { ...route.schema, querystring: NoQuery };
      });
      // Who may call each route: declared by the route (access.ts), enforced here.
      manage.addHook('onRoute', declareAccess);
      manage.addHook('onRequest', authenticateOperator);
      manage.addHook('onRequest', authorizeRole);
      const limit = await writeLimit(manage, options.writeRateLimit ?? 0);
      if (limit) manage.addHook('onRequest', limit);
      manage.addHook('preValidation', validateRequest);
      manage.addHook('preHandler', enforceScope);
      await manage.register(accountRoutes);
      await manage.register(wallRoutes);
      await manage.register(changeRoutes);
      await manage.register(postRoutes);
      await manage.register(ruleRoutes);
      await manage.register(submissionRoutes);
      await manage.register(productRoutes);
      await manage.register(publishableKeyRoutes);
      await manage.register(auditRoutes);
      await manage.register(tokenRoutes);
      await manage.register(analyticsRoutes);
      await manage.register(webhookRoutes);
      await manage.register(connectionRoutes);
      await manage.register(rightsRoutes);
      await manage.register(attentionRoutes);
      await manage.register(screenRoutes);
      await manage.register(connectRoutes);
    },
    { prefix: MANAGE_PREFIX },
  );
}
