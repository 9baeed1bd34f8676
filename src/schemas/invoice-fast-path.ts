import * as z from 'zod';
import type { Invoice, InvoiceKind } from './invoice.js';
import {
  hasEmailAddressWhenNeeded,
  hasEmailWhenNeeded,
  recurringInvoiceFields,
  singleInvoiceFields,
} from './invoice-field-rules.js';

// Checking a file of many invoices spends most of its time in zod, and zod's compiler (`z.compile`) parses a valid
// record several times faster. It cannot compile a check with a `when` condition, which the request schemas give
// rule 2.3.4 so that it is reported beside the other problems of a record; on a record with no other problem the
// rule says the same with or without it, so here it is a plain refinement. A record this refuses is for the request
// schema (`invoiceSchemas`) to judge and word.

/** What the fast path of each kind compiles: its fields, and rule 2.3.4 as a plain refinement. */
export const fastPathSchemas = {
  single: singleInvoiceFields.refine(hasEmailWhenNeeded).refine(hasEmailAddressWhenNeeded),
  recurring: recurringInvoiceFields.refine(hasEmailWhenNeeded).refine(hasEmailAddressWhenNeeded),
} as const;

const compiled: Partial<Record<InvoiceKind, z.ZodType>> = {};

/** The invoice exactly as `invoiceSchemas[kind]` parses `raw`, or undefined when that schema would refuse it. */
export function parseValidInvoice(kind: InvoiceKind, raw: unknown): Invoice | undefined {
  // Compiled on first use (some milliseconds), so that commands that check no file of invoices do not pay for it.
  const schema = (compiled[kind] ??= z.compile<z.ZodType>(fastPathSchemas[kind]));
  const result = schema.safeParse(raw);
  return result.success ? (result.data as Invoice) : undefined;
}
