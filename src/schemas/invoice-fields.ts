import * as z from 'zod';
import { customerSchema } from './customer.js';
import { recurringDiscountSchema } from './discount.js';
import {
  calendarDate,
  communicationLangs,
  communicationMethods,
  cycleTypes,
  flag,
  methodsNeedingEmail,
  notInScope,
  oneOf,
  paymentTypes,
  positiveMoney,
  taxesPercentage,
  text,
  utcInstant,
  wholeNumber,
} from './fields.js';
import { recurringItemSchema, singleItemSchema } from './item.js';

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
  alertMerchantUponExpiry: flag().optional(),
};

const optionalTrailingFields = {
  taxes: taxesPercentage().optional(),
  preferredPaymentMethod: text().optional(),
};

/** The fields of a single invoice. */
export const singleInvoiceFields = z.strictObject({
  ...commonFields,
  items: z.array(singleItemSchema, { error: 'must be a list of items' }).optional(),
  paymentType: oneOf(paymentTypes).optional(),
  ...optionalTrailingFields,
  cycleType: notInScope('applies only to recurring invoices'),
  cycleValue: notInScope('applies only to recurring invoices'),
  discount: notInScope(
    'a top-level discount applies only to recurring invoices; give a single invoice discounts per item (items[n].discount)',
  ),
});

/** The fields of a recurring invoice. */
export const recurringInvoiceFields = z.strictObject({
  cycleType: oneOf(cycleTypes),
  cycleValue: wholeNumber(1),
  ...commonFields,
  discount: recurringDiscountSchema,
  items: z.array(recurringItemSchema, { error: 'must be a list of items' }).optional(),
  ...optionalTrailingFields,
  paymentType: notInScope('applies only to single invoices'),
});

/** Rule 2.3.4: the customer's e-mail is there when the customer is notified by e-mail. */
export function hasEmailWhenNeeded(invoice: { communicationMethod?: string; customer: { email?: string } }): boolean {
  return !(
    invoice.communicationMethod &&
    methodsNeedingEmail.has(invoice.communicationMethod) &&
    !invoice.customer.email
  );
}
