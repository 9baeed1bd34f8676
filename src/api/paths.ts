import type { InvoiceKind } from '../schemas/invoice.js';

// Kept apart from the client so that a command can name a path (--dry-run) without loading got.

/** The paths of the service's operations, relative to the base URL. */
export const servicePaths = {
  statistics: 'invoice-api/invoices/statistics',
  /** The path the spec's sample-response panel shows; tried when the first answers 404. */
  statisticsFallback: 'invoice-api/invoice-statistics',
  createInvoice: (kind: InvoiceKind) => `invoice-api/invoices/${kind}`,
  refund: (invoiceNumber: string) => `invoice-api/invoices/${encodeURIComponent(invoiceNumber)}/refund`,
} as const;
