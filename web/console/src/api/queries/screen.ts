// A wall's live screen control: its state (read again every few seconds, so
// the Control screen shows what another host changed), a change to it, its
// slides and schedule, and the wall's latest approved posts to spotlight.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../client';
import type { paths } from '../schema';

type Body<P extends keyof paths, M extends 'patch' | 'post' | 'put'> = paths[P][M] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;
export type ScreenChange = Body<'/walls/{wallId}/screen', 'patch'>;
export type SlideCreate = Body<'/walls/{wallId}/screen/slides', 'post'>;
export type ScheduleEntries = Body<'/walls/{wallId}/screen/schedule', 'put'>['schedule'];

/** how often the Control screen reads the state again (ms) */
export const SCREEN_INTERVAL = 3_000;

const wallPath = (wallId: number) => ({ path: { wallId: String(wallId) } });
export const screenKeys = {
  state: (wallId: number) => ['screen', wallId] as const,
  slides: (wallId: number) => ['screen-slides', wallId] as const,
  recent: (wallId: number) => ['screen-posts', wallId] as const,
};

export const useScreen = (wallId: number) =>
  useQuery({
    queryKey: screenKeys.state(wallId),
    queryFn: () => unwrap(api.GET('/walls/{wallId}/screen', { params: wallPath(wallId) })),
    refetchInterval: SCREEN_INTERVAL,
    refetchIntervalInBackground: false,
  });

export type ScreenState = NonNullable<ReturnType<typeof useScreen>['data']>;

/** Changes the screen; the answer is the state from then on. */
export function useControlScreen(wallId: number, then: { onSuccess(state: ScreenState): void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: ScreenChange) =>
      unwrap(api.PATCH('/walls/{wallId}/screen', { params: wallPath(wallId), body: change })),
    onSuccess: (state) => {
      queryClient.setQueryData(screenKeys.state(wallId), state);
      then.onSuccess(state);
    },
  });
}

export const useSlides = (wallId: number) =>
  useQuery({
    queryKey: screenKeys.slides(wallId),
    queryFn: () => unwrap(api.GET('/walls/{wallId}/screen/slides', { params: wallPath(wallId) })),
  });

export function useCreateSlide(wallId: number, then: { onSuccess(): void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (slide: SlideCreate) =>
      unwrap(api.POST('/walls/{wallId}/screen/slides', { params: wallPath(wallId), body: slide })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: screenKeys.slides(wallId) });
      then.onSuccess();
    },
  });
}

export function useDeleteSlide(wallId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (slideId: number) =>
      unwrap(
        api.DELETE('/walls/{wallId}/screen/slides/{slideId}', {
          params: { path: { wallId: String(wallId), slideId: String(slideId) } },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: screenKeys.slides(wallId) }),
  });
}

export function useSaveSchedule(wallId: number, then: { onSuccess(): void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (schedule: ScheduleEntries) =>
      unwrap(api.PUT('/walls/{wallId}/screen/schedule', { params: wallPath(wallId), body: { schedule } })),
    onSuccess: (state) => {
      queryClient.setQueryData(screenKeys.state(wallId), state);
      then.onSuccess();
    },
  });
}

/** The wall's latest approved posts, read again with the state. */
export const useRecentApproved = (wallId: number) =>
  useQuery({
    queryKey: screenKeys.recent(wallId),
    queryFn: () =>
      unwrap(
        api.GET('/walls/{wallId}/posts', {
          params: { ...wallPath(wallId), query: { state: 'approved', limit: '12' } },
        }),
      ),
    refetchInterval: SCREEN_INTERVAL * 2,
    refetchIntervalInBackground: false,
  });
