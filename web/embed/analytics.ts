// Privacy-first counting (issue 16): wall loads, impressions and clicks,
// sent in batches to POST /api/embed/v1/events as anonymous counts. No
// cookies, no storage: the only id is a random one for this page view, kept
// in memory, so the server can drop resent beacons and count an impression
// once per view.

export type WallEventType = 'impression' | 'click' | 'cta_click' | 'product_click' | 'wall_load';

export interface WallEvent {
  type: WallEventType;
  postId?: string;
  productId?: number;
}

/** the most events in one beacon (the API's limit) */
const BATCH = 50;
const SEND_EVERY_MS = 5_000;
/** how long a post stays at least half visible before it counts as seen */
const SEEN_AFTER_MS = 1_000;
/** crossings reported by the observer: 50 %, and steps below it for posts taller than twice the screen */
const THRESHOLDS = Array.from({ length: 10 }, (_, i) => (i + 1) / 20);

/**
 * In view enough to count: at least half of the post, or — for a post too
 * tall (or wide) for that ever to happen — at least half of the screen.
 */
function inView(e: IntersectionObserverEntry): boolean {
  if (!e.isIntersecting) return false;
  if (e.intersectionRatio >= 0.5) return true;
  const root = e.rootBounds;
  const shown = e.intersectionRect;
  return root !== null && shown.width * shown.height >= 0.5 * root.width * root.height;
}

/** A random id of this page view (randomUUID needs a secure context; getRandomValues does not). */
function pageViewId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Counting is off with `analytics="off"` on the element, and when the visitor's browser sends Global Privacy Control. */
export function analyticsAllowed(attribute: string | null | undefined): boolean {
  const gpc = (navigator as Navigator & { globalPrivacyControl?: boolean }).globalPrivacyControl === true;
  return attribute?.trim().toLowerCase() !== 'off' && !gpc;
}

/** The events of one wall on this page: queued, batched, sent by beacon. */
export class Reporter {
  readonly view = pageViewId();
  private queue: WallEvent[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private loaded = false;
  private running = false;
  /** posts counted as seen in this page view */
  private seen = new Set<string>();
  /** post elements observed, at least half visible now, and their running 1 s timers */
  private watched = new WeakSet<Element>();
  private visible = new Set<Element>();
  private timers = new Map<Element, ReturnType<typeof setTimeout>>();
  private observer = new IntersectionObserver(
    (entries) => {
      for (const e of entries) {
        if (inView(e)) {
          this.visible.add(e.target);
          this.startTimer(e.target);
        } else {
          this.visible.delete(e.target);
          this.cancelTimer(e.target);
          if (!e.target.isConnected) this.observer.unobserve(e.target);
        }
      }
    },
    { threshold: THRESHOLDS },
  );

  constructor(readonly url: string) {
    this.start();
  }

  /** Listens to the page again (the element was moved); what was counted stays counted. */
  start(): void {
    if (this.running) return;
    this.running = true;
    addEventListener('pagehide', this.flush);
    document.addEventListener('visibilitychange', this.onVisibility);
  }

  /**
   * Stops watching: sends what is queued when the element leaves the page,
   * drops it when counting was turned off (a visitor said no: nothing more goes).
   */
  stop(send = true): void {
    if (!send) this.queue = [];
    if (!this.running) return;
    this.running = false;
    removeEventListener('pagehide', this.flush);
    document.removeEventListener('visibilitychange', this.onVisibility);
    this.observer.disconnect();
    this.timers.forEach(clearTimeout);
    this.timers.clear();
    this.visible.clear();
    this.watched = new WeakSet();
    this.flush();
  }

  /** Once per page view, when the wall first shows posts. */
  wallLoaded(): void {
    if (this.loaded || !this.running) return;
    this.loaded = true;
    this.track({ type: 'wall_load' });
  }

  /** Observes the post elements under `root` not observed yet (new pages, live posts). */
  watch(root: ParentNode): void {
    if (!this.running) return;
    for (const el of root.querySelectorAll('[data-post-id]')) {
      if (this.watched.has(el) || this.seen.has(el.getAttribute('data-post-id')!)) continue;
      this.watched.add(el);
      this.observer.observe(el);
    }
  }

  track(event: WallEvent): void {
    if (!this.running) return;
    this.queue.push(event);
    if (this.queue.length >= BATCH) this.flush();
    else this.timer ??= setTimeout(this.flush, SEND_EVERY_MS);
  }

  /** Sends everything queued, at most 50 events a beacon. */
  flush = (): void => {
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.queue.length > 0) {
      const body = JSON.stringify({ events: this.queue.splice(0, BATCH), view: this.view });
      // text/plain keeps it a CORS "simple request": no preflight, and a beacon survives the page closing
      if (!navigator.sendBeacon?.(this.url, new Blob([body], { type: 'text/plain' }))) {
        fetch(this.url, { method: 'POST', body, keepalive: true, credentials: 'omit' }).catch(() => undefined);
      }
    }
  };

  private startTimer(el: Element): void {
    if (document.visibilityState !== 'visible' || this.timers.has(el)) return;
    this.timers.set(
      el,
      setTimeout(() => {
        this.timers.delete(el);
        this.visible.delete(el);
        this.observer.unobserve(el);
        const postId = el.getAttribute('data-post-id');
        if (!postId || this.seen.has(postId)) return;
        this.seen.add(postId);
        this.track({ type: 'impression', postId });
      }, SEEN_AFTER_MS),
    );
  }

  private cancelTimer(el: Element): void {
    clearTimeout(this.timers.get(el));
    this.timers.delete(el);
  }

  /** A hidden tab sees nothing: its timers stop (and restart when it shows again); what is queued goes now. */
  private onVisibility = (): void => {
    if (document.visibilityState === 'visible') {
      for (const el of this.visible) this.startTimer(el);
      return;
    }
    this.timers.forEach(clearTimeout);
    this.timers.clear();
    this.flush();
  };
}
