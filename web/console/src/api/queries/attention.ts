// What needs attention across the walls the token sees (GET /attention, the
// Home screen), read again every half minute while the screen is open.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../client';
import type { paths } from '../schema';

type Ok<Op> = Op extends { responses: { 200: { content: { 'application/json': { responseData: infer D } } } } }
  ? D
  : never;

export type Attention = Ok<paths['/attention']['get']>;

/** How often the Home screen reads it again while open (ms). */
export const ATTENTION_REFRESH_MS = 30_000;

export const attentionQueries = {
  home: () =>
    queryOptions({
      queryKey: ['attention'],
      queryFn: () => unwrap(api.GET('/attention')),
      // what a moment ago needed attention may be done now (another tab, another operator)
      refetchOnMount: 'always',
      refetchInterval: ATTENTION_REFRESH_MS,
    }),
};

export const useAttention = () => useQuery(attentionQueries.home());
