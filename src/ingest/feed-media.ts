// The pictures and videos of a feed item: Media RSS (`media:content`,
// `media:group`, `media:thumbnail`), enclosures, `itunes:image`, then the
// first image of its HTML that is not a tracker — never a 1×1 counting
// pixel, a feed service's share button or an ad beacon.
import { Parser } from 'htmlparser2';
import type { UpstreamMedia } from './connector.js';
import { attrOf, child, childrenOf, textIn, type XElement } from './feed-xml.js';
import { httpUrl, plainText } from './normalize.js';
import { parseUrl } from './url-parts.js';

/**
 * Hosts that only serve counting pixels, ads and share buttons in feeds
 * (the host or any subdomain of it).
 */
const TRACKER_HOSTS = [
  'pheedo.com',
  'feedsportal.com',
  'doubleclick.net',
  'googlesyndication.com',
  'googleadservices.com',
  'google-analytics.com',
  'bluekai.com',
  'adsrvr.org',
  'scorecardresearch.com',
  'quantserve.com',
  'pixel.wp.com',
  'stats.wordpress.com',
  'feeds.wordpress.com',
  'addtoany.com',
  'addthis.com',
  'sharethis.com',
  'feedblitz.com',
  'statcounter.com',
];

/** FeedBurner's pixel (`/~r/`), flares (`/~ff/`) and ads (`/~a/`), on its own host or a publisher's. */
const TRACKER_PATH = /\/~(?:r|ff|a)\//;
/** Smileys, emoji and forum UI images: decoration, not a post's picture. */
const DECORATION_DIR = /\/(?:smilies|smileys|emoticons|style_images|images\/core\/emoji)\//i;
/** Spacer and pixel files by name. */
const TRACKER_FILE = /\/(?:1x1|pixel|spacer|blank|clear|transparent|tracker|tracking|beacon)\.(?:gif|png)$/i;

/** Smaller than this (declared width or height, px) is an icon or a pixel, not a post's picture. */
export const MIN_PICTURE_PX = 50;

/** Whether an image is a tracker or button rather than a picture: by its URL, declared size or hidden style. */
export function isTrackerImage(url: string, attrs: Record<string, string | undefined> = {}): boolean {
  const parsed = parseUrl(url);
  if (!parsed) return true;
  const host = parsed.hostname.toLowerCase();
  if (TRACKER_HOSTS.some((h) => host === h || host.endsWith(`.${h}`))) return true;
  if ([TRACKER_PATH, TRACKER_FILE, DECORATION_DIR].some((re) => re.test(parsed.pathname))) return true;
  for (const side of [attrs.width, attrs.height]) {
    const px = side === undefined ? NaN : parseFloat(side);
    if (Number.isFinite(px) && px < MIN_PICTURE_PX && !/%/.test(side!)) return true;
  }
  return /display\s*:\s*none|visibility\s*:\s*hidden/i.test(attrs.style ?? '');
}

/** A picture and its text alternative ('' when it has none). */
interface Picture {
  url: string;
  alt: string;
}

/** The first image of an HTML fragment that is not a tracker, resolved against `base`, with its `alt`. */
export function firstPictureIn(html: string, base: string): Picture | null {
  if (!/<img\b/i.test(html)) return null;
  let found: Picture | null = null;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (found || name !== 'img') return;
        const url = httpUrl(attrs.src ?? '', base || undefined);
        if (url && !isTrackerImage(url, attrs)) {
          found = { url, alt: plainText(attrs.alt ?? '') };
          parser.pause();
        }
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  return found;
}

const IMAGE_EXT = /\.(jpe?g|png|gif|webp|avif|bmp|heic)$/i;
const VIDEO_EXT = /\.(mp4|mov|webm|m4v|m3u8)$/i;
const NOT_PICTURE_EXT = /\.(mp3|m4a|aac|ogg|oga|opus|wav|flac|pdf|epub|zip|torrent)$/i;

function kindOf(url: string, type: string, medium: string): 'image' | 'video' | null {
  const m = medium.toLowerCase();
  const t = type.toLowerCase();
  if (m === 'image' || t.startsWith('image/')) return 'image';
  if (m === 'video' || t.startsWith('video/') || t === 'application/x-mpegurl') return 'video';
  if (m !== '' || t !== '') return null; // audio, documents, players, …
  const path = parseUrl(url)?.pathname ?? url;
  if (VIDEO_EXT.test(path)) return 'video';
  if (IMAGE_EXT.test(path)) return 'image';
  // an untyped enclosure (Atom's `type` is optional) may well be an episode or a document
  if (NOT_PICTURE_EXT.test(path)) return null;
  return 'image';
}

