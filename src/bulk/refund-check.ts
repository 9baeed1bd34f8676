import type { FieldIssue } from '../errors.js';
import { toMinorUnits } from '../schemas/money.js';
import { refundRecordSchema } from '../schemas/refund.js';
import { refundStandingIssues } from '../schemas/refund-standing.js';
import { validate } from '../schemas/validate.js';
import { refundColumns } from '../sheet/index.js';
import {
  refundSending,
  type BulkKind,
  type CheckingKind,
  type KindOptions,
  type KindWords,
  type RecordCheck,
} from './kind.js';

// Refunds of a file, as the plan of a run checks them: the shared refund schema, one refund per invoice, and what the
// merchant's ledger holds of the invoice each is of (more than it holds, one already refunded).

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
  markedBy: 'invoice',
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
  // A refund that was made is journaled with its invoice's number; the body is read for one that was not.
  markName: ({ body, invoiceNumber }) => (body ? String(body.invoiceNumber) : invoiceNumber),
  amountOf: (body) => Number(body.amount),
  check(record) {
    const result = validate(refundRecordSchema, record);
    return result.success ? { body: result.data, issues: [], warnings: [] } : { issues: result.issues, warnings: [] };
  },
};

/** What refunds are checked with beside their own rules. */
export interface RefundChecks {
  /** Hold back a refund the ledger warns of (`--strict`, else the profile's). */
  strict: boolean;
  /** The zone whose days the ledger's dates are told in. */
  timeZone: string;
}

/**
 * Refunds checked against what the ledger holds of their invoice: its warnings (its figures, the date of a refund
 * made) are the record's, held back under `strict`.
 */
export function refundCheckingWith(checks: RefundChecks, options: KindOptions): CheckingKind {
  const standingOf = options.ledger?.refundStanding;
  if (!standingOf) return refundChecking;
  return {
    ...refundChecking,
    check(record, recordNumber, content, sentBefore) {
      const result = refundChecking.check(record, recordNumber, content, sentBefore);
      const { body } = result;
      if (!body) return result;
      const invoiceNumber = String(body.invoiceNumber);
      const refund = { invoiceNumber, amountMinor: toMinorUnits(Number(body.amount)) };
      const issues = refundStandingIssues(refund, standingOf(invoiceNumber), checks.timeZone);
      return issues.length === 0 ? result : withLedgerIssues(result, issues, checks.strict);
    },
  };
}

/** The record's check with what the ledger warns of: warnings, or, under `strict`, reasons to hold it back. */
function withLedgerIssues(result: RecordCheck, issues: FieldIssue[], strict: boolean): RecordCheck {
  if (!strict) return { ...result, warnings: [...result.warnings, ...issues] };
  const strictly = issues.map((issue) => ({ ...issue, message: `${issue.message} (--strict)` }));
  return { ...result, held: { reason: 'warnings', issues: [...(result.held?.issues ?? []), ...strictly] } };
}

/** Refunds of paid invoices, read from a sheet by the refund's columns, checked against the ledger when it is on. */
export function refundKind(checks: RefundChecks, options: KindOptions = {}): BulkKind {
  return {
    sending: refundSending,
    checking: () => refundCheckingWith(checks, options),
    columns: refundColumns,
    words: refundWords,
  };
}
