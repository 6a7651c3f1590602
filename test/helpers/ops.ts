// The nine operations of API v2, described once so that a rule of the
// contract can be checked against all of them.
import { call, type Res } from './http.js';

export type Family = 'widget' | 'commerce';

export interface Op {
  id: 'W1' | 'W2' | 'W3' | 'W4' | 'C1' | 'C2' | 'C3' | 'C4' | 'C5';
  family: Family;
  method: 'GET' | 'POST';
  /** the path for a wall id (writes take the wall in the body) */
  path(wallId: number | string): string;
  /** the JSON body for a wall id (writes only) */
  body?(wallId: number | string): unknown;
  /** reads a wall (W1, W2, C1, C2, C5) */
  read: boolean;
}

/** A visible post of wall 7011, used for C5. */
export const C5_POST = 17001;

export const OPS: readonly Op[] = [
  { id: 'W1', family: 'widget', method: 'GET', read: true, path: (w) => `/api/v2/widget/wallInfo/${w}` },
  { id: 'W2', family: 'widget', method: 'GET', read: true, path: (w) => `/api/v2/widget/posts/${w}` },
  {
    id: 'W3',
    family: 'widget',
    method: 'POST',
    read: false,
    path: () => '/api/v2/widget/create-post',
    body: (w) => ({ wallId: w, content: 'made by a test' }),
  },
  { id: 'W4', family: 'widget', method: 'GET', read: false, path: (w) => `/api/v2/widget/delete/${w}` },
  { id: 'C1', family: 'commerce', method: 'GET', read: true, path: (w) => `/api/v2/commerce/getGalleryInfo/${w}` },
  { id: 'C2', family: 'commerce', method: 'GET', read: true, path: (w) => `/api/v2/commerce/getGalleryPosts/${w}/` },
  {
    id: 'C3',
    family: 'commerce',
    method: 'POST',
    read: false,
    path: () => '/api/v2/commerce/createGalleryPost',
    body: (w) => ({ wallId: w, content: 'made by a test' }),
  },
  { id: 'C4', family: 'commerce', method: 'GET', read: false, path: (w) => `/api/v2/commerce/deleteGallery/${w}` },
  {
    id: 'C5',
    family: 'commerce',
    method: 'GET',
    read: true,
    path: (w) => `/api/v2/commerce/getGalleryProductByID/${w}/${C5_POST}/`,
  },
];

export const READ_OPS = OPS.filter((o) => o.read);
export const LIST_OPS = OPS.filter((o) => o.id === 'W2' || o.id === 'C2');

export interface RunOptions {
  key?: string;
  format?: string;
  wallId?: number | string;
  /** extra query parameters */
  query?: Record<string, string>;
  /** replaces the op's body (writes) */
  body?: unknown;
  headers?: Record<string, string>;
}

/** Calls an operation; the wall defaults to 7011 (account 7001, the enterprise one). */
export function runOp(baseUrl: string, op: Op, options: RunOptions = {}): Promise<Res> {
  const wallId = options.wallId ?? 7011;
  const query: Record<string, string> = { ...(options.query ?? {}) };
  if (options.key !== undefined) query.user_key = options.key;
  if (options.format !== undefined) query.format = options.format;
  return call(baseUrl, op.path(wallId), {
    method: op.method,
    query,
    body: op.method === 'POST' ? (options.body ?? op.body?.(wallId)) : undefined,
    headers: options.headers,
  });
}
