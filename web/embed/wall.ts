// <wallery-wall>: a wall of posts in an open Shadow DOM, live through the
// embed API's event stream (polling when refused), with four layouts. The
// event layout (a big screen) shows its posts a screenful at a time, turning
// the page every few seconds: only that page (and what is left of the
// window after it) is in the document, however many posts the wall has.
// Pictures are Wallery's copies where it has them; with `local-media` (the
// hosted page) only those: a picture without a copy is left out.
import { LitElement, adoptStyles, html, nothing, unsafeCSS, type PropertyValues } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { analyticsAllowed, Reporter } from './analytics.js';
import { eventBranding, eventDate, renderBanner, renderWaiting, type BannerOptions } from './event.js';
import type { QrCode } from './qr.js';
import { applyBranding, brandingCardStyle, brandingProps } from './branding.js';
import { cssProps } from './css-props.js';
import { EmbedClient, apiBase } from './api.js';
import { LiveFeed, type LiveState } from './live.js';
import { PostList } from './post-list.js';
import { renderPost, type PostContext } from './post.js';
import type { PictureRules } from './pictures.js';
import { renderShop, trapTab } from './shop-dialog.js';
import { styles } from './styles.js';
import type { EmbedPost, EmbedWall, Layout } from './types.js';
import { postDate, reducedMotion, throttle, visitorMessage } from './util.js';
import { takeInitial } from './initial.js';
import {
  needsView,
  OVERLAY_STYLES,
  readScreen,
  screenBase,
  serverTime,
  type EmbedSlide,
  type OverlayStyle,
  type ScreenControl,
} from './screen.js';
import { originalAllowed } from './pictures.js';

const LAYOUTS: readonly Layout[] = ['masonry', 'grid', 'carousel', 'event'];
const ANNOUNCE_EVERY_MS = 5_000;
const CAROUSEL_EVERY_MS = 5_000;
/** an event screen's page stays this long */
const EVENT_PAGE_MS = 12_000;
/** the posts an event screen puts in the document at once: its page and the next ones (the DOM stays small) */
const EVENT_WINDOW = 40;
/** an event screen turns back to the newest after this many posts loaded (it shows what is recent) */
const EVENT_MAX_LOADED = 1_000;
/** a slide of the rotation stays this long */
const ROTATION_SLIDE_MS = 10_000;
/** the overlay's lower third shows each post this long */
const OVERLAY_EVERY_MS = 8_000;
/** burn-in care: the event screen moves by a few px, one step every so often */
const DRIFT_EVERY_MS = 90_000;
const DRIFT: readonly [number, number][] = [
  [0, 0],
  [3, 2],
  [-2, 3],
  [-3, -2],
  [2, -3],
];
/** the masonry grid's row height (styles.ts): a post spans its height in these, plus the gap */
const MASONRY_ROW_PX = 4;

/**
 * The picture of an event page's two-column post: as wide as its own shape between 3:2 and 16:9
 * (a landscape photo whole), cut to 16:9 when wider and to 3:2 when taller (a 4:3 photo loses a twelfth at top and bottom: the page keeps room for a post under it).
 */
function wideRatio(img: HTMLImageElement | null): string {
  const [w, h] = [Number(img?.getAttribute('width')), Number(img?.getAttribute('height'))];
  const ratio = w > 0 && h > 0 ? Math.min(16 / 9, Math.max(3 / 2, w / h)) : 16 / 9;
  return ratio.toFixed(4);
}

export class WalleryWall extends LitElement {
  static override styles = [styles, screenBase];
  static override properties = {
    wall: { type: String },
    key: { type: String },
    layout: { type: String },
    columns: { type: Number },
    limit: { type: Number },
    theme: { type: String },
    api: { type: String },
    poll: { type: Number },
    analytics: { type: String },
    localMedia: { type: Boolean, attribute: 'local-media' },
    overlay: { type: String },
    info: { state: true },
    screen: { state: true },
    error: { state: true },
    liveState: { state: true },
    shopPost: { state: true },
    announcement: { state: true },
    paused: { state: true },
    loadingMore: { state: true },
    held: { state: true },
    eventStart: { state: true },
    qr: { state: true },
  };

  declare wall: string;
  declare key: string;
  declare layout: string | undefined;
  declare columns: number | undefined;
  declare limit: number | undefined;
  declare theme: string | undefined;
  declare api: string | undefined;
  declare poll: number | undefined;
  declare analytics: string | undefined;
  declare localMedia: boolean;
  /** a live-stream overlay instead of the wall: lower-third or ticker (screen.ts) */
  declare overlay: string | undefined;
  declare info: EmbedWall | null;
  /** the host's live control of the screen, as last received (screen.ts) */
  declare screen: ScreenControl | null;
  declare error: string;
  declare liveState: LiveState;
  declare shopPost: EmbedPost | null;
  declare announcement: string;
  declare paused: boolean;
  declare loadingMore: boolean;
  /** the event screen's rotation stopped by its Pause button */
  declare held: boolean;
  /** the event screen's page: the index of its first post */
  declare eventStart: number;
  /** the event screen's QR code (its encoder loaded only there) */
  declare qr: { url: string; code: QrCode } | null;

