// The ledger's rows as its readers get them, and the columns that select them.

/** Where a request came from: how it was given, its file and line, the journal and batch of a bulk run. */
export interface SourceFields {
  via: string;
  sourceFile: string | null;
  sourceLine: number | null;
  journal: string | null;
  run: string | null;
}

/** An invoice as the ledger lists it. */
export interface LedgerInvoice extends SourceFields {
  /** The entry's id in the ledger (`L12`): it names an entry that has neither number nor reference. */
  id: string;
  kind: string;
  /** created, uncertain, refused or not-created; `refunded` / `refund-uncertain` once a refund of it was sent. */
  status: string;
  invoiceNumber: string | null;
  businessReference: string | null;
  customerName: string | null;
  customerMobile: string | null;
  customerEmail: string | null;
  amountMinor: number | null;
  currency: string | null;
  sendingDate: string | null;
  expiryDate: string | null;
  /** When it was first sent. */
  sentAt: string;
  error: string | null;
  decided: string | null;
  /** Where it came from, in words: `flags`, `prompts`, `file invoice.json`, `invoices.csv:12`. */
  source: string;
  service: string | null;
  /** The numbering its number belongs to: the service, and the sandbox state that answered. */
  scope: string;
}

/** A refund as the ledger lists it. */
export interface LedgerRefund extends SourceFields {
  invoiceNumber: string;
  status: string;
  amountMinor: number | null;
  currency: string | null;
  reason: string | null;
  orderReference: string | null;
  sentAt: string;
  /** When its status was learnt: the attempt's answer, or the merchant's word. */
  answeredAt: string;
  error: string | null;
  decided: string | null;
}

/** A request that met an entry, with the latest step known of it: its history. */
export interface LedgerStep extends SourceFields {
  key: string;
  sentAt: string;
  at: string;
  status: string;
  /** 1 when the status is the merchant's word. */
  marked: number;
  error: string | null;
  decided: string | null;
  /** Where it came from, in words. */
  source: string;
}

/** Where a request came from, in words: `flags`, `prompts`, `file invoice.json`, `invoices.csv:12`. */
const sourceText = `CASE WHEN source_file IS NULL THEN via WHEN source_line IS NULL THEN via || ' ' || source_file
  ELSE source_file || ':' || source_line END AS source`;

export const invoiceColumns = `'L' || id AS id, kind, coalesce(refund_status, status) AS status,
  invoice_number AS invoiceNumber, business_reference AS businessReference, customer_name AS customerName,
  customer_mobile AS customerMobile, customer_email AS customerEmail, amount_minor AS amountMinor, currency,
  sending_date AS sendingDate, expiry_date AS expiryDate, sent_at AS sentAt, error, decided, via,
  source_file AS sourceFile, source_line AS sourceLine, ${sourceText}, journal, run, service, scope`;

export const refundColumns = `invoice_number AS invoiceNumber, status, amount_minor AS amountMinor, currency, reason,
  order_reference AS orderReference, sent_at AS sentAt, answered_at AS answeredAt, error, decided, via,
  source_file AS sourceFile, source_line AS sourceLine, journal, run`;

export const historyColumns = `request_key AS key, sent_at AS sentAt, at, status, marked, error, decided, via,
  source_file AS sourceFile, source_line AS sourceLine, ${sourceText}, journal, run`;

/** The row id an entry's id (`L12`, `l12`) names; undefined for any other text. */
export function entryIdOf(text: string): number | undefined {
  const match = /^L(\d{1,15})$/i.exec(text.trim());
  return match ? Number(match[1]) : undefined;
}
