// The data file (contract §8) that the browser tests on a real `wallery serve`
// import: the demo data set (for screenshots of real-looking content) plus
// walls made for the checks, all on the demo's enterprise account. Pictures
// are the files of demo/media that Wallery serves under /demo-media/, so
// everything renders offline.
import { DEMO_KEYS, demoDataFile } from '../../src/demo/demo-data.js';
import type { DataFile } from '../../src/store/datafile.js';
import type { PostIn as Post } from '../../src/store/datafile/format.js';
import { MARKUP_PAYLOADS, URL_PAYLOADS } from '../helpers/xss-corpus.js';

export const ACCOUNT = 1;
export const USER_KEY = DEMO_KEYS[0].key;
export const DEMO_WALL = DEMO_KEYS[0].wallId;

export const WALLS = {
  /** every kind of post, a pinned old one, highlighted ones, a shoppable one, a hidden one: never changed */
  standard: 201,
  /** 45 posts to page through; the paging test adds more */
  paging: 202,
  /** a few posts; the live test adds, edits and hides */
  live: 203,
  /** script-injection attempts in every field */
  xss: 204,
} as const;

/** The shoppable post of the standard wall and its two products, at known positions (C5 order). */
export const SHOPPABLE = {
  postId: 20140,
  products: [
    { productId: 701, name: 'Ridge Runner trail shoe', price: '129.90', left: 25, top: 60 },
    { productId: 702, name: 'Packable rain shell', price: '89.00', left: 65, top: 44.5 },
  ],
} as const;

/** The pinned post of the standard wall: older than every other, first all the same. */
export const PINNED = 20150;
/** Hidden in the data file: never shown. */
export const HIDDEN = 20160;
/** The video post of the standard wall (a poster, a play button). */
export const VIDEO = 20102;

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

const LINES = [
  'Sunrise over the ridge — worth every step of the 5 a.m. start.',
  'New trail shoes, first 20 km. Verdict: <b>light</b> &amp; grippy.',
  'Who else is at the harbour stage tonight?',
  'Rain or shine, the crew shows up. #community',
  'Behind the scenes: setting up the main tent.',
  'Our favourite picnic spot, now with a view of the lake.',
  'Three peaks, two friends, one very tired dog.',
  'Fresh batch of maple cookies at the stand until 6 pm!',
];
const AUTHORS = [
  ['Ana Ruiz', 'ana.trails'],
  ['Ben Okafor', 'benruns'],
  ['Chloé Martin', 'chloe_m'],
  ['Dev Patel', 'devp'],
] as const;
const NETWORKS = ['Mastodon', 'Bluesky', 'RSS', 'Instagram'];

type Kind = 'text' | 'image' | 'video' | 'carousel';

/** A post of kind `kind`, `n` hours old, with media at `media` (a `/demo-media` base URL). */
function post(id: number, n: number, kind: Kind, now: number, media: string, extra: Partial<Post> = {}): Post {
  const [authorName, username] = AUTHORS[n % AUTHORS.length]!;
  const img = (i: number) => `${media}/scene-${((n + i * 5) % 12) + 1}.svg`;
  const children =
    kind === 'carousel'
      ? [0, 1, 2].map((i) => ({ image: img(i), video: '', alt: `Trail scene ${n}, picture ${i + 1} of 3` }))
      : kind === 'image'
        ? [{ image: img(0), video: '', alt: `Trail scene ${n}` }]
        : kind === 'video'
          ? [{ image: img(0), video: `${media}/clip-${id}.mp4` }]
          : [];
  return {
    id,
    networkName: NETWORKS[n % NETWORKS.length]!,
    postType: { text: 1, image: 2, video: 3, carousel: 4 }[kind],
    media: kind === 'carousel' ? 'image' : kind,
    content: `<p>${LINES[n % LINES.length]} <a href="https://social.example/p/${id}">#trail</a></p>`,
    picture: kind === 'text' ? '' : img(0),
    linkUrl: `https://social.example/${username}/${id}`,
    authorName,
    username,
    userPicture: `${media}/avatar-${(n % 4) + 1}.svg`,
    createdAt: iso(now - (n + 1) * HOUR),
    highlight: n % 5 === 1 ? 1 : 0,
    pin: 0,
    cta:
      n % 6 === 0
        ? {
            color: '#ffffff',
            background: '#1a56b8',
            status: 1,
            url: `https://shop.example/look/${id}`,
            text: 'Shop the look',
          }
        : null,
    children,
    ...extra,
  };
}

const KINDS: Kind[] = ['image', 'text', 'video', 'carousel'];

function standardWall(now: number, media: string): Post[] {
  const posts = Array.from({ length: 12 }, (_, n) => post(20100 + n, n, KINDS[n % 4]!, now, media));
  posts.push(
    post(SHOPPABLE.postId, 13, 'image', now, media, {
      content: '<p>Kitted out for the ridge: shoes and shell, both tried in the rain.</p>',
      createdAt: iso(now - 30 * 60_000), // second, after the pinned post: few Tab presses away
      products: SHOPPABLE.products.map(({ productId, left, top }) => ({ productId, left, top })),
    }),
  );
  // pinned a month ago: first all the same
  posts.push(
    post(PINNED, 8, 'image', now, media, {
      content: '<p>Trail maps for the season are in: pick one up at the stand. <b>Pinned all summer.</b></p>',
      pin: 1,
      createdAt: iso(now - 30 * 24 * HOUR),
    }),
  );
  posts.push(post(HIDDEN, 0, 'text', now, media, { hidden: true, createdAt: iso(now - 5 * 60_000) }));
  return posts;
}