  private list = new PostList();
  private client: EmbedClient | null = null;
  /** kept while the element is moved in the page: a page view counts each post once */
  private reporter: Reporter | null = null;
  private feed: LiveFeed | null = null;
  private generation = 0;
  private fresh = new Set<string>();
  private playing = new Set<string>();
  /** pictures that failed to load: left out from then on */
  private failed = new Set<string>();
  private fail = (src: string) => {
    if (this.failed.has(src)) return;
    this.failed.add(src);
    this.requestUpdate();
  };
  private play = (key: string) => {
    this.playing.add(key);
    this.requestUpdate();
    void this.updateComplete.then(() => {
      const [id, index] = key.split(':');
      this.renderRoot.querySelectorAll<HTMLVideoElement>(`[data-post-id="${id}"] video`)[Number(index)]?.focus();
    });
  };
  /** posts whose long text a visitor expanded */
  private expanded = new Set<string>();
  private toggle = (id: string) => {
    if (!this.expanded.delete(id)) this.expanded.add(id);
    this.requestUpdate();
  };
  /** where the event screen's next page starts: the first post that did not fit (measured after each render) */
  private eventNext = 0;
  /** every post of the wall is on this page: it does not turn */
  private eventAll = false;
  /** posts after that one shown on this page all the same (they fitted): left out of the next page */
  private eventShownAfter = new Set<string>();
  /** left out of this page: shown on the one before */
  private eventSkip = new Set<string>();
  /** the event page just turned: it fades in */
  private turned = false;
  private drift = 0;
  private logoFailed = false;
  /** the branding's properties set on the host (branding.ts) */
  private branded: Record<string, string> = {};
  private newCount = 0;
  /** posts shown since the rotation's last slide, where the rotation looks next, and the slide it shows */
  private rotationShown = 0;
  private rotationFrom = 0;
  private rotationSlide: { slide: EmbedSlide; until: number } | null = null;
  /** what the screen control put on screen at the last tick (a change re-renders) */
  private screenShown = '';
  private overlayIndex = 0;
  /** what draws the screen control's takeovers and the overlay: a chunk loaded when first needed (screen-view.ts) */
  private view: (typeof import('./screen-view.js') & ReturnType<typeof import('./screen-view.js').view>) | null = null;
  private viewLoading = false;
  private now = Date.now();
  private timers: ReturnType<typeof setInterval>[] = [];
  private observer: IntersectionObserver | null = null;
  private observed: Element | null = null;
  /** the event screen's posts area: packed again when its size changes */
  private screenSizer: ResizeObserver | null = null;
  private screenObserved: Element | null = null;
  /** masonry: each post's height, measured as it changes, gives the rows it spans */
  private sizer: ResizeObserver | null = null;
  private sized = new Set<HTMLElement>();
  private hovering = false;
  private focusInside = false;
  private opener: HTMLElement | null = null;
  private resyncing: Promise<void> | null = null;
  private darkQuery = matchMedia('(prefers-color-scheme: dark)');
  private onScheme = () => this.requestUpdate();

  private announce = throttle(() => {
    if (this.newCount === 0) return;
    const n = this.newCount;
    this.newCount = 0;
    this.announcement = n === 1 ? '1 new post' : `${n} new posts`;
  }, ANNOUNCE_EVERY_MS);

  constructor() {
    super();
    this.wall = '';
    this.key = '';
    this.info = null;
    this.error = '';
    this.liveState = 'connecting';
    this.shopPost = null;
    this.announcement = '';
    this.paused = reducedMotion();
    this.loadingMore = false;
    this.localMedia = false;
    this.held = false;
    this.eventStart = 0;
    this.qr = null;
    this.screen = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // moved in the page: disconnectedCallback stopped everything, start again
    if (this.hasUpdated) void this.boot();
    this.darkQuery.addEventListener('change', this.onScheme);
    this.timers.push(
      setInterval(() => {
        this.now = Date.now();
        this.requestUpdate();
      }, 60_000),
      setInterval(() => this.autoCarousel(), CAROUSEL_EVERY_MS),
      setInterval(() => this.autoPage(), EVENT_PAGE_MS),
      setInterval(() => this.driftStep(), DRIFT_EVERY_MS),
      // a spotlight, slide or schedule entry ends or starts by the clock
      setInterval(() => this.screenTick(), 1_000),
      setInterval(() => this.overlayStep(), OVERLAY_EVERY_MS),
    );
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.darkQuery.removeEventListener('change', this.onScheme);
    this.timers.forEach(clearInterval);
    this.timers = [];
    this.feed?.stop();
    this.feed = null;
    this.observer?.disconnect();
    this.observer = null;
    this.observed = null;
    this.sizer?.disconnect();
    this.sizer = null;
    this.sized.clear();
    this.screenSizer?.disconnect();
    this.screenSizer = null;
    this.screenObserved = null;
    this.reporter?.stop();
    this.generation++;
  }

