import { minorToText } from '../schemas/money.js';
import type { LedgerInvoice, LedgerRefund } from './ledger.js';

// One row per invoice for the merchant's accounting, with its latest refund's columns: a plain function of the
// ledger's rows, so that every format (CSV, NDJSON, a workbook) writes the same columns and values.

/** A cell's value: text, an amount (exact decimal text, two decimals), a day (YYYY-MM-DD), an instant (ISO), or empty. */
export type ExportValue =
  | { type: 'text'; value: string }
  | { type: 'amount'; value: string }
  | { type: 'day'; value: string }
  | { type: 'instant'; value: string }
  | { type: 'empty' };

/** The columns of an export, in order. */
export const exportColumns = [
  'sentAt',
  'kind',
  'status',
  'invoiceNumber',
  'businessReference',
  'customerName',
  'customerMobile',
  'customerEmail',
  'amount',
  'currency',
  'sendingDate',
  'expiryDate',
  'refundStatus',
  'refundAmount',
  'refundReason',
  'refundOrderReference',
  'refundedAt',
  'error',
  'decided',
  'source',
  'journal',
  'run',
] as const;

export type ExportColumn = (typeof exportColumns)[number];

/** The cells of one invoice (and its latest refund), by column. */
export function exportRow(invoice: LedgerInvoice, refund?: LedgerRefund): Record<ExportColumn, ExportValue> {
  return {
    sentAt: instant(invoice.sentAt),
    kind: text(invoice.kind),
    status: text(invoice.status),
    invoiceNumber: text(invoice.invoiceNumber),
    businessReference: text(invoice.businessReference),
    customerName: text(invoice.customerName),
    customerMobile: text(invoice.customerMobile),
    customerEmail: text(invoice.customerEmail),
    amount: amount(invoice.amountMinor),
    currency: text(invoice.currency),
    sendingDate: day(invoice.sendingDate),
    expiryDate: instantOrText(invoice.expiryDate),
    refundStatus: text(refund?.status),
    refundAmount: amount(refund?.amountMinor),
    refundReason: text(refund?.reason),
    refundOrderReference: text(refund?.orderReference),
    refundedAt: refund ? instant(refund.sentAt) : empty,
    error: text(invoice.error),
    decided: text(invoice.decided),
    source: text(invoice.source),
    journal: text(invoice.journal),
    run: text(invoice.run),
  };
}

const empty: ExportValue = { type: 'empty' };

function text(value: string | null | undefined): ExportValue {
  return value === null || value === undefined ? empty : { type: 'text', value };
}

function amount(minor: number | null | undefined): ExportValue {
  return minor === null || minor === undefined ? empty : { type: 'amount', value: minorToText(BigInt(minor)) };
}

function instant(value: string): ExportValue {
  return { type: 'instant', value };
}

/** A day as the body gave it (`YYYY-MM-DD`); anything else, as text. */
function day(value: string | null): ExportValue {
  if (value === null) return empty;
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? { type: 'day', value } : { type: 'text', value };
}

/** An instant as the body gave it (`expiryDate`); anything else, as text. */
function instantOrText(value: string | null): ExportValue {
  if (value === null) return empty;
  return Number.isNaN(Date.parse(value)) || !/T/.test(value) ? { type: 'text', value } : instant(value);
}

/** Whether a column holds instants: its values are times, of a time zone a sheet names. */
export function isInstantColumn(column: ExportColumn): boolean {
  return column === 'sentAt' || column === 'expiryDate' || column === 'refundedAt';
}
