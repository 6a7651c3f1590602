// A wall's posts: the moderation list (filtered, paged, polled for new
// posts), the posts with a picture (to tag products on), single posts, and
// the moderation writes — one post, a bulk action, an undo.
import {
  useInfiniteQuery,
  useMutation,
  useQueries,
  useQuery,
  useQueryClient,
  queryOptions,
  type InfiniteData,
  type UseMutationOptions,
} from '@tanstack/react-query';
import { useMemo } from 'react';
import { api, unwrap, type BulkAction, type Post, type PostQuery } from '../client';
import type { paths } from '../schema';
import { cursorParam, pagedQuery, type Page } from './paging';
import { wallKeys } from './walls';

export type ListState = NonNullable<PostQuery['state']>;
/** The moderation list's filters, as the queue's form holds them. */
export interface PostFilters {
  state: ListState;
  feedId: string;
  network: string;
  media: '' | 'image' | 'video' | 'text';
  /** the posts' rights ('' : any) */
  rights: '' | NonNullable<PostQuery['rights']>;
  q: string;
}
/** What a moderation action changes on one post. */
export type PostChange = { state?: Post['state']; hidden?: boolean; pinned?: boolean };
/** A post's moderation as it was, to put back. */
export type PostMarks = { id: number; state: Post['state']; hidden: boolean; pinned: boolean };

const PAGE = 100;
/** how often the moderation list asks for new posts (ms) */
export const LIVE_INTERVAL = 4_000;

export const postKeys = {
  /** every list of a wall's posts: what a change of its posts refreshes */
  ofWall: (wallId: number) => ['posts', wallId] as const,
  list: (wallId: number, filters: PostFilters) => ['posts', wallId, filters] as const,
  withPictures: (wallId: number) => ['shop-posts', wallId] as const,
  detail: (wallId: number, postId: number | string) => ['post', wallId, postId] as const,
};

function listQuery(f: PostFilters, cursor: string): PostQuery {
  const query: PostQuery = { state: f.state, limit: String(PAGE) };
  if (cursor) query.cursor = cursor;
  if (f.feedId) query.feedId = f.feedId;
  if (f.network) query.network = f.network;
  if (f.media) query.media = f.media;
  if (f.rights) query.rights = f.rights;
  if (f.q) query.q = f.q;
  return query;
}

export const postQueries = {
  list: (wallId: number, filters: PostFilters) =>
    pagedQuery(postKeys.list(wallId, filters), (cursor) =>
      unwrap(
        api.GET('/walls/{wallId}/posts', {
          params: { path: { wallId: String(wallId) }, query: listQuery(filters, cursor) },
        }),
      ),
    ),
  withPictures: (wallId: number) =>
    pagedQuery(postKeys.withPictures(wallId), (cursor) =>
      unwrap(
        api.GET('/walls/{wallId}/posts', {
          params: { path: { wallId: String(wallId) }, query: { media: 'image', limit: '48', ...cursorParam(cursor) } },
        }),
      ),
    ),
  detail: (wallId: number, postId: number | string) =>
    queryOptions({
      queryKey: postKeys.detail(wallId, postId),
      queryFn: () =>
        unwrap(
          api.GET('/walls/{wallId}/posts/{postId}', {
            params: { path: { wallId: String(wallId), postId: String(postId) } },
          }),
        ),
    }),
};

export type PostPages = InfiniteData<Page<Post>, unknown>;

/** The moderation list, asked again every few seconds while the tab is visible (new posts arrive that way). */
export const useLivePosts = (wallId: number, filters: PostFilters) =>
  useInfiniteQuery({
    ...postQueries.list(wallId, filters),
    refetchInterval: LIVE_INTERVAL,
    refetchIntervalInBackground: false,
  });

/**
 * The moderation list in the cache, for a screen that acts faster than it
 * renders: read it now, stop a refresh on its way (it may predate a change),
 * read it again (and the walls' counts).
 */
export function usePostListCache(wallId: number, filters: PostFilters) {
  const queryClient = useQueryClient();
  return useMemo(() => {
    const queryKey = postKeys.list(wallId, filters);
    return {
      queryKey,
      read: () => queryClient.getQueryData<PostPages>(queryKey),
      cancel: () => queryClient.cancelQueries({ queryKey }),
      refresh: () => queryClient.invalidateQueries({ queryKey }),
      refreshCounts: () => queryClient.invalidateQueries({ queryKey: wallKeys.list }),
    };
  }, [queryClient, wallId, filters]);
}

