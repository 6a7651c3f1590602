// The project's own demo data set, loaded by `wallery start` into an empty
// database: accounts on every plan and three walls that look like real ones
// — a music shop's shoppable wall (products tagged on its studio shots), a
// festival's event screen (dark), and a walking community's wall of many
// networks. Posts are dated relative to the first start (the last ten days)
// so the walls look fresh. Pictures and clips are the files of demo/media,
// openly licensed photographs (demo/ATTRIBUTION.md), which Wallery serves
// under /demo-media/: the demo renders without the internet, and every link
// in it is a page of this instance (demo/media/about.html, shop.html). Their
// URLs are absolute, made from the URL the server is reached at (PUBLIC_URL,
// or `http://localhost:PORT`) on the first start, and stored with the posts.
import type { DataFile } from '../store/datafile.js';
import type { PostIn } from '../store/datafile/format.js';
import { author, type DemoAuthor } from './demo-authors.js';
import { BRAND_POSTS, COMMUNITY_POSTS, EVENT_POSTS, type PostSpec } from './demo-posts.js';
import { DEMO_PRODUCTS, DEMO_SCENES, productFile } from './demo-scenes.js';

export const DEMO_KEYS = [
  { plan: 'enterprise', key: 'demo-enterprise-key', wallId: 101, taggedPostId: 10001 },
  { plan: 'widget', key: 'demo-widget-key', wallId: 102, taggedPostId: 0 },
  { plan: 'commerce', key: 'demo-commerce-key', wallId: 103, taggedPostId: 0 },
  { plan: 'free', key: 'demo-free-key', wallId: 0, taggedPostId: 0 },
] as const;

/** The three demo walls, as `npm start` lists them. */
export const DEMO_WALLS = [
  { id: 101, slug: 'tonewood-music', name: 'Tonewood Music — #tonewood', kind: 'brand' },
  { id: 102, slug: 'starlight-lake-2026', name: 'Starlight Lake Festival 2026', kind: 'event' },
  { id: 103, slug: 'open-trails', name: 'Open Trails Community', kind: 'community' },
] as const;

/** How far back the demo's posts reach from the first start. */
export const DEMO_SPAN_DAYS = 10;

/** Where the demo pictures are served by a Wallery reached at `base` (no trailing slash). */
export const demoMediaBase = (base: string) => `${base}/demo-media`;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * How long before the first start the `i`-th of `n` posts was made: minutes
 * for the newest, days for the oldest, never more than DEMO_SPAN_DAYS, in
 * the order of the list (a fixed wobble keeps the gaps from looking drawn
 * with a ruler).
 */
export function demoAge(i: number, n: number): number {
  const span = (DEMO_SPAN_DAYS - 0.5) * DAY;
  const slot = (k: number) => 4 * MINUTE + span * (n <= 1 ? 0 : Math.min(k / (n - 1), 1)) ** 1.8;
  // somewhere in the first 40 % of the gap to the next post's slot: the order holds
  const wobble = (((i * 37) % 11) / 11) * 0.4;
  return Math.round(slot(i) + (slot(i + 1) - slot(i)) * wobble);
}

interface FeedOf {
  id: number;
  name: string;
  source: string;
  sourceType: string;
}

const FEED_NAMES: Record<DemoAuthor['network'], [string, string]> = {
  Instagram: ['hashtag', 'Instagram'],
  Mastodon: ['hashtag', 'Mastodon'],
  Bluesky: ['hashtag', 'Bluesky'],
  YouTube: ['channel', 'YouTube'],
  RSS: ['feed', 'RSS'],
  Lemmy: ['community', 'Lemmy'],
  Facebook: ['page', 'Facebook'],
};

function wallPosts(specs: PostSpec[], firstId: number, now: number, media: string, tag: string): PostIn[] {
  return specs.map((spec, i) => {
    const id = firstId + i;
    const who = author(spec.author);
    const created = now - demoAge(i, specs.length);
    const scene = spec.scene ? DEMO_SCENES.find((s) => s.file === spec.scene) : undefined;
    if (spec.scene && !scene) throw new Error(`no demo scene ${spec.scene}`);
    const photos = (scene ? [scene.file] : (spec.photos ?? [])).map((f) => `${media}/${f}`);
    const clip = spec.clip ? `${media}/${spec.clip}` : '';
    const kind: 'text' | 'image' | 'video' | 'carousel' = clip
      ? 'video'
      : photos.length > 1
        ? 'carousel'
        : photos.length === 1
          ? 'image'
          : 'text';
    const alt = (n: number) => spec.alts?.[n];
    const children = photos.map((image, n) => ({
      image,
      video: n === 0 ? clip : '',
      ...(alt(n) ? { alt: alt(n)! } : {}),
    }));
    const products = scene?.items.map((item) => ({ productId: item.productId, left: item.left, top: item.top })) ?? [];
    return {
      id,
      networkName: who.network,
      postType: { text: 1, image: 2, video: 3, carousel: 4 }[kind],
      content: spec.text,
      picture: photos[0] ?? '',
      file: clip || photos[0] || '',
      fileOriginal: kind === 'image' ? photos[0]! : '',
      fileThumb: kind === 'video' ? photos[0]! : '',
      mediaFile: clip,
      linkUrl: `${media}/about.html#post-${id}`,
      authorName: who.name,
      username: who.username,
      userPicture: `${media}/${who.avatar}`,
      score: spec.highlight ? 90 - (i % 7) : null,
      highlight: spec.highlight ? 1 : 0,
      pin: spec.pin ? 1 : 0,
      tags: spec.tags ?? tag,
      location: spec.location ?? '',
      createdAt: iso(created),
      updatedAt: iso(created + 5 * MINUTE),
      media: kind === 'carousel' ? ('image' as const) : kind,
      cta:
        products.length > 0
          ? {
              color: '#ffffff',
              background: '#8a4b16',
              status: 1,
              url: `${media}/shop.html#look-${id}`,
              text: 'Shop the look',
            }
          : null,
      children,
      products,
    };
  });
}

