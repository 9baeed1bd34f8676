import * as z from 'zod';
import { nonNegativeMoney, text } from './fields.js';

// An order of the merchant's own file (a shop system's export), as a reconciliation reads it: the reference it is
// matched by and the amount it is compared by. Its other columns are the shop's, or an invoice's when the orders are
// written out again as invoices (`--emit-missing`), which `create --file` then checks with the invoice's rules.

/** The fields of an order a reconciliation compares: text for the reference, an exact amount (0 for a free order). */
export const orderSchema = z.object({ businessReference: text(), amount: nonNegativeMoney() });
export type Order = z.infer<typeof orderSchema>;
