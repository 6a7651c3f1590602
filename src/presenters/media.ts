// A stored picture → the URLs of Wallery's copy of it (GET /media/{hash}/{name},
// src/http/media/): an absolute URL per rendition width, negotiated by the
// browser's Accept (no extension), for the embed API, the webhook payloads
// and the management API alike. The base (PUBLIC_URL, a request's origin or
// the listen address) is decided by src/domain/self-url.ts.
import type { StoredPicture } from '../store/media.js';
import type { EmbedCopy } from '../schemas/embed.js';

/** Where the copies are served. */
export const MEDIA_PREFIX = '/media';

/** The widest rendition `src` names when there is one this narrow or narrower (a card is rarely wider). */
export const COPY_SRC_MAX_WIDTH = 1080;

/** The URL of one file of a stored picture: `name` is `640` (format by Accept) or `640.webp`. */
export const mediaUrl = (base: string, hash: string, name: string): string => `${base}${MEDIA_PREFIX}/${hash}/${name}`;

/** The rendition `src` names: the widest of at most COPY_SRC_MAX_WIDTH, else the narrowest. */
export function middleWidth(widths: readonly number[]): number | null {
  let best: number | null = null;
  for (const w of widths) if (w <= COPY_SRC_MAX_WIDTH && (best === null || w > best)) best = w;
  return best ?? (widths.length > 0 ? Math.min(...widths) : null);
}

/** The copy of a stored picture as the embed shows it; null when it has no rendition. */
export function pictureCopy(stored: StoredPicture, base: string): EmbedCopy | null {
  const src = middleWidth(stored.widths);
  if (src === null) return null;
  const url = (w: number) => mediaUrl(base, stored.hash, String(w));
  return {
    src: url(src),
    srcset: [...stored.widths]
      .sort((a, b) => a - b)
      .map((w) => `${url(w)} ${w}w`)
      .join(', '),
    width: stored.width,
    height: stored.height,
    placeholder: stored.placeholder === '' ? null : stored.placeholder,
    animated: stored.animated,
  };
}

/** A small rendition (an avatar, a thumbnail): the narrowest one; null when there is none. */
export function smallCopyUrl(stored: StoredPicture, base: string): string | null {
  if (stored.widths.length === 0) return null;
  return mediaUrl(base, stored.hash, String(Math.min(...stored.widths)));
}
