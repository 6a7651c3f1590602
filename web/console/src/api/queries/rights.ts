// Rights management: an account's settings, its opt-out list and evidence
// report (JSON, or a CSV fetched with the token in its header), asking for a
// wall's posts, one post's rights with their evidence, an answer recorded by
// hand. Every write reads again what it changed: the wall's post lists (their
// badges), the post's rights, the opt-out list and the report.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, fetchManage, unwrap } from '../client';
import type { paths } from '../schema';
import { accountParam } from './accounts';
import { postKeys } from './posts';

type Json<Op, Code extends number> = Op extends {
  responses: { [K in Code]: { content: { 'application/json': { responseData: infer D } } } };
}
  ? D
  : never;
type Body<Op> = Op extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

export type RightsSettings = Json<paths['/accounts/{accountId}/rights-settings']['get'], 200>;
export type RightsSettingsPatch = Body<paths['/accounts/{accountId}/rights-settings']['patch']>;
export type RequestOutcomes = Json<paths['/walls/{wallId}/rights/requests']['post'], 200>;
export type RequestOutcome = RequestOutcomes['outcomes'][number];
export type PostRights = Json<paths['/walls/{wallId}/posts/{postId}/rights']['get'], 200>;
export type RightsEvent = PostRights['events'][number];
export type RightsAnswer = Body<paths['/walls/{wallId}/posts/{postId}/rights/answer']['post']>;
export type OptOut = Json<paths['/accounts/{accountId}/rights/opt-outs']['get'], 200>[number];
export type OptOutCreate = Body<paths['/accounts/{accountId}/rights/opt-outs']['post']>;
export type RightsReport = Json<paths['/accounts/{accountId}/rights/report']['get'], 200>;
export type ReportRow = RightsReport['rows'][number];
export type ReportQuery = NonNullable<paths['/accounts/{accountId}/rights/report']['get']['parameters']['query']>;

export const rightsKeys = {
  settings: (accountId: string) => ['rights-settings', accountId] as const,
  optOuts: (accountId: string) => ['rights-opt-outs', accountId] as const,
  /** every report of an account (any filter) */
  reports: (accountId: string) => ['rights-report', accountId] as const,
  report: (accountId: string, query: ReportQuery) => ['rights-report', accountId, query] as const,
  /** every post's rights of a wall */
  ofWall: (wallId: number) => ['post-rights', wallId] as const,
  post: (wallId: number, postId: number) => ['post-rights', wallId, postId] as const,
};

const accountPath = (accountId: number | undefined) => ({ path: { accountId: accountParam(accountId) } });

export const rightsQueries = {
  /** waits for an account */
  settings: (accountId: number | undefined) =>
    queryOptions({
      queryKey: rightsKeys.settings(accountParam(accountId)),
      enabled: accountId !== undefined,
      queryFn: () => unwrap(api.GET('/accounts/{accountId}/rights-settings', { params: accountPath(accountId) })),
    }),
  optOuts: (accountId: number | undefined) =>
    queryOptions({
      queryKey: rightsKeys.optOuts(accountParam(accountId)),
      enabled: accountId !== undefined,
      queryFn: () => unwrap(api.GET('/accounts/{accountId}/rights/opt-outs', { params: accountPath(accountId) })),
    }),
  report: (accountId: number | undefined, query: ReportQuery) =>
    queryOptions({
      queryKey: rightsKeys.report(accountParam(accountId), query),
      enabled: accountId !== undefined,
      // its 200 has a CSV form too, so the generated type of `data` is a string or the envelope: named here
      queryFn: () =>
        unwrap(
          api.GET('/accounts/{accountId}/rights/report', {
            params: { ...accountPath(accountId), query },
            headers: { Accept: 'application/json' },
          }) as Promise<{ data?: { responseData: RightsReport }; error?: unknown; response: Response }>,
        ),
    }),
  post: (wallId: number, postId: number) =>
    queryOptions({
      queryKey: rightsKeys.post(wallId, postId),
      queryFn: () =>
        unwrap(
          api.GET('/walls/{wallId}/posts/{postId}/rights', {
            params: { path: { wallId: String(wallId), postId: String(postId) } },
          }),
        ),
    }),
};

export const useRightsSettings = (accountId: number | undefined) => useQuery(rightsQueries.settings(accountId));
export const useOptOuts = (accountId: number | undefined) => useQuery(rightsQueries.optOuts(accountId));
/** The report, read again every few seconds (answers are heard by the watcher meanwhile). */
export const useRightsReport = (accountId: number | undefined, query: ReportQuery) =>
  useQuery({ ...rightsQueries.report(accountId, query), refetchInterval: 10_000 });
