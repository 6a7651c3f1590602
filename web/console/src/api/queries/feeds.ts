// A wall's feeds: the list (with each feed's ingestion status), and the
// writes — add or edit, enable/disable, poll now. What a feed changes shows
// in the feeds, the walls' counts and the wall's posts: `useRefreshFeeds`
// reads all three again.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type Feed, type FeedCreate, type PollResult } from '../client';
import { postKeys } from './posts';
import { wallKeys } from './walls';

export const feedQueries = {
  list: (wallId: number) =>
    queryOptions({
      queryKey: ['feeds', wallId],
      queryFn: () =>
        unwrap(
          api.GET('/walls/{wallId}/feeds', { params: { path: { wallId: String(wallId) }, query: { limit: '200' } } }),
        ),
    }),
};

/** The feeds of a wall; `refetchInterval` for a screen that shows their ingestion status, which moves on its own. */
export const useFeeds = (wallId: number, live?: { refetchInterval: number }) =>
  useQuery({ ...feedQueries.list(wallId), ...live });

export function useRefreshFeeds(wallId: number) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: feedQueries.list(wallId).queryKey }),
      queryClient.invalidateQueries({ queryKey: wallKeys.list }),
      queryClient.invalidateQueries({ queryKey: postKeys.ofWall(wallId) }),
    ]);
}

const feedPath = (wallId: number, feed: Feed) => ({ wallId: String(wallId), feedId: String(feed.id) });

/** Polls a feed now: `then.onSuccess` says how it went, then feeds, counts and posts are read again. */
export function usePollFeed(wallId: number, then: { onSuccess(result: PollResult): void }) {
  const refresh = useRefreshFeeds(wallId);
  return useMutation({
    mutationFn: (feed: Feed) =>
      unwrap(api.POST('/walls/{wallId}/feeds/{feedId}/poll', { params: { path: feedPath(wallId, feed) } })),
    onSuccess: async (result) => {
      then.onSuccess(result);
      await refresh();
    },
  });
}

/** Enables a disabled feed or disables an enabled one; said first, then everything is read again. */
export function useToggleFeed(wallId: number, then: { onSuccess(feed: Feed): void }) {
  const refresh = useRefreshFeeds(wallId);
  return useMutation({
    mutationFn: (feed: Feed) =>
      unwrap(
        api.PATCH('/walls/{wallId}/feeds/{feedId}', {
          params: { path: feedPath(wallId, feed) },
          body: { enabled: !feed.enabled },
        }),
      ),
    onSuccess: async (feed) => {
      then.onSuccess(feed);
      await refresh();
    },
  });
}

/** Adds a feed, or saves `feed`; the mutation lasts until what `then.onSuccess` returns is done. */
export function useSaveFeed(wallId: number, feed: Feed | null, then: { onSuccess(saved: Feed): unknown }) {
  return useMutation({
    mutationFn: (body: FeedCreate) =>
      feed
        ? unwrap(api.PATCH('/walls/{wallId}/feeds/{feedId}', { params: { path: feedPath(wallId, feed) }, body }))
        : unwrap(api.POST('/walls/{wallId}/feeds', { params: { path: { wallId: String(wallId) } }, body })),
    onSuccess: (saved) => then.onSuccess(saved),
  });
}
