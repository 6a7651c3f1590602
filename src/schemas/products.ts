// Products of an account's catalogue: what a write takes, what a read answers.
import { Type, type Static } from 'typebox';
import {
  IdString,
  Instant,
  OptText,
  OptUrl,
  PositiveId,
  Record,
  Text,
  pageQuery,
  patch,
  strict,
  optional,
} from './fields.js';

export const ProductListQuery = Type.Object({ ...pageQuery, accountId: Type.Optional(IdString('accountId')) }, strict);

export const productFields = {
  sku: OptText('sku', 200),
  currencySymbol: OptText('currencySymbol', 10),
  currency: Type.String({
    pattern: '^(?:[A-Z]{3})?$',
    'x-error': 'currency must be empty or a three-letter code such as USD',
  }),
  discount: Type.Number({ minimum: 0, maximum: 1e12, 'x-error': 'discount must be a number from 0 to 1000000000000' }),
  discountCurrencySymbol: OptText('discountCurrencySymbol', 10),
  discountCurrency: Type.String({
    pattern: '^(?:[A-Z]{3})?$',
    'x-error': 'discountCurrency must be empty or a three-letter code such as USD',
  }),
  url: OptUrl('url'),
  image: OptUrl('image'),
  storeShopName: OptText('storeShopName', 200),
  storeProductId: OptText('storeProductId', 200),
  storeProductType: OptText('storeProductType', 200),
};
export const Price = Type.Number({
  minimum: 0,
  maximum: 1e12,
  'x-error': 'price must be a number from 0 to 1000000000000',
});

export const ProductCreateBody = Type.Object(
  { accountId: PositiveId('accountId'), name: Text('name', 200), price: Price, ...optional(productFields) },
  {
    ...strict,
    examples: [
      {
        accountId: 7001,
        name: 'Trail runner 2',
        sku: 'TR-2',
        price: 129.9,
        currencySymbol: '€',
        currency: 'EUR',
        url: 'https://shop.example.com/p/tr-2',
        image: 'https://cdn.example.com/p/tr-2.jpg',
      },
    ],
  },
);
export const ProductPatchBody = Type.Object(
  { name: Type.Optional(Text('name', 200)), price: Type.Optional(Price), ...optional(productFields) },
  { ...patch, examples: [{ price: 99.5, discount: 10 }] },
);

export const ProductRecord = Record({
  id: Type.Integer(),
  accountId: Type.Integer(),
  name: Type.String(),
  sku: Type.String(),
  price: Type.Number(),
  currencySymbol: Type.String(),
  currency: Type.String(),
  discount: Type.Number(),
  discountCurrencySymbol: Type.String(),
  discountCurrency: Type.String(),
  url: Type.String(),
  image: Type.String(),
  storeShopName: Type.String(),
  storeProductId: Type.String(),
  storeProductType: Type.String(),
  createdAt: Instant,
  updatedAt: Instant,
  tagCount: Type.Integer({ description: 'posts this product is tagged on' }),
});

// ---------- the types of the shapes above ----------

export type ProductRecord = Static<typeof ProductRecord>;
export type ProductInput = Static<typeof ProductCreateBody>;
export type ProductPatch = Static<typeof ProductPatchBody>;