/** Resolves a URL attribute of an element against the element's `xml:base`, else `base`. */
export const urlAttr = (el: XElement | undefined, name: string, base: string) =>
  el ? httpUrl(attrOf(el, name), el.base || base || undefined) : '';

/** The picture an element names: its `media:thumbnail`s (the first that is not a tracker). */
function thumbnailOf(el: XElement | undefined, base: string): string {
  for (const t of childrenOf(el, 'media:thumbnail')) {
    const url = urlAttr(t, 'url', base);
    if (url && !isTrackerImage(url, t.attrs)) return url;
  }
  return '';
}

/** `<itunes:image href="…"/>`, or the URL as its text (as some feeds write it). */
export function itunesImage(el: XElement | undefined, base: string): string {
  const image = child(el, 'itunes:image');
  return urlAttr(image, 'href', base) || (image ? httpUrl(textIn(image).trim(), image.base || base || undefined) : '');
}

export interface ItemMediaInput {
  item: XElement;
  /** the item's HTML (content or description), to find a picture in when nothing else names one */
  html: string;
  /** what relative URLs of the item resolve against */
  base: string;
  /** the base of its HTML (its `xml:base`, else the item's link, else the feed's URL) */
  htmlBase: string;
}

/** A picture or video an item names, with the size it declares (NaN: not declared). */
interface Rendition extends UpstreamMedia {
  width: number;
  height: number;
}

const declared = (el: XElement, url: string, rest: Omit<UpstreamMedia, 'url'>): Rendition => ({
  ...rest,
  url,
  width: parseFloat(attrOf(el, 'width')),
  height: parseFloat(attrOf(el, 'height')),
});

/** An item's `media:thumbnail`s, and those of its groups and contents, that are not trackers. */
function thumbnailsOf(item: XElement, base: string): Rendition[] {
  const holders = [item, ...childrenOf(item, 'media:group')].flatMap((g) => [g, ...childrenOf(g, 'media:content')]);
  return holders.flatMap((h) =>
    childrenOf(h, 'media:thumbnail').flatMap((t) => {
      const url = urlAttr(t, 'url', base);
      return url && !isTrackerImage(url, t.attrs) ? [declared(t, url, { kind: 'image', thumb: '' })] : [];
    }),
  );
}

/**
 * Media of an item, in this order: Media RSS contents (in groups or not),
 * enclosures (RSS's, and Atom's `link rel="enclosure"`) that are images or
 * videos, renditions of one picture folded into one (foldRenditions); else a
 * thumbnail (of the item, a group or a content); else `itunes:image`; else
 * the first picture of its HTML. Trackers are never one.
 */
export function itemMedia({ item, html, base, htmlBase }: ItemMediaInput): UpstreamMedia[] {
  const found: Rendition[] = [];
  const itemThumb = thumbnailOf(item, base);
  const groups = childrenOf(item, 'media:group');
  const contents = [
    ...groups.flatMap((g) => childrenOf(g, 'media:content').map((node) => ({ node, group: g }))),
    ...childrenOf(item, 'media:content').map((node) => ({ node, group: undefined as XElement | undefined })),
  ];
  for (const { node, group } of contents) {
    const url = urlAttr(node, 'url', base);
    if (!url) continue;
    const kind = kindOf(url, attrOf(node, 'type'), attrOf(node, 'medium'));
    if (!kind || (kind === 'image' && isTrackerImage(url, node.attrs))) continue;
    const thumb = thumbnailOf(node, base) || thumbnailOf(group, base) || itemThumb;
    found.push(declared(node, url, { kind, thumb, ...(kind === 'image' ? altOf(node, group) : {}) }));
  }
  const atomEnclosures = [...childrenOf(item, 'atom:link'), ...childrenOf(item, 'link')].filter(
    (l) => attrOf(l, 'rel').toLowerCase() === 'enclosure',
  );
  for (const enc of [...childrenOf(item, 'enclosure'), ...childrenOf(item, 'enc:enclosure'), ...atomEnclosures]) {
    const url =
      urlAttr(enc, 'url', base) ||
      urlAttr(enc, 'href', base) ||
      urlAttr(enc, 'resource', base) ||
      urlAttr(enc, 'rdf:resource', base);
    const kind = url ? kindOf(url, attrOf(enc, 'type'), '') : null;
    if (!url || !kind || (kind === 'image' && isTrackerImage(url))) continue;
    found.push(declared(enc, url, { kind, thumb: kind === 'video' ? itemThumb : '' }));
  }
  if (found.length > 0) return foldRenditions(found, thumbnailsOf(item, base));
  const named =
    itemThumb ||
    groups.map((g) => thumbnailOf(g, base)).find((u) => u !== '') ||
    contents.map(({ node }) => thumbnailOf(node, base)).find((u) => u !== '') ||
    itunesImage(item, base);
  const picture = named ? { url: named, alt: '' } : firstPictureIn(html, htmlBase);
  if (!picture?.url) return [];
  return [{ kind: 'image', url: picture.url, thumb: '', ...(picture.alt ? { alt: picture.alt } : {}) }];
}

