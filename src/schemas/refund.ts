import { z } from 'zod';
import { positiveMoney, text } from './fields.js';

/**
 * The refund amount: a number, or (as the service's samples send it) a string holding one. A negative string is
 * read too, so it is told "must be greater than 0" rather than "must be a number".
 */
const refundAmount = () =>
  z.preprocess(
    (value) => (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value),
    positiveMoney(),
  );

/** The request body of `POST /invoice-api/invoices/{invoice_num}/refund`. */
export const refundSchema = z.strictObject({
  amount: refundAmount(),
  reason: text(),
  orderReferenceNumber: text(),
});

/** A refund as sent to the service. */
export type Refund = z.output<typeof refundSchema>;
/** A refund as a merchant may write it. */
export type RefundInput = z.input<typeof refundSchema>;
