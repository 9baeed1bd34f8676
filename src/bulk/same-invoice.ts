import { minorOfTwoDecimals, toMinorUnits } from '../schemas/money.js';

// Rule 2.3.2 within one file: the same businessReference, amount and sendingDate make the same invoice, so only its
// first record is sent. A file of many records holds one entry per record here until the plan is done, so the
// entries are kept small: keyed by the businessReference string the record already holds, with the amount and date
// beside it in plain arrays, rather than by a new string that joins all three.

/** What tells two invoices apart under rule 2.3.2. */
export interface InvoiceIdentity {
  businessReference: string;
  amount: number;
  sendingDate: string;
}

/** The first record of each invoice of a file, by rule 2.3.2. */
export class FirstRecordOfInvoice {
  /** The first invoice with each businessReference: its slot in the arrays below. */
  readonly #slotByReference = new Map<string, number>();
  readonly #records: number[] = [];
  /** Whole hundredths: a checked amount is within the ceiling, so a plain number holds it exactly. */
  readonly #minorAmounts: number[] = [];
  readonly #sendingDates: string[] = [];
  /** Further invoices with a businessReference already taken by another amount or date (rare). */
  readonly #others = new Map<string, number>();

  /** The earlier record of the same invoice; undefined when there is none, and `record` becomes its first. */
  claim(invoice: InvoiceIdentity, record: number): number | undefined {
    const minor = minorOfTwoDecimals(invoice.amount) ?? Number(toMinorUnits(invoice.amount));
    const slot = this.#slotByReference.get(invoice.businessReference);
    if (slot === undefined) {
      this.#slotByReference.set(invoice.businessReference, this.#records.push(record) - 1);
      this.#minorAmounts.push(minor);
      this.#sendingDates.push(invoice.sendingDate);
      return undefined;
    }
    if (this.#minorAmounts[slot] === minor && this.#sendingDates[slot] === invoice.sendingDate) {
      return this.#records[slot];
    }
    const key = `${invoice.businessReference}\u0000${minor}\u0000${invoice.sendingDate}`;
    const earlier = this.#others.get(key);
    if (earlier === undefined) this.#others.set(key, record);
    return earlier;
  }
}
