import type { FieldIssue } from '../errors.js';
import { minorToText } from './money.js';
import { calendarDateIn } from './time-zone.js';

// A refund against what the merchant's ledger knows of its invoice, before anything is sent: more than was invoiced
// (less what was refunded already), an invoice already refunded, an earlier refund refused or of unknown outcome.
// Each is a warning a person would look at, naming its figures or dates (none is told once for many records: each
// row's are its own); under --strict it holds the refund back. What the ledger does not hold says nothing: the
// invoice may have been made in the merchant dashboard or on another machine.

/** What the ledger holds of the invoice a refund names. */
export interface RefundStanding {
  /** The invoice, when this machine sent it: its amount in minor units. */
  invoice?: { amountMinor: number | null };
  /** Its refunds the ledger holds, but the one being checked. */
  refunds: ReadonlyArray<{
    status: string;
    amountMinor: number | null;
    /** When its status was learnt (the answer, or the merchant's word). */
    answeredAt: string;
    error: string | null;
  }>;
}

/** The warnings of a refund of `amountMinor` of `invoiceNumber`, given what the ledger holds of it. */
export function refundStandingIssues(
  refund: { invoiceNumber: string; amountMinor: bigint },
  standing: RefundStanding,
  timeZone: string,
): FieldIssue[] {
  const { invoiceNumber } = refund;
  const day = (instant: string) => calendarDateIn(new Date(instant), timeZone);
  const issues: FieldIssue[] = [];
  const made = standing.refunds.filter((one) => one.status === 'refunded');
  for (const earlier of made) {
    issues.push({
      path: 'invoiceNumber',
      message: `the ledger shows invoice ${invoiceNumber} refunded on ${day(earlier.answeredAt)}${earlier.amountMinor === null ? '' : ` (${amount(earlier.amountMinor)})`}: this would refund it again`,
    });
  }
  for (const earlier of standing.refunds.filter((one) => one.status === 'uncertain')) {
    issues.push({
      path: 'invoiceNumber',
      message: `the ledger holds a refund of invoice ${invoiceNumber} sent on ${day(earlier.answeredAt)} whose outcome is unknown: settle it first (einvoice invoices settle ${invoiceNumber} --refunded or --not-refunded)`,
    });
  }
  const refused = standing.refunds.find((one) => one.status === 'refused');
  if (refused && made.length === 0) {
    issues.push({
      path: 'invoiceNumber',
      message: `the service refused a refund of invoice ${invoiceNumber} on ${day(refused.answeredAt)}${refused.error ? ` (${refused.error})` : ''}`,
    });
  }
  const invoiced = standing.invoice?.amountMinor;
  if (invoiced !== null && invoiced !== undefined) {
    const refundedMinor = made.reduce((sum, one) => sum + BigInt(one.amountMinor ?? 0), 0n);
    const left = BigInt(invoiced) - refundedMinor;
    // Refunded whole already: told above.
    if (refund.amountMinor > left && left > 0n) {
      issues.push({
        path: 'amount',
        message:
          refundedMinor === 0n
            ? `asks ${amount(refund.amountMinor)}, more than the ledger shows invoice ${invoiceNumber} was invoiced: ${amount(invoiced)}`
            : `asks ${amount(refund.amountMinor)}, more than is left of invoice ${invoiceNumber} in the ledger: invoiced ${amount(invoiced)}, refunded ${amount(refundedMinor)}, ${amount(left)} left`,
      });
    }
  }
  return issues;
}

function amount(minor: number | bigint): string {
  return minorToText(BigInt(minor));
}
