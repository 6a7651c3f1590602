// Walls (with the soft delete of contract §7, restore and purge) and their feeds.
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
import { scopeOf } from './access.js';
import { opOf } from './auth.js';
import { db, num, optNum } from './common.js';
import { pageRequest } from '../../manage/paging.js';
import { manageRoute } from './route.js';
import { FeedParams, PageOf, WallParams } from './schemas.js';
import { FeedCreateBody, FeedPatchBody, FeedRecord, PollResult } from '../../schemas/feeds.js';
import { PageQuery } from '../../schemas/fields.js';
import { WallCreateBody, WallListQuery, WallPatchBody, WallRecord } from '../../schemas/walls.js';

export async function wallRoutes(app: FastifyInstance) {
  wallRecordRoutes(app);
  wallLifecycleRoutes(app);
  feedRoutes(app);
  feedPollRoute(app);
}

/** List, create, read and change walls. */
function wallRecordRoutes(app: FastifyInstance) {
  const route = manageRoute(app, 'manage: walls');
  route.get(
    '/walls',
    {
      access: ['viewer', 'filtered'],
      summary: 'List walls',
      description: 'Deleted walls included unless `state=live`.',
      query: WallListQuery,
      ok: [200, PageOf(WallRecord), 'a page of walls'],
    },
    async (request) => {
      const q = request.query;
      const filter = { accountId: optNum(q.accountId), state: q.state, scope: scopeOf(request) };
      return listWalls(db(request), filter, pageRequest(q));
    },
  );
  route.post(
    '/walls',
    {
      access: ['editor', 'body-account'],
      summary: 'Create a wall',
      description: 'The URL slug must be unique within the account (409 otherwise).',
      body: WallCreateBody,
      ok: [201, WallRecord, 'the new wall'],
      errors: [404, 409],
    },
    async (request) => createWall(opOf(request), request.body),
  );
  route.get(
    '/walls/:wallId',
    {
      access: ['viewer', 'wall'],
      summary: 'Get a wall (live or deleted)',
      params: WallParams,
      ok: [200, WallRecord, 'the wall'],
      errors: [404],
    },
    async (request) => getWall(db(request), num(request.params.wallId)),
  );
  route.patch(
    '/walls/:wallId',
    {
      access: ['editor', 'wall'],
      summary: 'Change a wall’s name, URL slug or profanity flag',
      params: WallParams,
      body: WallPatchBody,
      ok: [200, WallRecord, 'the wall after the change'],
      errors: [404, 409],
    },
    async (request) => updateWall(opOf(request), num(request.params.wallId), request.body),
  );
}

/** The soft delete of contract §7, its undoing and the erasing for good. */
function wallLifecycleRoutes(app: FastifyInstance) {
  const route = manageRoute(app, 'manage: walls');
  const change = { access: ['editor', 'wall'], params: WallParams, errors: [404, 409] } as const;
  route.delete(
    '/walls/:wallId',
    {
      ...change,
      summary: 'Delete a wall (soft delete)',
      description:
        'Contract §7: the wall is 404 on the public API from then on; nothing is erased until it is purged, and `restore` brings it back.',
      ok: [200, WallRecord, 'the deleted wall'],
    },
    async (request) => deleteWall(opOf(request), num(request.params.wallId)),
  );
  route.post(
    '/walls/:wallId/restore',
    {
      ...change,
      summary: 'Restore a deleted wall',
      description: 'The wall and everything on it come back; 409 when it is not deleted.',
      ok: [200, WallRecord, 'the restored wall'],
    },
    async (request) => restoreWall(opOf(request), num(request.params.wallId)),
  );
  route.post(
    '/walls/:wallId/purge',
    {
      ...change,
      summary: 'Purge a deleted wall',
      description: 'Erases the wall with its feeds, posts and tags for good. A live wall is refused (409).',
      ok: [200, WallRecord, 'the wall as it was before the purge'],
    },
    async (request) => purgeWall(opOf(request), num(request.params.wallId)),
  );
}

