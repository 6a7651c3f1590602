// What the host's live control puts on the screen (screen.ts has the state):
// a post in the spotlight, an announcement or sponsor slide, the schedule's
// closing or message screen, and the overlay for live streams (lower third,
// ticker). A chunk of its own, loaded only by a screen that needs it. The
// rules are src/domain/screen-control.ts's (browser code takes only types
// from src/): the schedule's last entry at or before now decides, a
// spotlight or slide lasts until its `until`, a rotation slide comes after
// every `everyPosts` posts. Everything is rendered as text through Lit, and
// pictures only from http(s) URLs the page allows.
// It imports nothing at run time (Lit's `html` and `nothing` come from the
// wall, `view(lit)`): a chunk that imported Lit would load the entry module
// a second time.
import type { html as litHtml, nothing as litNothing } from 'lit';
import type { EmbedScreen, EmbedSlide, ScreenControl, OverlayStyle } from './screen.js';
import type { EmbedPost } from './types.js';

export { SCREEN_CSS } from './screen-styles.js';

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

/** The drawing functions, with the wall's Lit. */
export function view(lit: { html: typeof litHtml; nothing: typeof litNothing }) {
  const { html, nothing } = lit;
  /** A slide full-screen: its picture, title and text, and the sponsor label. */
  function renderSlide(slide: EmbedSlide, pictureAllowed: (src: string) => string | undefined) {
    const image = slide.imageUrl ? pictureAllowed(slide.imageUrl) : undefined;
    return html`<section class="takeover slide" part="slide" role="region" aria-label="Announcement">
      ${slide.sponsor ? html`<p class="sponsor">Sponsor</p>` : nothing}
      ${image ? html`<img class="slide-img" src=${image} alt="" />` : nothing}
      <h2>${slide.title}</h2>
      ${slide.text ? html`<p class="slide-text">${slide.text}</p>` : nothing}
    </section>`;
  }

  /** The post in the spotlight, full-screen, rendered by the wall's own post renderer. */
  function renderSpotlight(card: unknown) {
    return html`<section class="takeover spotlight" part="spotlight" role="region" aria-label="In the spotlight">
      ${card}
    </section>`;
  }

  /** The schedule's closing ("back soon") or message screen, in the wall's colours with its logo and name. */
  function renderClosed(name: string, logo: string | undefined, mode: Exclude<ScreenMode, { kind: 'on' }>) {
    const text = mode.kind === 'off' ? (mode.message ?? 'Back soon') : mode.message;
    return html`<section class="takeover closed" part="closed" role="region" aria-label=${name}>
      ${logo ? html`<img class="logo" src=${logo} alt="" />` : nothing}
      <h2>${name}</h2>
      <p class="closed-text">${text}</p>
    </section>`;
  }

  /** Plain text of a post's (sanitized) HTML, for the overlay's single lines. */
  function plainText(htmlText: string): string {
    const doc = new DOMParser().parseFromString(htmlText, 'text/html');
    return (doc.body.textContent ?? '').replace(/\s+/g, ' ').trim();
  }

  /** The live-stream overlay: a lower-third card of one post, or a single-line ticker of several. */
  function renderOverlay(
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

  return { renderSlide, renderSpotlight, renderClosed, renderOverlay };
}