  protected override willUpdate(changed: PropertyValues): void {
    if ((changed.has('wall') || changed.has('key') || changed.has('api')) && this.isConnected) void this.boot();
    else if (changed.has('analytics') && this.isConnected) this.syncReporter();
    // the wall's branding on the host, before the posts are laid out (its font and radius change their sizes)
    const b = this.info?.branding;
    this.branded = applyBranding(
      this,
      brandingProps(b, this.dark ? 'dark' : 'light'),
      brandingCardStyle(b),
      this.branded,
    );
  }

  /**
   * Masonry: every post spans the grid rows its height needs (its picture's
   * box is reserved by its width and height, so that height is known before
   * the picture loads). New posts are measured at once, before the frame is
   * painted — no post moves once shown; later changes of height (the wall
   * resized, a picture dropped) through a ResizeObserver.
   */
  private sizeMasonry(): void {
    const layout = this.effectiveLayout;
    const items =
      layout === 'masonry' || layout === 'grid' ? this.renderRoot.querySelectorAll<HTMLElement>('.posts > li') : [];
    if (items.length === 0 && !this.sizer) return;
    const span = (li: HTMLElement, height: number, gap: number) =>
      li.style.setProperty('--_rows', String(Math.ceil((height + gap) / MASONRY_ROW_PX)));
    const gapOf = (li: Element | undefined) =>
      li?.parentElement ? parseFloat(getComputedStyle(li.parentElement).columnGap) || 0 : 0;
    this.sizer ??= new ResizeObserver((entries) => {
      const gap = gapOf(entries[0]?.target);
      for (const e of entries)
        span(e.target as HTMLElement, e.borderBoxSize[0]?.blockSize ?? e.contentRect.height, gap);
    });
    const now = new Set(items);
    for (const li of this.sized)
      if (!now.has(li)) {
        this.sizer.unobserve(li);
        this.sized.delete(li);
      }
    const fresh = [...now].filter((li) => !this.sized.has(li));
    if (fresh.length === 0) return;
    // every height read first (one layout), then every span written
    const gap = gapOf(fresh[0]);
    const heights = fresh.map((li) => li.getBoundingClientRect().height);
    fresh.forEach((li, i) => {
      span(li, heights[i]!, gap);
      this.sizer!.observe(li);
      this.sized.add(li);
    });
  }

  /**
   * The event screen's page, packed here: each post in turn goes where the
   * columns end highest (pinned and featured ones over two columns, where
   * there are three or more), as long as it fits on the screen whole; one
   * that does not is left out (nothing is cut in half) and starts the next
   * page, where the posts after it shown here are left out in turn. The
   * posts' places are set on the grid (4 px rows), so what the screen shows
   * is exactly what was counted.
   */
  private fitEvent(): void {
    const screen = this.effectiveLayout === 'event' ? this.renderRoot.querySelector<HTMLElement>('.screen') : null;
    const list = screen?.querySelector<HTMLElement>('.posts');
    if (!screen || !list) return;
    this.screenSizer ??= new ResizeObserver(() => this.fitEvent());
    if (this.screenObserved !== screen) {
      this.screenSizer.disconnect();
      this.screenSizer.observe(screen);
      this.screenObserved = screen;
    }
    const items = [...list.querySelectorAll<HTMLElement>(':scope > li')];
    const style = getComputedStyle(list);
    const columns = style.gridTemplateColumns.split(' ').filter(Boolean).length || 1;
    const gap = parseFloat(style.columnGap) || 0;
    // one pinned or featured post per page gets two columns: two wide posts side by side take a
    // whole row of the screen's height and leave holes under them that no other post fits
    let wideGiven = false;
    const spans = items.map((li) => {
      const wide = columns >= 3 && !wideGiven && li.classList.contains('wide');
      wideGiven ||= wide;
      return wide ? 2 : 1;
    });
    // every post in its width, unplaced, then every height read at once
    items.forEach((li, i) => {
      li.classList.remove('off');
      li.inert = false;
      li.dataset.span = String(spans[i]);
      if (spans[i] === 2) li.style.setProperty('--_wide-ratio', wideRatio(li.querySelector('.media img')));
      li.style.setProperty('grid-row', 'auto');
      li.style.setProperty('grid-column', `auto / span ${spans[i]}`);
    });
    const heights = items.map((li) => li.getBoundingClientRect().height);
    const room = screen.clientHeight - parseFloat(getComputedStyle(screen).paddingTop) * 2;
    const ends = new Array<number>(columns).fill(0); // in rows of MASONRY_ROW_PX
    const index = (li: HTMLElement | undefined) => Number(li?.dataset.i ?? this.list.posts.length);
    let cut = -1;
    const shownAfter = new Set<string>();
    /** where a post `k` columns wide goes: the first columns ending highest */
    const slot = (k: number) => {
      let best = 0;
      let top = Infinity;
      for (let c = 0; c + k <= columns; c++) {
        const t = Math.max(...ends.slice(c, c + k));
        if (t < top) [best, top] = [c, t];
      }
      return { best, top };
    };
    const fits = (top: number, height: number) => top * MASONRY_ROW_PX + height <= room;
    items.forEach((li, i) => {
      let k = spans[i]!;
      let { best, top } = slot(k);
      let height = heights[i]!;
      if (i > 0 && !fits(top, height) && k === 1 && columns >= 3 && li.querySelector('.quote')) {
        // a quote is shorter over two columns: it may fill the room left under a two-column post
        const wide = slot(2);
        li.style.setProperty('grid-column', 'auto / span 2');
        const wideHeight = li.getBoundingClientRect().height;
        if (fits(wide.top, wideHeight)) [k, best, top, height] = [2, wide.best, wide.top, wideHeight];
      }
      const rows = Math.ceil((height + gap) / MASONRY_ROW_PX);
      if (i > 0 && !fits(top, height)) {
        if (cut === -1) cut = i;
        li.classList.add('off');
        li.inert = true;
        return;
      }
      for (let c = best; c < best + k; c++) ends[c] = top + rows;
      li.style.setProperty('grid-row', `${top + 1} / span ${rows}`);
      li.style.setProperty('grid-column', `${best + 1} / span ${k}`);
      if (cut !== -1) shownAfter.add(li.dataset.id!);
    });
    this.eventNext = cut === -1 ? index(items[items.length - 1]) + 1 : index(items[cut]);
    this.eventShownAfter = shownAfter;
    this.eventAll = cut === -1 && items.length === this.list.posts.length && !this.canLoadMore;
  }

