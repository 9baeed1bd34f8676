import type { Writable } from 'node:stream';
import { wallClockIn } from '../../schemas/time-zone.js';
import { WorkbookStream, type WorkbookColumn } from '../../workbook-writer.js';
import type { StoredInvoice } from '../state.js';

// The invoices the dashboard shows, as a workbook a merchant opens in Excel: one row per invoice, typed cells (the
// amount a number with two decimals, dates as dates, date-times on the merchant's clock, as the page shows them).

const columns: readonly WorkbookColumn[] = [
  { header: 'invoiceNumber', type: 'text' },
  { header: 'status', type: 'text' },
  { header: 'customer.name', type: 'text', width: 28 },
  { header: 'customer.mobile', type: 'text', width: 16 },
  { header: 'customer.email', type: 'text', width: 28 },
  { header: 'amount', type: 'amount' },
  { header: 'businessReference', type: 'text', width: 20 },
  { header: 'sendingDate', type: 'date' },
  { header: 'releaseDate', type: 'date-time', width: 18 },
  { header: 'expiryDate', type: 'date-time', width: 18 },
  { header: 'createdAt', type: 'date-time', width: 18 },
  { header: 'paidAt', type: 'date-time', width: 18 },
  { header: 'note', type: 'text', width: 30 },
];

/** Streams `invoices` as a workbook to `out`, ending it; date-times are the wall clock of `timeZone`. */
export async function writeInvoicesWorkbook(
  out: Writable,
  invoices: readonly StoredInvoice[],
  timeZone: string,
): Promise<void> {
  const at = (instant: string | undefined) => (instant ? wallClockIn(new Date(instant), timeZone) : undefined);
  const workbook = WorkbookStream.start(out, { name: 'Invoices', columns });
  for (const invoice of invoices) {
    const { customer, note } = invoice.invoice;
    workbook.addRow([
      invoice.invoiceNumber,
      invoice.status,
      customer.name,
      customer.mobile,
      customer.email,
      invoice.amount,
      invoice.businessReference,
      invoice.sendingDate,
      at(invoice.releaseDate),
      at(invoice.expiryDate),
      at(invoice.createdAt),
      at(invoice.paidAt),
      note,
    ]);
  }
  await workbook.end();
}
