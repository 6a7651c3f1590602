// <wallery-wall>: a wall of posts in an open Shadow DOM, live through the
// embed API's event stream (polling when refused), with four layouts.
// Pictures are Wallery's copies where it has them; with `local-media` (the
// hosted page) only those: a picture without a copy is left out.
import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { analyticsAllowed, Reporter } from './analytics.js';
import { cssProps } from './css-props.js';
import { EmbedClient, apiBase } from './api.js';
import { LiveFeed, type LiveState } from './live.js';
import { PostList } from './post-list.js';
import { renderPost, type PostContext } from './post.js';
import type { PictureRules } from './pictures.js';
import { renderShop, trapTab } from './shop-dialog.js';
import { styles } from './styles.js';
import type { EmbedPost, EmbedWall, Layout } from './types.js';
import { reducedMotion, throttle, visitorMessage } from './util.js';
import { takeInitial } from './initial.js';

const LAYOUTS: readonly Layout[] = ['masonry', 'grid', 'carousel', 'event'];
const ANNOUNCE_EVERY_MS = 5_000;
const CAROUSEL_EVERY_MS = 5_000;
const EVENT_SCROLL_EVERY_MS = 6_000;
/** the masonry grid's row height (styles.ts): a post spans its height in these, plus the gap */
const MASONRY_ROW_PX = 4;

export class WalleryWall extends LitElement {
  static override styles = styles;
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
    info: { state: true },
    error: { state: true },
    liveState: { state: true },
    shopPost: { state: true },
    announcement: { state: true },
    paused: { state: true },
    loadingMore: { state: true },
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
  declare info: EmbedWall | null;
  declare error: string;
  declare liveState: LiveState;
  declare shopPost: EmbedPost | null;
  declare announcement: string;
  declare paused: boolean;
  declare loadingMore: boolean;

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
  private newCount = 0;
  private now = Date.now();
  private timers: ReturnType<typeof setInterval>[] = [];
  private observer: IntersectionObserver | null = null;
  private observed: Element | null = null;
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
      setInterval(() => this.autoScrollEvent(), EVENT_SCROLL_EVERY_MS),
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
    this.reporter?.stop();
    this.generation++;
  }

  protected override willUpdate(changed: PropertyValues): void {
    if ((changed.has('wall') || changed.has('key') || changed.has('api')) && this.isConnected) void this.boot();
    else if (changed.has('analytics') && this.isConnected) this.syncReporter();
  }

  /**
   * Masonry: every post spans the grid rows its height needs (its picture's
   * box is reserved by its width and height, so that height is known before
   * the picture loads). New posts are measured at once, before the frame is
   * painted — no post moves once shown; later changes of height (the wall
   * resized, a picture dropped) through a ResizeObserver.
   */
  private sizeMasonry(): void {
    const items =
      this.effectiveLayout === 'masonry' ? this.renderRoot.querySelectorAll<HTMLElement>('.posts > li') : [];
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

  protected override updated(): void {
    this.sizeMasonry();
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
    const wanted = (this.layout ?? this.info?.layout ?? 'masonry') as Layout;
    return LAYOUTS.includes(wanted) ? wanted : 'masonry';
  }

  private get dark(): boolean {
    const theme = this.theme ?? this.info?.theme ?? 'auto';
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
    this.error = '';
    this.info = null;
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
      await this.updateComplete;
      this.emit('wallery:ready', { wall: info, posts: this.list.posts.length });
      this.feed = new LiveFeed(
        client.resolve(info.streamUrl),
        {
          upsert: (post) => this.onUpsert(post),
          remove: (id) => this.onRemove(id),
          resync: () => this.resync(generation),
          state: (state) => (this.liveState = state),
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
    if (this.effectiveLayout === 'event') this.renderRoot.querySelector('.scroller')?.scrollTo({ top: 0 });
    this.requestUpdate();
    void this.updateComplete.then(() => {
      for (const post of posts) this.emit('wallery:post-added', { post });
    });
  }

  private onUpsert(post: EmbedPost): void {
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
        this.added(this.list.mergeFirstPage(page.posts, page.nextCursor, since));
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

  private autoScrollEvent(): void {
    if (this.effectiveLayout !== 'event' || this.motionPaused) return;
    const scroller = this.renderRoot.querySelector<HTMLElement>('.scroller');
    if (!scroller || scroller.scrollHeight <= scroller.clientHeight) return;
    const atEnd = scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 4;
    if (atEnd) scroller.scrollTo({ top: 0 });
    else scroller.scrollBy({ top: Math.round(scroller.clientHeight * 0.6) });
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

  private renderPosts(layout: Layout, columns: number) {
    const ctx: PostContext = {
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
    };
    const more = this.list.nextCursor
      ? html`<button class="ctl more" part="load-more" ?disabled=${this.loadingMore} @click=${() => this.loadMore()}>
          ${this.loadingMore ? 'Loading…' : 'Load more'}
        </button>`
      : nothing;
    // the first posts are likely in view: their pictures load at once, the others when scrolled near
    const eager = layout === 'carousel' ? 2 : layout === 'event' ? 6 : columns;
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
    const list = html`<ul class="posts" part="posts" role="list">
        ${items}
      </ul>
      ${more}`;
    if (layout === 'event') {
      return html`<div class="scroller" part="scroller" tabindex="0" role="region" aria-label="Posts">${list}</div>`;
    }
    return list;
  }

  private renderTop() {
    const state = this.liveState;
    const label = state === 'live' ? 'Live' : state === 'polling' ? 'Updating' : 'Connecting';
    return html`<div class="top" part="header">
      <h1>${this.info?.name ?? ''}</h1>
      <span class="live ${state === 'live' ? 'on' : ''}" part="live"><span class="dot"></span>${label}</span>
      <button class="ctl" part="control" aria-pressed=${this.paused} @click=${() => (this.paused = !this.paused)}>
        ${this.paused ? 'Resume scrolling' : 'Pause scrolling'}
      </button>
    </div>`;
  }

  protected override render() {
    const layout = this.effectiveLayout;
    const cols = Math.min(8, Math.max(1, Math.trunc(Number(this.columns) || this.info?.columns || 3)));
    let body;
    if (this.error) body = html`<p class="status" role="alert">${this.error}</p>`;
    else if (!this.info) body = html`<p class="status">Loading…</p>`;
    else if (this.list.posts.length === 0) body = html`<p class="status">No posts yet.</p>`;
    else body = this.renderPosts(layout, cols);
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
      ${layout === 'event' && this.info ? this.renderTop() : nothing}
      <div class="sr" role="status" aria-live="polite">${this.announcement}</div>
      ${body}
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
