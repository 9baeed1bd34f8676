import type { FieldIssue } from '../errors.js';
import type { RecordCheck, SentInvoice } from './kind.js';

// A record without a businessReference that the merchant's ledger holds, field for field, from another run: only
// its own journal tells such a record apart from a copy, so a run of another journal may create the invoice again.

/**
 * The record's check with the ledger's copy told: a warning, or one more reason to hold back a record held already
 * (under `strict` every record without a businessReference is).
 */
export function withLedgerCopy(result: RecordCheck, copy: SentInvoice): RecordCheck {
  const issue = copyIssue(copy);
  if (result.held) {
    return { ...result, held: { ...result.held, issues: [...result.held.issues, strictly(issue)] } };
  }
  return { ...result, warnings: [...result.warnings, issue] };
}

/** The warning of a record the ledger holds, field for field, from another batch. */
function copyIssue({ invoiceNumber, sentAt, journal }: SentInvoice): FieldIssue {
  const what = invoiceNumber ? `invoice ${invoiceNumber}` : 'an invoice';
  const from = journal ? `from the journal ${journal}` : 'from this machine';
  return {
    path: 'businessReference',
    message: `is missing, and the ledger holds ${what} with the same fields, sent ${sentAt.slice(0, 10)} ${from}: this may create it again`,
    cause:
      'is missing, and the ledger holds an invoice with the same fields from another run: this may create it again',
  };
}

function strictly(issue: FieldIssue): FieldIssue {
  return {
    ...issue,
    message: `${issue.message} (--strict)`,
    ...(issue.cause ? { cause: `${issue.cause} (--strict)` } : {}),
  };
}
