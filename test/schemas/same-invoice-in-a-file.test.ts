import { describe, expect, it } from 'vitest';
import { invoiceIdentityKey } from '../../src/schemas/same-invoice.js';

/** The first record of each invoice, by its identity key, as a plan keeps them. */
class FirstRecordOfInvoice {
  readonly #first = new Map<string, number>();
  claim(invoice: { businessReference: string; amount: number; sendingDate: string }, record: number) {
    const key = invoiceIdentityKey(invoice);
    const earlier = this.#first.get(key);
    if (earlier === undefined) this.#first.set(key, record);
    return earlier;
  }
}

const invoice = (businessReference: string, amount = 100, sendingDate = '2030-01-01') => ({
  businessReference,
  amount,
  sendingDate,
});

describe('the first record of each invoice (rule 2.3.2)', () => {
  it('makes a record the first of its invoice, and names it for the records that repeat it', () => {
    const firsts = new FirstRecordOfInvoice();
    expect(firsts.claim(invoice('A'), 1)).toBeUndefined();
    expect(firsts.claim(invoice('B'), 2)).toBeUndefined();
    expect(firsts.claim(invoice('A'), 3)).toBe(1);
    expect(firsts.claim(invoice('B'), 4)).toBe(2);
    expect(firsts.claim(invoice('A'), 5)).toBe(1);
  });

  it('tells apart invoices that share a businessReference by amount and sendingDate', () => {
    const firsts = new FirstRecordOfInvoice();
    expect(firsts.claim(invoice('A', 100), 1)).toBeUndefined();
    expect(firsts.claim(invoice('A', 200), 2)).toBeUndefined();
    expect(firsts.claim(invoice('A', 100, '2030-01-02'), 3)).toBeUndefined();
    expect(firsts.claim(invoice('A', 200), 4)).toBe(2);
    expect(firsts.claim(invoice('A', 100, '2030-01-02'), 5)).toBe(3);
    expect(firsts.claim(invoice('A', 100), 6)).toBe(1);
  });

  it('compares amounts in minor units', () => {
    const firsts = new FirstRecordOfInvoice();
    expect(firsts.claim(invoice('A', 0.1 + 0.2), 1)).toBeUndefined();
    expect(firsts.claim(invoice('A', 0.3), 2)).toBe(1);
  });

  it('keeps references that merely contain the separator apart', () => {
    const firsts = new FirstRecordOfInvoice();
    expect(firsts.claim(invoice('A', 100), 1)).toBeUndefined();
    expect(firsts.claim(invoice('A\u000010000\u00002030-01-01', 200), 2)).toBeUndefined();
    expect(firsts.claim(invoice('A', 300), 3)).toBeUndefined();
    expect(firsts.claim(invoice('A\u000010000\u00002030-01-01', 100), 4)).toBeUndefined();
    expect(firsts.claim(invoice('A', 300), 5)).toBe(3);
  });
});
