// An account's product catalogue: the list (with each product's tag count),
// create or edit, delete — each refreshing the list before the screen hears.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../client';
import type { Product, ProductCreate } from '../records';

export const productKeys = {
  /** every catalogue: what a change of tags refreshes (their counts) */
  all: ['products'] as const,
  ofAccount: (accountId: number) => ['products', accountId] as const,
};

export const productQueries = {
  /** waits for an account */
  ofAccount: (accountId: number | undefined) =>
    queryOptions({
      queryKey: productKeys.ofAccount(accountId ?? 0),
      enabled: accountId !== undefined,
      queryFn: () =>
        unwrap(api.GET('/products', { params: { query: { accountId: String(accountId), limit: '200' } } })),
    }),
};

export const useProducts = (accountId: number | undefined) => useQuery(productQueries.ofAccount(accountId));

/** Creates a product in `accountId`, or saves `product`. */
export function useSaveProduct(accountId: number, product: Product | null, then: { onSuccess(saved: Product): void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ProductCreate) =>
      product
        ? unwrap(api.PATCH('/products/{productId}', { params: { path: { productId: String(product.id) } }, body }))
        : unwrap(api.POST('/products', { body: { ...body, accountId } })),
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: productKeys.ofAccount(accountId) });
      then.onSuccess(saved);
    },
  });
}

/** Deletes a product (and its tags). */
export function useDeleteProduct(product: Product, then: { onSuccess(): void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      unwrap(api.DELETE('/products/{productId}', { params: { path: { productId: String(product.id) } } })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: productKeys.ofAccount(product.accountId) });
      then.onSuccess();
    },
  });
}
