// The project's own demo data set, loaded by `wallery start` into an empty
// database: accounts on every plan, walls with text, image, video and
// carousel posts, products with hotspots. Posts are dated relative to the
// first start so the walls look fresh. Pictures are the files of demo/media,
// which Wallery serves under /demo-media/ (src/http/web): the demo renders
// without the internet. Their URLs are absolute, made from the URL the
// server is reached at (PUBLIC_URL, or `http://localhost:PORT`) on the first
// start, and stored with the posts.
import type { DataFile } from '../store/datafile.js';

export const DEMO_KEYS = [
  { plan: 'enterprise', key: 'demo-enterprise-key', wallId: 101, taggedPostId: 10001 },
  { plan: 'widget', key: 'demo-widget-key', wallId: 102, taggedPostId: 0 },
  { plan: 'commerce', key: 'demo-commerce-key', wallId: 103, taggedPostId: 30001 },
  { plan: 'free', key: 'demo-free-key', wallId: 0, taggedPostId: 0 },
] as const;

/** Where the demo pictures are served by a Wallery reached at `base` (no trailing slash). */
export const demoMediaBase = (base: string) => `${base}/demo-media`;

const SCENES = 12;
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

type Kind = 'text' | 'image' | 'video' | 'carousel';
const KIND_CYCLE: Kind[] = ['image', 'text', 'video', 'image', 'carousel', 'text', 'image', 'video'];

const LINES = [
  'Sunrise over the ridge — worth every step of the 5 a.m. start.',
  'New trail shoes, first 20 km. Verdict: <b>light</b> & grippy.',
  'Who else is at the harbour stage tonight? 🎶',
  'Rain or shine, the crew shows up. #community',
  'Behind the scenes: setting up the main tent.',
  'Our favourite picnic spot, now with a view of the lake.',
  'Three peaks, two friends, one very tired dog.',
  'Fresh batch of maple cookies at the stand until 6 pm!',
];

interface FeedSpec {
  id: number;
  name: string;
  source: string;
  sourceType: string;
  network: string;
  handle: string;
}

function posts(firstId: number, count: number, now: number, feed: FeedSpec, productIds: number[], media: string) {
  return Array.from({ length: count }, (_, i) => {
    const id = firstId + i;
    const kind = KIND_CYCLE[i % KIND_CYCLE.length]!;
    const created = now - (i * 7 + 2) * HOUR;
    const img = (n: number) => `${media}/scene-${((id * 7 + n * 5) % SCENES) + 1}.svg`;
    const video = `https://cdn.example.com/demo/${id}.mp4`;
    const children =
      kind === 'carousel'
        ? [0, 1, 2].map((n) => ({ image: img(n), video: '' }))
        : kind === 'image'
          ? [{ image: img(0), video: '' }]
          : kind === 'video'
            ? [{ image: img(0), video }]
            : [];
    const tagged = productIds.length > 0 && i % 3 === 0;
    return {
      id,
      networkName: feed.network,
      postType: { text: 1, image: 2, video: 3, carousel: 4 }[kind],
      content: `${LINES[i % LINES.length]} #${feed.handle.replace(/\W/g, '')}`,
      picture: kind === 'text' ? '' : img(0),
      file: kind === 'text' ? '' : kind === 'video' ? video : img(0),
      fileOriginal: kind === 'image' ? img(0) : '',
      fileThumb: kind === 'video' ? img(0) : '',
      mediaFile: kind === 'video' ? video : '',
      linkUrl: `https://social.example.com/${feed.handle}/${id}`,
      authorName: ['Ana Ruiz', 'Ben Okafor', 'Chloé Martin', 'Dev Patel'][i % 4]!,
      username: ['ana.trails', 'benruns', 'chloe_m', 'devp'][i % 4]!,
      userPicture: `${media}/avatar-${(i % 4) + 1}.svg`,
      score: i % 5 === 0 ? 80 + i : null,
      rating: i % 6 === 0 ? 4.5 : null,
      highlight: i % 4 === 1 ? 1 : 0,
      pin: i === 5 ? 1 : 0,
      tags: i % 2 === 0 ? 'summer,outdoors' : '',
      location: i % 3 === 0 ? 'Lake Louise, CA' : '',
      createdAt: iso(created),
      updatedAt: iso(created + HOUR),
      media: kind === 'carousel' ? 'image' : kind,
      hidden: i === 7,
      cta:
        i % 5 === 0
          ? {
              color: '#ffffff',
              background: '#1a73e8',
              status: 1,
              url: `https://shop.example.com/look/${id}`,
              text: 'Shop the look',
            }
          : null,
      children,
      products: tagged
        ? productIds.slice(0, 2).map((productId, n) => ({ productId, left: 25 + n * 40, top: 60 - n * 15.5 }))
        : [],
    } as const;
  });
}

