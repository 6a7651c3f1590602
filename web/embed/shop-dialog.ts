// The shoppable dialog: the post's picture with numbered hotspot markers at
// the products' left/top percentages, and a card per product. A native modal
// <dialog>: Escape closes it, the page behind is inert; Tab is kept inside
// and focus returns to the button that opened it.
import { html, nothing } from 'lit';
import { cssProps } from './css-props.js';
import type { EmbedPost } from './types.js';
import { safeUrl } from './util.js';
import { originalAllowed, pictureOf, type PictureRules } from './pictures.js';

const clampPct = (n: number) => `${Math.min(100, Math.max(0, Number(n) || 0))}%`;

function price(p: EmbedPost['products'][number]): string {
  if (!p.price) return '';
  return `${p.currency ?? ''}${p.price}`;
}

export function renderShop(
  post: EmbedPost | null,
  close: () => void,
  rules: PictureRules,
  failed: ReadonlySet<string>,
  fail: (src: string) => void,
) {
  if (!post) return nothing;
  // the post's first picture that may be shown (its copy, or the original when allowed)
  const shown = post.media
    .map((m) => ({ m, p: pictureOf(m.copy, m.kind === 'image' ? m.url : m.poster, m, rules) }))
    .find(({ p }) => p && !failed.has(p.src));
  const picture = shown?.m;
  const src = shown?.p?.src;
  return html`<button class="ctl close" part="dialog-close" aria-label="Close" @click=${close}>✕</button>
    <div class="shopbox">
      <figure class="stage" part="dialog-image">
        ${
          src
            ? html`<img
                src=${src}
                srcset=${shown?.p?.srcset ?? nothing}
                sizes=${shown?.p?.srcset ? '(max-width: 640px) 94vw, 550px' : nothing}
                alt=${picture?.alt ?? `Photo by ${post.author.name}`}
                width=${shown?.p?.width ?? nothing}
                height=${shown?.p?.height ?? nothing}
                @error=${() => fail(src)}
              />`
            : nothing
        }
        ${
          src
            ? post.products.map((p, i) => {
                const label = `${i + 1}: ${p.name}${price(p) ? `, ${price(p)}` : ''}`;
                const at = cssProps({ left: clampPct(p.left), top: clampPct(p.top) });
                const url = safeUrl(p.url);
                return url
                  ? html`<a
                      class="hotspot"
                      part="hotspot"
                      data-product-id=${p.id}
                      href=${url}
                      target="_blank"
                      rel="nofollow noopener noreferrer"
                      aria-label=${label}
                      style=${at}
                      >${i + 1}</a
                    >`
                  : html`<span
                      class="hotspot"
                      part="hotspot"
                      data-product-id=${p.id}
                      role="img"
                      aria-label=${label}
                      style=${at}
                      >${i + 1}</span
                    >`;
              })
            : nothing
        }
      </figure>
      <div>
        <h2 id="wallery-shop-title">Shop this post</h2>
        <ol class="products" part="products">
          ${post.products.map((p, i) => {
            const url = safeUrl(p.url);
            const img = originalAllowed(p.image, rules);
            return html`<li class="product" part="product" id=${`wallery-product-${i}`} data-product-id=${p.id}>
              ${
                img && !failed.has(img)
                  ? html`<img src=${img} alt="" width="64" height="64" loading="lazy" @error=${() => fail(img)} />`
                  : html`<span></span>`
              }
              <div>
                <div><span aria-hidden="true">${i + 1}. </span>${p.name}</div>
                ${price(p) ? html`<div class="price">${price(p)}</div>` : nothing}
                ${
                  url
                    ? html`<a href=${url} target="_blank" rel="nofollow noopener noreferrer"
                        >View product<span class="sr">: ${p.name}</span></a
                      >`
                    : nothing
                }
              </div>
            </li>`;
          })}
        </ol>
      </div>
    </div>`;
}

/** Keeps Tab and Shift+Tab inside the dialog (the modal makes the page inert; this also wraps). */
export function trapTab(event: KeyboardEvent, dialog: HTMLDialogElement): void {
  if (event.key !== 'Tab') return;
  const focusable = [...dialog.querySelectorAll<HTMLElement>('a[href], button, [tabindex="0"]')];
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (!first || !last) return;
  const active = (dialog.getRootNode() as ShadowRoot).activeElement;
  if (event.shiftKey && (active === first || !dialog.contains(active))) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || !dialog.contains(active))) {
    event.preventDefault();
    first.focus();
  }
}
