// The hosted page's first load, rendered by the server: the embed API's wall
// and first page of posts, as it answered them, in a JSON island
// (`<script type="application/json" id="wallery-initial">`, which never runs,
// so the page's policy needs nothing inline). The component takes it instead
// of asking for them again — once, and only when it is of this very wall,
// key and page size — then opens the live stream, whose opening reads the
// first page again (a post made meanwhile shows; none twice: PostList
// merges by id).
import type { EmbedWall, PostsPage } from './types.js';

export const INITIAL_ID = 'wallery-initial';

interface Island {
  wall?: { wall?: EmbedWall };
  posts?: PostsPage;
  limit?: number;
}

/** The island's wall and page when they are this element's first load; the island is used up. */
export function takeInitial(wall: string, key: string, limit: number): { wall: EmbedWall; page: PostsPage } | null {
  const island = typeof document === 'undefined' ? null : document.getElementById(INITIAL_ID);
  if (!island || island.getAttribute('type') !== 'application/json') return null;
  let data: Island;
  try {
    data = JSON.parse(island.textContent ?? '') as Island;
  } catch {
    return null;
  }
  const info = data.wall?.wall;
  const page = data.posts;
  const forThis =
    info !== undefined &&
    String(info.id) === wall &&
    typeof info.postsUrl === 'string' &&
    new URL(info.postsUrl, location.href).searchParams.get('key') === key &&
    data.limit === limit &&
    Array.isArray(page?.posts);
  if (!forThis || !page) return null;
  island.remove();
  return { wall: info, page };
}
