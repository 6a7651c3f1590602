// One post as a card: media, author, text, time, link, CTA, shop button.
import { html, nothing, type TemplateResult } from 'lit';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import { cssProps } from './css-props.js';
import type { EmbedMedia, EmbedPost, Layout } from './types.js';
import { networkLabel, relativeTime, safeColor, safeUrl } from './util.js';
import { cleanHtml } from './sanitize.js';

export interface PostContext {
  layout: Layout;
  now: number;
  /** ids that arrived live: animated in */
  fresh: ReadonlySet<string>;
  /** videos (`postId:index`) a visitor started */
  playing: ReadonlySet<string>;
  play(key: string): void;
  openShop(post: EmbedPost, opener: HTMLElement): void;
}

function mediaAlt(post: EmbedPost, media: EmbedMedia, index: number, count: number): string {
  if (media.alt) return media.alt;
  const what = media.kind === 'video' ? 'Video' : 'Photo';
  return count > 1 ? `${what} ${index + 1} of ${count} by ${post.author.name}` : `${what} by ${post.author.name}`;
}

function mediaItem(post: EmbedPost, media: EmbedMedia, index: number, count: number, ctx: PostContext) {
  const src = safeUrl(media.url);
  if (!src) return nothing;
  const sized = media.width && media.height;
  const alt = mediaAlt(post, media, index, count);
  if (media.kind === 'video') {
    // muted and inline; it plays by itself only on an event screen. Elsewhere
    // the poster and a play button stand in for it until pressed, so a wall
    // loads no video a visitor did not ask for.
    const key = `${post.id}:${index}`;
    const auto = ctx.layout === 'event' && !matchMedia('(prefers-reduced-motion: reduce)').matches;
    const poster = safeUrl(media.poster);
    if (!auto && !ctx.playing.has(key) && poster) {
      return html`<button class="facade" part="play" @click=${() => ctx.play(key)}>
        <img
          part="image"
          class=${sized ? '' : 'unsized'}
          src=${poster}
          alt=""
          width=${media.width ?? nothing}
          height=${media.height ?? nothing}
          loading="lazy"
          decoding="async"
        />
        <span class="playicon" aria-hidden="true"></span>
        <span class="sr">Play video: ${alt}</span>
      </button>`;
    }
    return html`<video
      part="video"
      class=${sized ? '' : 'unsized'}
      src=${src}
      poster=${poster ?? nothing}
      width=${media.width ?? nothing}
      height=${media.height ?? nothing}
      aria-label=${alt}
      .muted=${true}
      ?autoplay=${auto || ctx.playing.has(key)}
      ?loop=${auto}
      ?controls=${!auto}
      playsinline
      preload=${auto ? 'auto' : 'metadata'}
    ></video>`;
  }
  return html`<img
    part="image"
    class=${sized ? '' : 'unsized'}
    src=${src}
    alt=${alt}
    width=${media.width ?? nothing}
    height=${media.height ?? nothing}
    loading="lazy"
    decoding="async"
  />`;
}

function mediaBlock(post: EmbedPost, ctx: PostContext) {
  const items = post.media.filter((m) => safeUrl(m.url));
  if (items.length === 0) return nothing;
  if (items.length === 1) return html`<div class="media">${mediaItem(post, items[0]!, 0, 1, ctx)}</div>`;
  // a carousel post: every item, swipeable, reachable by keyboard
  return html`<div class="media">
    <div class="slides" tabindex="0" role="group" aria-label=${`${items.length} media items`}>
      ${items.map((m, i) => mediaItem(post, m, i, items.length, ctx))}
    </div>
    <span class="count" aria-hidden="true">${items.length}</span>
  </div>`;
}

export function renderPost(post: EmbedPost, ctx: PostContext): TemplateResult {
  const authorUrl = safeUrl(post.author.url);
  const link = safeUrl(post.link);
  const avatar = safeUrl(post.author.avatar);
  const cta = post.cta && safeUrl(post.cta.url) ? post.cta : null;
  const media = mediaBlock(post, ctx);
  const classes = ['post', post.pinned ? 'pinned' : '', post.highlighted ? 'highlighted' : ''];
  if (media !== nothing) classes.push('has-media');
  if (ctx.fresh.has(post.id)) classes.push('enter');
  const time = html`<time datetime=${post.createdAt}>${relativeTime(post.createdAt, ctx.now)}</time>`;
  const name = html`<span class="name">${post.author.name}</span>`;
  return html`<article
    part=${`post${post.pinned ? ' post-pinned' : ''}${post.highlighted ? ' post-highlighted' : ''}`}
    class=${classes.join(' ')}
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
        ${
          avatar
            ? html`<img class="avatar" part="avatar" src=${avatar} alt="" width="40" height="40" loading="lazy" />`
            : nothing
        }
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
        <span class="net" part="network">${networkLabel(post.network)}</span>
      </div>
      ${post.html ? html`<div class="text" part="text">${unsafeHTML(cleanHtml(post.html))}</div>` : nothing}
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
        ${
          post.products.length > 0
            ? html`<button
                class="shop"
                part="shop-button"
                aria-haspopup="dialog"
                @click=${(e: Event) => ctx.openShop(post, e.currentTarget as HTMLElement)}
              >
                Shop <span class="sr">the products in this post</span> (${post.products.length})
              </button>`
            : nothing
        }
        ${
          cta
            ? html`<a
                class="cta"
                part="cta"
                href=${safeUrl(cta.url)!}
                target="_blank"
                rel="nofollow noopener noreferrer"
                style=${cssProps({ color: safeColor(cta.color), background: safeColor(cta.background) })}
                >${cta.text}</a
              >`
            : nothing
        }
      </div>
    </div>
  </article>`;
}
