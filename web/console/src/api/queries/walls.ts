// Walls: the paged list (with each wall's counts), one wall, and the writes
// — create or edit, delete, restore — each refreshing the list.
import { queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type Wall, type WallCreate, type WallPatch } from '../client';
import { cursorParam, pagedQuery, rowsOf } from './paging';

export const wallKeys = {
  /** every page of the list; what a change of a wall's counts refreshes */
  list: ['walls'] as const,
  detail: (wallId: number) => ['wall', wallId] as const,
};

export const wallQueries = {
  list: () => ({
    ...pagedQuery(wallKeys.list, (cursor) =>
      unwrap(api.GET('/walls', { params: { query: { limit: '200', ...cursorParam(cursor) } } })),
    ),
    // a screen opened on a wall made a moment ago (another operator, the CLI) must find it
    refetchOnMount: 'always' as const,
  }),
  detail: (wallId: number) =>
    queryOptions({
      queryKey: wallKeys.detail(wallId),
      queryFn: () => unwrap(api.GET('/walls/{wallId}', { params: { path: { wallId: String(wallId) } } })),
    }),
};

export const useWalls = () => useInfiniteQuery(wallQueries.list());
export const useWall = (wallId: number) => useQuery(wallQueries.detail(wallId));

/** The walls not deleted, with the list's query. */
export function useLiveWalls() {
  const query = useWalls();
  return { walls: rowsOf(query.data).filter((w) => !w.deleted), query };
}

/** The walls not deleted of an account (none while it is not known). */
export function useAccountWalls(accountId: number | undefined) {
  const { walls, query } = useLiveWalls();
  return { walls: walls.filter((w) => w.accountId === accountId), query };
}

/** The wall of the URL among the walls not deleted, else the first of them. */
export function useChosenWall(wallId: number | null) {
  const { walls, query } = useLiveWalls();
  const wall = wallId === null ? walls[0] : walls.find((w) => w.id === wallId);
  return { wall, walls, query };
}

/** Creates a wall (in `accountId`) or saves `wall`; the list is refreshed and the wall's record replaced. */
export function useSaveWall(wall: Wall | null, then: { onSuccess(saved: Wall): void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ fields, accountId }: { fields: WallPatch; accountId: number }) =>
      wall
        ? unwrap(api.PATCH('/walls/{wallId}', { params: { path: { wallId: String(wall.id) } }, body: fields }))
        : unwrap(api.POST('/walls', { body: { ...fields, accountId } as WallCreate })),
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: wallKeys.list });
      queryClient.setQueryData(wallKeys.detail(saved.id), saved);
      then.onSuccess(saved);
    },
  });
}

/** Deletes a wall (it can be restored); the list is refreshed first. */
export function useDeleteWall(wall: Wall, then: { onSuccess(): void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.DELETE('/walls/{wallId}', { params: { path: { wallId: String(wall.id) } } })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: wallKeys.list });
      then.onSuccess();
    },
  });
}

/** Restores a deleted wall: said at once, the list refreshed after. */
export function useRestoreWall(then: { onSuccess(wall: Wall): void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (wall: Wall) =>
      unwrap(api.POST('/walls/{wallId}/restore', { params: { path: { wallId: String(wall.id) } } })),
    onSuccess: (wall) => {
      then.onSuccess(wall);
      return queryClient.invalidateQueries({ queryKey: wallKeys.list });
    },
  });
}
