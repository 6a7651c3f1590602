// Accounts: the ones the token sees, the one a screen shows, an account's
// calls of the public API per day (its usage), and the writes of the
// Accounts screen (create, edit, delete).
import { queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type Account } from '../client';
import type { paths } from '../schema';
import { cursorParam, pagedQuery } from './paging';

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

/** Every account the token sees, a page of 200 at a time (the Accounts screen); refreshed with the list above. */
export const useAccountPages = () =>
  useInfiniteQuery({
    ...pagedQuery([...accountQueries.list().queryKey, 'pages'], (cursor) =>
      unwrap(api.GET('/accounts', { params: { query: { limit: '200', ...cursorParam(cursor) } } })),
    ),
    refetchOnMount: 'always',
  });
export const useUsage = (accountId: number | undefined) => useQuery(accountQueries.usage(accountId));

/** The account of the URL, else the first the token sees; `query` tells whether the accounts are loaded. */
export function useChosenAccount(accountId: number | null) {
  const query = useAccounts();
  const accounts: Account[] = query.data?.data ?? [];
  const account = accountId === null ? accounts[0] : accounts.find((a) => a.id === accountId);
  return { account, accounts, query };
}

// ---------- writes (admins without an account scope) ----------

type Body<Op> = Op extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
export type AccountCreate = Body<paths['/accounts']['post']>;
export type AccountPatch = Body<paths['/accounts/{accountId}']['patch']>;

/** Creates an account or saves `account`: said first (`then`), then the list is read again. */
export function useSaveAccount(account: Account | null, then: { onSuccess(saved: Account): void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fields: AccountCreate) =>
      account
        ? unwrap(
            api.PATCH('/accounts/{accountId}', {
              params: { path: { accountId: String(account.id) } },
              body: fields as AccountPatch,
            }),
          )
        : unwrap(api.POST('/accounts', { body: fields })),
    onSuccess: async (saved) => {
      then.onSuccess(saved);
      await queryClient.invalidateQueries({ queryKey: accountQueries.list().queryKey });
    },
  });
}

/** Deletes an account (refused while it has walls): the list is read again, then `then`. */
export function useDeleteAccount(account: Account, then: { onSuccess(): void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      unwrap(api.DELETE('/accounts/{accountId}', { params: { path: { accountId: String(account.id) } } })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: accountQueries.list().queryKey });
      then.onSuccess();
    },
  });
}
