// Lists the API answers a page at a time (`cursor` in, `nextCursor` out), read
// with TanStack Query's infinite queries: one helper for the options every
// such list shares, and the rows of the pages loaded so far.
import { infiniteQueryOptions, type InfiniteData, type QueryKey } from '@tanstack/react-query';

export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

/** The infinite query of a paged list; `fetchPage` gets the cursor of the page to read ('' for the first). */
export function pagedQuery<P extends Page<unknown>, K extends QueryKey>(
  queryKey: K,
  fetchPage: (cursor: string) => Promise<P>,
) {
  return infiniteQueryOptions({
    queryKey,
    queryFn: ({ pageParam }) => fetchPage(pageParam),
    initialPageParam: '',
    getNextPageParam: (page: P) => page.nextCursor ?? undefined,
  });
}

/** The `cursor` query parameter of a page after the first; nothing for the first. */
export const cursorParam = (cursor: string): { cursor?: string } => (cursor ? { cursor } : {});

/** Every row of the pages loaded so far, in order. */
export const rowsOf = <T>(data: InfiniteData<Page<T>, unknown> | undefined): T[] =>
  data?.pages.flatMap((p) => p.data) ?? [];
