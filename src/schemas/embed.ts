// The records of the embed API (/api/embed/v1): one source for the server's
// schemas and presenter and for the browser component, which imports their
// types (web/embed/types.ts).
import { Type, type Static } from 'typebox';
import { EMBED_LAYOUTS, EMBED_THEMES } from '../domain/lists.js';
import { BrandingRecord } from './branding.js';
import { Nullable, strict } from './fields.js';

const Url = Type.String({ description: 'absolute http(s) URL' });

/**
 * Wallery's own copy of a picture (fetched, oriented, metadata stripped,
 * kept under the hash of its bytes): renditions of several widths at
 * /media/{hash}/{width}, in the format the browser's Accept names best.
 */
export const EmbedCopySchema = Type.Object(
  {
    src: Type.String({ description: 'absolute URL of a middle rendition (at most 1080 px wide when there is one)' }),
    srcset: Type.String({ description: 'every rendition, for <img srcset>: `URL 320w, URL 640w, …`' }),
    width: Type.Integer({ description: 'the picture’s width in px (after its orientation)' }),
    height: Type.Integer({ description: 'the picture’s height in px (one frame’s, for an animation)' }),
    placeholder: Nullable(
      Type.String({ description: 'ThumbHash (base64) of the picture: a blurred preview to show while it loads' }),
    ),
    animated: Type.Boolean(),
  },
  { ...strict, description: 'Wallery’s copy of the picture; null while there is none (not fetched yet, or failed)' },
);

export const EmbedPostSchema = Type.Object(
  {
    id: Type.String({ description: 'the post id as in W2 (`postId`)' }),
    network: Type.String({ description: 'W2 networkName in lower case: instagram, mastodon, bluesky, rss, custom…' }),
    type: Type.Enum(['text', 'image', 'video', 'carousel']),
    html: Type.String({ description: 'the post’s content: sanitized HTML, may be empty' }),
    author: Type.Object(
      {
        name: Type.String(),
        username: Nullable(Type.String()),
        avatar: Nullable(Url),
        avatarCopy: Nullable(
          Type.String({
            description: 'absolute URL of Wallery’s copy of the avatar (a small rendition); null when none',
          }),
        ),
        url: Nullable(Url),
      },
      strict,
    ),
    link: Nullable(Url),
    createdAt: Type.String({ format: 'date-time', description: 'ISO 8601 UTC' }),
    pinned: Type.Boolean(),
    highlighted: Type.Boolean(),
    lang: Nullable(
      Type.String({
        description:
          'the language of the post’s text (ISO 639-1, detected by eld), for its `lang` attribute; null when it cannot be told',
      }),
    ),
    media: Type.Array(
      Type.Object(
        {
          kind: Type.Enum(['image', 'video']),
          url: Type.String({
            description: 'absolute http(s) URL: the original picture or video, as the network gave it',
          }),
          poster: Nullable(Type.String({ description: 'absolute http(s) URL: a video’s original poster picture' })),
          alt: Nullable(Type.String()),
          width: Nullable(
            Type.Integer({ description: 'of the stored copy (a video’s: of its poster), when there is one' }),
          ),
          height: Nullable(Type.Integer()),
          copy: Nullable(EmbedCopySchema),
        },
        strict,
      ),
      { description: 'carousel: every item in order; text: []' },
    ),
    cta: Nullable(
      Type.Object({ text: Type.String(), url: Url, color: Type.String(), background: Type.String() }, strict),
    ),
    products: Type.Array(
      Type.Object(
        {
          id: Type.String(),
          name: Type.String(),
          price: Nullable(Type.String()),
          currency: Nullable(Type.String({ description: 'symbol, e.g. $' })),
          url: Nullable(Url),
          image: Nullable(Url),
          left: Type.Number({ description: 'hotspot, % from the left' }),
          top: Type.Number({ description: 'hotspot, % from the top' }),
        },
        strict,
      ),
      { description: 'tagged products in C5 (tag) order' },
    ),
    sort: Type.String({ description: 'opaque ordering key: posts sort by it descending (string compare) = W2 order' }),
  },
  strict,
);

export const EmbedWallSchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    slug: Nullable(Type.String()),
    shoppable: Type.Boolean({ description: 'true when a visible post has tagged products' }),
    layout: Type.Enum([...EMBED_LAYOUTS]),
    theme: Type.Enum([...EMBED_THEMES]),
    columns: Nullable(Type.Integer()),
    branding: BrandingRecord,
    postsUrl: Type.String({ description: 'path of the posts, with the key' }),
    streamUrl: Type.String({ description: 'path of the event stream, with the key' }),
  },
  strict,
);

export type EmbedPost = Static<typeof EmbedPostSchema>;
export type EmbedMedia = EmbedPost['media'][number];
export type EmbedCopy = Static<typeof EmbedCopySchema>;
export type EmbedProduct = EmbedPost['products'][number];
export type EmbedWall = Static<typeof EmbedWallSchema>;
export type Layout = EmbedWall['layout'];
export type Theme = EmbedWall['theme'];
