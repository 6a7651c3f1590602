// Operator tokens (unscoped admins only): list, make (the answer holds the
// token, shown this once), revoke — each said first, then the list is read
// again.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../client';
import type { Role } from '../roles';

export const tokenQueries = {
  list: () =>
    queryOptions({
      queryKey: ['tokens'],
      queryFn: () => unwrap(api.GET('/tokens', { params: { query: { limit: '200' } } })),
    }),
};

export const useTokens = () => useQuery(tokenQueries.list());

const createToken = (body: { name: string; role: Role; accounts: number[] | null }) =>
  unwrap(api.POST('/tokens', { body }));
const revokeToken = (id: number) =>
  unwrap(api.DELETE('/tokens/{tokenId}', { params: { path: { tokenId: String(id) } } }));
type Answer<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;

/** Make and revoke: each said first (`then`), then the list is read again. */
export function useTokenWrites(then: {
  made(token: Answer<typeof createToken>): void;
  revoked(token: Answer<typeof revokeToken>): void;
}) {
  const queryClient = useQueryClient();
  const thenRefresh =
    <T>(tell: (token: T) => void) =>
    async (token: T) => {
      tell(token);
      await queryClient.invalidateQueries({ queryKey: tokenQueries.list().queryKey });
    };
  return {
    create: useMutation({ mutationFn: createToken, onSuccess: thenRefresh(then.made) }),
    revoke: useMutation({ mutationFn: revokeToken, onSuccess: thenRefresh(then.revoked) }),
  };
}