/** The posts of a wall split into one feed per network, in the order the networks first appear. */
function feedsOf(
  wallId: number,
  posts: PostIn[],
  label: (network: string) => string,
  now: number,
): (FeedOf & { createdAt: string; updatedAt: string; posts: PostIn[] })[] {
  const networks = [...new Set(posts.map((p) => p.networkName ?? ''))];
  return networks.map((network, n) => {
    const [sourceType, source] = FEED_NAMES[network as DemoAuthor['network']];
    return {
      id: (wallId - 100) * 1000 + n + 1,
      name: label(network),
      source,
      sourceType,
      createdAt: iso(now - 60 * DAY),
      updatedAt: iso(now - HOUR),
      posts: posts.filter((p) => p.networkName === network),
    };
  });
}

function product(p: (typeof DEMO_PRODUCTS)[number], now: number, media: string) {
  return {
    id: p.id,
    accountId: 1,
    name: p.name,
    sku: p.sku,
    price: p.price,
    currencySymbol: '€',
    currency: 'EUR',
    discount: p.id === 507 ? 10 : 0,
    discountCurrencySymbol: '€',
    discountCurrency: 'EUR',
    url: `${media}/shop.html#${p.sku}`,
    image: `${media}/${productFile(p.id)}`,
    storeShopName: 'Tonewood Music Co.',
    storeProductId: p.sku.toLowerCase(),
    storeProductType: p.type,
    createdAt: iso(now - 90 * DAY),
    updatedAt: iso(now - 10 * DAY),
  };
}

export function demoDataFile(now: number, media = demoMediaBase('http://localhost:3000')): DataFile {
  const [brand, event, community] = DEMO_WALLS;
  const wall = (
    w: (typeof DEMO_WALLS)[number],
    accountId: number,
    specs: PostSpec[],
    firstId: number,
    tag: string,
    label: (network: string) => string,
    look: { layout: 'masonry' | 'grid' | 'carousel' | 'event'; theme: 'light' | 'dark' | 'auto'; columns?: number },
    createdDaysAgo: number,
    branding: Record<string, unknown>,
  ) => ({
    id: w.id,
    accountId,
    name: w.name,
    url: w.slug,
    profanity: w.kind === 'event' ? 1 : 0,
    createdAt: iso(now - createdDaysAgo * DAY),
    layout: look.layout,
    theme: look.theme,
    ...(look.columns ? { columns: look.columns } : {}),
    branding,
    feeds: feedsOf(w.id, wallPosts(specs, firstId, now, media, tag), label, now),
  });
  return {
    version: 1,
    accounts: [
      { id: 1, name: 'Tonewood Music Co.', plan: 'enterprise', dailyCallLimit: 100_000, userKeys: [DEMO_KEYS[0].key] },
      { id: 2, name: 'Starlight Lake Festival', plan: 'widget', dailyCallLimit: 10_000, userKeys: [DEMO_KEYS[1].key] },
      { id: 3, name: 'Open Trails Collective', plan: 'commerce', dailyCallLimit: 10_000, userKeys: [DEMO_KEYS[2].key] },
      { id: 4, name: 'Free Tier Café', plan: 'free', dailyCallLimit: 1000, userKeys: [DEMO_KEYS[3].key] },
    ],
    products: DEMO_PRODUCTS.map((p) => product(p, now, media)),
    walls: [
      wall(
        brand,
        1,
        BRAND_POSTS,
        10001,
        'tonewood',
        (n) => `#tonewood on ${n}`,
        { layout: 'masonry', theme: 'light' },
        120,
        {
          accent: '#8a4b16',
          background: '#f6f1ea',
          cardBackground: '#ffffff',
          text: '#2a211b',
          font: 'serif',
          radius: 10,
          cardStyle: 'elevated',
          logoUrl: `${media}/avatar-tonewood.svg`,
          callToPost: 'Share your instrument with #tonewood',
          infoUrl: `${media}/shop.html`,
        },
      ),
      wall(
        event,
        2,
        EVENT_POSTS,
        20001,
        'starlightlake',
        (n) => `#starlightlake on ${n}`,
        { layout: 'event', theme: 'dark' },
        30,
        {
          accent: '#f5c451',
          background: '#0b1020',
          cardBackground: '#161d33',
          text: '#e8ecf8',
          font: 'geometric',
          radius: 14,
          cardStyle: 'outlined',
          logoUrl: `${media}/avatar-starlight.svg`,
          callToPost: 'Post with #starlightlake',
          infoUrl: `${media}/about.html`,
        },
      ),
      wall(
        community,
        3,
        COMMUNITY_POSTS,
        30001,
        'autumnwalks',
        (n) => `Open Trails on ${n}`,
        { layout: 'masonry', theme: 'auto', columns: 4 },
        200,
        // colours left to the visitor's light or dark theme
        {
          font: 'humanist',
          radius: 12,
          logoUrl: `${media}/avatar-opentrails.svg`,
          callToPost: 'Share your walk with #autumnwalks',
          infoUrl: `${media}/about.html`,
        },
      ),
    ],
  };
}
