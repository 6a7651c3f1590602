// A wall's submission page (attendee uploads): its settings, and their save.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../client';
import type { paths } from '../schema';

export type Submission = Awaited<ReturnType<typeof getSubmission>>;
export type SubmissionChange = NonNullable<
  paths['/walls/{wallId}/submission']['put']['requestBody']
>['content']['application/json'];

const wallPath = (wallId: number) => ({ path: { wallId: String(wallId) } });
const getSubmission = (wallId: number) => unwrap(api.GET('/walls/{wallId}/submission', { params: wallPath(wallId) }));

export const submissionQueries = {
  ofWall: (wallId: number) => queryOptions({ queryKey: ['submission', wallId], queryFn: () => getSubmission(wallId) }),
};

export const useSubmission = (wallId: number) => useQuery(submissionQueries.ofWall(wallId));

/** Saves the fields given; the answer becomes the cached settings. */
export function useSaveSubmission(wallId: number, then: { onSuccess(saved: Submission): void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: SubmissionChange) =>
      unwrap(api.PUT('/walls/{wallId}/submission', { params: wallPath(wallId), body: change })),
    onSuccess: (saved) => {
      queryClient.setQueryData(submissionQueries.ofWall(wallId).queryKey, saved);
      then.onSuccess(saved);
    },
  });
}
