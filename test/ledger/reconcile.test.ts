import { describe, expect, it } from 'vitest';
import {
  addToTotals,
  classify,
  emptyTotals,
  foldReference,
  shownRow,
  shownTotals,
  type ReconcileOrder,
} from '../../src/ledger/reconcile.js';
import type { InvoiceToReconcile } from '../../src/ledger/ledger.js';

// The matching of a reconciliation, one reference at a time: its classes, their precedence and their exact totals.

let seq = 0;
function order(reference: string, amountMinor: number): ReconcileOrder {
  seq += 1;
  return { seq, row: seq + 1, businessReference: reference, amountMinor };
}

function invoice(
  reference: string | null,
  amountMinor: number | null,
  more: Partial<InvoiceToReconcile> = {},
): InvoiceToReconcile {
  seq += 1;
  return {
    id: `L${seq}`,
    invoiceNumber: String(1_000_000 + seq),
    businessReference: reference,
    amountMinor,
    status: 'created',
    refundedMinor: 0,
    sendingDate: '2026-11-01',
    sentAt: '2026-11-01T08:00:00.000Z',
    ...more,
  };
}

const classesOf = (orders: ReconcileOrder[], invoices: InvoiceToReconcile[]) =>
  classify(orders, invoices).map((row) => row.class);

describe('foldReference: what a reference is matched by', () => {
  it('reads Arabic-Indic and Eastern Arabic-Indic digits as 0-9 and trims, changing nothing else', () => {
    expect(foldReference('RC-١٢')).toBe('RC-12');
    expect(foldReference(' RC-۱۲\u00a0')).toBe('RC-12');
    expect(foldReference('٠١٢٣٤٥٦٧٨٩')).toBe('0123456789');
    expect(foldReference('۰۱۲۳۴۵۶۷۸۹')).toBe('0123456789');
    expect(foldReference('طلب-٧ rc-7')).toBe('طلب-7 rc-7');
  });
});

describe('classify: the rows of one reference', () => {
  it('an order and its invoice for the same amount are matched; for another, amount-differs, ledger minus orders', () => {
    const ordered = order('A', 10_000);
    const [matched] = classify([ordered], [invoice('A', 10_000)]);
    expect(matched?.class).toBe('matched');
    const [differs] = classify([ordered], [invoice('A', 10_100)]);
    expect(differs?.class).toBe('amount-differs');
    expect(differs && shownRow(differs)).toMatchObject({
      ordersAmount: '100.00',
      ledgerAmount: '101.00',
      difference: '1.00',
    });
    const [under] = classify([ordered], [invoice('A', 9_900)]);
    expect(under && shownRow(under).difference).toBe('-1.00');
  });

  it('an order alone is not-invoiced, an invoice alone not-in-orders, and a refused request is no invoice', () => {
    expect(classesOf([order('A', 1)], [])).toEqual(['not-invoiced']);
    expect(classesOf([], [invoice('A', 1)])).toEqual(['not-in-orders']);
    expect(classesOf([order('A', 1)], [invoice('A', 1, { status: 'refused', invoiceNumber: null })])).toEqual([
      'not-invoiced',
    ]);
    expect(classesOf([], [invoice('A', 1, { status: 'refused', invoiceNumber: null })])).toEqual([]);
    // Nor one the merchant said was not made.
    expect(classesOf([order('A', 1)], [invoice('A', 1, { status: 'not-created', invoiceNumber: null })])).toEqual([
      'not-invoiced',
    ]);
  });

  it('refunded, wholly or partly, with what was refunded; an amount that differs comes first', () => {
    const [part] = classify([order('A', 10_000)], [invoice('A', 10_000, { status: 'refunded', refundedMinor: 2_550 })]);
    expect(part?.class).toBe('refunded');
    expect(part && shownRow(part)).toMatchObject({ refundedAmount: '25.50', ledgerStatus: 'refunded' });
    expect(
      classesOf([order('A', 10_000)], [invoice('A', 12_000, { status: 'refunded', refundedMinor: 2_000 })]),
    ).toEqual(['amount-differs']);
  });

  it('uncertain when the ledger does not know whether the invoice or its refund was made, before any other', () => {
    expect(classesOf([order('A', 1)], [invoice('A', 2, { status: 'uncertain', invoiceNumber: null })])).toEqual([
      'uncertain',
    ]);
    expect(classesOf([order('A', 1)], [invoice('A', 1, { status: 'refund-uncertain' })])).toEqual(['uncertain']);
    expect(classesOf([], [invoice('A', 1, { status: 'uncertain', invoiceNumber: null })])).toEqual(['uncertain']);
  });

  it('a reference on two orders makes each duplicate-in-orders, naming the one invoice, refunded or not', () => {
    const refunded = invoice('A', 1, { status: 'refunded', refundedMinor: 1 });
    const rows = classify([order('A', 1), order('A', 1)], [refunded]);
    expect(rows.map((row) => row.class)).toEqual(['duplicate-in-orders', 'duplicate-in-orders']);
    expect(rows.every((row) => row.invoice === refunded)).toBe(true);
    expect(rows[0] && shownRow(rows[0]).difference).toBeNull();
  });

  it('two invoices of one reference are each duplicate-in-ledger, naming the one order; with two orders, both sides', () => {
    const one = order('A', 1);
    const rows = classify([one], [invoice('A', 1), invoice('A', 2, { status: 'uncertain', invoiceNumber: null })]);
    expect(rows.map((row) => [row.class, row.order])).toEqual([
      ['duplicate-in-ledger', one],
      ['duplicate-in-ledger', one],
    ]);
    expect(classesOf([order('A', 1), order('A', 1)], [invoice('A', 1), invoice('A', 1)])).toEqual([
      'duplicate-in-orders',
      'duplicate-in-orders',
      'duplicate-in-ledger',
      'duplicate-in-ledger',
    ]);
  });
});

