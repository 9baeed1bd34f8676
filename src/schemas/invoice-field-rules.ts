import * as z from 'zod';
import { calendarDate, utcInstant } from './calendar.js';
import { customerSchema } from './customer.js';
import { recurringDiscountSchema } from './discount.js';
import { communicationLangs, communicationMethods, cycleTypes, notifiesByEmail, paymentTypes } from './enums.js';
import {
  isEmailAddress,
  notInScope,
  oneOf,
  positiveMoney,
  taxesPercentage,
  text,
  wholeNumber,
  yesNo,
} from './fields.js';
import { itemList, recurringItemSchema, singleItemSchema } from './item.js';
import { toMinorUnits } from './money.js';
import { formatAmount } from './number-text.js';

// The fields of each kind of invoice, each with its own rules. invoice.ts adds the rule across fields (2.3.4) to
// make the request schemas; invoice-fast-path.ts compiles the same fields for validating many records.

/** Fields both kinds of invoice share, in the order they are sent. */
const commonFields = {
  customer: customerSchema,
  amount: positiveMoney(),
  sendingDate: calendarDate(),
  expiryDate: utcInstant(),
  releaseDate: utcInstant(),
  businessReference: text().optional(),
  note: text(),
  communicationLang: oneOf(communicationLangs).optional(),
  communicationMethod: oneOf(communicationMethods).optional(),
  alertMerchantUponExpiry: yesNo().optional(),
};

const optionalTrailingFields = {
  taxes: taxesPercentage().optional(),
  preferredPaymentMethod: text().optional(),
};

/** The fields of a single invoice. */
export const singleInvoiceFields = z.strictObject({
  ...commonFields,
  items: itemList(singleItemSchema).optional(),
  paymentType: oneOf(paymentTypes).optional(),
  ...optionalTrailingFields,
  cycleType: notInScope('applies only to recurring invoices'),
  cycleValue: notInScope('applies only to recurring invoices'),
  discount: notInScope(
    'a top-level discount applies only to recurring invoices; give a single invoice discounts per item (items[n].discount)',
  ),
});

/** The fields of a recurring invoice; a FLAT discount may not be more than the amount it is taken from. */
export const recurringInvoiceFields = z
  .strictObject({
    cycleType: oneOf(cycleTypes),
    cycleValue: wholeNumber(1),
    ...commonFields,
    discount: recurringDiscountSchema,
    items: itemList(recurringItemSchema).optional(),
    ...optionalTrailingFields,
    paymentType: notInScope('applies only to single invoices'),
  })
  .check((ctx) => {
    if (ctx.issues.some((issue) => issue.path?.[0] === 'amount' || issue.path?.[0] === 'discount')) return;
    const problem = flatDiscountProblem(ctx.value);
    if (problem) ctx.issues.push({ code: 'custom', input: ctx.value.discount.value, ...problem });
  });

/**
 * A recurring invoice's FLAT discount may not be more than its amount: the issue to report, or undefined. The fields'
 * schema checks it when every field is valid; the request schema also when other fields fail (see invoice.ts).
 */
export function flatDiscountProblem(invoice: {
  amount: number;
  discount: { value: number; type: string };
}): { path: ['discount', 'value']; message: string } | undefined {
  const { amount, discount } = invoice;
  if (discount.type !== 'FLAT' || toMinorUnits(discount.value) <= toMinorUnits(amount)) return undefined;
  return {
    path: ['discount', 'value'],
    message: `must not be more than the amount (${formatAmount(amount)}) for a FLAT discount`,
  };
}

/**
 * The customer's e-mail is an address when the customer is notified by e-mail (an absent one is rule 2.3.4's). On
 * an SMS or NONE invoice it is sent as given: the spec gives the field no format (a warning says so).
 */
export function hasEmailAddressWhenNeeded(invoice: {
  communicationMethod?: string;
  customer: { email?: string };
}): boolean {
  const { email } = invoice.customer;
  return !notifiesByEmail(invoice.communicationMethod) || email === undefined || isEmailAddress(email);
}

/** Rule 2.3.4: the customer's e-mail is there when the customer is notified by e-mail. */
export function hasEmailWhenNeeded(invoice: { communicationMethod?: string; customer: { email?: string } }): boolean {
  return !(notifiesByEmail(invoice.communicationMethod) && !invoice.customer.email);
}
