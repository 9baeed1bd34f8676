import * as z from 'zod';
import { itemDiscountSchema } from './discount.js';
import { nonNegativeMoney, notInScope, text, wholeNumber } from './fields.js';
import { toMinorUnits } from './money.js';

const itemShape = {
  itemCode: text(),
  purchasedQuantity: wholeNumber(1),
  price: nonNegativeMoney(),
  nameEn: text(),
  nameAr: text(),
};

/** The fields an item's total is made from. */
const totalFields: ReadonlySet<PropertyKey | undefined> = new Set(['price', 'purchasedQuantity', 'discount']);

/**
 * An item of a single invoice: it may carry its own flat discount, at most the item's total. That bound compares two
 * fields by multiplying, which JSON Schema cannot say: the schema's description names it instead.
 */
export const singleItemSchema = z
  .strictObject({ ...itemShape, discount: itemDiscountSchema.optional() })
  .check((ctx) => {
    const { discount, price, purchasedQuantity } = ctx.value;
    // A wrong price, quantity or discount is reported on its own: a total made from it says nothing more.
    if (ctx.issues.some((issue) => totalFields.has(issue.path?.[0]))) return;
    if (discount && toMinorUnits(discount.value) > toMinorUnits(price) * purchasedQuantity) {
      ctx.issues.push({
        code: 'custom',
        input: discount.value,
        path: ['discount', 'value'],
        message: 'must not be more than the item total (price x purchasedQuantity)',
      });
    }
  })
  .meta({ description: 'An item; its discount.value must not be more than price x purchasedQuantity.' });

/** An item of a recurring invoice: discounts apply to the whole invoice instead. */
export const recurringItemSchema = z.strictObject({
  ...itemShape,
  discount: notInScope('applies only to items of a single invoice; a recurring invoice takes one top-level discount'),
});

export type SingleItem = z.output<typeof singleItemSchema>;
export type RecurringItem = z.output<typeof recurringItemSchema>;
