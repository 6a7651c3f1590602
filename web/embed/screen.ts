// The host's live control of the screen (the stream's `screen` event): the
// state as received, read against the server's clock (`serverNow` gives the
// offset of this one), and what it puts on the screen — a post in the
// spotlight, an announcement or sponsor slide, the schedule's closing or
// message screen — plus the overlay for live streams (lower third, ticker).
// The rules are src/domain/screen-control.ts's (browser code takes only
// types from src/): the schedule's last entry at or before now decides, a
// spotlight or slide lasts until its `until`, a rotation slide comes after
// every `everyPosts` posts. Everything is rendered as text through Lit, and
// pictures only from http(s) URLs.
import { html, nothing } from 'lit';
import type { EmbedScreen, EmbedSlide } from '../../src/schemas/screen.js';
import type { EmbedPost } from './types.js';

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

const until = (iso: string) => Date.parse(iso) || 0;

export type ScreenMode =
  { kind: 'on' } | { kind: 'off'; message: string | null } | { kind: 'message'; message: string };

/** What the schedule says at server time t. */
export function scheduledMode(s: ScreenControl, t: number): ScreenMode {
  let last: EmbedScreen['schedule'][number] | null = null;
  for (const e of s.schedule) if (until(e.at) <= t && (!last || until(e.at) >= until(last.at))) last = e;
  if (!last || last.action === 'on') return { kind: 'on' };
  if (last.action === 'off') return { kind: 'off', message: last.message };
  return { kind: 'message', message: last.message ?? '' };
}

export const spotlightAt = (s: ScreenControl, t: number): EmbedPost | null =>
  s.spotlight && until(s.spotlight.until) > t ? s.spotlight.post : null;

export const slideAt = (s: ScreenControl, t: number): EmbedSlide | null =>
  s.slide && until(s.slide.until) > t ? s.slide.slide : null;

const live = (slide: EmbedSlide, t: number) =>
  (slide.startsAt === null || until(slide.startsAt) <= t) && (slide.endsAt === null || t < until(slide.endsAt));

/** The rotation's slide due after `shown` posts since the last one, looking from `from` round the list. */
export function dueSlide(
  s: ScreenControl,
  shown: number,
  from: number,
  t: number,
): { slide: EmbedSlide; index: number } | null {
  const rotation = s.slides.filter((x) => x.everyPosts !== null && live(x, t));
  for (let k = 0; k < rotation.length; k++) {
    const index = (from + k) % rotation.length;
    const slide = rotation[index]!;
    if (shown >= (slide.everyPosts ?? Infinity)) return { slide, index };
  }
  return null;
}

/** The one timing a screen state can still change by itself: the next end of a spotlight or slide, or schedule entry. */
export function nextChange(s: ScreenControl, t: number): number | null {
  const times = [s.spotlight?.until, s.slide?.until, ...s.schedule.map((e) => e.at)]
    .filter((x): x is string => typeof x === 'string')
    .map(until)
    .filter((x) => x > t);
  return times.length > 0 ? Math.min(...times) : null;
}

/** A slide full-screen: its picture, title and text, and the sponsor label. */
export function renderSlide(slide: EmbedSlide, pictureAllowed: (src: string) => string | undefined) {
  const image = slide.imageUrl ? pictureAllowed(slide.imageUrl) : undefined;
  return html`<section class="takeover slide" part="slide" role="region" aria-label="Announcement">
    ${slide.sponsor ? html`<p class="sponsor">Sponsor</p>` : nothing}
    ${image ? html`<img class="slide-img" src=${image} alt="" />` : nothing}
    <h2>${slide.title}</h2>
    ${slide.text ? html`<p class="slide-text">${slide.text}</p>` : nothing}
  </section>`;
}

/** The post in the spotlight, full-screen, rendered by the wall's own post renderer. */
export function renderSpotlight(card: unknown) {
  return html`<section class="takeover spotlight" part="spotlight" role="region" aria-label="In the spotlight">
    ${card}
  </section>`;
}

/** The schedule's closing ("back soon") or message screen, in the wall's colours with its logo and name. */
export function renderClosed(name: string, logo: string | undefined, mode: Exclude<ScreenMode, { kind: 'on' }>) {
  const text = mode.kind === 'off' ? (mode.message ?? 'Back soon') : mode.message;
  return html`<section class="takeover closed" part="closed" role="region" aria-label=${name}>
    ${logo ? html`<img class="logo" src=${logo} alt="" />` : nothing}
    <h2>${name}</h2>
    <p class="closed-text">${text}</p>
  </section>`;
}

export const OVERLAY_STYLES = ['lower-third', 'ticker'] as const;
export type OverlayStyle = (typeof OVERLAY_STYLES)[number];

/** Plain text of a post's (sanitized) HTML, for the overlay's single lines. */
export function plainText(htmlText: string): string {
  const doc = new DOMParser().parseFromString(htmlText, 'text/html');
  return (doc.body.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** The live-stream overlay: a lower-third card of one post, or a single-line ticker of several. */
export function renderOverlay(
  style: OverlayStyle,
  posts: readonly EmbedPost[],
  index: number,
  pictureAllowed: (src: string) => string | undefined,
) {
  if (posts.length === 0) return nothing;
  if (style === 'ticker') {
    const items = posts
      .slice(0, 20)
      .map((p) => html`<span class="tick"><b>${p.author.name}</b> ${plainText(p.html).slice(0, 200)}</span>`);
    return html`<div class="overlay ticker" part="overlay" role="marquee" aria-label="Latest posts">
      <div class="ticker-track">${items}${items}</div>
    </div>`;
  }
  const post = posts[index % posts.length]!;
  const avatar = pictureAllowed(post.author.avatarCopy ?? post.author.avatar ?? '');
  return html`<div class="overlay lower-third" part="overlay" role="region" aria-label="Latest post">
    ${avatar ? html`<img class="lt-avatar" src=${avatar} alt="" />` : nothing}
    <div class="lt-body">
      <p class="lt-author">
        ${post.author.name}${post.author.username ? html` <span>@${post.author.username.replace(/^@/, '')}</span>` : nothing}
      </p>
      <p class="lt-text">${plainText(post.html).slice(0, 280)}</p>
    </div>
  </div>`;
}
