// One post as a card: media, author, text, time, link, CTA, shop button.
import { html, nothing, type TemplateResult } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import { cssProps } from './css-props.js';
import type { EmbedMedia, EmbedPost, Layout } from './types.js';
import { networkLabel, safeColor, safeUrl } from './util.js';
import { cleanHtml } from './sanitize.js';
import { initialsOf, originalAllowed, pictureOf, sizesOf, type Picture, type PictureRules } from './pictures.js';

export interface PostContext {
  layout: Layout;
  /** the columns asked for (masonry, grid): how wide a picture is drawn */
  columns: number;
  now: number;
  /** ids that arrived live: animated in */
  fresh: ReadonlySet<string>;
  /** videos (`postId:index`) a visitor started */
  playing: ReadonlySet<string>;
  play(key: string): void;
  openShop(post: EmbedPost, opener: HTMLElement): void;
  /** which pictures may be shown: the copies, and originals unless the wall shows local media only */
  rules: PictureRules;
  /** pictures (their src) that failed to load: left out, never a broken image */
  failed: ReadonlySet<string>;
  fail(src: string): void;
  /** posts whose long text a visitor expanded ("More") */
  expanded: ReadonlySet<string>;
  toggle(id: string): void;
  /** the post's date as shown (relative; the event screen's: absolute after a day) */
  date(iso: string): string;
}

