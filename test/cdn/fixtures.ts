// Many small walls in one account (a data file), and a seeded Zipf sampler:
// wall k is read with a weight of 1/k^s, as a few walls get most visitors.
export const CDN_ACCOUNT = 1;
export const CDN_USER_KEY = 'Cdn-wall-key-000001';

/** `walls` walls of `posts` posts each; wall w's posts are w*1000+1… */
export function cdnWallsData(walls: number, posts: number) {
  return {
    version: 1,
    accounts: [
      { id: CDN_ACCOUNT, name: 'CDN', plan: 'enterprise', dailyCallLimit: 10_000_000, userKeys: [CDN_USER_KEY] },
    ],
    walls: Array.from({ length: walls }, (_, i) => {
      const id = i + 1;
      return {
        id,
        accountId: CDN_ACCOUNT,
        name: `Wall ${id}`,
        url: `wall-${id}`,
        createdAt: '2025-01-01T00:00:00.000Z',
        feeds: [
          {
            id,
            name: 'Feed',
            source: 'RSS',
            sourceType: 'feed',
            updatedAt: '2025-01-01T00:00:00.000Z',
            posts: Array.from({ length: posts }, (_, j) => ({
              id: id * 1000 + j + 1,
              content: `post ${j + 1} of wall ${id}`,
              createdAt: new Date(Date.UTC(2025, 0, 2) + j * 60_000).toISOString(),
              media: 'text',
            })),
          },
        ],
      };
    }),
  };
}

/** mulberry32: a small seeded generator, so a run's mix is the same every time. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Draws 1..n with probability ∝ 1/k^s. */
export function zipfSampler(n: number, s: number, seed: number): () => number {
  const cumulative: number[] = [];
  let total = 0;
  for (let k = 1; k <= n; k++) cumulative.push((total += 1 / k ** s));
  const random = seeded(seed);
  return () => {
    const x = random() * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo + 1;
  };
}
