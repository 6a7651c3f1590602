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
import { accountFilterOf } from './access.js';
import { opOf } from './auth.js';
import { db, num } from './common.js';
import { pageRequest } from '../../manage/paging.js';
import { manageResource } from './resource.js';
import type { RouteHandler } from './route.js';
import { FeedParams, WallParams } from './schemas.js';
import { FeedCreateBody, FeedPatchBody, FeedRecord, PollResult } from '../../schemas/feeds.js';
import { WallCreateBody, WallListQuery, WallPatchBody, WallRecord } from '../../schemas/walls.js';

export async function wallRoutes(app: FastifyInstance) {
  wallRecordRoutes(app);
  feedRoutes(app);
}

/** The walls: list, create, read, change; the soft delete of contract §7, its undoing and the erasing for good. */
function wallRecordRoutes(app: FastifyInstance) {
  const walls = manageResource(app, 'manage: walls', {
    record: [WallRecord, 'wall'],
    collection: ['/walls'],
    item: ['/walls/:wallId', WallParams],
  });
  const editors = ['editor', 'wall'] as const;

  walls.list(
    {
      access: ['viewer', 'filtered'],
      summary: 'List walls',
      description: 'Deleted walls included unless `state=live`.',
      query: WallListQuery,
    },
    async (request) => {
      const filter = { ...accountFilterOf(request), state: request.query.state };
      return listWalls(db(request), filter, pageRequest(request.query));
    },
  );
  walls.create(
    {
      access: ['editor', 'body-account'],
      summary: 'Create a wall',
      description: 'The URL slug must be unique within the account (409 otherwise).',
      body: WallCreateBody,
    },
    async (request) => createWall(opOf(request), request.body),
  );
  walls.get({ access: ['viewer', 'wall'], summary: 'Get a wall (live or deleted)' }, async (request) =>
    getWall(db(request), num(request.params.wallId)),
  );
  walls.update(
    { access: editors, summary: 'Change a wall’s name, URL slug or profanity flag', body: WallPatchBody },
    async (request) => updateWall(opOf(request), num(request.params.wallId), request.body),
  );
  walls.remove(
    {
      access: editors,
      summary: 'Delete a wall (soft delete)',
      description:
        'Contract §7: the wall is 404 on the public API from then on; nothing is erased until it is purged, and `restore` brings it back.',
      answer: 'the deleted wall',
    },
    async (request) => deleteWall(opOf(request), num(request.params.wallId)),
  );
  walls.action(
    'restore',
    {
      access: editors,
      summary: 'Restore a deleted wall',
      description: 'The wall and everything on it come back; 409 when it is not deleted.',
      answer: 'the restored wall',
    },
    async (request) => restoreWall(opOf(request), num(request.params.wallId)),
  );
  walls.action(
    'purge',
    {
      access: editors,
      summary: 'Purge a deleted wall',
      description: 'Erases the wall with its feeds, posts and tags for good. A live wall is refused (409).',
      answer: 'the wall as it was before the purge',
    },
    async (request) => purgeWall(opOf(request), num(request.params.wallId)),
  );
}

/** A wall's feeds: list, add, read, change, delete, and poll now. */
function feedRoutes(app: FastifyInstance) {
  const feeds = manageResource(app, 'manage: feeds', {
    record: [FeedRecord, 'feed'],
    collection: ['/walls/:wallId/feeds', WallParams],
    item: ['/walls/:wallId/feeds/:feedId', FeedParams],
  });
  const editors = ['editor', 'wall'] as const;

  feeds.list({ access: ['viewer', 'wall'], summary: 'List the feeds of a wall' }, async (request) =>
    listFeeds(db(request), num(request.params.wallId), pageRequest(request.query)),
  );
  feeds.create(
    {
      access: editors,
      summary: 'Add a feed to a wall',
      description: '`connector` says what ingestion collects (see the ConnectorSettings kinds).',
      body: FeedCreateBody,
    },
    async (request) => createFeed(opOf(request), num(request.params.wallId), request.body),
  );
  feeds.get(
    {
      access: ['viewer', 'wall'],
      summary: 'Get a feed',
      description: 'With its ingestion state (`ingest`) once the feed is ingested.',
    },
    async (request) => getFeed(db(request), num(request.params.feedId), num(request.params.wallId)),
  );
  feeds.update(
    {
      access: editors,
      summary: 'Change a feed; enable or disable it',
      description: '`enabled: false` stops ingestion for the feed; its posts stay.',
      body: FeedPatchBody,
    },
    async (request) => updateFeed(opOf(request), num(request.params.feedId), request.body, num(request.params.wallId)),
  );
  feeds.remove({ access: editors, summary: 'Delete a feed with its posts' }, async (request) =>
    deleteFeed(opOf(request), num(request.params.feedId), num(request.params.wallId)),
  );
  feeds.action(
    'poll',
    {
      access: ['moderator', 'wall'],
      summary: 'Poll a feed now',
      description:
        'Reads the feed at once when this server polls feeds (INGEST on) and answers what the poll did; otherwise the feed is made due at once for the poller that runs (a worker) and the answer says `scheduled`. 409 when the feed has no connector, is disabled or its wall is deleted.',
      ok: [PollResult, 'what the poll did, and the feed after it'],
    },
    pollFeed,
  );
}

/** Polling a feed now: here when this server ingests, else by the worker that does. */
const pollFeed: RouteHandler<typeof FeedParams, undefined, undefined, typeof PollResult> = async (request) => {
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
};
