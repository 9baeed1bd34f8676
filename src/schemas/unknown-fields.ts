import { customerSchema } from './customer.js';
import { itemDiscountSchema, recurringDiscountSchema } from './discount.js';
import type { InvoiceKind } from './invoice.js';
import { recurringInvoiceFields, singleInvoiceFields } from './invoice-field-rules.js';
import { recurringItemSchema, singleItemSchema } from './item.js';

// The fields the spec lists, as the request schemas hold them, so a body from a merchant's own code can be sent
// without the others (--drop-unknown-fields). A field of the other kind of invoice is listed by the spec: it is not
// dropped, and stays an error naming where it belongs.

type Raw = Record<string, unknown>;

const known: Partial<
  Record<InvoiceKind, Record<'invoice' | 'customer' | 'item' | 'itemDiscount' | 'discount', Set<string>>>
> = {};

/** The keys each object of a request may have, by where it is (made once per kind). */
const knownKeys = (kind: InvoiceKind) =>
  (known[kind] ??= {
    invoice: new Set(Object.keys((kind === 'single' ? singleInvoiceFields : recurringInvoiceFields).shape)),
    customer: new Set(Object.keys(customerSchema.shape)),
    item: new Set(Object.keys((kind === 'single' ? singleItemSchema : recurringItemSchema).shape)),
    itemDiscount: new Set(Object.keys(itemDiscountSchema.shape)),
    discount: new Set(Object.keys(recurringDiscountSchema.shape)),
  });

const isObject = (value: unknown): value is Raw => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `raw` without the fields the spec does not list for `kind`, at any depth (the customer, each item and its
 * discount, the discount), and the paths of the fields dropped: `colour`, `customer.age`, `items[1].sku`.
 */
export function withoutUnknownFields(kind: InvoiceKind, raw: Raw): { value: Raw; dropped: string[] } {
  const keys = knownKeys(kind);
  const dropped: string[] = [];
  const keep = (object: Raw, keys: Set<string>, path: string): Raw => {
    const kept: Raw = {};
    for (const [key, value] of Object.entries(object)) {
      if (keys.has(key)) kept[key] = value;
      else dropped.push(path === '' ? key : `${path}.${key}`);
    }
    return kept;
  };
  const value = keep(raw, keys.invoice, '');
  if (isObject(value.customer)) value.customer = keep(value.customer, keys.customer, 'customer');
  if (kind === 'recurring' && isObject(value.discount))
    value.discount = keep(value.discount, keys.discount, 'discount');
  if (Array.isArray(value.items)) {
    value.items = value.items.map((item: unknown, index) => {
      if (!isObject(item)) return item;
      const kept = keep(item, keys.item, `items[${index}]`);
      if (kind === 'single' && isObject(kept.discount)) {
        kept.discount = keep(kept.discount, keys.itemDiscount, `items[${index}].discount`);
      }
      return kept;
    });
  }
  return { value, dropped };
}
