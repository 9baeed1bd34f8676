import { notifiesByEmail } from './enums.js';
import { isEmailAddress } from './fields.js';
import { quotedVisibly } from './visible-text.js';

// What may be wrong with how a customer is reached without being against the spec, which gives the contact fields
// no format: the invoice is sent as given, and the merchant is told what to look at. Zod-free, for the one-invoice
// flow and the plan of a bulk run alike.

/** One value to look at: the field, and what about it, in words that follow the field. */
export interface ValueToLookAt {
  path: 'customer.email' | 'customer.mobile';
  message: string;
}

/** Ten digits starting with 1, without a `+`: an Egyptian mobile number (01x...) whose leading 0 was dropped. */
const withoutLeadingZero = /^1\d{9}$/;

/**
 * The contact values of an invoice to look at: an e-mail that is no address on an invoice that does not notify by
 * e-mail (sent as given), and a mobile number a spreadsheet most likely mangled by reading it as a number.
 */
export function contactWarnings(invoice: {
  communicationMethod?: string;
  customer: { email?: string; mobile: string };
}): ValueToLookAt[] {
  const { email, mobile } = invoice.customer;
  const found: ValueToLookAt[] = [];
  if (email !== undefined && !notifiesByEmail(invoice.communicationMethod) && !isEmailAddress(email)) {
    found.push({
      path: 'customer.email',
      // Quoted with what cannot be seen shown: a zero-width space makes an address that looks right none.
      message: `${quotedVisibly(email)} is not an e-mail address (the invoice notifies by ${invoice.communicationMethod ?? 'SMS'})`,
    });
  }
  if (withoutLeadingZero.test(mobile)) {
    found.push({
      path: 'customer.mobile',
      message: `${mobile} looks like a number whose leading 0 a spreadsheet dropped (0${mobile}?): format the column as text`,
    });
  }
  return found;
}