describe('distinctInvoices: the entries of a reference that are one invoice', () => {
  it('a lost answer rule 2.3.2 makes the same as an invoice, or as an earlier lost answer, is that invoice', () => {
    const lost = (amountMinor: number, more: Partial<InvoiceToReconcile> = {}) =>
      invoice('A', amountMinor, { status: 'uncertain', invoiceNumber: null, ...more });
    expect(classesOf([order('A', 500)], [lost(500), invoice('A', 500)])).toEqual(['matched']);
    expect(classesOf([order('A', 500)], [lost(500), lost(500)])).toEqual(['uncertain']);
    // Another amount or another sending date is another invoice: both stay, and are two of one reference.
    expect(classesOf([order('A', 500)], [lost(700), invoice('A', 500)])).toEqual([
      'duplicate-in-ledger',
      'duplicate-in-ledger',
    ]);
    expect(classesOf([], [lost(500, { sendingDate: '2026-11-02' }), lost(500)])).toEqual([
      'duplicate-in-ledger',
      'duplicate-in-ledger',
    ]);
    // Two invoices with numbers are two, however alike.
    expect(classesOf([], [invoice('A', 500), invoice('A', 500)])).toEqual([
      'duplicate-in-ledger',
      'duplicate-in-ledger',
    ]);
  });
});

describe('totals: each class counted, and its money summed exactly', () => {
  it('adds minor units past 2^53 without a float, each class by the money it is about', () => {
    const totals = emptyTotals();
    const largest = 999_999_999_999_999;
    for (let index = 0; index < 10; index++) {
      for (const row of classify([order(`M${index}`, largest)], [invoice(`M${index}`, largest)]))
        addToTotals(totals, row);
    }
    // 10 x 999,999,999,999,999 + 1 hundredths: odd and above 2^53, where a double cannot hold it.
    for (const row of classify([order('ONE', 1)], [invoice('ONE', 1)])) addToTotals(totals, row);
    for (const row of classify([order('D', 10_000)], [invoice('D', 9_875)])) addToTotals(totals, row);
    for (const row of classify(
      [order('R', 10_000)],
      [invoice('R', 10_000, { status: 'refunded', refundedMinor: 4_000 })],
    )) {
      addToTotals(totals, row);
    }
    for (const row of classify([], [invoice('L', 5_005)])) addToTotals(totals, row);
    const shown = shownTotals(totals);
    expect(shown.matched).toEqual({ count: 11, amount: '99999999999999.91' });
    expect(shown['amount-differs']).toEqual({ count: 1, amount: '-1.25' });
    expect(shown.refunded).toEqual({ count: 1, amount: '40.00' });
    expect(shown['not-in-orders']).toEqual({ count: 1, amount: '50.05' });
    expect(Object.keys(shown)).toEqual([
      'matched',
      'amount-differs',
      'not-invoiced',
      'not-in-orders',
      'duplicate-in-orders',
      'duplicate-in-ledger',
      'uncertain',
      'refunded',
    ]);
  });
});
