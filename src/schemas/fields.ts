import * as z from 'zod';

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

/**
 * True when `value` has at most two decimals as written: it is the number nearest to a whole count of hundredths
 * (19.99 is, though 19.99 / 0.01 is 1998.9999999999998; 12.505 and 1.000000001 are not). Exact at every
 * magnitude, and the verdict VS Code gives on the JSON Schema's `multipleOf: 0.01`, which it checks on the number's
 * decimal form.
 */
const hasAtMostTwoDecimals = (value: number) => Number.isInteger(value) || Math.round(value * 100) / 100 === value;

/**
 * Non-empty text (after trimming). "Not empty" is a pattern (`\S`, a character `trim()` keeps) rather than a minimum
 * length, so the JSON Schema, which sees the text untrimmed, refuses blank text too.
 */
export const text = () =>
  z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be text') })
    .trim()
    .regex(/\S/, { error: 'must not be empty' });

/** The first money rule `value` breaks, if any; `twoDecimals` says whether it has at most two decimals. */
function moneyProblem(
  value: number,
  inRange: (value: number) => boolean,
  rangeMessage: string,
  twoDecimals = hasAtMostTwoDecimals(value),
) {
  if (!Number.isFinite(value)) return 'must be a finite number';
  if (!inRange(value)) return rangeMessage;
  if (!twoDecimals) return 'must have at most two decimals';
  return undefined;
}

/**
 * A finite amount in range with at most two decimals (the currency has two minor digits). One check reports the
 * first rule broken, without `abort`: an aborting issue would stop the invoice's e-mail rule from running too.
 */
const money = (
  inRange: (value: number) => boolean,
  rangeMessage: string,
  range: { exclusiveMinimum: number } | { minimum: number },
) =>
  z
    .number({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a number') })
    .check((ctx) => {
      const message = moneyProblem(ctx.value, inRange, rangeMessage);
      // `continue` keeps the issue from counting as a wrong type, so a union holding this reports it as it is.
      if (message) ctx.issues.push({ code: 'custom', input: ctx.value, message, continue: true });
    })
    .meta({ ...range, multipleOf: 0.01 });

/** An amount that must be above zero. */
export const positiveMoney = () => money((value) => value > 0, 'must be greater than 0', { exclusiveMinimum: 0 });

/** An amount that may be zero. */
export const nonNegativeMoney = () => money((value) => value >= 0, 'must be 0 or more', { minimum: 0 });

/** Text a string amount may hold: digits with an optional fraction, an optional minus, surrounding blanks. */
const numericText = /^\s*-?\d+(\.\d+)?\s*$/;
/** Numeric text with at most two decimals once trailing zeros are dropped (`12.50` and `12.500` are 12.5). */
const twoDecimalsText = /^\s*-?\d+(\.\d{1,2}0*)?\s*$/;
/** Numeric text above zero with at most two decimals: what `positiveMoneyText` accepts, as one pattern. */
const positiveMoneyTextPattern = String.raw`^\s*(?:\d*[1-9]\d*(?:\.\d{1,2}0*)?|\d+\.(?:0[1-9]|[1-9]\d?)0*)\s*$`;

/**
 * An amount above zero written as text (`"12.50"`); `Number()` makes it the amount. Its decimals are read from the
 * digits, not from the float they make, so the JSON Schema pattern says exactly what this accepts.
 */
export const positiveMoneyText = () =>
  z
    .string()
    .check((ctx) => {
      const message = numericText.test(ctx.value)
        ? moneyProblem(
            Number(ctx.value),
            (value) => value > 0,
            'must be greater than 0',
            twoDecimalsText.test(ctx.value),
          )
        : 'must be a number';
      if (message) ctx.issues.push({ code: 'custom', input: ctx.value, message, continue: true });
    })
    .meta({ pattern: positiveMoneyTextPattern });

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

/**
 * A mobile number: an optional `+` and 7 to 15 digits, no spaces. The pattern allows the blanks `trim()` removes,
 * so the JSON Schema, which sees the text untrimmed, accepts what this does.
 */
export const mobileNumber = () =>
  text().regex(/^\s*\+?\d{7,15}\s*$/, {
    error: 'must be a mobile number: an optional + and 7 to 15 digits, no spaces',
  });

/**
 * An e-mail address, by zod's own e-mail pattern. Written as a pattern rather than `z.email()` so the JSON Schema
 * carries no `format: email`, which validators check with patterns of their own that disagree with this one.
 */
export const emailAddress = () =>
  z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be an e-mail address') })
    .regex(z.regexes.email, { error: 'must be an e-mail address' });

/**
 * A percentage from 0 to 100 as text: digits with an optional fraction, surrounding blanks allowed. The range is
 * read from the digits (0-99 with any fraction, or 100 with zeros), so the JSON Schema pattern is the whole rule.
 */
const percentageText = /^\s*0*(?:\d{1,2}(?:\.\d+)?|100(?:\.0+)?)\s*$/;

/** A percentage from 0 to 100, taken as text or number; sent as text, the type the service documents. */
export const taxesPercentage = () => {
  const error = 'must be a percentage from 0 to 100 (e.g. 14)';
  return z
    .union([z.number().min(0, { error }).max(100, { error }), z.string().regex(percentageText, { error })], { error })
    .transform((value) => String(Number(value)));
};

/** A yes/no flag; the service's samples send the text "true"/"false", so both shapes are read as a boolean. */
export const flag = () =>
  z
    .union([z.boolean(), z.enum(['true', 'false'])], { error: 'must be true or false' })
    .transform((value) => value === true || value === 'true');

/**
 * A field that belongs to the other kind of invoice: present at all, it is an error naming the right place. In JSON
 * Schema, `not: {}`.
 */
export const notInScope = (message: string) => z.never({ error: message }).optional();

/** An invoice number as it may appear in a URL path: letters, digits, `-` and `_`. */
export const invoiceNumber = () =>
  text().regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'must be an invoice number: letters, digits, - or _ only' });
