import { notifiesByEmail } from './enums.js';
import { isEmailAddress } from './fields.js';
import { quotedVisibly } from './visible-text.js';

// What may be wrong with how a customer is reached without being against the spec, which gives the contact fields
// no format: the merchant is told what to look at, and nothing is rewritten. Zod-free, for the one-invoice flow and
// the plan of a bulk run alike.

/** One value to look at: the field, and what about it, in words that follow the field. */
export interface ValueToLookAt {
  path: 'customer.email' | 'customer.mobile';
  message: string;
}

/** An Egyptian mobile number in its national form: 01, then 0, 1, 2 or 5, then 8 digits. */
const egyptianMobile = /^01[0125]\d{8}$/;
const egyptianPlan = '01 then 0, 1, 2 or 5, then 8 digits';
/** Blanks and dashes a number is written with; the schema drops them (and parentheses) before it is sent. */
const separators = /[\s().-]/g;

/**
 * Why a mobile number is not an Egyptian mobile, or undefined when it is one or belongs to another country. The
 * service is Egyptian and its samples use the national form; a number with another `+` country code is taken as
 * the schema takes it.
 */
export function egyptianMobileProblem(mobile: string): string | undefined {
  const compact = mobile.replace(separators, '');
  // What is no phone number at all is the schema's to refuse.
  if (!/^(?:\+|00)?\d{7,15}$/.test(compact)) return undefined;
  const international = /^(?:\+|00)(\d*)$/.exec(compact);
  if (international) {
    const digits = international[1] ?? '';
    if (!digits.startsWith('20')) return undefined;
    const national = digits.slice(2);
    if (egyptianMobile.test(`0${national}`)) return undefined;
    if (egyptianMobile.test(national)) {
      return `is not an Egyptian mobile: after +20 comes the number without its leading 0 (+20${national.slice(1)}?)`;
    }
    return `is not an Egyptian mobile: +20 then 1, then 0, 1, 2 or 5, then 8 digits (${digitCount(national)} after +20)`;
  }
  if (egyptianMobile.test(compact)) return undefined;
  if (/^1[0125]\d{8}$/.test(compact)) {
    return `looks like a number whose leading 0 a spreadsheet dropped (0${compact}?): format the column as text`;
  }
  if (/^01\d{8}$/.test(compact)) {
    return `is the old 10-digit form of an Egyptian mobile (${egyptianPlan}): ask the customer for the number as it is now`;
  }
  if (/^01\d*$/.test(compact)) {
    const length = compact.length;
    return length === 11
      ? `is not an Egyptian mobile: ${compact.slice(0, 3)} is no mobile network (${egyptianPlan})`
      : `is not an Egyptian mobile: ${digitCount(compact)}, one has 11 (${egyptianPlan})`;
  }
  return `is not an Egyptian mobile (${egyptianPlan}; or +, then the country code)`;
}

function digitCount(digits: string): string {
  return `${digits.length} ${digits.length === 1 ? 'digit' : 'digits'}`;
}

/**
 * The contact values of an invoice to look at: an e-mail that is no address on an invoice that does not notify by
 * e-mail, and a mobile number that is not an Egyptian mobile (a spreadsheet may have mangled it).
 */
export function contactWarnings(invoice: {
  communicationMethod?: unknown;
  customer?: { email?: unknown; mobile?: unknown };
}): ValueToLookAt[] {
  const { email, mobile } = invoice.customer ?? {};
  const method = typeof invoice.communicationMethod === 'string' ? invoice.communicationMethod : undefined;
  const found: ValueToLookAt[] = [];
  if (typeof email === 'string' && !notifiesByEmail(method) && !isEmailAddress(email)) {
    found.push({
      path: 'customer.email',
      // Quoted with what cannot be seen shown: a zero-width space makes an address that looks right none.
      message: `${quotedVisibly(email)} is not an e-mail address (the invoice notifies by ${method ?? 'SMS'})`,
    });
  }
  const mobileProblem = typeof mobile === 'string' ? egyptianMobileProblem(mobile) : undefined;
  if (mobileProblem !== undefined) {
    found.push({ path: 'customer.mobile', message: `${quotedVisibly(String(mobile))} ${mobileProblem}` });
  }
  return found;
}