/** A post's rights; read again every few seconds while a request waits for its answer. */
export const usePostRights = (wallId: number, postId: number) =>
  useQuery({
    ...rightsQueries.post(wallId, postId),
    refetchInterval: (query) => (query.state.data?.state === 'requested' ? 5_000 : false),
  });

/** Everything a change of posts' rights may change: the wall's lists and posts, the rights, the opt-outs, the reports. */
function useRefreshRights() {
  const queryClient = useQueryClient();
  return (wallId: number) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: postKeys.ofWall(wallId) }),
      queryClient.invalidateQueries({ queryKey: ['post', wallId] }),
      queryClient.invalidateQueries({ queryKey: rightsKeys.ofWall(wallId) }),
      queryClient.invalidateQueries({ queryKey: ['rights-opt-outs'] }),
      queryClient.invalidateQueries({ queryKey: ['rights-report'] }),
    ]);
}

export function useSaveRightsSettings(accountId: number, then: { onSuccess(saved: RightsSettings): void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RightsSettingsPatch) =>
      unwrap(api.PATCH('/accounts/{accountId}/rights-settings', { params: accountPath(accountId), body })),
    onSuccess: (saved) => {
      queryClient.setQueryData(rightsKeys.settings(String(accountId)), saved);
      then.onSuccess(saved);
    },
  });
}

/** Asks for the rights to posts of a wall (a reply where Wallery can, else by hand); answers each post's outcome. */
export function useRequestRights(wallId: number, then: { onSuccess(result: RequestOutcomes): void }) {
  const refresh = useRefreshRights();
  return useMutation({
    mutationFn: (postIds: number[]) =>
      unwrap(
        api.POST('/walls/{wallId}/rights/requests', {
          params: { path: { wallId: String(wallId) } },
          body: { postIds },
        }),
      ),
    onSuccess: async (result) => {
      then.onSuccess(result);
      await refresh(wallId);
    },
  });
}

export function useRecordAnswer(wallId: number, postId: number, then: { onSuccess(saved: PostRights): void }) {
  const queryClient = useQueryClient();
  const refresh = useRefreshRights();
  return useMutation({
    mutationFn: (body: RightsAnswer) =>
      unwrap(
        api.POST('/walls/{wallId}/posts/{postId}/rights/answer', {
          params: { path: { wallId: String(wallId), postId: String(postId) } },
          body,
        }),
      ),
    onSuccess: async (saved) => {
      queryClient.setQueryData(rightsKeys.post(wallId, postId), saved);
      then.onSuccess(saved);
      await refresh(wallId);
    },
  });
}

function useRefreshOptOuts(accountId: number) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: rightsKeys.optOuts(String(accountId)) });
}

export function useAddOptOut(accountId: number, then: { onSuccess(made: OptOut): void }) {
  const refresh = useRefreshOptOuts(accountId);
  return useMutation({
    mutationFn: (body: OptOutCreate) =>
      unwrap(api.POST('/accounts/{accountId}/rights/opt-outs', { params: accountPath(accountId), body })),
    onSuccess: async (made) => {
      then.onSuccess(made as OptOut);
      await refresh();
    },
  });
}

export function useRemoveOptOut(accountId: number, then: { onSuccess(removed: OptOut): void }) {
  const refresh = useRefreshOptOuts(accountId);
  return useMutation({
    mutationFn: (author: string) =>
      unwrap(
        api.DELETE('/accounts/{accountId}/rights/opt-outs/{author}', {
          params: { path: { accountId: String(accountId), author } },
        }),
      ),
    onSuccess: async (removed) => {
      then.onSuccess(removed);
      await refresh();
    },
  });
}

const REPORT_TYPES = { csv: 'text/csv', pdf: 'application/pdf' } as const;
export type ReportFormat = keyof typeof REPORT_TYPES;

/** The report as a CSV or PDF file: fetched with the token in its header (never in a URL), named as the server names it. */
export async function fetchRightsReportFile(
  accountId: number,
  query: ReportQuery,
  format: ReportFormat,
): Promise<{ name: string; blob: Blob }> {
  const q = new URLSearchParams(query as Record<string, string>).toString();
  const response = await fetchManage(`/accounts/${accountId}/rights/report${q ? `?${q}` : ''}`, REPORT_TYPES[format]);
  const named = /filename="?([^";]+)"?/.exec(response.headers.get('Content-Disposition') ?? '')?.[1];
  return { name: named ?? `account-${accountId}-rights.${format}`, blob: await response.blob() };
}
