import { minorToText } from '../schemas/money.js';
import { isSameInvoice, type InvoiceIdentity } from '../schemas/same-invoice.js';
import type { InvoiceToReconcile } from './ledger.js';

// Reconciling the merchant's orders with the ledger, one reference at a time: which orders got their invoice, once,
// for the right amount. Pure: a reference's orders and invoices in, its rows out; the ledger gives one entry per
// invoice (`Ledger.invoicesToReconcile()`), the store (reconcile-store.ts) brings each reference's together, and the
// command reads and prints.

/** The classes of a reconciliation's rows, in the order its summary lists them. */
export const reconcileClasses = [
  'matched',
  'amount-differs',
  'not-invoiced',
  'not-in-orders',
  'duplicate-in-orders',
  'duplicate-in-ledger',
  'uncertain',
  'refunded',
] as const;
export type ReconcileClass = (typeof reconcileClasses)[number];

/** One order of the merchant's file. */
export interface ReconcileOrder {
  /** Its place among the orders, from 0. */
  seq: number;
  /** The row of its sheet (the line of a JSON or NDJSON file). */
  row: number;
  /** As written in the file. */
  businessReference: string;
  amountMinor: number;
}

/** A row of the reconciliation: an order, an invoice, or an order and the invoice it was matched with. */
export interface ReconcileRow {
  class: ReconcileClass;
  order?: ReconcileOrder;
  invoice?: InvoiceToReconcile;
}

const arabicIndicDigits = /[\u0660-\u0669\u06f0-\u06f9]/g;

/**
 * The reference as it is matched: trimmed, and its Arabic-Indic (U+0660-U+0669) and Eastern Arabic-Indic
 * (U+06F0-U+06F9) digits read as 0-9, so `RC-١٢` is RC-12. For matching only: rows show each as written.
 */
export function foldReference(reference: string): string {
  return reference.trim().replace(arabicIndicDigits, (digit) => {
    const code = digit.charCodeAt(0);
    return String(code - (code >= 0x06f0 ? 0x06f0 : 0x0660));
  });
}

/**
 * A refused request made no invoice, nor one the merchant said was not made: the ledger keeps them, a reconciliation
 * does not count them.
 */
export function isInvoice(invoice: Pick<InvoiceToReconcile, 'status'>): boolean {
  return invoice.status !== 'refused' && invoice.status !== 'not-created';
}

/** The ledger does not know whether the invoice exists, or whether a refund of it was made. */
function uncertain(invoice: InvoiceToReconcile): boolean {
  return invoice.status === 'uncertain' || invoice.status === 'refund-uncertain';
}

/** A refund of it was made, wholly or partly. */
function refunded(invoice: InvoiceToReconcile): boolean {
  return invoice.status === 'refunded' || invoice.refundedMinor > 0;
}

/**
 * The invoices of one reference the ledger holds, each once: an entry in doubt without a number (a lost answer of
 * another run than the one that found it) that rule 2.3.2 makes the same invoice as another of them is that invoice,
 * since the service makes no second one. In their order; refused requests left out.
 */
export function distinctInvoices<T extends InvoiceToReconcile>(invoices: readonly T[]): T[] {
  const kept: T[] = [];
  const live = invoices.filter(isInvoice);
  for (const invoice of live) {
    const lost = invoice.status === 'uncertain' && invoice.invoiceNumber === null;
    const identity = lost ? identityOf(invoice) : undefined;
    const same = (other: T) => {
      const known = identityOf(other);
      return known !== undefined && identity !== undefined && isSameInvoice(known, identity);
    };
    if (identity && (live.some((other) => other.invoiceNumber !== null && same(other)) || kept.some(same))) continue;
    kept.push(invoice);
  }
  return kept;
}

/** What rule 2.3.2 tells an invoice by, when the ledger holds all of it. */
function identityOf(invoice: InvoiceToReconcile): InvoiceIdentity | undefined {
  const { businessReference, amountMinor, sendingDate } = invoice;
  if (businessReference === null || amountMinor === null || sendingDate === null) return undefined;
  return { businessReference, amount: Number(minorToText(BigInt(amountMinor))), sendingDate };
}

/**
 * The rows of one reference: its orders (in file order) and its invoices. Precedence, first that applies:
 * two orders or more are each `duplicate-in-orders` (naming the invoice when there is one), and two invoices or more
 * each `duplicate-in-ledger` (naming the order when there is one; entries `distinctInvoices()` makes one count
 * once); then one invoice in doubt is `uncertain`; then an
 * order alone is `not-invoiced` and an invoice alone `not-in-orders`; then an order and its invoice are
 * `amount-differs`, `refunded` (wholly or partly) or `matched`, in that order. Refused invoices are left out.
 */
