// What the hosted page renders on the server: the wall and its first page of
// posts, exactly as the embed API answers them (GET /api/embed/v1/walls/{id}
// and …/posts with the default page size) — the same presenter, the same
// query, the same cursor — so the web component can take them over as its
// first load (web/embed/initial.ts) and carry on from there without a
// duplicate or a gap. Posts' content is the stored, sanitized HTML (every
// write and every ingested post passes src/domain/sanitize.ts).
import type { FastifyRequest } from 'fastify';
import { embedWall } from '../../presenters/embed.js';
import type { EmbedWall } from '../../schemas/embed.js';
import { wallHasTaggedPosts } from '../../store/tags.js';
import type { WallRow } from '../../store/walls.js';
import { EMBED_LIMIT_DEFAULT, EMBED_PREFIX } from '../embed/schemas.js';
import { embedPostsAnswer } from '../embed/screen.js';
import { withSubmissionLink } from '../embed/submission-link.js';
import { requestBase } from '../self-url.js';

/** The embed API's two first answers, as its JSON bodies are. */
export interface FirstPage {
  wall: { wall: EmbedWall };
  posts: Awaited<ReturnType<typeof embedPostsAnswer>>;
  /** the page size the posts were read with (the component's default) */
  limit: number;
}

export async function loadFirstPage(
  request: FastifyRequest,
  wall: WallRow,
  key: string,
  limit = EMBED_LIMIT_DEFAULT,
): Promise<FirstPage> {
  const { db } = request.server.ctx.store;
  const shoppable = await wallHasTaggedPosts(db, wall.id);
  return {
    wall: {
      wall: await withSubmissionLink(request, embedWall(wall, shoppable, `${EMBED_PREFIX}/walls/${wall.id}`, key)),
    },
    posts: await embedPostsAnswer(db, wall, {
      limit,
      after: null,
      mediaOn: Boolean(request.server.ctx.media),
      base: requestBase(request),
    }),
    limit,
  };
}