function product(id: number, accountId: number, name: string, price: number, now: number, media: string) {
  return {
    id,
    accountId,
    name,
    sku: `SKU-${id}`,
    price,
    currencySymbol: '$',
    currency: 'USD',
    discount: id % 2 === 0 ? 10 : 0,
    discountCurrencySymbol: '$',
    discountCurrency: 'USD',
    url: `https://shop.example.com/p/${id}`,
    image: `${media}/product-${id}.svg`,
    storeShopName: 'Demo Store',
    storeProductId: `sp-${id}`,
    storeProductType: 'apparel',
    createdAt: iso(now - 90 * 24 * HOUR),
    updatedAt: iso(now - 10 * 24 * HOUR),
  };
}

export function demoDataFile(now: number, media = demoMediaBase('http://localhost:3000')): DataFile {
  const feed = (
    id: number,
    name: string,
    source: string,
    sourceType: string,
    network: string,
    handle: string,
  ): FeedSpec => ({
    id,
    name,
    source,
    sourceType,
    network,
    handle,
  });
  const wallFeed = (spec: FeedSpec, firstPost: number, count: number, productIds: number[]) => ({
    id: spec.id,
    name: spec.name,
    source: spec.source,
    sourceType: spec.sourceType,
    createdAt: iso(now - 60 * 24 * HOUR),
    updatedAt: iso(now - HOUR),
    posts: posts(firstPost, count, now, spec, productIds, media),
  });
  return {
    version: 1,
    accounts: [
      { id: 1, name: 'Summit Outdoor Co.', plan: 'enterprise', dailyCallLimit: 100_000, userKeys: [DEMO_KEYS[0].key] },
      { id: 2, name: 'Harbor Events', plan: 'widget', dailyCallLimit: 10_000, userKeys: [DEMO_KEYS[1].key] },
      { id: 3, name: 'Maple & Co. Shop', plan: 'commerce', dailyCallLimit: 10_000, userKeys: [DEMO_KEYS[2].key] },
      { id: 4, name: 'Free Tier Café', plan: 'free', dailyCallLimit: 1000, userKeys: [DEMO_KEYS[3].key] },
    ],
    products: [
      product(501, 1, 'Ridge Runner trail shoe', 129.9, now, media),
      product(502, 1, 'Packable rain shell', 89, now, media),
      product(503, 1, 'Summit 20 L daypack', 74.5, now, media),
      product(601, 3, 'Maple syrup gift box', 24.99, now, media),
      product(602, 3, 'Plaid wool scarf', 45, now, media),
    ],
    walls: [
      {
        id: 101,
        accountId: 1,
        name: 'Summer Trail Wall',
        url: 'summer-trail-wall',
        profanity: 0,
        createdAt: iso(now - 120 * 24 * HOUR),
        feeds: [
          wallFeed(
            feed(1001, '#trailrunning on Mastodon', 'Mastodon', 'hashtag', 'Mastodon', 'trailrunning'),
            10001,
            24,
            [501, 502],
          ),
          wallFeed(
            feed(1002, 'Summit Outdoor on YouTube', 'YouTube', 'channel', 'YouTube', 'summitoutdoor'),
            11001,
            8,
            [],
          ),
          wallFeed(feed(1003, 'Trail journal (RSS)', 'RSS', 'feed', 'RSS', 'journal'), 12001, 8, [503]),
        ],
      },
      {
        id: 102,
        accountId: 2,
        name: 'Harbor Festival 2026',
        url: 'harbor-festival-2026',
        profanity: 1,
        createdAt: iso(now - 30 * 24 * HOUR),
        feeds: [
          wallFeed(feed(2001, 'harborfest on Bluesky', 'Bluesky', 'username', 'Bluesky', 'harborfest'), 20001, 20, []),
        ],
      },
      {
        id: 103,
        accountId: 3,
        name: 'Maple Lookbook',
        url: 'maple-lookbook',
        profanity: 0,
        createdAt: iso(now - 200 * 24 * HOUR),
        feeds: [wallFeed(feed(3001, 'Lookbook (RSS)', 'RSS', 'feed', 'RSS', 'maplelookbook'), 30001, 15, [601, 602])],
      },
    ],
  };
}
