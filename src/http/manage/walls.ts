// Walls (with the soft delete of contract §7, restore and purge) and their feeds.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import {
  createFeed,
  createWall,
  deleteFeed,
  deleteWall,
  getFeed,
  getWall,
  listFeeds,
  listWalls,
  purgeWall,
  requestPoll,
  restoreWall,
  updateFeed,
  updateWall,
} from '../../manage/walls.js';
import { access, scopeOf } from './access.js';
import { opOf } from './auth.js';
import { created, db, doc, num, ok, optNum } from './common.js';
import { pageRequest } from '../../manage/paging.js';
import { Created, FeedParams, Ok, PageOf, responses, WallParams } from './schemas.js';
import { FeedCreateBody, FeedPatchBody, FeedRecord, PollResult } from '../../schemas/feeds.js';
import { PageQuery } from '../../schemas/fields.js';
import { WallCreateBody, WallListQuery, WallPatchBody, WallRecord } from '../../schemas/walls.js';

export async function wallRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tag = 'manage: walls';

  app.get(
    '/walls',
    {
      config: access('viewer', 'filtered'),
      schema: {
        ...doc(tag, 'List walls', 'Deleted walls included unless `state=live`.'),
        querystring: WallListQuery,
        response: responses({ 200: Ok(PageOf(WallRecord), 'a page of walls') }),
      },
    },
    async (request) => {
      const q = request.query;
      const filter = { accountId: optNum(q.accountId), state: q.state, scope: scopeOf(request) };
      return ok(await listWalls(db(request), filter, pageRequest(q)));
    },
  );

  app.post(
    '/walls',
    {
      config: access('editor', 'body-account'),
      schema: {
        ...doc(tag, 'Create a wall', 'The URL slug must be unique within the account (409 otherwise).'),
        body: WallCreateBody,
        response: responses({ 201: Created(WallRecord, 'the new wall') }, 404, 409),
      },
    },
    async (request, reply) => {
      reply.code(201);
      return created(await createWall(opOf(request), request.body));
    },
  );

  app.get(
    '/walls/:wallId',
    {
      config: access('viewer', 'wall'),
      schema: {
        ...doc(tag, 'Get a wall (live or deleted)'),
        params: WallParams,
        response: responses({ 200: Ok(WallRecord, 'the wall') }, 404),
      },
    },
    async (request) => ok(await getWall(db(request), num(request.params.wallId))),
  );

  app.patch(
    '/walls/:wallId',
    {
      config: access('editor', 'wall'),
      schema: {
        ...doc(tag, 'Change a wall’s name, URL slug or profanity flag'),
        params: WallParams,
        body: WallPatchBody,
        response: responses({ 200: Ok(WallRecord, 'the wall after the change') }, 404, 409),
      },
    },
    async (request) => ok(await updateWall(opOf(request), num(request.params.wallId), request.body)),
  );

  app.delete(
    '/walls/:wallId',
    {
      config: access('editor', 'wall'),
      schema: {
        ...doc(
          tag,
          'Delete a wall (soft delete)',
          'Contract §7: the wall is 404 on the public API from then on; nothing is erased until it is purged, and `restore` brings it back.',
        ),
        params: WallParams,
        response: responses({ 200: Ok(WallRecord, 'the deleted wall') }, 404, 409),
      },
    },
    async (request) => ok(await deleteWall(opOf(request), num(request.params.wallId))),
  );

  app.post(
    '/walls/:wallId/restore',
    {
      config: access('editor', 'wall'),
      schema: {
        ...doc(tag, 'Restore a deleted wall', 'The wall and everything on it come back; 409 when it is not deleted.'),
        params: WallParams,
        response: responses({ 200: Ok(WallRecord, 'the restored wall') }, 404, 409),
      },
    },
    async (request) => ok(await restoreWall(opOf(request), num(request.params.wallId))),
  );

  app.post(
    '/walls/:wallId/purge',
    {
      config: access('editor', 'wall'),
      schema: {
        ...doc(
          tag,
          'Purge a deleted wall',
          'Erases the wall with its feeds, posts and tags for good. A live wall is refused (409).',
        ),
        params: WallParams,
        response: responses({ 200: Ok(WallRecord, 'the wall as it was before the purge') }, 404, 409),
      },
    },
    async (request) => ok(await purgeWall(opOf(request), num(request.params.wallId))),
  );

  const feedTag = 'manage: feeds';

  app.get(
    '/walls/:wallId/feeds',
    {
      config: access('viewer', 'wall'),
      schema: {
        ...doc(feedTag, 'List the feeds of a wall'),
        params: WallParams,
        querystring: PageQuery,
        response: responses({ 200: Ok(PageOf(FeedRecord), 'a page of feeds') }, 404),
      },
    },
    async (request) => ok(await listFeeds(db(request), num(request.params.wallId), pageRequest(request.query))),
  );

  app.post(
    '/walls/:wallId/feeds',
    {
      config: access('editor', 'wall'),
      schema: {
        ...doc(
          feedTag,
          'Add a feed to a wall',
          '`connector` says what ingestion collects (see the ConnectorSettings kinds).',
        ),
        params: WallParams,
        body: FeedCreateBody,
        response: responses({ 201: Created(FeedRecord, 'the new feed') }, 404, 409),
      },
    },
    async (request, reply) => {
      reply.code(201);
      return created(await createFeed(opOf(request), num(request.params.wallId), request.body));
    },
  );

  app.get(
    '/walls/:wallId/feeds/:feedId',
    {
      config: access('viewer', 'wall'),
      schema: {
        ...doc(feedTag, 'Get a feed', 'With its ingestion state (`ingest`) once the feed is ingested.'),
        params: FeedParams,
        response: responses({ 200: Ok(FeedRecord, 'the feed') }, 404),
      },
    },
    async (request) => ok(await getFeed(db(request), num(request.params.feedId), num(request.params.wallId))),
  );

  app.patch(
    '/walls/:wallId/feeds/:feedId',
    {
      config: access('editor', 'wall'),
      schema: {
        ...doc(
          feedTag,
          'Change a feed; enable or disable it',
          '`enabled: false` stops ingestion for the feed; its posts stay.',
        ),
        params: FeedParams,
        body: FeedPatchBody,
        response: responses({ 200: Ok(FeedRecord, 'the feed after the change') }, 404, 409),
      },
    },
    async (request) =>
      ok(await updateFeed(opOf(request), num(request.params.feedId), request.body, num(request.params.wallId))),
  );

  app.delete(
    '/walls/:wallId/feeds/:feedId',
    {
      config: access('editor', 'wall'),
      schema: {
        ...doc(feedTag, 'Delete a feed with its posts'),
        params: FeedParams,
        response: responses({ 200: Ok(FeedRecord, 'the feed as it was') }, 404, 409),
      },
    },
    async (request) => ok(await deleteFeed(opOf(request), num(request.params.feedId), num(request.params.wallId))),
  );

  app.post(
    '/walls/:wallId/feeds/:feedId/poll',
    {
      config: access('moderator', 'wall'),
      schema: {
        ...doc(
          feedTag,
          'Poll a feed now',
          'Reads the feed at once when this server polls feeds (INGEST on) and answers what the poll did; otherwise the feed is made due at once for the poller that runs (a worker) and the answer says `scheduled`. 409 when the feed has no connector, is disabled or its wall is deleted.',
        ),
        params: FeedParams,
        response: responses({ 200: Ok(PollResult, 'what the poll did, and the feed after it') }, 404, 409),
      },
    },
    async (request) => {
      const wallId = num(request.params.wallId);
      const feedId = num(request.params.feedId);
      await requestPoll(opOf(request), feedId, wallId);
      const ingest = request.server.ctx.ingest;
      if (!ingest) {
        const feed = await getFeed(db(request), feedId, wallId);
        const message = 'this server does not poll feeds (INGEST off): the feed is due now for the poller that runs';
        return ok({ feed, poll: { status: 'scheduled' as const, inserted: 0, updated: 0, message } });
      }
      const [report] = await ingest.runOnce({ feedId });
      const feed = await getFeed(db(request), feedId, wallId);
      return ok({
        feed,
        poll: {
          status: report?.status ?? ('skipped' as const),
          inserted: report?.inserted ?? 0,
          updated: report?.updated ?? 0,
          message: report?.message ?? null,
        },
      });
    },
  );
}
