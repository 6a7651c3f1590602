// A wall's change feed: thin, the rules are in src/manage/changes.ts.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { wallChanges } from '../../manage/changes.js';
import { ChangesPage, ChangesQuery } from '../../schemas/changes.js';
import { access } from './access.js';
import { db, doc, num, ok, optNum } from './common.js';
import { Ok, responses, WallParams } from './schemas.js';

export async function changeRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/walls/:wallId/changes',
    {
      config: access('viewer', 'wall'),
      schema: {
        ...doc(
          'manage: walls',
          'What changed on a wall since a cursor',
          'The changes of the wall’s posts (created, updated, approved, rejected, hidden, deleted) and of the wall ' +
            'itself (wall_deleted, wall_restored), in commit order, each with the post as it is now. Keep the ' +
            'returned `cursor` and pass it as `since`: nothing is missed or repeated, with any number of writers. ' +
            'To mirror a wall: `since=latest`, then read its posts, then follow. 410 when the cursor is older than ' +
            'the kept history (CHANGES_RETENTION_DAYS).',
        ),
        params: WallParams,
        querystring: ChangesQuery,
        response: responses({ 200: Ok(ChangesPage, 'changes after the cursor, oldest first') }, 404, 410),
      },
    },
    async (request) =>
      ok(
        await wallChanges(db(request), num(request.params.wallId), {
          since: request.query.since,
          limit: optNum(request.query.limit),
        }),
      ),
  );
}
