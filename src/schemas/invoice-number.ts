import { invoiceNumber } from './fields.js';

/** An invoice number given on the command line or in a URL path. */
export const invoiceNumberSchema = invoiceNumber();

/**
 * Reads the body of a create response: a bare JSON number or a JSON string. The digits are kept as text, so a
 * number past 2^53 is not rounded. Returns undefined when the body is neither.
 */
export function parseCreatedInvoiceNumber(body: string): string | undefined {
  const trimmed = body.trim();
  if (/^\d+$/.test(trimmed)) return trimmed;
  const quoted = /^"([A-Za-z0-9_-]{1,64})"$/.exec(trimmed);
  return quoted?.[1];
}
