// The products tagged on a post (hotspots on its picture), in order: place
// one, move or reorder it, remove it. Each write answers with the post's tags
// as they are now, which become the cached list; placing and removing change
// the products' tag counts, which are read again.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../client';
import type { Tag } from '../records';
import { productKeys } from './products';

export interface TagPlace {
  productId: number;
  left: number;
  top: number;
}
/** a new position on the picture, or a new place in the order */
export interface TagMove {
  productId: number;
  left?: number;
  top?: number;
  position?: number;
}

const postPath = (wallId: number, postId: number) => ({ wallId: String(wallId), postId: String(postId) });

export const tagQueries = {
  ofPost: (wallId: number, postId: number) =>
    queryOptions({
      queryKey: ['tags', wallId, postId],
      queryFn: () =>
        unwrap(api.GET('/walls/{wallId}/posts/{postId}/products', { params: { path: postPath(wallId, postId) } })),
    }),
};

export const useTags = (wallId: number, postId: number) => useQuery(tagQueries.ofPost(wallId, postId));

/** The three writes of one post's tags; `then` tells the screen (after the cached tags are replaced). */
export function useTagWrites(
  wallId: number,
  postId: number,
  then: {
    placed(tags: Tag[], at: TagPlace): void;
    moved(tags: Tag[], change: TagMove): void;
    removed(tags: Tag[], productId: number): void;
  },
) {
  const queryClient = useQueryClient();
  const path = postPath(wallId, postId);
  const saved = (tags: Tag[]) => queryClient.setQueryData(tagQueries.ofPost(wallId, postId).queryKey, tags);
  const countsChanged = () => void queryClient.invalidateQueries({ queryKey: productKeys.all });
  const place = useMutation({
    mutationFn: (at: TagPlace) =>
      unwrap(api.POST('/walls/{wallId}/posts/{postId}/products', { params: { path }, body: at })),
    onSuccess: (tags, at) => {
      saved(tags);
      then.placed(tags, at);
      countsChanged();
    },
  });
  const move = useMutation({
    mutationFn: ({ productId, ...body }: TagMove) =>
      unwrap(
        api.PATCH('/walls/{wallId}/posts/{postId}/products/{productId}', {
          params: { path: { ...path, productId: String(productId) } },
          body,
        }),
      ),
    onSuccess: (tags, change) => {
      saved(tags);
      then.moved(tags, change);
    },
  });
  const remove = useMutation({
    mutationFn: (productId: number) =>
      unwrap(
        api.DELETE('/walls/{wallId}/posts/{postId}/products/{productId}', {
          params: { path: { ...path, productId: String(productId) } },
        }),
      ),
    onSuccess: (tags, productId) => {
      saved(tags);
      then.removed(tags, productId);
      countsChanged();
    },
  });
  return { place, move, remove };
}
