import { invoiceIdentityKey, type InvoiceIdentity as RuleIdentity } from '../schemas/same-invoice.js';

// Rule 2.3.2 within one file: the same businessReference, amount and sendingDate make the same invoice, so only its
// first record is sent.

/** What tells two invoices of a file apart (each record of a plan has a businessReference by then). */
export type InvoiceIdentity = Required<RuleIdentity>;

/** The first record of each invoice of a file, by rule 2.3.2. */
export class FirstRecordOfInvoice {
  readonly #firstRecords = new Map<string, number>();

  /**
   * The earlier record of the same invoice; undefined when there is none, and `record` becomes its first. A record is
   * any whole number that names it (the plan gives the index of its result).
   */
  claim(invoice: InvoiceIdentity, record: number): number | undefined {
    const key = invoiceIdentityKey(invoice);
    const earlier = this.#firstRecords.get(key);
    if (earlier === undefined) this.#firstRecords.set(key, record);
    return earlier;
  }
}
