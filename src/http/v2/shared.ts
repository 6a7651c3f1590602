// What both families do the same way: parameter reading past the schema,
// wall lookup, the custom-post write and the soft delete.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import { parseDayMonthYear } from '../../domain/dates.js';
import { mediaKindOfFile } from '../../domain/media.js';
import { cleanWrite, CUSTOM_POST_RULES } from '../../domain/writes.js';
import { type ListFilter, type PostRow } from '../../store/posts.js';
import { createCustomPost } from '../../store/custom-posts.js';
import { languageOfContent } from '../../manage/language.js';
import type { MediaKind } from '../../domain/lists.js';
import { findLiveWall, softDeleteWall, type WallRow } from '../../store/walls.js';
import { CONTENT_TYPES, renderBody, renderListBody, renderListItem, successData, type Format } from '../envelope.js';
import { listEtag, pageFragments } from './fragments.js';
import { ApiError, badRequest, MESSAGES } from '../errors.js';
import { bodyEtag, etagMatches } from '../etag.js';
import { LIMIT_DEFAULT, V2_MESSAGES, type CreatePostBody, type WidgetListQuery } from './schemas.js';

type ListQuery = Static<typeof WidgetListQuery>;

const isTrue = (v: string | undefined) => v !== undefined && (v === '1' || v.toLowerCase() === 'true');

/** Path and body ids are digit strings; one too large to exist is simply not found. */
export function idFromDigits(digits: string | number): number | null {
  const n = Number(digits);
  return Number.isSafeInteger(n) ? n : null;
}

/** The list filter of C2/W2 (contract §4); `textFlag` is false for the commerce family. */
export function listFilter(
  wallId: number,
  q: ListQuery,
  textFlag: boolean,
): Omit<ListFilter, 'wallId'> & { wallId: number } {
  let createdFrom: number | null = null;
  if (q.date_from !== undefined) {
    createdFrom = parseDayMonthYear(q.date_from);
    if (createdFrom === null) throw badRequest(V2_MESSAGES.date_from);
  }
  const media: MediaKind[] = [];
  if (isTrue(q.include_only_image_posts)) media.push('image');
  if (isTrue(q.include_only_video_posts)) media.push('video');
  if (textFlag && isTrue(q.include_only_text_posts)) media.push('text');
  return {
    wallId,
    limit: q.limit === undefined ? LIMIT_DEFAULT : Number(q.limit),
    offset: q.offset === undefined ? 0 : Math.min(Number(q.offset), Number.MAX_SAFE_INTEGER),
    createdFrom,
    media,
  };
}

/** The cache-key part of a list filter: every input of a C2/W2 answer. */
export function listKey(f: ListFilter): string {
  return `posts|${f.limit}|${f.offset}|${f.createdFrom ?? ''}|${f.media.join(',')}`;
}

export async function requireWall(request: FastifyRequest, wallId: number | null): Promise<WallRow> {
  const wall =
    wallId === null ? null : await findLiveWall(request.server.ctx.store.db, wallId, request.caller.accountId);
  if (!wall) throw new ApiError(404, MESSAGES.wallNotFound);
  return wall;
}

export const CREATED_MESSAGE = 'Great! You have successfully created post.';

export async function createPost(request: FastifyRequest): Promise<void> {
  const body = request.body as Static<typeof CreatePostBody>;
  const { value: post, problems } = cleanWrite(
    {
      content: body.content ?? '',
      postFile: body.postFile ?? '',
      authorName: body.authorName ?? '',
      authorPicture: body.authorPicture ?? '',
      link: body.link ?? '',
    },
    CUSTOM_POST_RULES,
  );
  if (problems[0]) throw badRequest(problems[0].message);
  // what is left after sanitizing decides (content of only a script is no content)
  if (post.content === '' && post.postFile === '') throw badRequest(V2_MESSAGES.contentOrFile);
  const wall = await requireWall(request, idFromDigits(body.wallId));
  const header = request.headers['idempotency-key'];
  const { store, now, changes } = request.server.ctx;
  await createCustomPost(store.db, {
    wallId: wall.id,
    accountId: request.caller.accountId,
    ...post,
    media: mediaKindOfFile(post.postFile),
    lang: await languageOfContent(post.content),
    now: now(),
    idempotencyKey: typeof header === 'string' ? header : null,
  });
  changes.wallChanged(wall.id);
}

