import { z } from 'zod';

// Field rules shared by every request schema. Messages read after the field path: "items[2].price: must be ...".

/** Languages the service writes notifications in. */
export const communicationLangs = ['en-gb', 'ar-eg'] as const;
/** How the customer is notified; NONE sends nothing. */
export const communicationMethods = ['SMS', 'EMAIL', 'BOTH', 'NONE'] as const;
/** How the customer pays a single invoice. */
export const paymentTypes = ['PUSH_TO_CUSTOMER', 'PUSH_TO_SERVICE_PAY'] as const;
/** Interval unit of a recurring invoice. */
export const cycleTypes = ['MONTH', 'WEEK'] as const;
/** Kinds of discount of a recurring invoice; an item discount of a single invoice is FLAT only. */
export const discountTypes = ['FLAT', 'PERCENTAGE'] as const;
/** Payment methods the spec names; a merchant may be allowed others, so any non-empty text is accepted. */
export const knownPaymentMethods = ['PayAtService', 'CARD', 'VALU'] as const;

/** Methods that need the customer's e-mail address. */
export const methodsNeedingEmail: ReadonlySet<string> = new Set(['EMAIL', 'BOTH']);

const hasAtMostTwoDecimals = (value: number) => Math.abs(Math.round(value * 100) - value * 100) < 1e-6;

/** Non-empty text (after trimming). */
export const text = () =>
  z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be text') })
    .trim()
    .min(1, { error: 'must not be empty' });

/** The first money rule `value` breaks, if any. */
function moneyProblem(value: number, inRange: (value: number) => boolean, rangeMessage: string) {
  if (!Number.isFinite(value)) return 'must be a finite number';
  if (!inRange(value)) return rangeMessage;
  if (!hasAtMostTwoDecimals(value)) return 'must have at most two decimals';
  return undefined;
}

/**
 * A finite amount in range with at most two decimals (the currency has two minor digits). One check reports the
 * first rule broken, without `abort`: an aborting issue would stop the invoice's e-mail rule from running too.
 */
const money = (inRange: (value: number) => boolean, rangeMessage: string) =>
  z.number({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a number') }).check((ctx) => {
    const message = moneyProblem(ctx.value, inRange, rangeMessage);
    if (message) ctx.issues.push({ code: 'custom', input: ctx.value, message });
  });

/** An amount that must be above zero. */
export const positiveMoney = () => money((value) => value > 0, 'must be greater than 0');

/** An amount that may be zero. */
export const nonNegativeMoney = () => money((value) => value >= 0, 'must be 0 or more');

/** A whole number of at least `min`. */
export const wholeNumber = (min: number) =>
  z
    .number({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a whole number') })
    .int({ error: 'must be a whole number' })
    .min(min, { error: `must be at least ${min}` });

/** One of the listed values, with the list in the message. */
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, {
    error: (issue) => (issue.input === undefined ? 'is required' : `must be one of ${values.join(', ')}`),
  });

/** A calendar date `YYYY-MM-DD` that exists (2026-02-30 does not). */
export const calendarDate = () =>
  z.iso.date({
    error: (issue) =>
      issue.input === undefined ? 'is required' : 'must be a real date in the form YYYY-MM-DD (e.g. 2026-12-31)',
  });

/** A UTC instant in the exact shape `YYYY-MM-DDThh:mm:ss.sssZ`. */
export const utcInstant = () =>
  z.iso.datetime({
    precision: 3,
    error: (issue) =>
      issue.input === undefined
        ? 'is required'
        : 'must be a real UTC date-time in the form YYYY-MM-DDThh:mm:ss.sssZ (e.g. 2026-12-31T23:59:59.000Z)',
  });

/** A mobile number: an optional `+` and 7 to 15 digits, no spaces. */
export const mobileNumber = () =>
  text().regex(/^\+?\d{7,15}$/, { error: 'must be a mobile number: an optional + and 7 to 15 digits, no spaces' });

/** An e-mail address. */
export const emailAddress = () =>
  z.email({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be an e-mail address') });

/** A percentage from 0 to 100, taken as text or number; sent as text, the type the service documents. */
export const taxesPercentage = () =>
  z
    .union(
      [
        z.number(),
        z
          .string()
          .trim()
          .regex(/^\d+(\.\d+)?$/, { error: 'must be a percentage from 0 to 100 (e.g. 14)' }),
      ],
      {
        error: 'must be a percentage from 0 to 100 (e.g. 14)',
      },
    )
    .transform((value) => Number(value))
    .refine((value) => Number.isFinite(value) && value >= 0 && value <= 100, {
      error: 'must be a percentage from 0 to 100 (e.g. 14)',
    })
    .transform((value) => String(value));

/** A yes/no flag; the service's samples send the text "true"/"false", so both shapes are read as a boolean. */
export const flag = () =>
  z
    .union([z.boolean(), z.enum(['true', 'false'])], { error: 'must be true or false' })
    .transform((value) => value === true || value === 'true');

/** A field that belongs to the other kind of invoice: present at all, it is an error naming the right place. */
export const notInScope = (message: string) => z.undefined({ error: message }).optional();

/** An invoice number as it may appear in a URL path: letters, digits, `-` and `_`. */
export const invoiceNumber = () =>
  text().regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'must be an invoice number: letters, digits, - or _ only' });
