// Analytics counters in the store: additive upserts of batched counts, and
// the reads of the reports. One code path for both dialects: `insert … on
// conflict (key) do update set n = n + excluded.n` adds, whoever else adds
// to the same row at the same time, so instances never double count.
import { sql, type Kysely } from 'kysely';
import type { Count, EventType } from '../domain/analytics.js';
import { isForeignKeyViolation } from './dialect.js';
import type { Database } from './schema.js';
import { tagsWithPosts } from './tags.js';
import { findWall } from './walls.js';

/** Rows per statement: 6 values each, far below SQLite's 32,766 variables. */
const ROWS_PER_STATEMENT = 500;

/**
 * Adds every count to its row (made when absent), in one transaction. Counts
 * of a wall purged since they were taken are dropped: the batch is written
 * again without them (once), rather than refused whole by the foreign key.
 */
export async function addCounts(db: Kysely<Database>, counts: readonly Count[]): Promise<void> {
  try {
    await writeCounts(db, counts);
  } catch (err) {
    if (!isForeignKeyViolation(err)) throw err;
    const ids = [...new Set(counts.map((c) => c.wallId))];
    const rows = await db.selectFrom('walls').select('id').where('id', 'in', ids).execute();
    const walls = new Set(rows.map((r) => Number(r.id)));
    await writeCounts(
      db,
      counts.filter((c) => walls.has(c.wallId)),
    );
  }
}

async function writeCounts(db: Kysely<Database>, counts: readonly Count[]): Promise<void> {
  if (counts.length === 0) return;
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < counts.length; i += ROWS_PER_STATEMENT) {
      const rows = counts.slice(i, i + ROWS_PER_STATEMENT).map((c) => ({
        wall_id: c.wallId,
        day: c.day,
        type: c.type,
        post_id: c.postId,
        product_id: c.productId,
        n: c.n,
      }));
      await trx
        .insertInto('analytics_daily')
        .values(rows)
        .onConflict((oc) =>
          oc
            .columns(['wall_id', 'day', 'type', 'post_id', 'product_id'])
            .doUpdateSet({ n: (eb) => eb('analytics_daily.n', '+', eb.ref('excluded.n')) }),
        )
        .execute();
    }
  });
}

export interface DayTypeCount {
  day: number;
  type: EventType;
  n: number;
}

/** A wall's events per day and type within the days (inclusive). */
export async function wallDayCounts(
  db: Kysely<Database>,
  wallId: number,
  from: number,
  to: number,
): Promise<DayTypeCount[]> {
  const rows = await db
    .selectFrom('analytics_daily')
    .select(['day', 'type', (eb) => eb.fn.sum<number>('n').as('n')])
    .where('wall_id', '=', wallId)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .groupBy(['day', 'type'])
    .execute();
  return rows.map((r) => ({ day: Number(r.day), type: r.type, n: Number(r.n) }));
}

export interface PostCounts {
  postId: number;
  impressions: number;
  clicks: number;
  ctaClicks: number;
  productClicks: number;
}

const sumOf = (type: EventType) => sql<number>`sum(case when type = ${type} then n else 0 end)`;

/** A wall's posts with the most impressions (then clicks of any kind, then id) within the days. */
export async function topPosts(
  db: Kysely<Database>,
  wallId: number,
  from: number,
  to: number,
  limit: number,
): Promise<PostCounts[]> {
  const rows = await db
    .selectFrom('analytics_daily')
    .select([
      'post_id',
      sumOf('impression').as('impressions'),
      sumOf('click').as('clicks'),
      sumOf('cta_click').as('cta_clicks'),
      sumOf('product_click').as('product_clicks'),
    ])
    .where('wall_id', '=', wallId)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .where('post_id', '<>', 0)
    .groupBy('post_id')
    .orderBy(sql`sum(case when type = 'impression' then n else 0 end)`, 'desc')
    .orderBy(sql`sum(case when type <> 'impression' then n else 0 end)`, 'desc')
    .orderBy('post_id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    postId: Number(r.post_id),
    impressions: Number(r.impressions),
    clicks: Number(r.clicks),
    ctaClicks: Number(r.cta_clicks),
    productClicks: Number(r.product_clicks),
  }));
}

export interface ProductClicks {
  productId: number;
  /** '' when the product was deleted since */
  name: string;
  productClicks: number;
}

/** A wall's most clicked products (then id) within the days. */
export async function topProducts(
  db: Kysely<Database>,
  wallId: number,
  from: number,
  to: number,
  limit: number,
): Promise<ProductClicks[]> {
  const rows = await db
    .selectFrom('analytics_daily as a')
    .leftJoin('products as p', 'p.id', 'a.product_id')
    .select(['a.product_id', (eb) => eb.fn.max('p.name').as('name'), (eb) => eb.fn.sum<number>('a.n').as('n')])
    .where('a.wall_id', '=', wallId)
    .where('a.day', '>=', from)
    .where('a.day', '<=', to)
    .where('a.type', '=', 'product_click')
    .where('a.product_id', '<>', 0)
    .groupBy('a.product_id')
    .orderBy(sql`sum(a.n)`, 'desc')
    .orderBy('a.product_id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ productId: Number(r.product_id), name: r.name ?? '', productClicks: Number(r.n) }));
}

/** A product's clicks per day, and per wall, within the days. */
export async function productCounts(
  db: Kysely<Database>,
  productId: number,
  from: number,
  to: number,
): Promise<{ days: { day: number; n: number }[]; walls: { wallId: number; n: number }[] }> {
  const base = db
    .selectFrom('analytics_daily')
    .where('product_id', '=', productId)
    .where('type', '=', 'product_click')
    .where('day', '>=', from)
    .where('day', '<=', to);
  const [days, walls] = await Promise.all([
    base
      .select(['day', (eb) => eb.fn.sum<number>('n').as('n')])
      .groupBy('day')
      .execute(),
    base
      .select(['wall_id', (eb) => eb.fn.sum<number>('n').as('n')])
      .groupBy('wall_id')
      .orderBy(sql`sum(n)`, 'desc')
      .orderBy('wall_id')
      .execute(),
  ]);
  return {
    days: days.map((r) => ({ day: Number(r.day), n: Number(r.n) })),
    walls: walls.map((r) => ({ wallId: Number(r.wall_id), n: Number(r.n) })),
  };
}

/** Of these posts, those of the wall (any state: a post counted while visible stays counted). */
export async function postsOfWall(db: Kysely<Database>, wallId: number, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('posts')
    .select('id')
    .where('wall_id', '=', wallId)
    .where('id', 'in', [...ids])
    .execute();
  return rows.map((r) => Number(r.id));
}

/** Of these products, those tagged on a post of the wall. */
export async function productsOfWall(db: Kysely<Database>, wallId: number, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await tagsWithPosts(db)
    .select('post_products.product_id')
    .distinct()
    .where('posts.wall_id', '=', wallId)
    .where('post_products.product_id', 'in', [...ids])
    .execute();
  return rows.map((r) => Number(r.product_id));
}

/** Whether the wall exists and is not deleted. */
export async function wallIsLive(db: Kysely<Database>, wallId: number): Promise<boolean> {
  return (await findWall(db, wallId, { live: true })) !== null;
}
