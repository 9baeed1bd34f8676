import { invoiceIdentityKey, isSameInvoice, type InvoiceIdentity as RuleIdentity } from '../schemas/same-invoice.js';

// Rule 2.3.2 within one file: the same businessReference, amount and sendingDate make the same invoice, so only its
// first record is sent. A file of many records holds one entry per record here until the plan is done, so the
// entries are kept small: keyed by the businessReference string the record already holds, with the amount and date
// beside it in plain arrays, rather than by a new string that joins all three.

/** What tells two invoices of a file apart (each record of a plan has a businessReference by then). */
export type InvoiceIdentity = Required<RuleIdentity>;

/** The first record of each invoice of a file, by rule 2.3.2. */
export class FirstRecordOfInvoice {
  /** The first invoice with each businessReference: its slot in the arrays below. */
  readonly #slotByReference = new Map<string, number>();
  readonly #records: number[] = [];
  readonly #amounts: number[] = [];
  readonly #sendingDates: string[] = [];
  /** Further invoices with a businessReference already taken by another amount or date (rare). */
  readonly #others = new Map<string, number>();

  /**
   * The earlier record of the same invoice; undefined when there is none, and `record` becomes its first. A record is
   * any number that names it (the plan gives the index of its result).
   */
  claim(invoice: InvoiceIdentity, record: number): number | undefined {
    const { businessReference } = invoice;
    const slot = this.#slotByReference.get(businessReference);
    if (slot === undefined) {
      this.#slotByReference.set(businessReference, this.#records.push(record) - 1);
      this.#amounts.push(invoice.amount);
      this.#sendingDates.push(invoice.sendingDate);
      return undefined;
    }
    const first = { businessReference, amount: this.#amounts[slot] ?? 0, sendingDate: this.#sendingDates[slot] ?? '' };
    if (isSameInvoice(first, invoice)) return this.#records[slot];
    const key = invoiceIdentityKey(invoice);
    const earlier = this.#others.get(key);
    if (earlier === undefined) this.#others.set(key, record);
    return earlier;
  }
}
