import * as z from 'zod';
import { emailAddress, mobileNumber, text } from './fields.js';

/** The invoice's customer; whether `email` is required depends on the invoice's communicationMethod. */
export const customerSchema = z.strictObject({
  name: text(),
  email: emailAddress().optional(),
  mobile: mobileNumber(),
});

export type Customer = z.output<typeof customerSchema>;