  /** Clamped text: its "More" button shown only where the text is cut. */
  private markClamped(): void {
    for (const text of this.renderRoot.querySelectorAll<HTMLElement>('.post:not(.open) .text')) {
      const cut = text.scrollHeight > text.clientHeight + 2;
      text.closest('.post')!.toggleAttribute('data-clamped', cut);
    }
  }

  protected override updated(): void {
    this.sizeMasonry();
    this.fitEvent();
    this.markClamped();
    this.turned = false;
    this.loadQr();
    if (this.reporter && this.info && this.list.posts.length > 0) {
      this.reporter.wallLoaded();
      this.reporter.watch(this.renderRoot);
    }
    // infinite scroll: the "load more" button loads the next page when it comes into view
    const more = this.renderRoot.querySelector('.more');
    if (more !== this.observed) {
      this.observer ??= new IntersectionObserver((entries) => {
        if (entries.some((e) => e.isIntersecting)) void this.loadMore();
      });
      if (this.observed) this.observer.unobserve(this.observed);
      if (more) this.observer.observe(more);
      this.observed = more;
    }
  }

  private get pageSize(): number {
    const n = Math.trunc(Number(this.limit) || 20);
    return Math.min(100, Math.max(1, n));
  }

  private get effectiveLayout(): Layout {
    const wanted = (this.screen?.layout ?? this.layout ?? this.info?.layout ?? 'masonry') as Layout;
    return LAYOUTS.includes(wanted) ? wanted : 'masonry';
  }

  private get dark(): boolean {
    const theme = this.screen?.theme ?? this.theme ?? this.info?.theme ?? 'auto';
    return theme === 'dark' || (theme !== 'light' && this.darkQuery.matches);
  }

  private emit(name: string, detail: unknown): void {
    this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
  }

  /** The reporter of this wall and key, started; none when counting is off. */
  private syncReporter(): void {
    const url = analyticsAllowed(this.analytics)
      ? `${apiBase(this.api ?? null, import.meta.url)}/api/embed/v1/events?key=${encodeURIComponent(this.key)}`
      : null;
    if (this.reporter?.url !== url) {
      this.reporter?.stop(url !== null);
      this.reporter = url ? new Reporter(url) : null;
    }
    this.reporter?.start();
  }

  /** Counts clicks on a post's link, its call-to-action and a product in the shoppable dialog. */
  private onClick = (e: MouseEvent) => {
    if (!this.reporter || (e.type === 'auxclick' && e.button !== 1)) return;
    const link = (e.target as Element).closest('a[href]');
    if (!link) return;
    const postId = link.closest('[data-post-id]')?.getAttribute('data-post-id');
    const productId = link.closest('[data-product-id]')?.getAttribute('data-product-id');
    // a click names its post (the API refuses a beacon with one that does not)
    if (postId && link.matches('.cta')) this.reporter.track({ type: 'cta_click', postId });
    else if (postId && link.matches('.meta a')) this.reporter.track({ type: 'click', postId });
    else if (this.shopPost && productId && /^\d{1,15}$/.test(productId)) {
      this.reporter.track({ type: 'product_click', postId: this.shopPost.id, productId: Number(productId) });
    }
  };