const FEED_TAG = 'manage: feeds';

/** A wall's feeds: list, add, read, change, delete. */
function feedRoutes(app: FastifyInstance) {
  const route = manageRoute(app, FEED_TAG);
  route.get(
    '/walls/:wallId/feeds',
    {
      access: ['viewer', 'wall'],
      summary: 'List the feeds of a wall',
      params: WallParams,
      query: PageQuery,
      ok: [200, PageOf(FeedRecord), 'a page of feeds'],
      errors: [404],
    },
    async (request) => listFeeds(db(request), num(request.params.wallId), pageRequest(request.query)),
  );
  route.post(
    '/walls/:wallId/feeds',
    {
      access: ['editor', 'wall'],
      summary: 'Add a feed to a wall',
      description: '`connector` says what ingestion collects (see the ConnectorSettings kinds).',
      params: WallParams,
      body: FeedCreateBody,
      ok: [201, FeedRecord, 'the new feed'],
      errors: [404, 409],
    },
    async (request) => createFeed(opOf(request), num(request.params.wallId), request.body),
  );
  route.get(
    '/walls/:wallId/feeds/:feedId',
    {
      access: ['viewer', 'wall'],
      summary: 'Get a feed',
      description: 'With its ingestion state (`ingest`) once the feed is ingested.',
      params: FeedParams,
      ok: [200, FeedRecord, 'the feed'],
      errors: [404],
    },
    async (request) => getFeed(db(request), num(request.params.feedId), num(request.params.wallId)),
  );
  route.patch(
    '/walls/:wallId/feeds/:feedId',
    {
      access: ['editor', 'wall'],
      summary: 'Change a feed; enable or disable it',
      description: '`enabled: false` stops ingestion for the feed; its posts stay.',
      params: FeedParams,
      body: FeedPatchBody,
      ok: [200, FeedRecord, 'the feed after the change'],
      errors: [404, 409],
    },
    async (request) => updateFeed(opOf(request), num(request.params.feedId), request.body, num(request.params.wallId)),
  );
  route.delete(
    '/walls/:wallId/feeds/:feedId',
    {
      access: ['editor', 'wall'],
      summary: 'Delete a feed with its posts',
      params: FeedParams,
      ok: [200, FeedRecord, 'the feed as it was'],
      errors: [404, 409],
    },
    async (request) => deleteFeed(opOf(request), num(request.params.feedId), num(request.params.wallId)),
  );
}

/** Polling a feed now: here when this server ingests, else by the worker that does. */
function feedPollRoute(app: FastifyInstance) {
  manageRoute(app, FEED_TAG).post(
    '/walls/:wallId/feeds/:feedId/poll',
    {
      access: ['moderator', 'wall'],
      summary: 'Poll a feed now',
      description:
        'Reads the feed at once when this server polls feeds (INGEST on) and answers what the poll did; otherwise the feed is made due at once for the poller that runs (a worker) and the answer says `scheduled`. 409 when the feed has no connector, is disabled or its wall is deleted.',
      params: FeedParams,
      ok: [200, PollResult, 'what the poll did, and the feed after it'],
      errors: [404, 409],
    },
    async (request) => {
      const wallId = num(request.params.wallId);
      const feedId = num(request.params.feedId);
      await requestPoll(opOf(request), feedId, wallId);
      const ingest = request.server.ctx.ingest;
      if (!ingest) {
        const feed = await getFeed(db(request), feedId, wallId);
        const message = 'this server does not poll feeds (INGEST off): the feed is due now for the poller that runs';
        return { feed, poll: { status: 'scheduled' as const, inserted: 0, updated: 0, message } };
      }
      const [report] = await ingest.runOnce({ feedId });
      const feed = await getFeed(db(request), feedId, wallId);
      return {
        feed,
        poll: {
          status: report?.status ?? ('skipped' as const),
          inserted: report?.inserted ?? 0,
          updated: report?.updated ?? 0,
          message: report?.message ?? null,
        },
      };
    },
  );
}