export async function deleteWall(request: FastifyRequest, wallId: number | null): Promise<void> {
  const { store, now, changes } = request.server.ctx;
  const deleted = wallId !== null && (await softDeleteWall(store.db, wallId, request.caller.accountId, now()));
  if (!deleted) throw new ApiError(404, MESSAGES.wallNotFound);
  changes.wallChanged(wallId);
}

/** The success envelope of `data`, rendered in the request's format: what `sendRead`'s builders return. */
export function renderData(format: Format, data: unknown): string {
  return renderBody(format, successData(data));
}

/**
 * A C2/W2 answer: `head` (the wall), then the page of posts under `listName`,
 * each post rendered by `present` once and reused while it is unchanged
 * (src/http/v2/fragments.ts).
 */
export async function renderPostList(
  request: FastifyRequest,
  family: 'widget' | 'commerce',
  wall: WallRow,
  filter: ListFilter,
  head: Record<string, unknown>,
  listName: string,
  present: (post: PostRow) => object,
): Promise<{ body: Buffer; etag: string }> {
  const { store, fragments } = request.server.ctx;
  const format = request.format;
  const scope = `${family}|${format}|${wall.profanity}`;
  const page = await pageFragments(store.db, fragments ?? null, scope, filter, (post) =>
    renderListItem(format, listName, present(post) as Record<string, unknown>),
  );
  return {
    body: renderListBody(format, head, listName, page.items),
    etag: listEtag(scope, listName, head, page.stamps),
  };
}

/** What a read's builder gives: the rendered body, and its own strong tag when it has one. */
export type BuiltAnswer = string | { body: Buffer; etag: string };

/**
 * Answers a v2 read: from the response cache when an entry exists, else by
 * building the answer (`build` renders it), once, and caching it. Either way with a
 * strong ETag (If-None-Match → 304) and the best encoding the client accepts.
 * `key` must name every input of the answer besides family, format, account
 * and wall (which are added here).
 */
export async function sendRead(
  request: FastifyRequest,
  reply: FastifyReply,
  family: 'widget' | 'commerce',
  wallId: number | null,
  key: string,
  build: () => Promise<BuiltAnswer>,
) {
  const { cache } = request.server.ctx;
  const accountId = request.caller.accountId;
  const fullKey = `${family}|${request.format}|${accountId}|${wallId ?? 'x'}|${key}`;
  let entry = cache?.get(fullKey);
  if (!entry) {
    const start = cache?.now();
    const version = wallId === null ? undefined : cache?.version(wallId, accountId);
    const built = await build();
    const { body, etag } = typeof built === 'string' ? { body: Buffer.from(built), etag: undefined } : built;
    const contentType = CONTENT_TYPES[request.format];
    if (!cache || wallId === null) return reply.code(200).type(contentType).send(body);
    const answer = { body, contentType, wallId, accountId, etag };
    // an answer not (yet) worth keeping is sent all the same, with its tag
    entry = cache.admit(fullKey)
      ? cache.set(fullKey, answer, start, version)
      : { ...answer, etag: etag ?? bodyEtag(body) };
  }
  reply.header('ETag', entry.etag).header('Cache-Control', READ_CACHE_CONTROL).header('Vary', 'Accept-Encoding');
  if (etagMatches(request.headers['if-none-match'], entry.etag)) return reply.code(304).send();
  const { body, encoding } = cache!.encoded(entry, request.headers['accept-encoding']);
  if (encoding) reply.header('Content-Encoding', encoding);
  return reply.code(200).type(entry.contentType).send(body);
}

/** Browsers and proxies may reuse an answer briefly, then revalidate with the ETag. */
export const READ_CACHE_CONTROL = 'private, max-age=5';
