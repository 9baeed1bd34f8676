import * as z from 'zod';
import { invoiceNumber, numberError, positiveMoney, positiveMoneyText, text } from './fields.js';
import { maxAmountText } from './money.js';

/**
 * The refund amount: a number, or (as the service's samples send it) a string holding one. A negative string is
 * read too, so it is told "must be greater than 0" rather than "must be a number".
 */
const refundAmount = () =>
  z
    .union([positiveMoney(), positiveMoneyText()], {
      error: numberError('must be a number', maxAmountText),
    })
    .transform(Number);

/** The request body of `POST /invoice-api/invoices/{invoice_num}/refund`. */
export const refundSchema = z
  .strictObject({
    amount: refundAmount(),
    reason: text(),
    orderReferenceNumber: text(),
  })
  .meta({
    title: 'einvoice refund',
    description:
      'The request body of POST /invoice-api/invoices/{invoice_num}/refund (einvoice refund --file). ' +
      `An amount is at most ${maxAmountText}, with at most two decimals.`,
  });

/** A refund as sent to the service. */
export type Refund = z.output<typeof refundSchema>;
/** A refund as a merchant may write it. */
export type RefundInput = z.input<typeof refundSchema>;

/**
 * The answer to a refund: status 200 with a JSON object, empty in the spec's sample (section 4.2; its fields are not
 * shown, so any are kept). An empty body is read as that empty object.
 */
export const refundAnswerSchema = z.looseObject({});

/**
 * One refund of a file (`einvoice refund --file`): the invoice it refunds, then the request's body. A JSON number
 * is read as the invoice number it writes (an NDJSON file written by a program).
 */
export const refundRecordSchema = refundSchema
  .extend({
    invoiceNumber: z.preprocess(
      (value) => (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? String(value) : value),
      invoiceNumber(),
    ),
  })
  .meta({
    title: 'einvoice refund record',
    description: 'One refund of a file of many (einvoice refund --file): the invoice it refunds and the request body.',
  });

/** A refund of a file, as checked. */
export type RefundRecord = z.output<typeof refundRecordSchema>;
