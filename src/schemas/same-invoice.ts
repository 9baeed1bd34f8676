import { toMinorUnits } from './money.js';

// Rule 2.3.2, the one place it is written: an invoice is a duplicate only when an earlier one has the same business
// reference, the same amount and the same sending date. The sandbox refuses such a create; a bulk run sends only the
// first record of each invoice of a file.

/** What tells two invoices apart under rule 2.3.2. */
export interface InvoiceIdentity {
  businessReference?: string;
  amount: number;
  sendingDate: string;
}

/** True when `invoice` is the same invoice as `earlier` by rule 2.3.2; never without a business reference. */
export function isSameInvoice(earlier: InvoiceIdentity, invoice: InvoiceIdentity): boolean {
  return (
    invoice.businessReference !== undefined &&
    earlier.businessReference === invoice.businessReference &&
    toMinorUnits(earlier.amount) === toMinorUnits(invoice.amount) &&
    earlier.sendingDate === invoice.sendingDate
  );
}

/** One text per invoice by rule 2.3.2: equal for the same invoice, different otherwise. */
export function invoiceIdentityKey(invoice: Required<InvoiceIdentity>): string {
  // join() makes one flat string; a template literal would keep its pieces alive for as long as a file is planned.
  return [invoice.businessReference, toMinorUnits(invoice.amount), invoice.sendingDate].join('\u0000');
}
