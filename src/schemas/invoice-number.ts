import { invoiceNumber } from './fields.js';

/** An invoice number given on the command line or in a URL path. */
export const invoiceNumberSchema = invoiceNumber();
