// Bench data sets in the data-file format (contract §8), written as a stream.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

export const BENCH_KEY = 'bench-enterprise-key';
const DAY = 86_400_000;
const BASE = Date.UTC(2026, 0, 1);

export interface WallSpec {
  id: number;
  posts: number;
  /** first post id; ids are contiguous */
  firstPostId: number;
  feeds: number;
}

const KINDS = ['image', 'text', 'video', 'image', 'carousel'] as const;

function post(id: number, i: number) {
  const kind = KINDS[i % KINDS.length]!;
  const created = BASE - i * 47_000; // newest first by index
  const img = `https://c.example/m/${id}.jpg`;
  const vid = `https://c.example/v/${id}.mp4`;
  return {
    id,
    networkName: 'Mastodon',
    postType: { text: 1, image: 2, video: 3, carousel: 4 }[kind],
    content: `Post ${id}: trail day with <b>#friends</b> & more`,
    picture: kind === 'text' ? '' : img,
    file: kind === 'text' ? '' : kind === 'video' ? vid : img,
    fileOriginal: '',
    fileThumb: kind === 'video' ? img : '',
    mediaFile: kind === 'video' ? vid : '',
    linkUrl: `https://s.example/p/${id}`,
    authorName: `Author ${i % 977}`,
    username: `user_${i % 977}`,
    userPicture: `https://c.example/u/${i % 977}.png`,
    score: i % 7 === 0 ? i % 100 : null,
    rating: null,
    highlight: i % 11 === 0 ? 1 : 0,
    pin: i < 3 ? 1 : 0,
    tags: i % 2 ? 'summer,trail' : '',
    location: i % 5 === 0 ? 'Zürich, CH' : '',
    createdAt: new Date(created).toISOString(),
    media: kind === 'carousel' ? 'image' : kind,
    hidden: i % 97 === 13,
    cta:
      i % 13 === 0
        ? { color: '#fff', background: '#0a7cff', status: 1, url: `https://s.example/${id}`, text: 'Shop' }
        : null,
    children:
      kind === 'carousel'
        ? [1, 2, 3].map((n) => ({ image: `https://c.example/c/${id}-${n}.jpg`, video: '' }))
        : kind === 'text'
          ? []
          : [{ image: img, video: kind === 'video' ? vid : '' }],
    products: i % 10 === 0 ? [{ productId: 1 + (i % 20), left: 20 + (i % 60), top: 35.5 }] : [],
  };
}

/**
 * Leaves out fields at their import defaults ("" strings, null, 0, false,
 * empty lists): the format allows it, and it keeps the 1M-post file under
 * the ~512 MB that one JSON text can be in Node.
 */
function compact<T extends Record<string, unknown>>(record: T): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record)) {
    if (v === '' || v === null || v === 0 || v === false || (Array.isArray(v) && v.length === 0)) continue;
    out[k] = v;
  }
  return out as Partial<T>;
}

/** One data file: the bench account and products (when `withAccount`) and the given walls. */
export async function writeDataFile(path: string, walls: WallSpec[], withAccount: boolean): Promise<number> {
  const out = createWriteStream(path);
  const write = async (s: string) => {
    if (!out.write(s)) await once(out, 'drain');
  };
  const accounts = withAccount
    ? [{ id: 1, name: 'Bench', plan: 'enterprise', dailyCallLimit: 1_000_000_000, userKeys: [BENCH_KEY] }]
    : [];
  const products = withAccount
    ? Array.from({ length: 20 }, (_, i) => ({
        id: i + 1,
        accountId: 1,
        name: `Product ${i + 1}`,
        sku: `SKU-${i + 1}`,
        price: 10 + i * 2.5,
        currencySymbol: '$',
        currency: 'USD',
        discount: 0,
        discountCurrencySymbol: '$',
        discountCurrency: 'USD',
        url: `https://shop.example.com/p/${i + 1}`,
        image: `https://cdn.example.com/p/${i + 1}.jpg`,
        storeShopName: '',
        storeProductId: '0',
        storeProductType: '',
        createdAt: new Date(BASE - 90 * DAY).toISOString(),
        updatedAt: new Date(BASE - 10 * DAY).toISOString(),
      }))
    : [];
  await write(`{"version":1,"accounts":${JSON.stringify(accounts)},"products":${JSON.stringify(products)},"walls":[`);
  let total = 0;
  for (const [w, wall] of walls.entries()) {
    const head = {
      id: wall.id,
      accountId: 1,
      name: `Bench wall ${wall.id}`,
      url: `bench-${wall.id}`,
      profanity: 0,
      createdAt: new Date(BASE - 400 * DAY).toISOString(),
    };
    await write(`${w ? ',' : ''}${JSON.stringify(head).slice(0, -1)},"feeds":[`);
    const perFeed = Math.ceil(wall.posts / wall.feeds);
    for (let f = 0; f < wall.feeds; f++) {
      const feedHead = {
        id: wall.id * 100 + f,
        name: `Feed ${f}`,
        source: 'Mastodon',
        sourceType: 'hashtag',
        createdAt: null,
        updatedAt: new Date(BASE).toISOString(),
      };
      await write(`${f ? ',' : ''}${JSON.stringify(feedHead).slice(0, -1)},"posts":[`);
      const from = f * perFeed;
      const to = Math.min(wall.posts, from + perFeed);
      for (let i = from; i < to; i++) {
        // feeds interleave in time: post i belongs to feed i % feeds
        await write(`${i > from ? ',' : ''}${JSON.stringify(compact(post(wall.firstPostId + i, i)))}`);
        total += 1;
      }
      await write(']}');
    }
    await write(']}');
  }
  await write(']}\n');
  out.end();
  await once(out, 'finish');
  return total;
}
