import * as z from 'zod';
import { discountTypes } from './enums.js';
import { nonNegativeMoney, oneOf, wholeNumber } from './fields.js';
import { maxAmount, maxAmountText } from './money.js';

/** The discount of one item of a single invoice: a flat amount (the only type the spec shows for it). */
export const itemDiscountSchema = z.strictObject({
  value: nonNegativeMoney(),
  type: oneOf(['FLAT'], 'must be FLAT (the only discount type for an item of a single invoice)'),
});

/**
 * The discount of a recurring invoice, at the top level of the request: a PERCENTAGE is at most 100, and a FLAT
 * discount is at most the invoice's amount (checked with the invoice, which has the amount).
 */
export const recurringDiscountSchema = z
  .strictObject({
    value: wholeNumber(0, { value: Math.floor(maxAmount), text: maxAmountText.replace(/\.\d+$/, '') }),
    type: oneOf(discountTypes),
  })
  .check((ctx) => {
    if (ctx.value.type === 'PERCENTAGE' && ctx.value.value > 100) {
      ctx.issues.push({
        code: 'custom',
        input: ctx.value.value,
        path: ['value'],
        message: 'must be at most 100 for a PERCENTAGE discount',
      });
    }
  })
  .meta({
    allOf: [
      {
        if: { properties: { type: { const: 'PERCENTAGE' } }, required: ['type'] },
        then: { properties: { value: { type: 'number', maximum: 100 } } },
      },
    ],
  });

export type ItemDiscount = z.output<typeof itemDiscountSchema>;
export type RecurringDiscount = z.output<typeof recurringDiscountSchema>;
