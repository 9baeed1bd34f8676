import { UsageError } from '../errors.js';
import { invoiceNumberSchema } from '../schemas/invoice-number.js';
import { validate } from '../schemas/validate.js';

// Invoice numbers where they meet the service: checked before one is put in a request path, read from the body of a
// create response. The rule itself is the schema's (src/schemas/invoice-number.ts).

/** The invoice number if it passes its rule; otherwise a usage error (exit 2), as nothing may be sent for it. */
export function checkedInvoiceNumber(value: string): string {
  const result = validate(invoiceNumberSchema, value);
  if (!result.success) {
    throw new UsageError(`"${value}" is not an invoice number; nothing was sent.`, {
      issues: result.issues.map((issue) => ({ ...issue, path: 'invoiceNumber' })),
    });
  }
  return result.data;
}

/**
 * Reads the body of a create response: a bare JSON number or a JSON string, of at most 30 characters. The digits are
 * kept as text, so a number past 2^53 is not rounded. Returns undefined when the body is neither.
 */
export function parseCreatedInvoiceNumber(body: string): string | undefined {
  const trimmed = body.trim();
  if (/^\d{1,30}$/.test(trimmed)) return trimmed;
  const quoted = /^"([A-Za-z0-9_-]{1,30})"$/.exec(trimmed);
  return quoted?.[1];
}
