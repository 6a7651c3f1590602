// Products: the catalogue of an account (create, edit, delete), and the way
// to its walls' posts, where products are tagged with hotspots.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, ApiError, unwrap } from '../api/client';
import type { Product, ProductCreate } from '../api/records';
import { useMe } from '../auth';
import { href } from '../router';
import { AccountPicker, useAccounts, useChosenAccount } from '../ui/AccountPicker';
import { Announce, Button, ConfirmDanger, Dialog, Empty, ErrorNote, Loading, ScreenTitle, TextField } from '../ui/kit';
import { useWalls } from './Walls';
import './phase2.css';

export const productsKey = (accountId: number) => ['products', accountId] as const;

export function useProducts(accountId: number | undefined) {
  return useQuery({
    queryKey: productsKey(accountId ?? 0),
    enabled: accountId !== undefined,
    queryFn: () => unwrap(api.GET('/products', { params: { query: { accountId: String(accountId), limit: '200' } } })),
  });
}

export const price = (p: Pick<Product, 'price' | 'currencySymbol' | 'currency'>) =>
  `${p.currencySymbol}${p.price.toFixed(2)}${p.currency ? ` ${p.currency}` : ''}`;

type Editing = { mode: 'create' } | { mode: 'edit'; product: Product } | { mode: 'delete'; product: Product } | null;

