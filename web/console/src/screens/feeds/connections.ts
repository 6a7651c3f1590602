// The account's connections (its credentials for the networks), for the feed
// form's connection picker: `GET /accounts/{accountId}/connections` of the
// management API. Read with fetchManage and checked here, so the form works
// whatever else that record carries; only what the picker shows is kept.
import { useQuery } from '@tanstack/react-query';
import { fetchManage } from '../../api/client';

export interface ConnectionChoice {
  id: number;
  network: string;
  name: string;
  /** the network account it signed in as, when the network says */
  accountName: string | null;
  /** active, failing, expired, revoked */
  status: string;
}

/** The connections of a list answer (`data` of a page, or the list itself), the malformed ones left out. */
export function connectionsOf(answer: unknown): ConnectionChoice[] {
  const data = (answer as { data?: unknown } | null)?.data ?? answer;
  if (!Array.isArray(data)) return [];
  return data.flatMap((c: Record<string, unknown>) =>
    typeof c.id === 'number' && typeof c.network === 'string'
      ? [
          {
            id: c.id,
            network: c.network,
            name: typeof c.name === 'string' ? c.name : `Connection ${c.id}`,
            accountName: typeof c.externalAccountName === 'string' ? c.externalAccountName : null,
            status: typeof c.status === 'string' ? c.status : 'active',
          },
        ]
      : [],
  );
}

export const connectionKeys = { ofAccount: (accountId: number) => ['connections', accountId] as const };

/** Every connection of the account (the picker keeps those of its network). */
export const useConnections = (accountId: number | undefined) =>
  useQuery({
    queryKey: connectionKeys.ofAccount(accountId ?? 0),
    enabled: accountId !== undefined,
    queryFn: async () => {
      const response = await fetchManage(`/accounts/${accountId}/connections?limit=200`, 'application/json');
      return connectionsOf(((await response.json()) as { responseData?: unknown }).responseData);
    },
  });
