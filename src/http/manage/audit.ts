// The audit log of management writes.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { listAudit } from '../../manage/audit.js';
import { access, scopeOf } from './access.js';
import { db, doc, ok, optNum } from './common.js';
import { pageRequest } from '../../manage/paging.js';
import { AuditListQuery, AuditRecord } from '../../schemas/audit.js';
import { Ok, PageOf, responses } from './schemas.js';

export async function auditRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/audit',
    {
      config: access('viewer', 'filtered'),
      schema: {
        ...doc(
          'manage: audit',
          'The audit log',
          'Every management write, newest first: who (token name, or `cli`), what, on which target, when, and the changed fields before and after.',
        ),
        querystring: AuditListQuery,
        response: responses({ 200: Ok(PageOf(AuditRecord), 'a page of entries') }),
      },
    },
    async (request) => {
      const q = request.query;
      const filter = {
        action: q.action,
        targetType: q.targetType,
        targetId: optNum(q.targetId),
        tokenName: q.tokenName,
        accountId: optNum(q.accountId),
        scope: scopeOf(request),
      };
      return ok(await listAudit(db(request), filter, pageRequest(q)));
    },
  );
}