/** How long a post's text is, in characters of text (its markup left out): picks the quote's type size. */
function textLength(markup: string): number {
  return markup
    .replace(/<[^>]*>/g, '')
    .replace(/&[#\w]+;/g, ' ')
    .trim().length;
}

/** A text-only post's type size: the shorter the text, the larger the quote. */
function quoteSize(length: number): string {
  return length <= 90 ? 'q-short' : length <= 220 ? 'q-mid' : 'q-long';
}

function mediaAlt(post: EmbedPost, media: EmbedMedia, index: number, count: number): string {
  if (media.alt) return media.alt;
  const what = media.kind === 'video' ? 'Video' : 'Photo';
  return count > 1 ? `${what} ${index + 1} of ${count} by ${post.author.name}` : `${what} by ${post.author.name}`;
}

/** The picture an item shows (a video's poster): its copy, or the original when allowed; not one that failed. */
function itemPicture(media: EmbedMedia, ctx: PostContext): Picture | null {
  const picture = pictureOf(media.copy, media.kind === 'image' ? media.url : media.poster, media, ctx.rules);
  return picture && !ctx.failed.has(picture.src) ? picture : null;
}

/** A picture as <img>: its size reserved (no layout shift), the placeholder behind it until it loads; dropped if it fails. */
function img(picture: Picture, alt: string, eager: boolean, ctx: PostContext, part = 'image') {
  const sized = picture.width && picture.height;
  return html`<img
    part=${part}
    class=${sized ? '' : 'unsized'}
    src=${picture.src}
    srcset=${picture.srcset ?? nothing}
    sizes=${picture.srcset ? sizesOf(ctx.layout, ctx.columns) : nothing}
    alt=${alt}
    width=${picture.width ?? nothing}
    height=${picture.height ?? nothing}
    loading=${eager ? 'eager' : 'lazy'}
    decoding="async"
    style=${cssProps({ 'background-image': picture.placeholder ? `url("${picture.placeholder}")` : undefined })}
    @load=${loaded}
    @error=${() => ctx.fail(picture.src)}
  />`;
}

/** Loaded: the placeholder goes (a picture with transparency shows the card behind it). */
const loaded = (e: Event) => (e.currentTarget as HTMLElement).setAttribute('data-loaded', '');

function mediaItem(post: EmbedPost, media: EmbedMedia, index: number, count: number, eager: boolean, ctx: PostContext) {
  const alt = mediaAlt(post, media, index, count);
  const picture = itemPicture(media, ctx);
  if (media.kind !== 'video') return picture ? img(picture, alt, eager, ctx) : nothing;
  const src = safeUrl(media.url);
  if (!src) return nothing;
  // muted and inline; it plays by itself only on an event screen. Elsewhere
  // the poster and a play button stand in for it until pressed, so a wall
  // loads no video a visitor did not ask for — nor, without a poster it may
  // show, anything at all until then.
  const key = `${post.id}:${index}`;
  const auto = ctx.layout === 'event' && !matchMedia('(prefers-reduced-motion: reduce)').matches;
  if (!auto && !ctx.playing.has(key)) {
    return html`<button class="facade${picture ? '' : ' bare'}" part="play" @click=${() => ctx.play(key)}>
      ${picture ? img(picture, '', eager, ctx) : nothing}
      <span class="playicon" aria-hidden="true"></span>
      <span class="sr">Play video: ${alt}</span>
    </button>`;
  }
  const sized = picture?.width && picture.height;
  return html`<video
    part="video"
    class=${sized ? '' : 'unsized'}
    src=${src}
    poster=${picture?.src ?? nothing}
    width=${picture?.width ?? nothing}
    height=${picture?.height ?? nothing}
    aria-label=${alt}
    .muted=${true}
    ?autoplay=${auto || ctx.playing.has(key)}
    ?loop=${auto}
    ?controls=${!auto}
    playsinline
    preload=${auto ? 'auto' : 'metadata'}
  ></video>`;
}

/** The items that show something: a picture that may be shown and has not failed, or a video. */
function shownItems(post: EmbedPost, ctx: PostContext): EmbedMedia[] {
  return post.media.filter((m) => (m.kind === 'video' ? safeUrl(m.url) : itemPicture(m, ctx)));
}

function mediaBlock(post: EmbedPost, eager: boolean, ctx: PostContext) {
  const items = shownItems(post, ctx);
  if (items.length === 0) return nothing;
  if (items.length === 1) return html`<div class="media">${mediaItem(post, items[0]!, 0, 1, eager, ctx)}</div>`;
  // a carousel post: every item, swipeable, reachable by keyboard (the first one loaded at once when it is in view)
  return html`<div class="media">
    <div class="slides" tabindex="0" role="group" aria-label=${`${items.length} media items`}>
      ${items.map((m, i) => mediaItem(post, m, i, items.length, eager && i === 0, ctx))}
    </div>
    <span class="count" aria-hidden="true">${items.length}</span>
  </div>`;
}

/** The author's picture: the copy, or the original when allowed, else their initials. */
function avatarOf(post: EmbedPost, ctx: PostContext) {
  const src = safeUrl(post.author.avatarCopy) ?? originalAllowed(post.author.avatar, ctx.rules);
  if (src && !ctx.failed.has(src)) {
    return html`<img
      class="avatar"
      part="avatar"
      src=${src}
      alt=""
      width="40"
      height="40"
      loading="lazy"
      decoding="async"
      @error=${() => ctx.fail(src)}
    />`;
  }
  const initials = initialsOf(post.author.name);
  return initials ? html`<span class="avatar initials" part="avatar" aria-hidden="true">${initials}</span>` : nothing;
}

/**
 * `eager`: one of the first posts, likely in view: its pictures load at once.
 * A post without a picture is a quote: its text large (the shorter, the
 * larger), its author under it. Long text is clamped to a few lines (by
 * layout, styles.ts); a "More" button, shown only when the text is cut
 * (wall.ts measures it), expands it in place.
 */
/** The language of a post's text, for its `lang` attribute: a language code as the embed API gives it, else none (the page's). */
export function langOf(post: EmbedPost): string | undefined {
  return typeof post.lang === 'string' && /^[a-z]{2,3}$/.test(post.lang) ? post.lang : undefined;
}

export function renderPost(post: EmbedPost, ctx: PostContext, eager = false): TemplateResult {
  const authorUrl = safeUrl(post.author.url);
  const link = safeUrl(post.link);
  const cta = post.cta && safeUrl(post.cta.url) ? post.cta : null;
  const media = mediaBlock(post, eager, ctx);
  // pictures inside the text (custom emoji): as the originals are, under the wall's rules
  const inlineAllowed = (src: string) => originalAllowed(src, ctx.rules) !== undefined;
  const quote = media === nothing && post.html !== '';
  const open = ctx.expanded.has(post.id);
  const classes = ['post', post.pinned ? 'pinned' : '', post.highlighted ? 'highlighted' : ''];
  classes.push(media !== nothing ? 'has-media' : quote ? `quote ${quoteSize(textLength(post.html))}` : 'bare');
  if (open) classes.push('open');
  if (ctx.fresh.has(post.id)) classes.push('enter');
  const time = html`<time datetime=${post.createdAt}>${ctx.date(post.createdAt)}</time>`;
  const name = html`<span class="name">${post.author.name}</span>`;
  const textId = `t-${post.id}`;
  // the sanitized text and its language (screen readers read it in it), written against the div's tags:
  // no white space of the template's own inside it (its textContent is the post's text alone)
  const text = post.html ? unsafeHTML(cleanHtml(post.html, inlineAllowed)) : nothing;
  const lang = ifDefined(langOf(post));
  return html`<article
    part=${`post${post.pinned ? ' post-pinned' : ''}${post.highlighted ? ' post-highlighted' : ''}`}
    class=${classes.join(' ').replace(/\s+/g, ' ').trim()}
    data-post-id=${post.id}
    aria-label=${`Post by ${post.author.name}`}
  >
    ${
      post.pinned
        ? html`<span class="flag" part="flag">Pinned</span>`
        : post.highlighted
          ? html`<span class="flag" part="flag">Featured</span>`
          : nothing
    }
    ${media}
    <div class="body">
      <div class="author" part="author">
        ${avatarOf(post, ctx)}
        <div class="who">
          ${
            authorUrl
              ? html`<a class="name" href=${authorUrl} target="_blank" rel="nofollow noopener noreferrer"
                  >${post.author.name}</a
                >`
              : name
          }
          ${post.author.username ? html`<span class="handle">@${post.author.username}</span>` : nothing}
        </div>
      </div>
      ${
        post.html
          ? html`${quote ? html`<span class="qmark" aria-hidden="true">“</span>` : nothing}
              <div class="text" part="text" id=${textId} lang=${lang}>${text}</div>
              ${
                ctx.layout === 'event'
                  ? nothing
                  : html`<button
                      class="morebtn"
                      part="more"
                      aria-expanded=${open ? 'true' : 'false'}
                      aria-controls=${textId}
                      @click=${() => ctx.toggle(post.id)}
                    >
                      ${open ? 'Less' : 'More'}<span class="sr"> of the post by ${post.author.name}</span>
                    </button>`
              }`
          : nothing
      }
      <div class="foot">
        <span class="meta"
          >${
            link
              ? html`<a href=${link} target="_blank" rel="nofollow noopener noreferrer"
                  >${time}<span class="sr"> — open the original post</span></a
                >`
              : time
          }</span
        >
        <span class="net" part="network">${networkLabel(post.network)}</span>
        ${
          post.products.length > 0 || cta
            ? html`<span class="actions">${shopButton(post, ctx)}${ctaLink(cta)}</span>`
            : nothing
        }
      </div>
    </div>
  </article>`;
}

/** The post's shop button: its products in the shop dialog. */
function shopButton(post: EmbedPost, ctx: PostContext) {
  if (post.products.length === 0) return nothing;
  return html`<button
    class="shop"
    part="shop-button"
    aria-haspopup="dialog"
    @click=${(e: Event) => ctx.openShop(post, e.currentTarget as HTMLElement)}
  >
    Shop <span class="sr">the products in this post</span> (${post.products.length})
  </button>`;
}

/** The post's call to action, in the colours the operator chose (each checked). */
function ctaLink(cta: EmbedPost['cta'] | null) {
  if (!cta) return nothing;
  return html`<a
    class="cta"
    part="cta"
    href=${safeUrl(cta.url)!}
    target="_blank"
    rel="nofollow noopener noreferrer"
    style=${cssProps({ color: safeColor(cta.color), background: safeColor(cta.background) })}
    >${cta.text}</a
  >`;
}
