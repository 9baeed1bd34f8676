import type { Writable } from 'node:stream';
import { processTimeZone, wallClockIn } from '../../schemas/time-zone.js';
import { WorkbookStream, type WorkbookColumn } from '../../workbook-writer.js';
import type { StoredInvoice } from '../state.js';

// The invoices the dashboard shows, as a workbook a merchant opens in Excel: one row per invoice, typed cells (the
// amount a number with two decimals, dates as dates, date-times on this machine's clock, as the page shows them).

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

/** Streams `invoices` as a workbook to `out`, ending it. */
export async function writeInvoicesWorkbook(out: Writable, invoices: readonly StoredInvoice[]): Promise<void> {
  const timeZone = processTimeZone();
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
