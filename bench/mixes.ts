// The request mixes more than one bench drives (bench/load.ts runs them with wrk).
import { BENCH_KEY, type WallSpec } from './generate.js';
import type { Mix } from './load.js';

const q = `user_key=${BENCH_KEY}`;

/**
 * Random W2 pages of the given walls (the same size each): offset uniform in
 * 0…posts−100, limit uniform in 10…100, so almost every request misses the
 * response cache; with `writes`, 1 % of the requests are W3 posts to one of
 * the walls, each invalidating what is cached of it.
 */
export function randomPages(walls: WallSpec[], writes: boolean): Mix {
  const wall = { oneOf: walls.map((w) => w.id) };
  const pages = {
    weight: writes ? 99 : 100,
    path: `/api/v2/widget/posts/{wall}?${q}&offset={offset}&limit={limit}`,
    vars: { wall, offset: { int: [0, walls[0]!.posts - 100] }, limit: { int: [10, 100] } },
  } satisfies Mix['requests'][number];
  if (!writes) return { seed: 42, requests: [pages] };
  const post = {
    weight: 1,
    method: 'POST' as const,
    path: `/api/v2/widget/create-post?${q}`,
    headers: { 'content-type': 'application/json' },
    body: '{"wallId":{wall},"content":"bench mix post","postFile":"https://cdn.example.com/x.jpg"}',
    vars: { wall },
  };
  return { seed: 42, requests: [pages, post] };
}
