import * as z from 'zod';
import { itemDiscountSchema } from './discount.js';
import { nonNegativeMoney, notInScope, quantity, text } from './fields.js';
import { itemTotalMinor, maxAmountMinor, maxAmountText, minorToText, type PricedItem } from './money.js';

const itemShape = {
  itemCode: text(),
  purchasedQuantity: quantity(),
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
    if (discount && itemTotalMinor({ price, purchasedQuantity, discount }) < 0n) {
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

/** The paths of an item's fields that its total is made from, at any position of the list. */
const isTotalField = (path: readonly PropertyKey[] | undefined) =>
  typeof path?.[0] === 'number' && totalFields.has(path[1]);

/**
 * The items of either kind of invoice: their total (price x quantity minus discounts, in exact minor units) must not
 * pass the amount ceiling, so it can be sent as the amount. JSON Schema cannot add up a list: the description says it.
 */
export const itemList = <T extends z.ZodType<PricedItem>>(item: T) =>
  z
    .array(item, { error: 'must be a list of items' })
    .check((ctx) => {
      if (ctx.issues.some((issue) => isTotalField(issue.path))) return;
      const total = ctx.value.reduce((sum, each) => sum + itemTotalMinor(each), 0n);
      if (total > maxAmountMinor) {
        ctx.issues.push({
          code: 'custom',
          input: ctx.value,
          message: `add up to ${minorToText(total)}, more than the largest amount (${maxAmountText})`,
        });
      }
    })
    .meta({ description: `The items' total (price x purchasedQuantity minus discounts) is at most ${maxAmountText}.` });

export type SingleItem = z.output<typeof singleItemSchema>;
export type RecurringItem = z.output<typeof recurringItemSchema>;
