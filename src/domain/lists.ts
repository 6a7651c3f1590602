// The closed lists of the domain, declared once: schemas, store types, the
// data file and messages derive from these.

/** An account's plan: widget → W1–W4, commerce → C1–C5, enterprise → both, free → no API access. */
export const PLANS = ['free', 'widget', 'commerce', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

/** What a post shows (its file's kind; `text` when it has none). */
export const MEDIA_KINDS = ['image', 'video', 'text'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

/** The networks ingestion can collect from (`connector.kind` of a feed). */
export const CONNECTOR_KINDS = [
  'rss',
  'mastodon',
  'bluesky',
  'youtube',
  'lemmy',
  // issue 35, google
  'youtube_data',
  'tiktok',
  'instagram',
  'facebook',
  'threads',
  // open networks (issue 35)
  'pixelfed',
  'misskey',
  'peertube',
  // xsocial (issue 35)
  'x',
  'reddit',
  'tumblr',
  'flickr',
] as const;

/** `a, b or c` — a list as a message names it. */
export function spoken(items: readonly string[], last = 'or'): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} ${last} ${items[items.length - 1]}`;
}

/** How the embed lays a wall out, and its colour theme (`auto`: the reader's system setting). */
export const EMBED_LAYOUTS = ['masonry', 'grid', 'carousel', 'event'] as const;
export type EmbedLayout = (typeof EMBED_LAYOUTS)[number];
export const EMBED_THEMES = ['light', 'dark', 'auto'] as const;
export type EmbedTheme = (typeof EMBED_THEMES)[number];

/** How a wall (or a feed, overriding its wall) publishes: `auto` at once, `manual` after an approval. */
export const MODERATION_MODES = ['auto', 'manual'] as const;
export type ModerationMode = (typeof MODERATION_MODES)[number];

/**
 * A post's moderation state, apart from its `hidden` flag: the public reads
 * show only `approved` posts that are not hidden.
 */
export const POST_STATES = ['approved', 'pending', 'rejected'] as const;
export type PostState = (typeof POST_STATES)[number];
