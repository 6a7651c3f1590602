// The queue's list as the moderator sees it: the server's pages (polled for
// new posts) with the changes on their way laid over them.
//
// Posts whose change is on its way are shown as they will be: the next key
// acts on the next post at once, however fast the keys come, and a refresh
// that lands meanwhile does not bring them back. An entry stays after its call
// succeeds, until the server's list agrees: a refresh that was on its way
// before the change was stored must not bring the post back.
import { useCallback, useEffect, useMemo, useReducer, useRef } from 'react';
import type { Post } from '../../api/client';
import { useLivePosts, usePostListCache, type PostFilters, type PostPages } from '../../api/queries/posts';
import { belongs } from './moderation';

export type Overlay = Map<number, { post: Post; settled: boolean }>;

export function useQueueList(wallId: number, filters: PostFilters) {
  const posts = useLivePosts(wallId, filters);
  const cache = usePostListCache(wallId, filters);
  const overlay = useRef<Overlay>(new Map()).current;
  const [overlayVersion, bump] = useReducer((n: number) => n + 1, 0);
  const derive = useCallback(
    (data: PostPages | undefined) =>
      (data?.pages.flatMap((p) => p.data) ?? [])
        .map((p) => overlay.get(p.id)?.post ?? p)
        .filter((p) => belongs(p, filters.state)),
    [overlay, filters.state],
  );
  // overlayVersion: the overlay (a ref) changed
  const list = useMemo(() => derive(posts.data), [derive, posts.data, overlayVersion]);
  /** the list as it is now, between renders too (key presses can come faster than React renders) */
  const listNow = useCallback(() => derive(cache.read()), [derive, cache]);

  // forget what the server's list now agrees with (or no longer lists)
  useEffect(() => {
    if (!posts.data) return;
    const server = new Map(posts.data.pages.flatMap((p) => p.data).map((p) => [p.id, p]));
    for (const [id, entry] of overlay) {
      if (!entry.settled) continue;
      const p = server.get(id);
      const e = entry.post;
      if (!p || (p.state === e.state && p.hidden === e.hidden && p.pinned === e.pinned)) overlay.delete(id);
    }
  }, [overlay, posts.data]);

  return { posts, cache, overlay, bump, list, listNow };
}

/** "N new posts arrived", once, when a refresh of the same list brings posts it did not have. */
export function useArrivals(data: PostPages | undefined, queryKey: readonly unknown[], say: (message: string) => void) {
  const known = useRef<{ key: string; pages: number; ids: Set<number> } | null>(null);
  useEffect(() => {
    if (!data) return;
    const key = JSON.stringify(queryKey);
    const all = data.pages.flatMap((p) => p.data);
    const was = known.current;
    const same = was !== null && was.key === key && was.pages === data.pages.length;
    if (same) {
      const fresh = all.filter((p) => !was.ids.has(p.id)).length;
      if (fresh > 0) say(`${fresh} new post${fresh === 1 ? '' : 's'} arrived.`);
    }
    const ids = same || was?.key === key ? was!.ids : new Set<number>();
    for (const p of all) ids.add(p.id);
    known.current = { key, pages: data.pages.length, ids };
  }, [data, queryKey, say]);
}
