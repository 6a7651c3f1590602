// An account's connections to networks (the CRUD of the management API) and
// how each network can be connected (the connect flow's routes): the list is
// read again every few seconds (a refresh or a failing poll changes a
// status); Connect starts an OAuth sign-in and leaves the console for the
// network's page; a pasted token or key is stored; a connection is removed.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../client';
import type { paths } from '../schema';
import { accountParam } from './accounts';

type Json<Op, Code extends number> = Op extends {
  responses: { [K in Code]: { content: { 'application/json': { responseData: infer D } } } };
}
  ? D
  : never;
type Body<Op> = Op extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

export type Connection = Json<paths['/connections/{connectionId}']['get'], 200>;
export type ConnectionCreate = Body<paths['/accounts/{accountId}/connections']['post']>;
export type NetworkOffer = Json<paths['/accounts/{accountId}/connect/networks']['get'], 200>[number];
export type ConnectStart = Body<paths['/accounts/{accountId}/connect']['post']>;

/** how often the list is read again (ms) */
const REFRESH_MS = 10_000;

export const connectionKeys = {
  ofAccount: (accountId: string) => ['connections', accountId] as const,
  networks: (accountId: string) => ['connect-networks', accountId] as const,
};

const accountPath = (accountId: number) => ({ path: { accountId: String(accountId) } });

export const connectionQueries = {
  /** waits for an account */
  ofAccount: (accountId: number | undefined) =>
    queryOptions({
      queryKey: connectionKeys.ofAccount(accountParam(accountId)),
      enabled: accountId !== undefined,
      refetchInterval: REFRESH_MS,
      queryFn: () =>
        unwrap(
          api.GET('/accounts/{accountId}/connections', {
            params: { path: { accountId: accountParam(accountId) }, query: { limit: '200' } },
          }),
        ),
    }),
  networks: (accountId: number | undefined) =>
    queryOptions({
      queryKey: connectionKeys.networks(accountParam(accountId)),
      enabled: accountId !== undefined,
      staleTime: 60_000,
      queryFn: () =>
        unwrap(
          api.GET('/accounts/{accountId}/connect/networks', {
            params: { path: { accountId: accountParam(accountId) } },
          }),
        ),
    }),
};

export const useConnections = (accountId: number | undefined) => useQuery(connectionQueries.ofAccount(accountId));
export const useNetworkOffers = (accountId: number | undefined) => useQuery(connectionQueries.networks(accountId));

function useRefreshConnections(accountId: number) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: connectionKeys.ofAccount(String(accountId)) });
}

/**
 * Starts an OAuth sign-in: the browser goes to the network's page (a full-page
 * navigation, never a popup), which comes back to /connect/callback and then here.
 */
export function useStartConnect(accountId: number) {
  return useMutation({
    mutationFn: (body: ConnectStart) =>
      unwrap(api.POST('/accounts/{accountId}/connect', { params: accountPath(accountId), body })),
    onSuccess: (started) => {
      location.assign(started.authorizationUrl);
    },
  });
}

/** Stores a pasted token or API key. */
export function useCreateConnection(accountId: number, then: { onSuccess(made: Connection): void }) {
  const refresh = useRefreshConnections(accountId);
  return useMutation({
    mutationFn: (body: ConnectionCreate) =>
      unwrap(api.POST('/accounts/{accountId}/connections', { params: accountPath(accountId), body })),
    onSuccess: async (made) => {
      then.onSuccess(made as Connection);
      await refresh();
    },
  });
}

export function useDeleteConnection(connection: Connection, then: { onSuccess(): void }) {
  const refresh = useRefreshConnections(connection.accountId);
  return useMutation({
    mutationFn: () =>
      unwrap(api.DELETE('/connections/{connectionId}', { params: { path: { connectionId: String(connection.id) } } })),
    onSuccess: async () => {
      then.onSuccess();
      await refresh();
    },
  });
}
