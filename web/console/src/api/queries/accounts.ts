// Accounts: the ones the token sees, the one a screen shows, and an
// account's calls of the public API per day (its usage).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap, type Account } from '../client';

/** An account's id as a path or query parameter ('' while it is not known: the query waits). */
export const accountParam = (accountId: number | undefined) => (accountId === undefined ? '' : String(accountId));

export const accountQueries = {
  list: () =>
    queryOptions({
      queryKey: ['accounts'],
      queryFn: () => unwrap(api.GET('/accounts', { params: { query: { limit: '200' } } })),
      // a screen opened on an account made a moment ago (another operator, the CLI) must find it
      refetchOnMount: 'always',
    }),
  /** usage per UTC day; waits for an account */
  usage: (accountId: number | undefined) =>
    queryOptions({
      queryKey: ['usage', accountParam(accountId)],
      enabled: accountId !== undefined,
      queryFn: () =>
        unwrap(api.GET('/accounts/{accountId}/usage', { params: { path: { accountId: accountParam(accountId) } } })),
    }),
};

export const useAccounts = () => useQuery(accountQueries.list());
export const useUsage = (accountId: number | undefined) => useQuery(accountQueries.usage(accountId));

/** The account of the URL, else the first the token sees; `query` tells whether the accounts are loaded. */
export function useChosenAccount(accountId: number | null) {
  const query = useAccounts();
  const accounts: Account[] = query.data?.data ?? [];
  const account = accountId === null ? accounts[0] : accounts.find((a) => a.id === accountId);
  return { account, accounts, query };
}
