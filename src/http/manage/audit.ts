// The audit log of management writes.
import type { FastifyInstance } from 'fastify';
import { listAudit } from '../../manage/audit.js';
import { manageRoute } from './route.js';
import { accountFilterOf } from './access.js';
import { db, optNum } from './common.js';
import { pageRequest } from '../../manage/paging.js';
import { AuditListQuery, AuditRecord } from '../../schemas/audit.js';
import { PageOf } from './schemas.js';

export async function auditRoutes(app: FastifyInstance) {
  const route = manageRoute(app, 'manage: audit');

  route.get(
    '/audit',
    {
      access: ['viewer', 'filtered'],
      summary: 'The audit log',
      description:
        'Every management write, newest first: who (token name, or `cli`), what, on which target, when, and the changed fields before and after. ' +
        'A connection made or reconnected by an OAuth sign-in is written when the network sends the browser back, in the name of the token that started it (`via: oauth` in the summary). ' +
        '`postId` gives one post’s history.',
      query: AuditListQuery,
      ok: [200, PageOf(AuditRecord), 'a page of entries'],
    },
    async (request) => {
      const q = request.query;
      const filter = {
        action: q.action,
        targetType: q.targetType,
        targetId: optNum(q.targetId),
        postId: optNum(q.postId),
        tokenName: q.tokenName,
        ...accountFilterOf(request),
      };
      return listAudit(db(request), filter, pageRequest(q));
    },
  );
}
