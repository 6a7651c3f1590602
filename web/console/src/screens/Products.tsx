// Products: the catalogue of an account (create, edit, delete), and the way
// to its walls' posts, where products are tagged with hotspots.
import { useState } from 'react';
import { useChosenAccount } from '../api/queries/accounts';
import { useDeleteProduct, useProducts, useSaveProduct } from '../api/queries/products';
import { useAccountWalls } from '../api/queries/walls';
import type { Product, ProductCreate } from '../api/records';
import { useMe } from '../auth';
import { href } from '../router';
import { AccountScreenHead } from '../ui/AccountPicker';
import { FormActions, TextField } from '../ui/fields';
import { onSubmit, useForm } from '../ui/form';
import { Button, ConfirmDelete, DataTable, Dialog, ErrorNote, NoneYet, QueryRows } from '../ui/kit';
import './Products.css';

export const price = (p: Pick<Product, 'price' | 'currencySymbol' | 'currency'>) =>
  `${p.currencySymbol}${p.price.toFixed(2)}${p.currency ? ` ${p.currency}` : ''}`;

type Editing = { mode: 'create' } | { mode: 'edit'; product: Product } | { mode: 'delete'; product: Product } | null;

export function Products({ accountId }: { accountId: number | null }) {
  const me = useMe();
  const chosen = useChosenAccount(accountId);
  const { account } = chosen;
  const products = useProducts(account?.id);
  const accountWalls = useAccountWalls(account?.id).walls;
  const [editing, setEditing] = useState<Editing>(null);
  const [said, setSaid] = useState('');
  const list = products.data?.data ?? [];
  const mayAdd = me.can('POST /products');
  const howToAdd = mayAdd && 'Add one with “New product”, then tag it on a post.';
  const done = (message?: string) => {
    setEditing(null);
    if (message) setSaid(message);
  };

  return (
    <section className="screen">
      <AccountScreenHead title="Products" chosen={chosen} link={href.products} said={said}>
        {account && mayAdd && (
          <Button variant="primary" onClick={() => setEditing({ mode: 'create' })}>
            New product
          </Button>
        )}
      </AccountScreenHead>
      <QueryRows
        query={products}
        active={account !== undefined}
        what="products"
        rows={list}
        empty={<NoneYet howToAdd={howToAdd}>No products in this catalogue yet.</NoneYet>}
      >
        <DataTable
          className="grid-table products"
          caption={`Products of ${account?.name ?? ''}`}
          columns={['Product', 'SKU', 'Price', 'Tagged on', 'Actions']}
          numeric={['Price', 'Tagged on']}
        >
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
        </DataTable>
      </QueryRows>
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
  const save = useSaveProduct(accountId, product, {
    onSuccess: (saved) => onDone(product ? `Product “${saved.name}” saved.` : `Product “${saved.name}” created.`),
  });
  const { form, field } = useForm<Record<FieldName, string>>(
    () => ({
      name: product?.name ?? '',
      price: product ? String(product.price) : '',
      currencySymbol: product?.currencySymbol ?? '',
      currency: product?.currency ?? '',
      sku: product?.sku ?? '',
      discount: product ? String(product.discount) : '0',
      url: product?.url ?? '',
      image: product?.image ?? '',
    }),
    save.error,
  );
  // a number field left empty or not a number goes as text, so the API names the field
  const n = (v: string) => (v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v);
  const submit = onSubmit(() =>
    save.mutate({ ...form, price: n(form.price), discount: n(form.discount) } as unknown as ProductCreate),
  );
  return (
    <form onSubmit={submit} noValidate className="form-grid">
      <ErrorNote error={save.error} title={product ? 'The product was not saved' : 'The product was not created'} />
      {FIELDS.map(([name, label, type]) => (
        <TextField
          key={name}
          label={label}
          type={type === 'number' ? 'text' : type}
          inputMode={type === 'number' ? 'decimal' : undefined}
          {...field(name)}
          required={name === 'name' || name === 'price'}
          hint={name === 'currency' ? 'Three letters such as EUR, or empty.' : undefined}
        />
      ))}
      <FormActions
        submit={product ? 'Save product' : 'Create product'}
        pending={save.isPending}
        onCancel={() => onDone()}
      />
    </form>
  );
}

function DeleteProduct({ product, onDone }: { product: Product; onDone(message?: string): void }) {
  const remove = useDeleteProduct(product, { onSuccess: () => onDone(`Product “${product.name}” deleted.`) });
  return (
    <ConfirmDelete thing="product" mutation={remove} onCancel={() => onDone()}>
      Delete “{product.name}”?{' '}
      {product.tagCount > 0
        ? `Its tags on ${product.tagCount} ${product.tagCount === 1 ? 'post' : 'posts'} are removed too.`
        : 'It is not tagged on any post.'}
    </ConfirmDelete>
  );
}
