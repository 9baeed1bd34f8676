import { refundRecordSchema } from '../schemas/refund.js';
import { validate } from '../schemas/validate.js';
import { refundColumns } from '../sheet/index.js';
import { refundSending, type BulkKind, type CheckingKind, type KindWords } from './kind.js';

// Refunds of a file, as the plan of a run checks them: the shared refund schema, and one refund per invoice.

/** How refunds speak of themselves: none has a reference, so the service never holds one already. */
export const refundWords: KindWords = {
  record: 'refund',
  records: 'refunds',
  ofFile: 'refund',
  done: 'refunded',
  made: 'made',
  // A refused refund is refused again as it stands: a rerun sends it again, so its refusal is fixed first.
  retry: 'a rerun sends them again; fix a refusal first',
  command: 'einvoice refund --file',
};

/** Refunds to send: none has a reference, so a refund that may have left is never sent again by a rerun. */
export const refundChecking: CheckingKind = {
  name: 'refund',
  words: refundWords,
  ownReference: () => undefined,
  resendable: () => false,
  // Two refunds of one invoice in a file are more likely a slip than intended: the file is refused, naming both.
  sameAs: (body) => ({
    key: String(body.invoiceNumber),
    repeat: 'invalid',
    why: 'refunds the same invoice as',
    field: 'invoiceNumber',
  }),
  numberOf: (body) => String(body.invoiceNumber),
  amountOf: (body) => Number(body.amount),
  check(record) {
    const result = validate(refundRecordSchema, record);
    return result.success ? { body: result.data, issues: [], warnings: [] } : { issues: result.issues, warnings: [] };
  },
};

/** Refunds of paid invoices, read from a sheet by the refund's columns. */
export const refundKind: BulkKind = {
  sending: refundSending,
  checking: () => refundChecking,
  columns: refundColumns,
  words: refundWords,
};
