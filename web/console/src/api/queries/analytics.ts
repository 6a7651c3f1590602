// A wall's analytics over a range of UTC days: the report as JSON, and the
// same as CSV (fetched with the token in its header: a download link would
// have to put the token into a URL).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, fetchManage, unwrap } from '../client';
import type { WallAnalytics } from '../records';

export interface DayRange {
  from: string;
  to: string;
}

/** The report as JSON (its 200 has a CSV form too, so the generated type of `data` is `unknown`: named here). */
const getAnalytics = (wallId: number, r: DayRange): Promise<WallAnalytics> =>
  unwrap(
    api.GET('/walls/{wallId}/analytics', {
      params: { path: { wallId: String(wallId) }, query: r },
      headers: { Accept: 'application/json' },
    }) as Promise<{ data?: { responseData: WallAnalytics }; error?: unknown; response: Response }>,
  );

export const analyticsQueries = {
  /** waits for a wall */
  report: (wallId: number | undefined, r: DayRange) =>
    queryOptions({
      queryKey: ['analytics', wallId ?? 0, r.from, r.to],
      enabled: wallId !== undefined,
      queryFn: () => getAnalytics(wallId!, r),
    }),
};

export const useAnalytics = (wallId: number | undefined, r: DayRange) => useQuery(analyticsQueries.report(wallId, r));

const query = (r: DayRange) => `from=${encodeURIComponent(r.from)}&to=${encodeURIComponent(r.to)}`;

/** The report as a CSV file: its name (the server's, else one made here) and its content. */
export async function fetchAnalyticsCsv(wallId: number, r: DayRange): Promise<{ name: string; blob: Blob }> {
  const response = await fetchManage(`/walls/${wallId}/analytics?${query(r)}`, 'text/csv');
  const named = /filename="?([^";]+)"?/.exec(response.headers.get('Content-Disposition') ?? '')?.[1];
  return { name: named ?? `wall-${wallId}-analytics-${r.from}-${r.to}.csv`, blob: await response.blob() };
}
