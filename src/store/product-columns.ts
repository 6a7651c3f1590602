// The stored columns of a product written from its fields (management API,
// CLI and data file alike); fields left out store their empty value.
import type { ProductInput } from '../schemas/products.js';

/** The columns of a product, from its fields. */
export function productColumns(input: ProductInput) {
  return {
    account_id: input.accountId,
    name: input.name,
    sku: input.sku ?? '',
    price: input.price,
    currency_symbol: input.currencySymbol ?? '',
    currency: input.currency ?? '',
    discount: input.discount ?? 0,
    discount_currency_symbol: input.discountCurrencySymbol ?? '',
    discount_currency: input.discountCurrency ?? '',
    url: input.url ?? '',
    image: input.image ?? '',
    store_shop_name: input.storeShopName ?? '',
    store_product_id: input.storeProductId ?? '',
    store_product_type: input.storeProductType ?? '',
  };
}
