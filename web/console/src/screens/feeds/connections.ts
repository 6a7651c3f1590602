// The account's connections (its credentials for the networks), for the feed
// form's connection picker: `GET /accounts/{accountId}/connections` of the
// management API, kept apart from the Connections screen's own list (a key
// of its own under ['connections', accountId], so refreshing that list
// refreshes this one too).
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import type { paths } from '../../api/schema';

type ListAnswer =
  paths['/accounts/{accountId}/connections']['get']['responses'][200]['content']['application/json']['responseData'];
export type Connection = ListAnswer['data'][number];

/** Every connection of the account (the picker keeps those of its network); an account has a handful. */
export const useConnections = (accountId: number | undefined) =>
  useQuery({
    queryKey: ['connections', accountId ?? 0, 'feed-form'],
    enabled: accountId !== undefined,
    queryFn: async () =>
      (
        await unwrap(
          api.GET('/accounts/{accountId}/connections', {
            params: { path: { accountId: String(accountId) }, query: { limit: '200' } },
          }),
        )
      ).data,
  });