export function classify(orders: readonly ReconcileOrder[], invoices: readonly InvoiceToReconcile[]): ReconcileRow[] {
  const live = distinctInvoices(invoices);
  const [order] = orders;
  const [invoice] = live;
  if (orders.length > 1) {
    const rows: ReconcileRow[] = orders.map((each) => ({
      class: 'duplicate-in-orders',
      order: each,
      ...(live.length === 1 ? { invoice } : {}),
    }));
    if (live.length > 1) for (const each of live) rows.push({ class: 'duplicate-in-ledger', invoice: each });
    return rows;
  }
  if (live.length > 1) {
    return live.map((each) => ({ class: 'duplicate-in-ledger', ...(order ? { order } : {}), invoice: each }));
  }
  if (!invoice) return order ? [{ class: 'not-invoiced', order }] : [];
  if (uncertain(invoice)) return [{ class: 'uncertain', ...(order ? { order } : {}), invoice }];
  if (!order) return [{ class: 'not-in-orders', invoice }];
  if (invoice.amountMinor !== order.amountMinor) return [{ class: 'amount-differs', order, invoice }];
  if (refunded(invoice)) return [{ class: 'refunded', order, invoice }];
  return [{ class: 'matched', order, invoice }];
}

/** A row's amounts in minor units, null where the row has none. */
export interface RowAmounts {
  orders: number | null;
  ledger: number | null;
  /** The ledger's amount minus the order's: above 0 when more was invoiced than ordered. */
  difference: number | null;
  /** What refunds took back, when any did. */
  refunded: number | null;
}

/** The amounts a row shows. */
export function amountsOf(row: ReconcileRow): RowAmounts {
  const orders = row.order?.amountMinor ?? null;
  const ledger = row.invoice?.amountMinor ?? null;
  const refunded = row.invoice && row.invoice.refundedMinor > 0 ? row.invoice.refundedMinor : null;
  const difference = orders !== null && ledger !== null && row.class !== 'duplicate-in-orders' ? ledger - orders : null;
  return { orders, ledger, difference, refunded };
}

/**
 * What a row adds to its class's total, the money the class is about: the difference for `amount-differs`, what was
 * refunded for `refunded`, the invoice's amount for the classes of the ledger's side (`not-in-orders`,
 * `duplicate-in-ledger`, `uncertain`), the order's for the others.
 */
export function classAmountOf(row: ReconcileRow): number {
  const amounts = amountsOf(row);
  switch (row.class) {
    case 'amount-differs':
      return amounts.difference ?? 0;
    case 'refunded':
      return amounts.refunded ?? 0;
    case 'not-in-orders':
    case 'duplicate-in-ledger':
    case 'uncertain':
      return amounts.ledger ?? 0;
    default:
      return amounts.orders ?? 0;
  }
}

/** Each class's count and exact total (minor units, summed without a float). */
export type ReconcileTotals = Record<ReconcileClass, { count: number; minor: bigint }>;

/** Totals of no rows. */
export function emptyTotals(): ReconcileTotals {
  return Object.fromEntries(reconcileClasses.map((name) => [name, { count: 0, minor: 0n }])) as ReconcileTotals;
}

/** Counts `row` in `totals`. */
export function addToTotals(totals: ReconcileTotals, row: ReconcileRow): void {
  const total = totals[row.class];
  total.count += 1;
  total.minor += BigInt(classAmountOf(row));
}

/** A row as the merchant reads it (`--json`, `--report`): amounts as exact decimal text, null where it has none. */
export interface ShownReconcileRow {
  class: ReconcileClass;
  /** The order's reference as written in the file, else the invoice's as sent. */
  businessReference: string | null;
  /** The order's row (or line). */
  row: number | null;
  invoiceNumber: string | null;
  ordersAmount: string | null;
  ledgerAmount: string | null;
  /** The ledger's amount minus the order's. */
  difference: string | null;
  refundedAmount: string | null;
  /** The invoice's status as `einvoice invoices list` shows it. */
  ledgerStatus: string | null;
  /** The invoice's reference as sent (it may be written otherwise than the order's: `RC-12` for `RC-١٢`). */
  ledgerReference: string | null;
}

/** A row as the merchant reads it. */
export function shownRow(row: ReconcileRow): ShownReconcileRow {
  const amounts = amountsOf(row);
  return {
    class: row.class,
    businessReference: row.order?.businessReference ?? row.invoice?.businessReference ?? null,
    row: row.order?.row ?? null,
    invoiceNumber: row.invoice?.invoiceNumber ?? null,
    ordersAmount: amountText(amounts.orders),
    ledgerAmount: amountText(amounts.ledger),
    difference: amountText(amounts.difference),
    refundedAmount: amountText(amounts.refunded),
    ledgerStatus: row.invoice?.status ?? null,
    ledgerReference: row.invoice?.businessReference ?? null,
  };
}

/** Each class's count and total as the merchant reads them, in the classes' order. */
export function shownTotals(totals: ReconcileTotals): Record<ReconcileClass, { count: number; amount: string }> {
  return Object.fromEntries(
    reconcileClasses.map((name) => [name, { count: totals[name].count, amount: minorToText(totals[name].minor) }]),
  ) as Record<ReconcileClass, { count: number; amount: string }>;
}

function amountText(minor: number | null): string | null {
  return minor === null ? null : minorToText(BigInt(minor));
}