export const usePostsWithPictures = (wallId: number) => useInfiniteQuery(postQueries.withPictures(wallId));
export const usePost = (wallId: number, postId: number) => useQuery(postQueries.detail(wallId, postId));

/** Posts by id (a post deleted since fails alone, without retries); kept a minute. */
export const usePostsById = (wallId: number | undefined, postIds: string[]) =>
  useQueries({
    queries: postIds.map((postId) => ({
      ...postQueries.detail(wallId!, postId),
      retry: false,
      staleTime: 60_000,
    })),
  });

/** The moderation actions of the queue's keys and buttons. */
export type Verb = Extract<BulkAction, 'approve' | 'reject' | 'hide' | 'pin'>;

/** One action on posts: one post with its change, or many with one atomic bulk call. */
export interface Moderation {
  verb: Verb;
  targets: Post[];
  /** the change of a single target */
  change: PostChange;
  /** the posts as the action leaves them (what a bulk call answers with) */
  expected: Post[];
}

type Callbacks<V, C> = Omit<UseMutationOptions<Post[], Error, V, C>, 'mutationFn'>;

/** Moderates posts; the screen's callbacks keep its view of the list (see the queue). Answers the changed posts. */
export function useModeratePosts<C = unknown>(wallId: number, callbacks: Callbacks<Moderation, C>) {
  return useMutation({
    mutationFn: async ({ verb, targets, change, expected }: Moderation) => {
      const path = { wallId: String(wallId) };
      if (targets.length === 1) {
        const saved = await unwrap(
          api.PATCH('/walls/{wallId}/posts/{postId}', {
            params: { path: { ...path, postId: String(targets[0]!.id) } },
            body: change,
          }),
        );
        return [saved];
      }
      // hide and pin set (they do not toggle) on many posts
      await unwrap(
        api.POST('/walls/{wallId}/posts/bulk', {
          params: { path },
          body: { action: verb, postIds: targets.map((p) => p.id) },
        }),
      );
      return expected;
    },
    ...callbacks,
  });
}

/** Puts posts' moderation back as it was (an undo), one call a post. */
export function useRestorePostMarks<V extends { before: PostMarks[] }, C = unknown>(
  wallId: number,
  callbacks: Callbacks<V, C>,
) {
  return useMutation({
    mutationFn: ({ before }: V) =>
      Promise.all(
        before.map((b) =>
          unwrap(
            api.PATCH('/walls/{wallId}/posts/{postId}', {
              params: { path: { wallId: String(wallId), postId: String(b.id) } },
              body: { state: b.state, hidden: b.hidden, pinned: b.pinned },
            }),
          ),
        ),
      ),
    ...callbacks,
  });
}

// ---------- the post browser and one post's editor ----------

/** Every change one PATCH of a post makes: moderation, flags, the call-to-action, the text. */
export type PostEdit = NonNullable<
  paths['/walls/{wallId}/posts/{postId}']['patch']['requestBody']
>['content']['application/json'];

/** A wall's posts as the browser lists them: the same filters as the queue, a page at a time, not polled. */
export const useBrowsePosts = (wallId: number, filters: PostFilters) =>
  useInfiniteQuery(postQueries.list(wallId, filters));

/**
 * Edits one post; the answer becomes the cached post, and the wall's lists,
 * its counts and the audit log (the post's history) are read again.
 */
export function useEditPost(
  wallId: number,
  postId: number,
  then: { onSuccess?(saved: Post, edit: PostEdit): void } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (edit: PostEdit) =>
      unwrap(
        api.PATCH('/walls/{wallId}/posts/{postId}', {
          params: { path: { wallId: String(wallId), postId: String(postId) } },
          body: edit,
        }),
      ),
    onSuccess: (saved, edit) => {
      queryClient.setQueryData(postKeys.detail(wallId, postId), saved);
      void queryClient.invalidateQueries({ queryKey: postKeys.ofWall(wallId) });
      void queryClient.invalidateQueries({ queryKey: wallKeys.list });
      void queryClient.invalidateQueries({ queryKey: ['audit'] });
      then.onSuccess?.(saved, edit);
    },
  });
}