  private async boot(): Promise<void> {
    const generation = ++this.generation;
    this.feed?.stop();
    this.feed = null;
    this.list = new PostList();
    this.eventStart = 0;
    this.eventSkip = new Set();
    this.error = '';
    this.info = null;
    this.screen = null;
    this.rotationSlide = null;
    if (!this.wall || !this.key) {
      this.error = 'This wall needs its wall and key attributes.';
      return;
    }
    this.syncReporter();
    try {
      const client = new EmbedClient(apiBase(this.api ?? null, import.meta.url), this.wall, this.key);
      this.client = client;
      // the hosted page's server-rendered first load, when there is one (initial.ts)
      const initial = takeInitial(this.wall, this.key, this.pageSize);
      const info = initial?.wall ?? (await client.wall());
      if (generation !== this.generation) return;
      const page = initial?.page ?? (await client.page(info.postsUrl, this.pageSize));
      if (generation !== this.generation) return;
      this.list.reset(page.posts, page.nextCursor);
      this.info = info;
      // the host's control of the screen as the first page had it (the stream sends it again, or polls bring it)
      if (page.screen) this.onScreen(page.screen, generation);
      await this.updateComplete;
      this.emit('wallery:ready', { wall: info, posts: this.list.posts.length });
      this.feed = new LiveFeed(
        client.resolve(info.streamUrl),
        {
          upsert: (post) => this.onUpsert(post),
          remove: (id) => this.onRemove(id),
          resync: () => this.resync(generation),
          state: (state) => (this.liveState = state),
          screen: (data) => this.onScreen(data, generation),
        },
        { pollMs: Math.max(1, Number(this.poll) || 10) * 1000 },
      );
      this.feed.start();
    } catch (err) {
      if (generation !== this.generation) return;
      this.error = visitorMessage(err);
    }
  }

  private added(posts: EmbedPost[]): void {
    if (posts.length === 0) return;
    for (const post of posts) this.fresh.add(post.id);
    this.newCount += posts.length;
    this.announce();
    // the event screen shows the newest at once
    if (this.effectiveLayout === 'event') this.showPage(0);
    const moved = this.glideFrom();
    this.requestUpdate();
    void this.updateComplete.then(() => {
      moved();
      for (const post of posts) this.emit('wallery:post-added', { post });
    });
  }

