// Which picture a post shows, and how: Wallery's copy when there is one
// (renditions by srcset, the picture's own size, a ThumbHash placeholder
// while it loads), else the original — unless the wall shows local media
// only (the hosted page), where a picture without a copy is left out so a
// visitor's browser contacts no one but Wallery. A picture that fails to
// load is dropped by the caller (never a broken-image icon).
import { thumbHashToDataURL } from 'thumbhash';
import type { EmbedCopy, Layout } from './types.js';
import { safeUrl } from './util.js';

/** What <img> gets. */
export interface Picture {
  src: string;
  srcset?: string;
  width?: number;
  height?: number;
  /** a data: URL of the placeholder, shown behind the picture until it loads */
  placeholder?: string;
}

/** The policy of one wall: originals allowed, and which origin is Wallery's own. */
export interface PictureRules {
  /** only Wallery's copies (and its own files): the hosted page */
  local: boolean;
  /** Wallery's origin (the API's): its own files count as local */
  origin: string;
}

/** Whether an original may be shown under `rules`: anywhere but in local mode, where only Wallery's own files are. */
export function originalAllowed(url: string | null | undefined, rules: PictureRules): string | undefined {
  const safe = safeUrl(url);
  if (!safe || !rules.local) return safe;
  return new URL(safe).origin === rules.origin ? safe : undefined;
}

const placeholders = new Map<string, string>();

/** The placeholder's data URL (decoded once per ThumbHash); undefined when there is none or it is not one. */
export function placeholderUrl(hash: string | null | undefined): string | undefined {
  if (!hash) return undefined;
  let url = placeholders.get(hash);
  if (url === undefined) {
    try {
      url = thumbHashToDataURL(Uint8Array.from(atob(hash), (c) => c.charCodeAt(0)));
    } catch {
      url = '';
    }
    if (placeholders.size > 500) placeholders.clear();
    placeholders.set(hash, url);
  }
  return url || undefined;
}

/** The picture to show for a copy or an original (of known size or not); null: nothing to show. */
export function pictureOf(
  copy: EmbedCopy | null | undefined,
  original: string | null | undefined,
  size: { width: number | null; height: number | null },
  rules: PictureRules,
): Picture | null {
  const src = safeUrl(copy?.src);
  if (copy && src) {
    return {
      src,
      srcset: copy.srcset,
      width: copy.width,
      height: copy.height,
      placeholder: placeholderUrl(copy.placeholder),
    };
  }
  const url = originalAllowed(original, rules);
  if (!url) return null;
  return { src: url, width: size.width ?? undefined, height: size.height ?? undefined };
}

/**
 * How wide a picture is drawn, for srcset: `auto` (the laid-out width, for
 * lazy pictures) then what the layout gives where `auto` is not understood.
 */
export function sizesOf(layout: Layout, columns: number): string {
  switch (layout) {
    case 'carousel':
      return 'auto, min(320px, 85vw)';
    case 'event':
      return 'auto, (max-width: 700px) 100vw, 25vw';
    default:
      return `auto, (max-width: 560px) 100vw, (max-width: 900px) 50vw, ${Math.ceil(100 / Math.max(1, columns))}vw`;
  }
}

/** Up to two initials of a name, for an author without a picture. */
export function initialsOf(name: string): string {
  const words = name
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  return words
    .slice(0, 2)
    .map((w) => [...w][0]!.toUpperCase())
    .join('');
}