// ---------- renditions ----------

/** Query parameters that size or encode a picture, not choose one. */
const SIZE_PARAMS = ['w', 'h', 'width', 'height', 'resize', 'fit', 'size', 'dpr', 'quality', 'q'];
/** `photo-150x150.jpg` (WordPress), `photo_300x300.jpg`: a size before the extension. */
const SIZE_SUFFIX = /[-_](\d{1,5})x(\d{1,5})(?=\.[a-z0-9]{2,5}$)/i;
const MEDIA_FILE = /\.(?:jpe?g|png|gif|webp|avif|bmp|heic|mp4|mov|webm|m4v)$/i;

/**
 * Which picture (or video) a URL shows, whatever its size: the URL without
 * a size suffix and without its query — a file such as `photo.jpg` is the
 * picture, its query only sizes, crops or signs it (`?w=460&s=…`) — or,
 * where the path names no file, without the parameters that size it.
 */
export function renditionKey(url: string): string {
  const u = parseUrl(url);
  if (!u) return url;
  u.hash = '';
  u.pathname = u.pathname.replace(SIZE_SUFFIX, '');
  if (MEDIA_FILE.test(u.pathname)) u.search = '';
  else for (const p of SIZE_PARAMS) u.searchParams.delete(p);
  return u.href;
}

/**
 * How large a rendition is (its longer side, px): as declared (`width`,
 * `height`), else as its URL says (`?w=460`, `-1024x768.jpg`); a URL that
 * says no size is the picture as uploaded, larger than any sized one.
 */
function sizeOf(r: Rendition): number {
  const sides = [r.width, r.height].filter((n) => Number.isFinite(n) && n > 0);
  if (sides.length > 0) return Math.max(...sides);
  const u = parseUrl(r.url);
  if (!u) return 0;
  const suffix = SIZE_SUFFIX.exec(u.pathname);
  if (suffix) return Math.max(Number(suffix[1]), Number(suffix[2]));
  const fromQuery = ['w', 'width', 'h', 'height', 'resize', 'size']
    .map((p) => parseFloat(u.searchParams.get(p) ?? ''))
    .filter((n) => Number.isFinite(n) && n > 0);
  return fromQuery.length > 0 ? Math.max(...fromQuery) : Infinity;
}

/**
 * One media item per picture or video: renditions of one (media:content at
 * two widths, an enclosure beside a media:content, a media:thumbnail of the
 * same picture — same renditionKey) fold into the first one's place, with the
 * largest as its picture or file and, for a picture without a thumbnail of
 * its own, the smallest other rendition as its thumbnail.
 */
function foldRenditions(found: readonly Rendition[], thumbnails: readonly Rendition[]): UpstreamMedia[] {
  const byKey = new Map<string, Rendition[]>();
  for (const r of found) {
    const key = `${r.kind} ${renditionKey(r.url)}`;
    byKey.set(key, [...(byKey.get(key) ?? []), r]);
  }
  for (const t of thumbnails) byKey.get(`image ${renditionKey(t.url)}`)?.push(t);
  return [...byKey.values()].map((renditions) => {
    const bySize = [...renditions].sort((a, b) => sizeOf(b) - sizeOf(a));
    const largest = bySize[0]!;
    const smaller = bySize.slice(1).reverse();
    const thumb = renditions.find((r) => r.thumb)?.thumb || (largest.kind === 'image' ? (smaller[0]?.url ?? '') : '');
    const alt = renditions.find((r) => r.alt)?.alt;
    return { kind: largest.kind, url: largest.url, thumb: thumb === largest.url ? '' : thumb, ...(alt ? { alt } : {}) };
  });
}

/**
 * The text alternative Media RSS gives an image: its own `media:description`
 * (plain text), else its group's; nothing when neither says. (A video's
 * description is what the video is about, not a text alternative.)
 */
function altOf(node: XElement, group: XElement | undefined): { alt?: string } {
  for (const el of [node, group]) {
    const description = child(el, 'media:description');
    if (description && attrOf(description, 'type') !== 'html') {
      const alt = plainText(textIn(description));
      if (alt) return { alt };
    }
  }
  return {};
}