  /**
   * The cards in view glide to the places a new post makes for them instead of jumping there
   * (where they are now is read before the render, where they went after it; reduced motion:
   * they move at once). Returns what to run after the render.
   */
  private glideFrom(): () => void {
    const layout = this.effectiveLayout;
    if ((layout !== 'masonry' && layout !== 'grid') || reducedMotion()) return () => {};
    const inView = (r: DOMRect) => r.bottom > 0 && r.top < innerHeight;
    const before = new Map<Element, DOMRect>();
    for (const card of this.renderRoot.querySelectorAll('.posts > li')) {
      const r = card.getBoundingClientRect();
      if (inView(r)) before.set(card, r);
    }
    return () => {
      for (const [card, was] of before) {
        if (!card.isConnected) continue;
        const now = card.getBoundingClientRect();
        const [dx, dy] = [was.left - now.left, was.top - now.top];
        if (Math.abs(dx) + Math.abs(dy) < 1) continue;
        card.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: 'none' }], {
          duration: 450,
          easing: 'cubic-bezier(0.2, 0, 0, 1)',
        });
      }
    };
  }

  /** The host's new screen state: the newest version wins; hidden posts leave at once, a resume catches up. */
  private onScreen(data: unknown, generation: number): void {
    const next = readScreen(data, Date.now(), this.screen?.offset);
    if (!next || generation !== this.generation) return;
    if (this.screen && next.version < this.screen.version) return;
    const resumed = this.screen?.paused === true && !next.paused;
    this.screen = next;
    if (needsView(next)) this.loadView();
    for (const id of next.hiddenPostIds) this.onRemove(id);
    if (resumed) void this.resync(generation).catch(() => undefined);
    this.emit('wallery:screen', { version: next.version });
  }

  /** Loads the screen control's view (once); its styles join the wall's. */
  private loadView(): void {
    if (this.view || this.viewLoading) return;
    this.viewLoading = true;
    void import('./screen-view.js').then((module) => {
      this.view = { ...module, ...module.view({ html, nothing }) };
      adoptStyles(this.renderRoot as ShadowRoot, [...WalleryWall.elementStyles, unsafeCSS(module.SCREEN_CSS)]);
      this.requestUpdate();
    });
  }

  private get hostPaused(): boolean {
    return this.screen?.paused === true;
  }

  private hiddenOnScreen(id: string): boolean {
    return this.screen?.hiddenPostIds.includes(id) === true;
  }

  /** Re-renders when what the screen control shows changes by the clock (a spotlight's time is up, a break starts). */
  private screenTick(): void {
    const s = this.screen;
    const v = this.view;
    if (this.rotationSlide && this.rotationSlide.until <= Date.now()) this.rotationSlide = null;
    const t = s ? serverTime(s) : 0;
    const shown =
      s && v
        ? `${v.scheduledMode(s, t).kind}|${v.spotlightAt(s, t)?.id}|${v.slideAt(s, t)?.id}|${this.rotationSlide?.slide.id}`
        : '';
    if (shown !== this.screenShown) {
      this.screenShown = shown;
      this.requestUpdate();
    }
  }

  private overlayStep(): void {
    if (!this.overlayStyle || this.hostPaused || document.hidden) return;
    this.overlayIndex++;
    this.requestUpdate();
  }

  private get overlayStyle(): OverlayStyle | null {
    return OVERLAY_STYLES.includes(this.overlay as OverlayStyle) ? (this.overlay as OverlayStyle) : null;
  }

  private onUpsert(post: EmbedPost): void {
    if (this.hiddenOnScreen(post.id)) return;
    // a paused screen takes no new post (an edit of one it shows is applied)
    if (this.hostPaused && !this.list.has(post.id)) return;
    const result = this.list.upsert(post);
    if (result === 'added') this.added([post]);
    else this.requestUpdate();
  }

  private onRemove(id: string): void {
    if (this.list.remove(id)) {
      if (this.shopPost?.id === id) this.closeShop();
      this.requestUpdate();
      void this.updateComplete.then(() => this.emit('wallery:post-removed', { id }));
    }
  }

  /** The first page again: a poll, a `reset`, a (re)opened stream. One at a time. */
  private resync(generation: number): Promise<void> {
    this.resyncing ??= (async () => {
      try {
        if (!this.client || !this.info) return;
        const since = this.list.mark();
        const page = await this.client.page(this.info.postsUrl, this.pageSize);
        if (generation !== this.generation) return;
        // the screen state first: a polling screen has no stream to send it (the same path as the
        // stream's event), and a paused screen reads the page only for it (a resume is seen so)
        if (page.screen) this.onScreen(page.screen, generation);
        if (this.hostPaused) return;
        const fresh = this.list.mergeFirstPage(page.posts, page.nextCursor, since);
        for (const post of page.posts) if (this.hiddenOnScreen(post.id)) this.list.remove(post.id);
        this.added(fresh.filter((p) => !this.hiddenOnScreen(p.id)));
        if (this.shopPost && !this.list.has(this.shopPost.id)) this.closeShop();
        this.requestUpdate();
      } finally {
        this.resyncing = null;
      }
    })();
    return this.resyncing;
  }

  private async loadMore(): Promise<void> {
    const cursor = this.list.nextCursor;
    if (this.loadingMore || !cursor || !this.client || !this.info) return;
    const generation = this.generation;
    this.loadingMore = true;
    try {
      const since = this.list.mark();
      const page = await this.client.page(this.info.postsUrl, this.pageSize, cursor);
      if (generation === this.generation) this.list.appendPage(page.posts, page.nextCursor, since);
    } catch {
      // the button stays; a click tries again
    } finally {
      this.loadingMore = false;
    }
  }

  private openShop = (post: EmbedPost, opener: HTMLElement) => {
    this.opener = opener;
    this.shopPost = post;
    void this.updateComplete.then(() => {
      const dialog = this.renderRoot.querySelector('dialog');
      if (dialog && !dialog.open) dialog.showModal();
      dialog?.querySelector<HTMLElement>('.close')?.focus();
    });
  };

  private closeShop = () => {
    const dialog = this.renderRoot.querySelector('dialog');
    if (dialog?.open) dialog.close();
    else this.onDialogClosed();
  };

  private onDialogClosed = () => {
    this.shopPost = null;
    const opener = this.opener;
    this.opener = null;
    // the opener may have been re-rendered away; then the post itself
    if (opener?.isConnected) opener.focus();
  };

  /** The event screen's QR code for the wall's info URL: the encoder is loaded (once) when one is needed. */
  private loadQr(): void {
    const url = this.effectiveLayout === 'event' ? eventBranding(this.info).infoUrl : undefined;
    if (!url || this.qr?.url === url) return;
    void import('./qr.js').then(({ qrCode }) => {
      if (this.qr?.url !== url) this.qr = { url, code: qrCode(url) };
    });
  }

  /** The event screen turns its page: the next posts, loading more as needed; after the last, the newest again. */
  private turnPage = () => {
    const posts = this.list.posts;
    if (this.eventAll) {
      this.showPage(0);
      return;
    }
    // the post that did not fit starts the next page; it is before this page's first one when
    // the page went on from the newest (renderEventPosts)
    let next = this.eventNext === this.eventStart ? this.eventStart + 1 : this.eventNext;
    const skip = this.eventShownAfter;
    // the next page's window is loaded first: a short one would leave the page half empty
    if (posts.length - next < EVENT_WINDOW && this.canLoadMore) {
      void this.loadMore().then(() => {
        if (this.list.posts.length > next) this.showPage(next, skip);
        else this.showPage(0);
      });
      return;
    }
    if (next >= posts.length) next = 0;
    this.showPage(next, next === 0 ? new Set() : skip);
  };

  private showPage(start: number, skip = new Set<string>()): void {
    if (start === this.eventStart) return;
    this.eventSkip = skip;
    this.eventStart = start;
    this.turned = !reducedMotion();
    this.renderRoot.querySelector<HTMLElement>('.screen')?.scrollTo({ top: 0 });
  }

  private autoPage(): void {
    if (this.effectiveLayout !== 'event' || this.held || this.hostPaused || this.focusInside || document.hidden) return;
    if (this.rotationSlide) return; // a slide of the rotation is on
    // the posts of the page that ends count towards the rotation's next slide
    this.rotationShown += Math.max(1, this.eventNext - this.eventStart);
    const s = this.screen;
    const due = s && this.view ? this.view.dueSlide(s, this.rotationShown, this.rotationFrom, serverTime(s)) : null;
    if (due) {
      this.rotationShown = 0;
      this.rotationFrom = due.index + 1;
      this.rotationSlide = { slide: due.slide, until: Date.now() + ROTATION_SLIDE_MS };
      this.requestUpdate();
      return;
    }
    if (this.eventAll) return; // all on one page
    this.turnPage();
  }

  /** Burn-in care: the event screen shifts by a few px, slowly (at once, by 3 px, with reduced motion). */
  private driftStep(): void {
    if (this.effectiveLayout !== 'event') return;
    this.drift = (this.drift + 1) % DRIFT.length;
    this.requestUpdate();
  }

  private get motionPaused(): boolean {
    return this.paused || this.hovering || this.focusInside || document.hidden || this.shopPost !== null;
  }

  private autoCarousel(): void {
    if (this.effectiveLayout !== 'carousel' || this.motionPaused) return;
    const track = this.renderRoot.querySelector<HTMLElement>('.posts');
    if (!track) return;
    const atEnd = track.scrollLeft + track.clientWidth >= track.scrollWidth - 4;
    if (atEnd) track.scrollTo({ left: 0 });
    else this.step(1);
  }

  private step(direction: 1 | -1): void {
    const track = this.renderRoot.querySelector<HTMLElement>('.posts');
    const item = track?.querySelector('li');
    if (!track || !item) return;
    track.scrollBy({ left: direction * (item.getBoundingClientRect().width + 12) });
  }

  private hover = (inside: boolean) => () => (this.hovering = inside);
  private focusIn = () => (this.focusInside = true);
  private focusOut = (e: FocusEvent) => {
    const wall = e.currentTarget as HTMLElement;
    if (!wall.contains(e.relatedTarget as Node | null)) this.focusInside = false;
  };

  /** Which pictures may be shown: Wallery's own (its API's origin) always, others unless `local-media`. */
  private get pictureRules(): PictureRules {
    return { local: this.localMedia, origin: new URL(apiBase(this.api ?? null, import.meta.url)).origin };
  }

  private postContext(layout: Layout, columns: number): PostContext {
    return {
      layout,
      columns,
      now: this.now,
      fresh: this.fresh,
      playing: this.playing,
      play: this.play,
      openShop: this.openShop,
      rules: this.pictureRules,
      failed: this.failed,
      fail: this.fail,
      expanded: this.expanded,
      toggle: this.toggle,
      date: layout === 'event' ? (iso) => eventDate(iso, this.now) : (iso) => postDate(iso, this.now),
    };
  }

  private renderPosts(layout: Layout, columns: number) {
    const ctx = this.postContext(layout, columns);
    if (layout === 'event') return this.renderEventPosts(ctx);
    const more = this.list.nextCursor
      ? html`<button class="ctl more" part="load-more" ?disabled=${this.loadingMore} @click=${() => this.loadMore()}>
          ${this.loadingMore ? 'Loading…' : 'Load more'}
        </button>`
      : nothing;
    // the first posts are likely in view: their pictures load at once, the others when scrolled near
    const eager = layout === 'carousel' ? 2 : columns;
    const items = repeat(
      this.list.posts,
      (p) => p.id,
      (p, i) => html`<li>${renderPost(p, ctx, i < eager)}</li>`,
    );
    if (layout === 'carousel') {
      return html`<div class="controls">
          <button class="ctl" part="control" aria-label="Previous posts" @click=${() => this.step(-1)}>‹</button>
          <button class="ctl" part="control" aria-pressed=${this.paused} @click=${() => (this.paused = !this.paused)}>
            ${this.paused ? 'Play' : 'Pause'}
          </button>
          <button class="ctl" part="control" aria-label="Next posts" @click=${() => this.step(1)}>›</button>
        </div>
        <div class="viewport">
          <ul class="posts" part="posts" role="list" tabindex="0" aria-label="Posts">
            ${items}${more ? html`<li>${more}</li>` : nothing}
          </ul>
        </div>`;
    }
    return html`<ul class="posts" part="posts" role="list">
        ${items}
      </ul>
      ${more}`;
  }

  /** More posts can be loaded for the event screen's pages. */
  private get canLoadMore(): boolean {
    return this.list.nextCursor !== null && this.list.posts.length < EVENT_MAX_LOADED;
  }

  /**
   * The event screen's page: a window of posts from `eventStart` (fitEvent hides what does not
   * fit). With every post loaded, the window goes on from the newest after the oldest, so the
   * last page is as full as the others.
   */
  private renderEventPosts(ctx: PostContext) {
    const posts = this.list.posts;
    const n = posts.length;
    const start = this.eventStart < n ? this.eventStart : 0;
    const count = this.canLoadMore ? n - start : n;
    const shown: { post: EmbedPost; i: number }[] = [];
    for (let k = 0; k < count && shown.length < EVENT_WINDOW; k++) {
      const i = (start + k) % n;
      if (!this.eventSkip.has(posts[i]!.id)) shown.push({ post: posts[i]!, i });
    }
    const items = repeat(
      shown,
      ({ post }) => post.id,
      ({ post, i }) =>
        html`<li class=${post.pinned || post.highlighted ? 'wide' : ''} data-i=${i} data-id=${post.id}>
          ${renderPost(post, ctx, true)}
        </li>`,
    );
    return html`<div class="screen" part="scroller" role="region" aria-label="Posts">
      <ul class="posts ${this.turned ? 'turn' : ''}" part="posts" role="list">
        ${items}
      </ul>
    </div>`;
  }

  private bannerOptions(): BannerOptions {
    const branding = eventBranding(this.info);
    return {
      name: this.info?.name ?? '',
      branding,
      qr: this.qr && this.qr.url === branding.infoUrl && this.screen?.qr !== false ? this.qr.code : null,
      live: this.liveState,
      held: this.held || this.hostPaused,
      hold: () => (this.held = !this.held),
      next: this.turnPage,
      pages: !this.eventAll,
      logoFailed: this.logoFailed,
      logoFail: () => {
        this.logoFailed = true;
        this.requestUpdate();
      },
      waiting: this.list.posts.length === 0,
    };
  }

  /**
   * What the host's control puts over the wall now: the schedule's closing or
   * message screen, else a slide (on demand, or the rotation's), else the post
   * in the spotlight; nothing when none.
   */
  private renderTakeover(layout: Layout, columns: number) {
    const s = this.screen;
    const v = this.view;
    if (!s || !this.info || !v) return null;
    const t = serverTime(s);
    const mode = v.scheduledMode(s, t);
    const allowed = (src: string) => originalAllowed(src, this.pictureRules);
    if (mode.kind !== 'on') {
      const logo = eventBranding(this.info).logoUrl;
      return v.renderClosed(this.info.name, logo && !this.logoFailed ? logo : undefined, mode);
    }
    const slide = v.slideAt(s, t) ?? this.rotationSlide?.slide;
    if (slide) return v.renderSlide(slide, allowed);
    const spot = v.spotlightAt(s, t);
    if (spot)
      return v.renderSpotlight(renderPost(spot, { ...this.postContext(layout, columns), layout: 'event' }, true));
    return null;
  }

  /** The live-stream overlay (a transparent page for OBS): nothing while the schedule has the screen off. */
  private renderOverlayMode(style: OverlayStyle) {
    const s = this.screen;
    const v = this.view;
    if (!v) this.loadView();
    const t = s ? serverTime(s) : 0;
    const off = s && v && v.scheduledMode(s, t).kind !== 'on';
    const spot = s && v ? v.spotlightAt(s, t) : null;
    const allowed = (src: string) => originalAllowed(src, this.pictureRules);
    const posts = spot ? [spot] : this.list.posts;
    return html`<div
      class="wall overlay-mode ${this.dark ? 'dark' : 'light'}"
      data-overlay=${style}
      part="wall"
      data-live=${this.liveState}
    >
      ${!v || off ? nothing : v.renderOverlay(style, posts, spot ? 0 : this.overlayIndex, allowed)}
    </div>`;
  }

  protected override render() {
    const style = this.overlayStyle;
    if (style) return this.renderOverlayMode(style);
    const layout = this.effectiveLayout;
    const cols = Math.min(8, Math.max(1, Math.trunc(Number(this.columns) || this.info?.columns || 3)));
    const takeover = this.renderTakeover(layout, cols);
    let body;
    if (this.error) body = html`<p class="status" role="alert">${this.error}</p>`;
    else if (!this.info) body = html`<p class="status">Loading…</p>`;
    else if (this.list.posts.length === 0)
      body = layout === 'event' ? renderWaiting(this.bannerOptions()) : html`<p class="status">No posts yet.</p>`;
    else body = this.renderPosts(layout, cols);
    if (layout === 'event') {
      const [dx, dy] = DRIFT[this.drift]!;
      body = html`<div
        class="stage"
        style=${cssProps({ transform: `translate(${dx}px, ${dy}px)` })}
        ?inert=${takeover !== null}
        aria-hidden=${takeover !== null ? 'true' : 'false'}
      >
        ${this.info ? renderBanner(this.bannerOptions()) : nothing}${body}
      </div>`;
    }
    return html`<div
      class="wall ${layout} ${this.dark ? 'dark' : 'light'}"
      part="wall"
      data-live=${this.liveState}
      style=${cssProps({ '--_cols': String(cols) })}
      @mouseenter=${this.hover(true)}
      @mouseleave=${this.hover(false)}
      @focusin=${this.focusIn}
      @focusout=${this.focusOut}
      @click=${this.onClick}
      @auxclick=${this.onClick}
    >
      <div class="sr" role="status" aria-live="polite">${this.announcement}</div>
      ${body}${takeover ?? nothing}
      <dialog
        part="dialog"
        aria-labelledby="wallery-shop-title"
        @close=${this.onDialogClosed}
        @keydown=${(e: KeyboardEvent) => trapTab(e, e.currentTarget as HTMLDialogElement)}
      >
        ${renderShop(this.shopPost, this.closeShop, this.pictureRules, this.failed, this.fail)}
      </dialog>
    </div>`;
  }
}
