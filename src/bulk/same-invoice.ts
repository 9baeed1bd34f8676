import { invoiceIdentityKey, isSameInvoice, type InvoiceIdentity as RuleIdentity } from '../schemas/same-invoice.js';
import { TextIndex, grown } from './text-table.js';

// Rule 2.3.2 within one file: the same businessReference, amount and sendingDate make the same invoice, so only its
// first record is sent. A file of many records holds one entry per record here until the plan is done, so the
// entries hold no object of their own: the businessReference and sendingDate texts in text tables, the record and
// the amount in typed arrays, all at the slot the reference was given (see text-table.ts for why).

/** What tells two invoices of a file apart (each record of a plan has a businessReference by then). */
export type InvoiceIdentity = Required<RuleIdentity>;

/** The first record of each invoice of a file, by rule 2.3.2. */
export class FirstRecordOfInvoice {
  /** The businessReference of the first invoice with it; its slot indexes the columns below. */
  readonly #references = new TextIndex();
  /** The sending dates, each once (a file has few), and each first invoice's date by its slot. */
  readonly #sendingDates = new TextIndex();
  #sendingDateSlots = new Int32Array(1024);
  #records = new Int32Array(1024);
  #amounts = new Float64Array(1024);
  /** Further invoices with a businessReference already taken by another amount or date (rare). */
  readonly #others = new Map<string, number>();

  /**
   * The earlier record of the same invoice; undefined when there is none, and `record` becomes its first. A record is
   * any whole number that names it (the plan gives the index of its result).
   */
  claim(invoice: InvoiceIdentity, record: number): number | undefined {
    const { businessReference } = invoice;
    const slot = this.#references.slotOf(businessReference);
    if (slot === -1) {
      const added = this.#references.add(businessReference);
      const date = this.#sendingDates.slotOf(invoice.sendingDate);
      if (added === this.#records.length) {
        this.#records = grown(this.#records, added + 1);
        this.#amounts = grown(this.#amounts, added + 1);
        this.#sendingDateSlots = grown(this.#sendingDateSlots, added + 1);
      }
      this.#sendingDateSlots[added] = date === -1 ? this.#sendingDates.add(invoice.sendingDate) : date;
      this.#records[added] = record;
      this.#amounts[added] = invoice.amount;
      return undefined;
    }
    const first = {
      businessReference,
      amount: this.#amounts[slot] ?? 0,
      sendingDate: this.#sendingDates.at(this.#sendingDateSlots[slot] ?? 0),
    };
    if (isSameInvoice(first, invoice)) return this.#records[slot];
    const key = invoiceIdentityKey(invoice);
    const earlier = this.#others.get(key);
    if (earlier === undefined) this.#others.set(key, record);
    return earlier;
  }
}
