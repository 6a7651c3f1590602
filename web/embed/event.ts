// The event screen's own parts: the banner (logo, the wall's call to post, a
// QR code to its info page, the live state), the "waiting for the first
// post" screen, and its dates. The QR code's encoder is a chunk of its own
// (qr.ts), loaded only here.
import { html, nothing } from 'lit';
import type { QrCode } from './qr.js';
import type { EmbedWall } from './types.js';
import { postDate, safeUrl } from './util.js';

/** What the event screen shows of the wall's branding. */
export interface EventBranding {
  logoUrl?: string;
  /** e.g. "Post with #harborfest" (≤ 80 characters) */
  callToPost?: string;
  /** what the QR code points to */
  infoUrl?: string;
}

/**
 * The one place that reads `wall.branding` (the embed API's branding
 * object): each field checked as it is read, so a server without it, or a
 * field missing or of the wrong type, gives no banner text, no QR code, no
 * logo — never an error.
 */
export function eventBranding(wall: EmbedWall | null): EventBranding {
  const raw: unknown = (wall as (EmbedWall & { branding?: unknown }) | null)?.branding;
  if (!raw || typeof raw !== 'object') return {};
  const b = raw as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
  return {
    logoUrl: safeUrl(text(b.logoUrl)),
    callToPost: text(b.callToPost)?.slice(0, 80),
    infoUrl: safeUrl(text(b.infoUrl)),
  };
}

/**
 * A post's date on the event screen, which has no clock to compare with:
 * relative the same day ("3 hr. ago"), else the day itself ("12 Mar").
 */
export const eventDate = (iso: string, now: number): string => postDate(iso, now, { relativeUpToDays: 0 });

/** The QR code as SVG (Lit attributes only): black on white, its quiet zone drawn, crisp at any size. */
export function renderQr(code: QrCode, label: string) {
  return html`<svg
    class="qr"
    part="qr"
    viewBox="0 0 ${code.size} ${code.size}"
    role="img"
    aria-label=${label}
    shape-rendering="crispEdges"
  >
    <rect width=${code.size} height=${code.size} fill="#ffffff"></rect>
    <path d=${code.path} fill="#000000"></path>
  </svg>`;
}

export interface BannerOptions {
  name: string;
  branding: EventBranding;
  qr: QrCode | null;
  live: 'live' | 'polling' | 'connecting' | 'offline';
  held: boolean;
  hold(): void;
  next(): void;
  /** more than one page of posts: the "next" control is shown */
  pages: boolean;
  logoFailed: boolean;
  logoFail(): void;
  /** no post yet: the waiting screen shows the call to post and the QR code, the banner only the name */
  waiting: boolean;
}

/** The QR code with what it is for ("Scan to post"). */
function qrBlock(o: BannerOptions, where: 'side' | 'big') {
  if (!o.qr || !o.branding.infoUrl) return nothing;
  return html`<figure class="qrbox ${where}">
    ${renderQr(o.qr, `QR code: ${o.branding.infoUrl}`)}
    <figcaption>Scan to take part</figcaption>
  </figure>`;
}

/** The banner: logo and name, the call to post, the QR code, the live state and the screen's two controls. */
export function renderBanner(o: BannerOptions) {
  const state = o.live;
  const label = state === 'live' ? 'Live' : state === 'polling' ? 'Updating' : 'Connecting';
  const logo = o.branding.logoUrl && !o.logoFailed ? o.branding.logoUrl : undefined;
  return html`<header class="banner" part="header">
    <div class="brand">
      ${logo ? html`<img class="logo" part="logo" src=${logo} alt="" @error=${o.logoFail} />` : nothing}
      <h1>${o.name}</h1>
    </div>
    ${
      o.branding.callToPost && !o.waiting
        ? html`<p class="call" part="call-to-post">${o.branding.callToPost}</p>`
        : nothing
    }
    ${o.waiting ? nothing : qrBlock(o, 'side')}
    <div class="state">
      <span class="live ${state === 'live' ? 'on' : ''}" part="live"><span class="dot"></span>${label}</span>
      <span class="ctls">
        <button class="ctl" part="control" aria-pressed=${o.held ? 'true' : 'false'} @click=${o.hold}>
          ${o.held ? 'Resume' : 'Pause'}<span class="sr"> the rotation</span>
        </button>
        ${
          o.pages
            ? html`<button class="ctl" part="control" @click=${o.next}>Next<span class="sr"> posts</span></button>`
            : nothing
        }
      </span>
    </div>
  </header>`;
}

/** An event screen before the first post: the call to post and the QR code, large. */
export function renderWaiting(o: BannerOptions) {
  return html`<div class="waiting" part="waiting">
    <p class="call" part="call-to-post">${o.branding.callToPost ?? 'Posts will appear here.'}</p>
    ${qrBlock(o, 'big')}
    <p class="hint">Waiting for the first post…</p>
  </div>`;
}
