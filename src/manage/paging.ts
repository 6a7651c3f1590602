// Cursor paging of management lists: opaque cursors over a row's sort key.
import { invalidField } from '../domain/errors.js';
import { PAGE_DEFAULT } from '../schemas/fields.js';

export interface Page<T> {
  data: T[];
  /** pass as `cursor` for the next page; null on the last page */
  nextCursor: string | null;
}

export interface PageRequest {
  limit?: number;
  cursor?: string;
}

/** An opaque cursor: base64url of the JSON of the last row's sort key. */
export function encodeCursor(key: readonly (number | string)[]): string {
  return Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
}

/** The sort key of a cursor `encodeCursor` made, `size` safe integers; null for any other string. */
export function cursorKey(cursor: string, size: number): number[] | null {
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  return Array.isArray(key) && key.length === size && key.every((n) => Number.isSafeInteger(n)) ? key : null;
}

/** The sort key of a cursor, checked to be `size` safe integers; a 400 naming `cursor` otherwise. */
export function decodeCursor(cursor: string | undefined, size: number): number[] | null {
  if (cursor === undefined) return null;
  const key = cursorKey(cursor, size);
  if (!key) throw invalidField('cursor', 'cursor is not one this API returned');
  return key;
}

/** Rows were fetched with limit + 1: the page and, when there is more, the cursor after its last row. */
export function pageOf<R, T>(rows: R[], limit: number, key: (row: R) => number[], map: (row: R) => T): Page<T> {
  const more = rows.length > limit;
  const kept = more ? rows.slice(0, limit) : rows;
  const last = kept[kept.length - 1];
  return { data: kept.map(map), nextCursor: more && last !== undefined ? encodeCursor(key(last)) : null };
}

export const pageLimit = (p: PageRequest) => p.limit ?? PAGE_DEFAULT;

/**
 * A page of rows keyed by id, in the order `fetch` returns them (ascending id,
 * or descending for newest-first lists). `fetch` gets the id the cursor ends
 * after in that order (undefined on the first page) and how many rows to take:
 * one more than the page, to tell whether there is a next one.
 */
export async function pageById<R extends { id: number }, T>(
  page: PageRequest,
  fetch: (afterId: number | undefined, take: number) => Promise<R[]>,
  map: (row: R) => T,
): Promise<Page<T>> {
  const after = decodeCursor(page.cursor, 1);
  const limit = pageLimit(page);
  return pageOf(await fetch(after?.[0], limit + 1), limit, (r) => [r.id], map);
}

/** `limit` and `cursor` of a validated query (strings, as every query value). */
export function pageRequest(q: { limit?: string; cursor?: string }): PageRequest {
  return {
    ...(q.limit !== undefined ? { limit: Number(q.limit) } : {}),
    ...(q.cursor !== undefined ? { cursor: q.cursor } : {}),
  };
}
