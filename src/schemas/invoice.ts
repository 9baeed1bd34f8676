import * as z from 'zod';
import { methodsNeedingEmail } from './enums.js';
import { emailPattern } from './fields.js';
import {
  flatDiscountProblem,
  hasEmailAddressWhenNeeded,
  hasEmailWhenNeeded,
  recurringInvoiceFields,
  singleInvoiceFields,
} from './invoice-field-rules.js';

/**
 * Rule 2.3.4: the customer's e-mail is required when the customer is notified by e-mail. It is checked even when
 * other fields fail, so a merchant sees every problem at once.
 */
function emailRequiredForEmailMethods() {
  return [
    hasEmailWhenNeeded,
    {
      path: ['customer', 'email'] as PropertyKey[],
      error: 'is required when communicationMethod is EMAIL or BOTH',
      when: (payload: { value: unknown }) => {
        const value = payload.value as { customer?: unknown; communicationMethod?: unknown } | null;
        return (
          typeof value?.customer === 'object' &&
          value.customer !== null &&
          typeof value.communicationMethod === 'string'
        );
      },
    },
  ] as const satisfies readonly [unknown, unknown];
}

/** The address an e-mail invoice needs: its customer's e-mail, when given, is one. Checked beside other problems. */
function emailAddressForEmailMethods() {
  return [
    hasEmailAddressWhenNeeded,
    {
      path: ['customer', 'email'] as PropertyKey[],
      error: 'must be an e-mail address when communicationMethod is EMAIL or BOTH',
      when: (payload: { value: unknown }) => {
        const value = payload.value as { customer?: { email?: unknown }; communicationMethod?: unknown } | null;
        return typeof value?.customer?.email === 'string' && typeof value.communicationMethod === 'string';
      },
    },
  ] as const satisfies readonly [unknown, unknown];
}

/**
 * A FLAT discount over the amount, checked even when other fields fail (the fields' schema checks it only when they
 * all pass), so a merchant sees every problem at once; not when the amount or the discount itself failed, which
 * their own issues say.
 */
const flatDiscountWithOtherProblems = z.superRefine<{ amount: number; discount: { value: number; type: string } }>(
  (invoice, ctx) => {
    const problem = flatDiscountProblem(invoice);
    if (problem) ctx.addIssue({ code: 'custom', input: invoice.discount.value, ...problem });
  },
  {
    when: ({ issues, value }) => {
      const invoice = value as { amount?: unknown; discount?: { value?: unknown; type?: unknown } } | null;
      return (
        !issues.some((issue) => issue.path?.[0] === 'amount' || issue.path?.[0] === 'discount') &&
        typeof invoice?.amount === 'number' &&
        typeof invoice.discount?.value === 'number' &&
        typeof invoice.discount.type === 'string'
      );
    },
  },
);

/** Rule 2.3.4 in JSON Schema. */
const emailRequiredJsonSchema = {
  allOf: [
    {
      if: {
        properties: { communicationMethod: { enum: [...methodsNeedingEmail] } },
        required: ['communicationMethod'],
      },
      then: {
        properties: {
          customer: {
            type: 'object',
            properties: { email: { type: 'string', pattern: emailPattern } },
            required: ['email'],
          },
        },
      },
    },
  ],
};

/** The request body of `POST /invoice-api/invoices/single`. */
export const singleInvoiceSchema = singleInvoiceFields
  .refine(...emailRequiredForEmailMethods())
  .refine(...emailAddressForEmailMethods())
  .meta({
    title: 'einvoice single invoice',
    description:
      'The request body of POST /invoice-api/invoices/single (einvoice create single --file). einvoice also ' +
      'checks that an item discount is not more than price x purchasedQuantity, which JSON Schema cannot express.',
    ...emailRequiredJsonSchema,
  });

/** The request body of `POST /invoice-api/invoices/recurring`. */
export const recurringInvoiceSchema = recurringInvoiceFields
  .refine(...emailRequiredForEmailMethods())
  .refine(...emailAddressForEmailMethods())
  .check(flatDiscountWithOtherProblems)
  .meta({
    title: 'einvoice recurring invoice',
    description: 'The request body of POST /invoice-api/invoices/recurring (einvoice create recurring --file).',
    ...emailRequiredJsonSchema,
  });

/** The two kinds of invoice the service creates. */
export const invoiceKinds = ['single', 'recurring'] as const;
export type InvoiceKind = (typeof invoiceKinds)[number];

/** The request schema of each kind of invoice. */
export const invoiceSchemas = {
  single: singleInvoiceSchema,
  recurring: recurringInvoiceSchema,
} as const;

/** A single invoice as sent to the service. */
export type SingleInvoice = z.output<typeof singleInvoiceSchema>;
/** A single invoice as a merchant may write it (sample shapes such as `"false"` and numeric taxes allowed). */
export type SingleInvoiceInput = z.input<typeof singleInvoiceSchema>;
/** A recurring invoice as sent to the service. */
export type RecurringInvoice = z.output<typeof recurringInvoiceSchema>;
/** A recurring invoice as a merchant may write it. */
export type RecurringInvoiceInput = z.input<typeof recurringInvoiceSchema>;
/** Either kind of invoice as sent. */
export type Invoice = SingleInvoice | RecurringInvoice;
