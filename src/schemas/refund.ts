import * as z from 'zod';
import { positiveMoney, positiveMoneyText, text } from './fields.js';

/**
 * The refund amount: a number, or (as the service's samples send it) a string holding one. A negative string is
 * read too, so it is told "must be greater than 0" rather than "must be a number".
 */
const refundAmount = () =>
  z
    .union([positiveMoney(), positiveMoneyText()], {
      error: (issue) => (issue.input === undefined ? 'is required' : 'must be a number'),
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
      'einvoice also refuses an amount written as text that is too large to be a number (above about 1.8e308).',
  });

/** A refund as sent to the service. */
export type Refund = z.output<typeof refundSchema>;
/** A refund as a merchant may write it. */
export type RefundInput = z.input<typeof refundSchema>;