export function Products({ accountId }: { accountId: number | null }) {
  const me = useMe();
  const accountsQuery = useAccounts();
  const { account, accounts } = useChosenAccount(accountId);
  const products = useProducts(account?.id);
  const walls = useWalls();
  const [editing, setEditing] = useState<Editing>(null);
  const [said, setSaid] = useState('');
  const list = products.data?.data ?? [];
  const accountWalls = (walls.data?.pages.flatMap((p) => p.data) ?? []).filter(
    (w) => w.accountId === account?.id && !w.deleted,
  );
  const done = (message?: string) => {
    setEditing(null);
    if (message) setSaid(message);
  };

  return (
    <section className="screen">
      <div className="screen-head">
        <ScreenTitle>Products{account ? ` · ${account.name}` : ''}</ScreenTitle>
        {account && me.can('POST /products') && (
          <Button variant="primary" onClick={() => setEditing({ mode: 'create' })}>
            New product
          </Button>
        )}
      </div>
      <AccountPicker accounts={accounts} value={account?.id} link={href.products} />
      <Announce message={said} />
      {accountsQuery.isPending && <Loading what="accounts" />}
      <ErrorNote error={accountsQuery.error} title="The accounts could not be loaded" />
      {accountsQuery.isSuccess && !account && <Empty>There is no such account, or this token does not see it.</Empty>}
      {products.isPending && account && <Loading what="products" />}
      <ErrorNote error={products.error} title="The products could not be loaded" />
      {products.isSuccess && list.length === 0 && (
        <Empty>
          <p>No products in this catalogue yet.</p>
          {me.can('POST /products') && <p>Add one with “New product”, then tag it on a post.</p>}
        </Empty>
      )}
      {list.length > 0 && (
        <table className="grid-table products">
          <caption className="sr-only">Products of {account?.name}</caption>
          <thead>
            <tr>
              <th scope="col">Product</th>
              <th scope="col">SKU</th>
              <th scope="col" className="num">
                Price
              </th>
              <th scope="col" className="num">
                Tagged on
              </th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {list.map((p) => (
              <tr key={p.id} data-product-id={p.id}>
                <th scope="row">
                  <span className="product-cell">
                    {p.image ? <img src={p.image} alt="" className="thumb" /> : null}
                    <span>
                      {p.name}
                      <span className="sub">#{p.id}</span>
                    </span>
                  </span>
                </th>
                <td data-label="SKU">{p.sku || '—'}</td>
                <td data-label="Price" className="num">
                  {price(p)}
                </td>
                <td data-label="Tagged on" className="num">
                  {p.tagCount} {p.tagCount === 1 ? 'post' : 'posts'}
                </td>
                <td className="actions">
                  {me.can('PATCH /products/{productId}') && (
                    <Button onClick={() => setEditing({ mode: 'edit', product: p })}>
                      Edit<span className="sr-only"> {p.name}</span>
                    </Button>
                  )}
                  {me.can('DELETE /products/{productId}') && (
                    <Button variant="danger" onClick={() => setEditing({ mode: 'delete', product: p })}>
                      Delete<span className="sr-only"> {p.name}</span>
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {account && (
        <section className="panel" aria-labelledby="tag-on-posts">
          <h2 id="tag-on-posts">Tag products on posts</h2>
          {accountWalls.length === 0 ? (
            <p>This account has no walls yet.</p>
          ) : (
            <ul className="link-list">
              {accountWalls.map((w) => (
                <li key={w.id}>
                  <a href={href.shop(w.id)}>
                    Posts of {w.name}
                    <span className="sr-only"> to tag products on</span>
                  </a>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
      <Dialog
        title={
          editing?.mode === 'create' ? 'New product' : editing?.mode === 'edit' ? 'Edit product' : 'Delete product'
        }
        open={editing !== null}
        onClose={() => setEditing(null)}
      >
        {editing?.mode === 'delete' ? (
          <DeleteProduct product={editing.product} onDone={done} />
        ) : editing && account ? (
          <ProductForm
            accountId={account.id}
            product={editing.mode === 'edit' ? editing.product : null}
            onDone={done}
          />
        ) : null}
      </Dialog>
    </section>
  );
}

const FIELDS = [
  ['name', 'Name', 'text'],
  ['price', 'Price', 'number'],
  ['currencySymbol', 'Currency symbol', 'text'],
  ['currency', 'Currency code', 'text'],
  ['sku', 'SKU', 'text'],
  ['discount', 'Discount', 'number'],
  ['url', 'Product page URL', 'url'],
  ['image', 'Picture URL', 'url'],
] as const;
type FieldName = (typeof FIELDS)[number][0];

function ProductForm({
  accountId,
  product,
  onDone,
}: {
  accountId: number;
  product: Product | null;
  onDone(message?: string): void;
}) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState<Record<FieldName, string>>(() => ({
    name: product?.name ?? '',
    price: product ? String(product.price) : '',
    currencySymbol: product?.currencySymbol ?? '',
    currency: product?.currency ?? '',
    sku: product?.sku ?? '',
    discount: product ? String(product.discount) : '0',
    url: product?.url ?? '',
    image: product?.image ?? '',
  }));
  const save = useMutation({
    mutationFn: () => {
      // a number field left empty or not a number goes as text, so the API names the field
      const n = (v: string) => (v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v);
      const body = { ...form, price: n(form.price), discount: n(form.discount) } as unknown as ProductCreate;
      if (product)
        return unwrap(
          api.PATCH('/products/{productId}', { params: { path: { productId: String(product.id) } }, body }),
        );
      return unwrap(api.POST('/products', { body: { ...body, accountId } }));
    },
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: productsKey(accountId) });
      onDone(product ? `Product “${saved.name}” saved.` : `Product “${saved.name}” created.`);
    },
  });
  const err = save.error instanceof ApiError ? save.error : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit} noValidate className="form-grid">
      <ErrorNote error={save.error} title={product ? 'The product was not saved' : 'The product was not created'} />
      {FIELDS.map(([name, label, type]) => (
        <TextField
          key={name}
          label={label}
          type={type === 'number' ? 'text' : type}
          inputMode={type === 'number' ? 'decimal' : undefined}
          value={form[name]}
          onChange={(e) => setForm({ ...form, [name]: e.target.value })}
          error={err?.forField(name)}
          required={name === 'name' || name === 'price'}
          hint={name === 'currency' ? 'Three letters such as EUR, or empty.' : undefined}
        />
      ))}
      <div className="form-actions">
        <Button type="submit" variant="primary" disabled={save.isPending}>
          {product ? 'Save product' : 'Create product'}
        </Button>
        <Button onClick={() => onDone()}>Cancel</Button>
      </div>
    </form>
  );
}

function DeleteProduct({ product, onDone }: { product: Product; onDone(message?: string): void }) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () =>
      unwrap(api.DELETE('/products/{productId}', { params: { path: { productId: String(product.id) } } })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: productsKey(product.accountId) });
      onDone(`Product “${product.name}” deleted.`);
    },
  });
  return (
    <ConfirmDanger
      error={remove.error}
      errorTitle="The product was not deleted"
      action="Delete product"
      pending={remove.isPending}
      onConfirm={() => remove.mutate()}
      onCancel={() => onDone()}
    >
      Delete “{product.name}”?{' '}
      {product.tagCount > 0
        ? `Its tags on ${product.tagCount} ${product.tagCount === 1 ? 'post' : 'posts'} are removed too.`
        : 'It is not tagged on any post.'}
    </ConfirmDanger>
  );
}
