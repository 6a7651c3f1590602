// The live control of a wall's event screen: what the host has set (paused,
// a post in the spotlight, a slide shown on demand, posts kept off the
// screen, a layout, theme and QR banner override, the on/off schedule), how
// a command changes it, and what a screen shows at a time t. Pure: the
// management API validates and applies commands with it, the embed stream
// sends its result, and the screen (web/embed/screen.ts) reads the same
// rules from the state it receives.
import type { EmbedLayout, EmbedTheme } from './lists.js';
import type { FieldError } from './errors.js';

/** How long a spotlight or a slide shown on demand stays, s. */
export const SHOW_SECONDS = { min: 3, max: 3600, default: 15 } as const;
/** Posts kept off one wall's screen at most (the oldest leave the list first). */
export const HIDDEN_MAX = 500;
export const SCHEDULE_MAX = 50;
export const SCHEDULE_ACTIONS = ['on', 'off', 'message'] as const;
export type ScheduleAction = (typeof SCHEDULE_ACTIONS)[number];
export const MESSAGE_MAX = 200;
export const SLIDE_TITLE_MAX = 120;
export const SLIDE_TEXT_MAX = 600;
export const SLIDES_MAX = 50;
/** A slide in the rotation comes after every this many posts. */
export const EVERY_POSTS = { min: 1, max: 1000 } as const;

/** One entry of the screen's schedule: from `at` on, the screen is on, off, or shows a message. */
export interface ScheduleEntry {
  /** epoch ms */
  at: number;
  action: ScheduleAction;
  /** what an `off` or `message` screen says ("Back at 14:00"); null: the default */
  message: string | null;
}

export interface ScreenState {
  paused: boolean;
  spotlight: { postId: number; until: number } | null;
  slide: { slideId: number; until: number } | null;
  hiddenPostIds: number[];
  layout: EmbedLayout | null;
  theme: EmbedTheme | null;
  qr: boolean;
  schedule: ScheduleEntry[];
  /** moves on with every change: a screen applies the newest it sees */
  version: number;
}

export const INITIAL_SCREEN_STATE: ScreenState = {
  paused: false,
  spotlight: null,
  slide: null,
  hiddenPostIds: [],
  layout: null,
  theme: null,
  qr: true,
  schedule: [],
  version: 0,
};

/** A change the host asks for; absent fields stay as they are. */
export interface ScreenCommand {
  paused?: boolean;
  /** null ends the spotlight */
  spotlight?: { postId: number; seconds?: number } | null;
  /** null ends the slide shown on demand */
  showSlide?: { slideId: number; seconds?: number } | null;
  hide?: number[];
  unhide?: number[];
  /** null: the screen's own (its page's or the wall's) */
  layout?: EmbedLayout | null;
  theme?: EmbedTheme | null;
  qr?: boolean;
}

/** What is wrong with a command beyond its shape (the schema checks that): every problem, with its field. */
export function commandProblems(command: ScreenCommand): FieldError[] {
  const problems: FieldError[] = [];
  const hidden = new Set(command.hide ?? []);
  const both = (command.unhide ?? []).filter((id) => hidden.has(id));
  if (both.length > 0)
    problems.push({ field: 'unhide', message: `post ${both[0]} cannot be hidden and shown again in one change` });
  if (command.spotlight && hidden.has(command.spotlight.postId))
    problems.push({ field: 'spotlight.postId', message: 'a post hidden from the screen cannot be in its spotlight' });
  return problems;
}

const seconds = (s: number | undefined) =>
  Math.min(SHOW_SECONDS.max, Math.max(SHOW_SECONDS.min, s ?? SHOW_SECONDS.default));

/**
 * The state after `command` at `now`. Hiding the post in the spotlight ends
 * the spotlight; putting a hidden post in the spotlight shows it again (the
 * host chose it). The hidden list keeps the newest HIDDEN_MAX.
 */
export function applyCommand(state: ScreenState, command: ScreenCommand, now: number): ScreenState {
  const next: ScreenState = { ...state, hiddenPostIds: [...state.hiddenPostIds], version: state.version + 1 };
  if (command.paused !== undefined) next.paused = command.paused;
  if (command.layout !== undefined) next.layout = command.layout;
  if (command.theme !== undefined) next.theme = command.theme;
  if (command.qr !== undefined) next.qr = command.qr;
  if (command.showSlide !== undefined)
    next.slide = command.showSlide && {
      slideId: command.showSlide.slideId,
      until: now + seconds(command.showSlide.seconds) * 1000,
    };
  if (command.unhide) {
    const shown = new Set(command.unhide);
    next.hiddenPostIds = next.hiddenPostIds.filter((id) => !shown.has(id));
  }
  if (command.hide) {
    const hide = new Set(command.hide);
    next.hiddenPostIds = [...next.hiddenPostIds.filter((id) => !hide.has(id)), ...hide].slice(-HIDDEN_MAX);
  }
  if (command.spotlight !== undefined) {
    next.spotlight = command.spotlight && {
      postId: command.spotlight.postId,
      until: now + seconds(command.spotlight.seconds) * 1000,
    };
    if (command.spotlight) next.hiddenPostIds = next.hiddenPostIds.filter((id) => id !== command.spotlight!.postId);
  }
  if (next.spotlight && next.hiddenPostIds.includes(next.spotlight.postId)) next.spotlight = null;
  return next;
}

