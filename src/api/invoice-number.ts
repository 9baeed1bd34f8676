import { UsageError } from '../errors.js';
import { invoiceNumberPattern } from '../schemas/fields.js';
import { invoiceNumberSchema } from '../schemas/invoice-number.js';
import { validate } from '../schemas/validate.js';
import { visible } from '../schemas/visible-text.js';

// Invoice numbers where they meet the service: checked before one is put in a request path, read from the body of a
// create response. The rule itself is the schema's (src/schemas/invoice-number.ts).

/** The invoice number if it passes its rule; otherwise a usage error (exit 2), as nothing may be sent for it. */
export function checkedInvoiceNumber(value: string): string {
  const result = validate(invoiceNumberSchema, value);
  if (!result.success) {
    throw new UsageError(`"${visible(value)}" is not an invoice number; nothing was sent.`, {
      issues: result.issues.map((issue) => ({ ...issue, path: 'invoiceNumber' })),
    });
  }
  return result.data;
}

/**
 * Reads the body of a create response: a bare JSON number or a JSON string, either an invoice number by the rule the
 * command line's numbers follow (so every number the service gives can be refunded). The digits are kept as text,
 * so a number past 2^53 is not rounded. Returns undefined when the body is neither.
 */
export function parseCreatedInvoiceNumber(body: string): string | undefined {
  const trimmed = body.trim();
  const number = /^\d+$/.test(trimmed) ? trimmed : /^"(.*)"$/.exec(trimmed)?.[1];
  return number !== undefined && invoiceNumberPattern.test(number) ? number : undefined;
}
