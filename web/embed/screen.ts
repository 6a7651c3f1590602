// The host's live control of the screen (the stream's `screen` event): the
// state as received, read against the server's clock (`serverNow` gives the
// offset of this one). What it puts on the screen — the spotlight, slides,
// the schedule's screens, the overlay for live streams — is drawn by
// screen-view.ts, a chunk of its own loaded only by a screen that needs it
// (the embed script stays small for every other page).
import { css } from 'lit';
import type { EmbedScreen, EmbedSlide } from '../../src/schemas/screen.js';

export type { EmbedScreen, EmbedSlide };

/** The state with this screen's clock offset (server time = Date.now() + offset). */
export interface ScreenControl extends EmbedScreen {
  offset: number;
}

/** A `screen` event's data, if it looks like one; with the clock offset measured now. */
export function readScreen(data: unknown, now = Date.now()): ScreenControl | null {
  if (!data || typeof data !== 'object') return null;
  const s = data as EmbedScreen;
  if (typeof s.version !== 'number' || !Array.isArray(s.hiddenPostIds) || !Array.isArray(s.schedule)) return null;
  const server = Date.parse(s.serverNow);
  return { ...s, slides: Array.isArray(s.slides) ? s.slides : [], offset: Number.isFinite(server) ? server - now : 0 };
}

export const serverTime = (s: ScreenControl, now = Date.now()) => now + s.offset;

export const OVERLAY_STYLES = ['lower-third', 'ticker'] as const;
export type OverlayStyle = (typeof OVERLAY_STYLES)[number];

/** Whether the state puts anything on screen that screen-view.ts draws (pause, hidden posts and overrides need none). */
export const needsView = (s: EmbedScreen) =>
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
