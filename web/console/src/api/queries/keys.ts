// Keys: an account's user keys (for the public API) and a wall's
// publishable keys (for the embed) — list, make (the answer holds the secret,
// shown this once), revoke.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../client';
import type { NewPublishableKey, NewUserKey, PublishableKey, UserKey } from '../records';
import { accountParam } from './accounts';

export const keyKeys = {
  user: (accountId: string) => ['user-keys', accountId] as const,
  publishable: (wallId: number) => ['publishable-keys', wallId] as const,
};

export const keyQueries = {
  /** waits for an account */
  user: (accountId: number | undefined) =>
    queryOptions({
      queryKey: keyKeys.user(accountParam(accountId)),
      enabled: accountId !== undefined,
      queryFn: () =>
        unwrap(
          api.GET('/accounts/{accountId}/keys', {
            params: { path: { accountId: accountParam(accountId) }, query: { limit: '200' } },
          }),
        ),
    }),
  /** waits for a wall */
  publishable: (wallId: number | undefined) =>
    queryOptions({
      queryKey: keyKeys.publishable(wallId ?? 0),
      enabled: wallId !== undefined,
      queryFn: () =>
        unwrap(
          api.GET('/walls/{wallId}/publishable-keys', {
            params: { path: { wallId: String(wallId) }, query: { limit: '200' } },
          }),
        ),
    }),
};

export const useUserKeys = (accountId: number | undefined) => useQuery(keyQueries.user(accountId));
export const usePublishableKeys = (wallId: number | undefined) => useQuery(keyQueries.publishable(wallId));

/** Makes a user key of the account: shown first, the list read again after. */
export function useCreateUserKey(accountId: number | undefined, then: { onSuccess(key: NewUserKey): void }) {
  const queryClient = useQueryClient();
  const id = accountParam(accountId);
  return useMutation({
    mutationFn: () => unwrap(api.POST('/accounts/{accountId}/keys', { params: { path: { accountId: id } } })),
    onSuccess: async (key) => {
      then.onSuccess(key);
      await queryClient.invalidateQueries({ queryKey: keyKeys.user(id) });
    },
  });
}

/**
 * Makes a publishable key of a wall (bound to `origins`, if any). The wall's
 * key list is read again between `beforeRefresh` and `afterRefresh`.
 */
export function useCreatePublishableKey(then: {
  beforeRefresh?(key: NewPublishableKey): void;
  afterRefresh?(key: NewPublishableKey): void;
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ wallId, origins }: { wallId: number; origins?: string[] }) =>
      unwrap(
        api.POST('/walls/{wallId}/publishable-keys', {
          params: { path: { wallId: String(wallId) } },
          body: origins ? { origins } : {},
        }),
      ),
    onSuccess: async (key) => {
      then.beforeRefresh?.(key);
      await queryClient.invalidateQueries({ queryKey: keyKeys.publishable(key.wallId) });
      then.afterRefresh?.(key);
    },
  });
}

export type Revoking = { kind: 'user'; key: UserKey } | { kind: 'publishable'; key: PublishableKey };

/** Revokes a user key of `accountId` or a publishable key; its list is read again first. */
export function useRevokeKey(revoking: Revoking, accountId: string, then: { onSuccess(): void }) {
  const queryClient = useQueryClient();
  return useMutation<unknown>({
    mutationFn: () =>
      revoking.kind === 'user'
        ? unwrap(
            api.DELETE('/accounts/{accountId}/keys/{keyId}', {
              params: { path: { accountId, keyId: String(revoking.key.id) } },
            }),
          )
        : unwrap(
            api.DELETE('/walls/{wallId}/publishable-keys/{keyId}', {
              params: { path: { wallId: String(revoking.key.wallId), keyId: String(revoking.key.id) } },
            }),
          ),
    onSuccess: async () => {
      await queryClient.invalidateQueries({
        queryKey: revoking.kind === 'user' ? keyKeys.user(accountId) : keyKeys.publishable(revoking.key.wallId),
      });
      then.onSuccess();
    },
  });
}
