import * as z from 'zod';
import { sendableString, mobileNumber, text } from './fields.js';

/**
 * The invoice's customer. Whether `email` is required, and must be an address, depends on the invoice's
 * communicationMethod (rule 2.3.4, invoice.ts): the spec gives the field no format of its own.
 */
export const customerSchema = z.strictObject({
  name: text(),
  email: sendableString().optional(),
  mobile: mobileNumber(),
});

export type Customer = z.output<typeof customerSchema>;
