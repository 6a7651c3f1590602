// A wall's moderation rules: read them, preview a change (a dry run that
// saves nothing), save them, apply them to the posts already stored.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type Rules, type RulesBody } from '../client';
import { postKeys } from './posts';
import { wallKeys } from './walls';

type RuleList = RulesBody['rules'];

export const ruleQueries = {
  ofWall: (wallId: number) =>
    queryOptions({
      queryKey: ['rules', wallId],
      queryFn: () => unwrap(api.GET('/walls/{wallId}/rules', { params: { path: { wallId: String(wallId) } } })),
    }),
};

export const useRules = (wallId: number) => useQuery(ruleQueries.ofWall(wallId));

const wallPath = (wallId: number) => ({ path: { wallId: String(wallId) } });

/** What the rules would change among the pending posts; nothing is saved. */
export function usePreviewRules(wallId: number, then: { onSuccess(preview: Rules): void }) {
  return useMutation({
    mutationFn: (rules: RuleList) =>
      unwrap(
        api.PUT('/walls/{wallId}/rules', {
          params: { ...wallPath(wallId), query: { dryRun: 'true' } },
          body: { rules },
        }),
      ),
    onSuccess: (preview) => then.onSuccess(preview),
  });
}

/** Saves the rules; the answer becomes the cached rules. */
export function useSaveRules(wallId: number, then: { onSuccess(saved: Rules): void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (rules: RuleList) =>
      unwrap(api.PUT('/walls/{wallId}/rules', { params: wallPath(wallId), body: { rules } })),
    onSuccess: (saved) => {
      queryClient.setQueryData(ruleQueries.ofWall(wallId).queryKey, saved);
      then.onSuccess(saved);
    },
  });
}

const applyRules = (wallId: number) =>
  unwrap(api.POST('/walls/{wallId}/rules/apply', { params: wallPath(wallId), body: {} }));
type Applied = Awaited<ReturnType<typeof applyRules>>;

/** Judges the stored posts by the saved rules: said first, then the posts and the walls' counts are read again. */
export function useApplyRules(wallId: number, then: { onSuccess(applied: Applied): void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => applyRules(wallId),
    onSuccess: async (applied) => {
      then.onSuccess(applied);
      await queryClient.invalidateQueries({ queryKey: postKeys.ofWall(wallId) });
      await queryClient.invalidateQueries({ queryKey: wallKeys.list });
    },
  });
}
