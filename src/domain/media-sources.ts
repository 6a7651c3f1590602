// What a post shows as media, from its stored columns: its items in order (a
// carousel's children, else its main picture or video), and the pictures of
// those items and of its author that Wallery keeps copies of, each under a
// slot name that stays the same as long as the post's columns do. The embed
// presenter and the media worker read both from here, so what is fetched is
// exactly what is shown.
import { storedChildren } from './media.js';
import { safeUrl } from './safe-url.js';

/** The columns a post's media come from. */
export interface MediaColumns {
  media: string;
  picture: string;
  file: string;
  file_thumb: string;
  media_file: string;
  children: string;
  alt: string;
  user_picture: string;
}

export interface MediaItemSource {
  kind: 'image' | 'video';
  /** the picture, or the video */
  url: string;
  /** a video's poster picture */
  poster: string | null;
  alt: string | null;
}

const nonEmpty = (s: string) => (s.trim() === '' ? null : s);

/** The post's media items, in order: a carousel's children, else its main picture or video; [] for text. */
export function mediaItemsOf(p: MediaColumns): MediaItemSource[] {
  const items: MediaItemSource[] = [];
  storedChildren(p.children).forEach((c, i) => {
    const alt = c.alt ?? (i === 0 ? nonEmpty(p.alt) : null) ?? null;
    const video = safeUrl(c.video);
    const image = safeUrl(c.image);
    if (video) items.push({ kind: 'video', url: video, poster: image, alt });
    else if (image) items.push({ kind: 'image', url: image, poster: null, alt });
  });
  if (items.length > 0) return items;
  const alt = nonEmpty(p.alt);
  const video = p.media === 'video' ? (safeUrl(p.media_file) ?? safeUrl(p.file)) : null;
  if (video) return [{ kind: 'video', url: video, poster: safeUrl(p.file_thumb) ?? safeUrl(p.picture), alt }];
  const image = safeUrl(p.picture) ?? (p.media === 'image' ? safeUrl(p.file) : null);
  return image ? [{ kind: 'image', url: image, poster: null, alt }] : [];
}

/** Where a picture of a post sits: `item:<n>` (the n-th item's picture, or a video's poster) or `avatar`. */
export type MediaSlot = `item:${number}` | 'avatar';

export const itemSlot = (index: number): MediaSlot => `item:${index}`;
export const AVATAR_SLOT: MediaSlot = 'avatar';

export interface PictureSource {
  slot: MediaSlot;
  url: string;
}

/**
 * The pictures Wallery keeps a copy of for this post: each item's picture (a
 * video's poster; a video without one has none — videos themselves are not
 * copied) and the author's avatar.
 */
export function pictureSourcesOf(p: MediaColumns): PictureSource[] {
  const sources: PictureSource[] = [];
  mediaItemsOf(p).forEach((item, i) => {
    const picture = item.kind === 'image' ? item.url : item.poster;
    if (picture) sources.push({ slot: itemSlot(i), url: picture });
  });
  const avatar = safeUrl(p.user_picture);
  if (avatar) sources.push({ slot: AVATAR_SLOT, url: avatar });
  return sources;
}

/**
 * A post's media state from its pictures' states (none when it has no
 * picture). A skipped picture (imported with `--skip-media`: the post shows
 * its original URL) is not Wallery's to copy: it counts as neither pending
 * nor stored, and a post whose pictures are all skipped is `none`.
 */
export function postMediaState(states: readonly string[]): 'none' | 'pending' | 'ready' | 'partial' | 'failed' {
  const copied = states.filter((s) => s !== 'skipped');
  if (copied.length === 0) return 'none';
  if (copied.some((s) => s === 'pending')) return 'pending';
  const ready = copied.filter((s) => s === 'ready').length;
  if (ready === copied.length) return 'ready';
  return ready === 0 ? 'failed' : 'partial';
}
