// A wall's change feed: thin, the rules are in src/manage/changes.ts.
import type { FastifyInstance } from 'fastify';
import { wallChanges } from '../../manage/changes.js';
import { ChangesPage, ChangesQuery } from '../../schemas/changes.js';
import { manageRoute } from './route.js';
import { db, num, optNum } from './common.js';
import { WallParams } from './schemas.js';
import { requestBase } from '../self-url.js';

export async function changeRoutes(app: FastifyInstance) {
  const route = manageRoute(app, 'manage: walls');
  route.get(
    '/walls/:wallId/changes',
    {
      access: ['viewer', 'wall'],
      summary: 'What changed on a wall since a cursor',
      description:
        'The changes of the wall’s posts (created, updated, approved, rejected, hidden, deleted) and of the wall ' +
        'itself (wall_deleted, wall_restored), in commit order, each with the post as it is now. Keep the ' +
        'returned `cursor` and pass it as `since`: nothing is missed or repeated, with any number of writers. ' +
        'To mirror a wall: `since=latest`, then read its posts, then follow. 410 when the cursor is older than ' +
        'the kept history (CHANGES_RETENTION_DAYS).',
      params: WallParams,
      query: ChangesQuery,
      ok: [200, ChangesPage, 'changes after the cursor, oldest first'],
      errors: [404, 410],
    },
    async (request) =>
      await wallChanges(
        db(request),
        num(request.params.wallId),
        { since: request.query.since, limit: optNum(request.query.limit) },
        requestBase(request),
      ),
  );
}
