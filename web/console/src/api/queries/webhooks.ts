// An account's webhooks and each endpoint's delivery log. The worker changes
// an endpoint's state and log on its own, so both are read again every few
// seconds while they are shown. Writes: create or edit, enable/disable, send
// a test, rotate the secret, delete, replay a delivery.
import { queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../client';
import type { Delivery, NewWebhook, Webhook, WebhookCreate } from '../records';
import { accountParam } from './accounts';
import { cursorParam, pagedQuery } from './paging';

/** how often the webhooks and a delivery log are read again (ms) */
const REFRESH_MS = 5_000;
const LOG_PAGE = '25';

export const webhookKeys = {
  ofAccount: (accountId: string) => ['webhooks', accountId] as const,
  /** every delivery log */
  deliveries: ['deliveries'] as const,
  log: (webhookId: number) => ['deliveries', webhookId] as const,
};

const hookPath = (hook: Pick<Webhook, 'id'>) => ({ path: { webhookId: String(hook.id) } });

export const webhookQueries = {
  /** waits for an account */
  ofAccount: (accountId: number | undefined) =>
    queryOptions({
      queryKey: webhookKeys.ofAccount(accountParam(accountId)),
      enabled: accountId !== undefined,
      refetchInterval: REFRESH_MS,
      queryFn: () =>
        unwrap(api.GET('/webhooks', { params: { query: { accountId: accountParam(accountId), limit: '200' } } })),
    }),
  /** newest first */
  log: (hook: Webhook) => ({
    ...pagedQuery(webhookKeys.log(hook.id), (cursor) =>
      unwrap(
        api.GET('/webhooks/{webhookId}/deliveries', {
          params: { ...hookPath(hook), query: { limit: LOG_PAGE, ...cursorParam(cursor) } },
        }),
      ),
    ),
    refetchInterval: REFRESH_MS,
  }),
};

export const useWebhooks = (accountId: number | undefined) => useQuery(webhookQueries.ofAccount(accountId));
export const useDeliveryLog = (hook: Webhook) => useInfiniteQuery(webhookQueries.log(hook));

/** Reads an account's webhooks again (`withLogs`: every delivery log too). */
export function useRefreshWebhooks(accountId: number | undefined) {
  const queryClient = useQueryClient();
  return (withLogs = false) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: webhookKeys.ofAccount(accountParam(accountId)) }),
      withLogs && queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries }),
    ]);
}

/** Off: turned off by an operator (`enabled: false`), or given up on by the worker (state `disabled`). */
export const isOff = (hook: Webhook) => !hook.enabled || hook.state === 'disabled';

/** Turns an endpoint on (it was off) or off: said first, then the webhooks are read again. */
export function useToggleWebhook(accountId: number | undefined, then: { onSuccess(hook: Webhook): void }) {
  const refresh = useRefreshWebhooks(accountId);
  return useMutation({
    mutationFn: (hook: Webhook) =>
      unwrap(api.PATCH('/webhooks/{webhookId}', { params: hookPath(hook), body: { enabled: isOff(hook) } })),
    onSuccess: async (hook) => {
      then.onSuccess(hook);
      await refresh();
    },
  });
}

/** Sends a signed test event: its attempt shown first, then the webhooks and its log are read again. */
export function useTestWebhook(
  accountId: number | undefined,
  then: { onSuccess(attempt: Delivery, hook: Webhook): void },
) {
  const queryClient = useQueryClient();
  const refresh = useRefreshWebhooks(accountId);
  return useMutation({
    mutationFn: (hook: Webhook) => unwrap(api.POST('/webhooks/{webhookId}/test', { params: hookPath(hook) })),
    onSuccess: async (attempt, hook) => {
      then.onSuccess(attempt, hook);
      await Promise.all([refresh(), queryClient.invalidateQueries({ queryKey: webhookKeys.log(hook.id) })]);
    },
  });
}

/** Makes a webhook of the account (the answer holds its secret) or saves `hook`. */
export function useSaveWebhook(
  accountId: number,
  hook: Webhook | undefined,
  then: { onSuccess(result: Webhook | NewWebhook): void },
) {
  const queryClient = useQueryClient();
  return useMutation<Webhook | NewWebhook, Error, Pick<WebhookCreate, 'url' | 'events'>>({
    mutationFn: (body) =>
      hook
        ? unwrap(api.PATCH('/webhooks/{webhookId}', { params: hookPath(hook), body }))
        : unwrap(api.POST('/webhooks', { body: { accountId, ...body } })),
    onSuccess: async (result) => {
      await queryClient.invalidateQueries({ queryKey: webhookKeys.ofAccount(String(accountId)) });
      then.onSuccess(result);
    },
  });
}

/** A new signing secret; with `expireOldNow` the old one stops signing at once, else in 24 hours. */
export function useRotateSecret(hook: Webhook, then: { onSuccess(made: NewWebhook): void }) {
  return useMutation({
    mutationFn: (expireOldNow: boolean) =>
      unwrap(api.POST('/webhooks/{webhookId}/rotate-secret', { params: hookPath(hook), body: { expireOldNow } })),
    onSuccess: (made) => then.onSuccess(made),
  });
}

export function useDeleteWebhook(hook: Webhook, then: { onSuccess(): void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.DELETE('/webhooks/{webhookId}', { params: hookPath(hook) })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: webhookKeys.ofAccount(String(hook.accountId)) });
      then.onSuccess();
    },
  });
}

/** Sends a delivery's event again (same event id): said first, then the log is read again. */
export function useReplayDelivery(hook: Webhook, then: { onSuccess(attempt: Delivery): void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (d: Delivery) =>
      unwrap(
        api.POST('/webhooks/{webhookId}/deliveries/{deliveryId}/replay', {
          params: { path: { webhookId: String(hook.id), deliveryId: String(d.id) } },
        }),
      ),
    onSuccess: async (attempt) => {
      then.onSuccess(attempt);
      await queryClient.invalidateQueries({ queryKey: webhookKeys.log(hook.id) });
    },
  });
}
