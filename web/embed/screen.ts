// The host's live control of the screen (the stream's `screen` event, or the
// same state in the first page a polling screen reads): the state as
// received, read against the server's clock (`serverNow` gives the offset of
// this one; the polled state has none, a cached answer's would be stale, and
// the offset measured last is kept — none measured: this clock). What it puts on the screen — the spotlight, slides,
// the schedule's screens, the overlay for live streams — is drawn by
// screen-view.ts, a chunk of its own loaded only by a screen that needs it
// (the embed script stays small for every other page).
import { css } from 'lit';
import type { EmbedPolledScreen, EmbedScreen, EmbedSlide } from '../../src/schemas/screen.js';

export type { EmbedPolledScreen, EmbedScreen, EmbedSlide };

/** The state with this screen's clock offset (server time = Date.now() + offset). */
export interface ScreenControl extends EmbedPolledScreen {
  serverNow?: string;
  offset: number;
}

/**
 * A `screen` event's data (or a polled page's `screen`), if it looks like
 * one; with the clock offset measured now, else `offset` (the last one).
 */
export function readScreen(data: unknown, now = Date.now(), offset = 0): ScreenControl | null {
  if (!data || typeof data !== 'object') return null;
  const s = data as EmbedScreen | EmbedPolledScreen;
  if (typeof s.version !== 'number' || !Array.isArray(s.hiddenPostIds) || !Array.isArray(s.schedule)) return null;
  const server = 'serverNow' in s ? Date.parse(s.serverNow) : NaN;
  return {
    ...s,
    slides: Array.isArray(s.slides) ? s.slides : [],
    offset: Number.isFinite(server) ? server - now : offset,
  };
}

export const serverTime = (s: ScreenControl, now = Date.now()) => now + s.offset;

export const OVERLAY_STYLES = ['lower-third', 'ticker'] as const;
export type OverlayStyle = (typeof OVERLAY_STYLES)[number];

/** Whether the state puts anything on screen that screen-view.ts draws (pause, hidden posts and overrides need none). */
export const needsView = (s: EmbedPolledScreen) =>
  s.spotlight !== null || s.slide !== null || s.schedule.length > 0 || s.slides.length > 0;

/** What the wall needs before the view's chunk is there: the overlay page's wall is transparent from the first paint. */
export const screenBase = css`
  .wall {
    position: relative;
  }
  .wall.overlay-mode {
    background: transparent;
    height: 100vh;
    padding: 0;
    overflow: hidden;
  }
`;