/** The problems of a schedule (its shape checked by the schema): two entries at one time, a message missing. */
export function scheduleProblems(entries: readonly ScheduleEntry[]): FieldError[] {
  const problems: FieldError[] = [];
  const seen = new Set<number>();
  entries.forEach((e, i) => {
    if (seen.has(e.at)) problems.push({ field: `schedule[${i}].at`, message: 'two schedule entries at the same time' });
    seen.add(e.at);
    if (e.action === 'message' && !e.message?.trim())
      problems.push({ field: `schedule[${i}].message`, message: 'a message entry needs its message' });
  });
  return problems;
}

/** The schedule as kept: in time order, messages trimmed (an empty one: none). */
export function normalizeSchedule(entries: readonly ScheduleEntry[]): ScheduleEntry[] {
  return [...entries]
    .map((e) => ({ at: e.at, action: e.action, message: e.message?.trim() || null }))
    .sort((a, b) => a.at - b.at);
}

export type ScreenMode =
  { kind: 'on' } | { kind: 'off'; message: string | null } | { kind: 'message'; message: string };

/** What the schedule says at `t`: its last entry at or before t; on before the first. */
export function scheduledMode(schedule: readonly ScheduleEntry[], t: number): ScreenMode {
  let last: ScheduleEntry | null = null;
  for (const e of schedule) if (e.at <= t && (!last || e.at >= last.at)) last = e;
  if (!last || last.action === 'on') return { kind: 'on' };
  if (last.action === 'off') return { kind: 'off', message: last.message };
  return { kind: 'message', message: last.message ?? '' };
}

/** A slide as the screen reads it. */
export interface ScreenSlide {
  id: number;
  title: string;
  text: string;
  imageUrl: string | null;
  sponsor: boolean;
  /** in the rotation after every this many posts; null: shown on demand only */
  everyPosts: number | null;
  startsAt: number | null;
  endsAt: number | null;
}

/** Within the slide's own start and end. */
export const slideLive = (slide: ScreenSlide, t: number) =>
  (slide.startsAt === null || slide.startsAt <= t) && (slide.endsAt === null || t < slide.endsAt);

/** What a screen shows at t. */
export interface ScreenView {
  mode: ScreenMode;
  paused: boolean;
  /** the post in the spotlight, until its time is up */
  spotlightPostId: number | null;
  /** the slide shown on demand, until its time is up (and while the slide exists and is live) */
  slideId: number | null;
  /** the slides in the rotation now, in order */
  rotation: ScreenSlide[];
}

/**
 * What the screen shows at `t`. A screen the schedule turned off shows only
 * its closing screen; a message screen likewise. Otherwise a slide shown on
 * demand covers the spotlight, which covers the posts.
 */
export function screenAt(state: ScreenState, slides: readonly ScreenSlide[], t: number): ScreenView {
  const mode = scheduledMode(state.schedule, t);
  const live = slides.filter((s) => slideLive(s, t));
  const slide = state.slide && state.slide.until > t ? live.find((s) => s.id === state.slide!.slideId) : undefined;
  return {
    mode,
    paused: state.paused,
    spotlightPostId: state.spotlight && state.spotlight.until > t ? state.spotlight.postId : null,
    slideId: slide?.id ?? null,
    rotation: live.filter((s) => s.everyPosts !== null),
  };
}

/**
 * The rotation's slide due after `postsShown` posts since the last slide,
 * looking from `from` (the index after the last one shown) round the list:
 * the first whose `everyPosts` has been reached; null when none is due.
 */
export function dueSlide(
  rotation: readonly ScreenSlide[],
  postsShown: number,
  from: number,
): { slide: ScreenSlide; index: number } | null {
  for (let k = 0; k < rotation.length; k++) {
    const index = (from + k) % rotation.length;
    const slide = rotation[index]!;
    if (slide.everyPosts !== null && postsShown >= slide.everyPosts) return { slide, index };
  }
  return null;
}
