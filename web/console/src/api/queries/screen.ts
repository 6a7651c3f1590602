// A wall's live screen control: its state, a change to it, its slides and
// schedule, and the wall's latest approved posts to spotlight. The Control
// screen listens to the wall's live stream — the public stream the screens
// themselves read, opened with a publishable key this tab knows — and puts
// each `screen` event into the query cache, so a change made by another host
// shows at once; the state is read again every 30 s as a safety net, and
// every 3 s while there is no stream (no key known, or the stream refused).
import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
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

/** how often the Control screen reads the state again while it cannot listen to the stream (ms) */
export const SCREEN_INTERVAL = 3_000;
/** how often it reads the state again while the stream is open: a safety net only (ms) */
export const SCREEN_SAFETY_INTERVAL = 30_000;

const wallPath = (wallId: number) => ({ path: { wallId: String(wallId) } });
export const screenKeys = {
  state: (wallId: number) => ['screen', wallId] as const,
  slides: (wallId: number) => ['screen-slides', wallId] as const,
  recent: (wallId: number) => ['screen-posts', wallId] as const,
};

/** `listening`: the wall's stream is open (useScreenStream), the state is read again only as a safety net. */
export const useScreen = (wallId: number, listening = false) =>
  useQuery({
    queryKey: screenKeys.state(wallId),
    queryFn: () => unwrap(api.GET('/walls/{wallId}/screen', { params: wallPath(wallId) })),
    refetchInterval: listening ? SCREEN_SAFETY_INTERVAL : SCREEN_INTERVAL,
    refetchIntervalInBackground: false,
  });

export type ScreenState = NonNullable<ReturnType<typeof useScreen>['data']>;

/** What the stream's `screen` event says that the Control screen shows (the embed API's EmbedScreen). */
interface StreamScreen {
  version: number;
  paused: boolean;
  spotlight: { post: { id: string }; until: string } | null;
  slide: { slide: { id: string }; until: string } | null;
  hiddenPostIds: string[];
  layout: ScreenState['layout'];
  theme: ScreenState['theme'];
  qr: boolean;
  schedule: ScreenState['schedule'];
}

const isStreamScreen = (data: unknown): data is StreamScreen => {
  const s = data as StreamScreen | null;
  return (
    typeof s === 'object' &&
    s !== null &&
    typeof s.version === 'number' &&
    typeof s.paused === 'boolean' &&
    Array.isArray(s.hiddenPostIds) &&
    Array.isArray(s.schedule)
  );
};

/**
 * The state a `screen` event tells, as the management API gives it; the
 * newest version wins (an event older than what the cache holds — a write
 * of this tab answered first — changes nothing).
 */
export function stateFromStream(wallId: number, s: StreamScreen, before: ScreenState | undefined): ScreenState {
  if (before && s.version < before.version) return before;
  return {
    wallId,
    paused: s.paused,
    spotlight: s.spotlight && { postId: Number(s.spotlight.post.id), until: s.spotlight.until },
    slide: s.slide && { slideId: Number(s.slide.slide.id), until: s.slide.until },
    hiddenPostIds: s.hiddenPostIds.map(Number),
    layout: s.layout,
    theme: s.theme,
    qr: s.qr,
    schedule: s.schedule,
    version: s.version,
    // the stream does not say when; the version tells the change
    updatedAt: before?.updatedAt ?? null,
  };
}

function parseEvent(event: Event): unknown {
  try {
    return JSON.parse((event as MessageEvent<string>).data) as unknown;
  } catch {
    return null;
  }
}

/** The wall's embed stream (same origin as the console: no CORS, and a key bound to other origins still works). */
const streamUrl = (wallId: number, key: string) => {
  const url = new URL(`../api/embed/v1/walls/${wallId}/stream`, document.baseURI);
  url.searchParams.set('key', key);
  return url.href;
};

function listen(queryClient: QueryClient, wallId: number, key: string, opened: (open: boolean) => void): () => void {
  const source = new EventSource(streamUrl(wallId, key));
  source.addEventListener('open', () => opened(true));
  // a dropped stream: the browser opens it again by itself; a refused one (CLOSED) stays shut, and the
  // state is read every SCREEN_INTERVAL instead
  source.addEventListener('error', () => opened(false));
  source.addEventListener('screen', (event) => {
    const data = parseEvent(event);
    if (!isStreamScreen(data)) return;
    queryClient.setQueryData<ScreenState>(screenKeys.state(wallId), (before) => stateFromStream(wallId, data, before));
  });
  // a post came, changed or went: the posts to spotlight are read again
  const postsChanged = () => void queryClient.invalidateQueries({ queryKey: screenKeys.recent(wallId) });
  source.addEventListener('upsert', postsChanged);
  source.addEventListener('remove', postsChanged);
  return () => source.close();
}

/**
 * Listens to the wall's live stream with `key` (a publishable key of the
 * wall this tab knows; none: no stream) while the screen is shown. Returns
 * whether the stream is open.
 */
export function useScreenStream(wallId: number, key: string | null): boolean {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (!key) return;
    const stop = listen(queryClient, wallId, key, setOpen);
    return () => {
      stop();
      setOpen(false);
    };
  }, [queryClient, wallId, key]);
  return open;
}

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

/** The wall's latest approved posts: read again when the stream tells a post changed, else every 6 s. */
export const useRecentApproved = (wallId: number, listening = false) =>
  useQuery({
    queryKey: screenKeys.recent(wallId),
    queryFn: () =>
      unwrap(
        api.GET('/walls/{wallId}/posts', {
          params: { ...wallPath(wallId), query: { state: 'approved', limit: '12' } },
        }),
      ),
    refetchInterval: listening ? SCREEN_SAFETY_INTERVAL : SCREEN_INTERVAL * 2,
    refetchIntervalInBackground: false,
  });
