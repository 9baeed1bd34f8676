import { notifiesByEmail } from './enums.js';
import { isEmailAddress } from './fields.js';
import { quotedVisibly } from './visible-text.js';

// What may be wrong with how a customer is reached without being against the spec, which gives the contact fields
// no format: the merchant is told what to look at, and nothing is rewritten unless the merchant says so
// (--fix-mobiles: the number the warning suggests). Zod-free, for the one-invoice flow and the plan of a bulk run
// alike.

/** One value to look at: the field, and what about it, in words that follow the field. */
export interface ValueToLookAt {
  path: 'customer.email' | 'customer.mobile';
  message: string;
  /** The message without the value, when many records can share it (see FieldIssue). */
  cause?: string;
  /** The record's own value, kept beside its place when the cause is told once. */
  figure?: string;
}

/** An Egyptian mobile number in its national form: 01, then 0, 1, 2 or 5, then 8 digits. */
const egyptianMobile = /^01[0125]\d{8}$/;
const egyptianPlan = '01 then 0, 1, 2 or 5, then 8 digits';
/** Blanks and dashes a number is written with; the schema drops them (and parentheses) before it is sent. */
const separators = /[\s().-]/g;

/**
 * Why a mobile number is not an Egyptian mobile, and the number it most likely is when that can be told: its
 * `fix`, which the warning suggests and `--fix-mobiles` sends. `advice` says what to change at the source.
 */
export interface MobileProblem {
  /** Why, in words that follow the number. */
  why: string;
  /** The number it most likely is (a leading 0 a spreadsheet dropped, the + of +20 lost or written as 00). */
  fix?: string;
  advice?: string;
}

/**
 * Why a mobile number is not an Egyptian mobile, or undefined when it is one or belongs to another country. The
 * service is Egyptian and its samples use the national form; a number with another `+` country code is taken as
 * the schema takes it. A number is guessed only where one reading is left: a 9-digit number is never completed.
 */
export function egyptianMobileProblem(mobile: string): MobileProblem | undefined {
  const compact = mobile.replace(separators, '');
  // What is no phone number at all is the schema's to refuse.
  if (!/^(?:\+|00)?\d{7,15}$/.test(compact)) return undefined;
  const international = /^(\+|00)(\d*)$/.exec(compact);
  if (international) {
    const [, prefix, digits = ''] = international;
    if (!digits.startsWith('20')) return undefined;
    const national = digits.slice(2);
    if (egyptianMobile.test(`0${national}`)) {
      return prefix === '+' ? undefined : { why: 'writes the + of +20 as 00', fix: `+20${national}` };
    }
    if (egyptianMobile.test(national)) {
      return {
        why: 'is not an Egyptian mobile: after +20 comes the number without its leading 0',
        fix: `+20${national.slice(1)}`,
      };
    }
    return {
      why: `is not an Egyptian mobile: +20 then 1, then 0, 1, 2 or 5, then 8 digits (${digitCount(national)} after +20)`,
    };
  }
  if (egyptianMobile.test(compact)) return undefined;
  if (/^1[0125]\d{8}$/.test(compact)) {
    return {
      why: 'looks like a number whose leading 0 a spreadsheet dropped',
      fix: `0${compact}`,
      advice: 'format the column as text',
    };
  }
  const withoutPlus = /^200?(1[0125]\d{8})$/.exec(compact);
  if (withoutPlus) {
    return {
      why: 'looks like an Egyptian mobile whose + a spreadsheet dropped',
      fix: `+20${withoutPlus[1]}`,
      advice: 'format the column as text',
    };
  }
  if (/^01\d{8}$/.test(compact)) {
    return {
      why: `is the old 10-digit form of an Egyptian mobile (${egyptianPlan})`,
      advice: 'ask the customer for the number as it is now',
    };
  }
  if (/^01\d*$/.test(compact)) {
    const length = compact.length;
    return {
      why:
        length === 11
          ? `is not an Egyptian mobile: ${compact.slice(0, 3)} is no mobile network (${egyptianPlan})`
          : `is not an Egyptian mobile: ${digitCount(compact)}, one has 11 (${egyptianPlan})`,
    };
  }
  return { why: `is not an Egyptian mobile (${egyptianPlan}; or +, then the country code)` };
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
  const problem = typeof mobile === 'string' ? egyptianMobileProblem(mobile) : undefined;
  if (typeof mobile === 'string' && problem !== undefined) {
    const { why, fix, advice } = problem;
    const quoted = quotedVisibly(mobile);
    if (fix === undefined) {
      found.push({ path: 'customer.mobile', message: `${quoted} ${why}${advice ? `: ${advice}` : ''}` });
    } else {
      // The same problem on many records is one line, each number beside the one it most likely is.
      const ways = `${advice ? `${advice}, or ` : ''}pass --fix-mobiles to send`;
      found.push({
        path: 'customer.mobile',
        message: `${quoted} ${why} (${fix}?): ${ways} ${fix}`,
        cause: `${why}: ${ways} the number suggested`,
        figure: `${quoted} → ${fix}`,
      });
    }
  }
  return found;
}

/**
 * The invoice with its mobile number as its warning suggests (`--fix-mobiles`: a leading 0 a spreadsheet dropped,
 * the + of +20 lost or written as 00), and the warning that tells the change; the invoice as it is when no number
 * is suggested. The one rule is `egyptianMobileProblem`'s: nothing else is ever guessed.
 */
export function withFixedMobile<T extends { customer?: unknown }>(invoice: T): { invoice: T; fixed?: ValueToLookAt } {
  const customer = invoice.customer;
  if (typeof customer !== 'object' || customer === null) return { invoice };
  const mobile = (customer as { mobile?: unknown }).mobile;
  const problem = typeof mobile === 'string' ? egyptianMobileProblem(mobile) : undefined;
  if (typeof mobile !== 'string' || problem?.fix === undefined) return { invoice };
  const quoted = quotedVisibly(mobile);
  return {
    invoice: { ...invoice, customer: { ...customer, mobile: problem.fix } },
    fixed: {
      path: 'customer.mobile',
      message: `${quoted} ${problem.why}; sent as ${problem.fix} (--fix-mobiles)`,
      cause: `${problem.why}; sent as the number suggested (--fix-mobiles)`,
      figure: `${quoted} → ${problem.fix}`,
    },
  };
}