/** Posts that carry the injection attempts of test/helpers/xss-corpus.ts in every field. */
function xssWall(now: number, media: string): Post[] {
  const url = (i: number) => URL_PAYLOADS[i % URL_PAYLOADS.length]!;
  const markup = (i: number) => MARKUP_PAYLOADS[i % MARKUP_PAYLOADS.length]!;
  const js = (n: number) => `javascript:window.xss=${n}`;
  const chunk = 12;
  const posts: Post[] = [];
  for (let i = 0; i * chunk < MARKUP_PAYLOADS.length; i++) {
    posts.push({
      id: 20400 + i,
      networkName: markup(i + 3).slice(0, 60),
      postType: 2,
      media: 'image',
      content: MARKUP_PAYLOADS.slice(i * chunk, (i + 1) * chunk).join('\n'),
      picture: url(i),
      linkUrl: url(i + 1),
      authorName: markup(i * 7),
      username: markup(i * 7 + 1),
      userPicture: url(i + 2),
      alt: markup(i * 7 + 2),
      createdAt: iso(now - (i + 1) * HOUR),
      cta: {
        color: 'red;background:url(javascript:x)',
        background: '#000',
        status: 1,
        url: url(i + 3),
        text: markup(i + 4),
      },
      children: [
        { image: url(i + 4), video: '', alt: markup(i * 7 + 5) },
        { image: `${media}/scene-1.svg`, video: url(i + 5), alt: markup(i * 7 + 6) },
      ],
      products: [{ productId: 703, left: 10, top: 10 }],
    });
  }
  // the markers of the fixture's old test: each attempt would set window.xss to its number
  posts.push({
    id: 20490,
    networkName: 'Mastodon',
    postType: 2,
    media: 'image',
    content: `<p>hi<img src=x onerror="window.xss=10"><a href="${js(11)}">a</a><a href=" JaVaScRiPt:window.xss=12">b</a>
        <svg onload="window.xss=13"></svg><iframe srcdoc="<script>parent.xss=14</script>"></iframe>
        <script>window.xss=15</script><a href="https://ok.example/" onclick="window.xss=16">ok</a>
        <img src="https://x.invalid/a.png" onerror="window.xss=17"><math><mtext><img src=x onerror="window.xss=18"></mtext></math></p>`,
    authorName: `<img src=x onerror="window.xss=1">Eve`,
    username: `"><script>window.xss=2</script>`,
    userPicture: js(3),
    linkUrl: js(5),
    picture: js(6),
    alt: `" onerror="window.xss=7`,
    createdAt: iso(now - 10 * 60_000),
    cta: { text: '<b>buy</b>', url: js(8), color: 'red;background:url(javascript:x)', background: '#000', status: 1 },
    children: [{ image: js(6), video: '', alt: `" onerror="window.xss=7` }],
    products: [{ productId: 703, left: 1, top: 1 }],
  });
  return posts;
}

/** The whole data file; `media` is `BASE/demo-media` of the server that will serve it. */
export function serveDataFile(now: number, media: string): DataFile {
  const demo = demoDataFile(now, media);
  const product = (id: number, name: string, price: number, url: string, image: string) => ({
    id,
    accountId: ACCOUNT,
    name,
    price,
    currencySymbol: '$',
    currency: 'USD',
    url,
    image,
    createdAt: iso(now - 90 * 24 * HOUR),
  });
  const wall = (id: number, name: string, posts: Post[]) => ({
    id,
    accountId: ACCOUNT,
    name,
    url: name.toLowerCase().replace(/\W+/g, '-'),
    profanity: 0,
    createdAt: iso(now - 100 * 24 * HOUR),
    feeds: [
      {
        id: id * 10 + 1,
        name: `${name} feed`,
        source: 'RSS',
        sourceType: 'feed',
        createdAt: iso(now - 60 * 24 * HOUR),
        updatedAt: iso(now - HOUR),
        posts,
      },
    ],
  });
  return {
    version: 1,
    accounts: demo.accounts,
    products: [
      ...demo.products!,
      product(701, 'Ridge Runner trail shoe', 129.9, 'https://shop.example/p/701', `${media}/product-501.svg`),
      product(702, 'Packable rain shell', 89, 'https://shop.example/p/702', `${media}/product-502.svg`),
      product(703, `<img src=x onerror="window.xss=9">`, 1, 'javascript:window.xss=19', 'javascript:window.xss=20'),
    ],
    walls: [
      ...demo.walls!,
      wall(WALLS.standard, 'Trail Wall', standardWall(now, media)),
      wall(
        WALLS.paging,
        'Paging Wall',
        Array.from({ length: 45 }, (_, n) => post(20200 + n, n, n % 2 ? 'text' : 'image', now, media)),
      ),
      wall(
        WALLS.live,
        'Live Wall',
        Array.from({ length: 6 }, (_, n) => post(20300 + n, n, KINDS[n % 4]!, now, media)),
      ),
      wall(WALLS.xss, 'Hostile Wall', xssWall(now, media)),
    ],
  };
}
