// Analytics tests: beacons sent as browsers send them, and the counters they
// made, read from the store once the aggregator has flushed.
import type { Kysely } from 'kysely';
import { call, type Res } from '../../helpers/http.js';
import type { Database } from '../../../src/store/schema.js';
import type { EmbedServer } from '../embed/helpers.js';

export const EVENTS = '/api/embed/v1/events';

/** A Chrome on a desktop: not a bot. */
export const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** A beacon as navigator.sendBeacon sends a string: text/plain. */
export function beacon(
  baseUrl: string,
  key: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Res> {
  return call(baseUrl, EVENTS, {
    method: 'POST',
    query: { key },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': BROWSER_UA, ...headers },
  });
}

export interface Row {
  wall_id: number;
  day: number;
  type: string;
  post_id: number;
  product_id: number;
  n: number;
}

/** Every counter row, in key order, numbers as numbers. */
export async function counters(db: Kysely<Database>, wallId?: number): Promise<Row[]> {
  let q = db.selectFrom('analytics_daily').selectAll();
  if (wallId !== undefined) q = q.where('wall_id', '=', wallId);
  const rows = await q
    .orderBy('wall_id')
    .orderBy('day')
    .orderBy('type')
    .orderBy('post_id')
    .orderBy('product_id')
    .execute();
  return rows.map((r) => ({
    wall_id: Number(r.wall_id),
    day: Number(r.day),
    type: r.type,
    post_id: Number(r.post_id),
    product_id: Number(r.product_id),
    n: Number(r.n),
  }));
}

/** Writes what the server's aggregator holds now. */
export async function flush(s: EmbedServer): Promise<void> {
  await s.srv.app.ctx.analytics!.aggregator.flush();
}

let views = 0;
/** A fresh page-view id. */
export const newView = () => `view_${process.pid}_${++views}_${'x'.repeat(4)}`;
