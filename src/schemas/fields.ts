import * as z from 'zod';
import { InexactNumber, inexactMessage, readNumberText } from './exact-json.js';
import {
  decimalOfNumber,
  decimalPlaces,
  decimalToMinor,
  decimalToText,
  maxAmount,
  maxAmountMinor,
  maxAmountText,
  maxQuantity,
  maxQuantityText,
  minorOfTwoDecimals,
  parseDecimal,
  type Decimal,
} from './money.js';

// Field rules shared by every request schema. Messages read after the field path: "items[2].price: must be ...".

/**
 * The error of a field that takes a number: "is required", the inexact-number message, or `expected`, which names a
 * number given in quotes ("49.99" in a JSON file) as text: the service takes a JSON number there.
 */
export const numberError =
  (expected: string, ceiling?: string) =>
  (issue: { input?: unknown }): string => {
    const { input } = issue;
    if (input === undefined) return 'is required';
    if (input instanceof InexactNumber) return inexactMessage(input, ceiling);
    if (typeof input !== 'string') return expected;
    if (readNumberText(input) !== undefined) return `${expected}, not text (${JSON.stringify(input)})`;
    const hint = spreadsheetNumberHint(input);
    return hint ? `${expected}, ${hint}` : expected;
  };

/**
 * How a number written as a spreadsheet shows it is written for the service: `1,250.00` without its thousands
 * separators, `12,50` with a decimal point. Undefined for any other text.
 */
function spreadsheetNumberHint(text: string): string | undefined {
  const trimmed = text.trim();
  if (/^-?\d{1,3}(,\d{3})+(\.\d+)?$/.test(trimmed))
    return `written without thousands separators: ${trimmed.replaceAll(',', '')}`;
  if (/^-?\d+,\d{1,2}$/.test(trimmed)) return `written with a decimal point: ${trimmed.replace(',', '.')}`;
  if (/^-?\d{1,3}(\.\d{3})+,\d{1,2}$/.test(trimmed)) {
    return `written with a decimal point and no thousands separators: ${trimmed.replaceAll('.', '').replace(',', '.')}`;
  }
  return undefined;
}

/**
 * Control characters (C0, DEL, C1), the line and paragraph separators (U+2028, U+2029: line breaks too), and the
 * bidirectional overrides and isolates that reorder what a reader sees.
 */
const forbiddenRange = String.raw`\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069`;
const forbiddenCharacters = new RegExp(`[${forbiddenRange}]`);
/** No forbidden character between the blanks at the ends, which are trimmed (so the JSON Schema allows them). */
const withoutForbiddenCharacters = new RegExp(`^\\s*[^${forbiddenRange}]*\\s*$`);
/** No forbidden character at all, for text sent untrimmed. */
const withoutForbiddenCharactersAnywhere = new RegExp(`^[^${forbiddenRange}]*$`);

/** Names the first forbidden character of `input`, e.g. "must not contain control characters (found U+001B)". */
function forbiddenCharacterMessage(input: unknown): string {
  const found = typeof input === 'string' ? forbiddenCharacters.exec(input)?.[0] : undefined;
  const code = found ? `U+${(found.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}` : '';
  const kind =
    found && /[\u202a-\u202e\u2066-\u2069]/.test(found)
      ? 'bidirectional override or isolate characters'
      : 'control characters';
  // A line break is what a merchant calls it (a note pasted with several lines, a cell of a sheet with two).
  const named = found !== undefined && /[\n\r\u2028\u2029]/.test(found) ? `a line break, ${code}` : code;
  return `must not contain ${kind}${code ? ` (found ${named})` : ''}`;
}

/**
 * Non-empty text (after trimming) without control characters or bidirectional overrides: such characters can hide or
 * reorder what the customer and the merchant read. Arabic text, its marks included, passes unchanged. "Not empty" is
 * a pattern (`\S`, a character `trim()` keeps) rather than a minimum length, so the JSON Schema, which sees the text
 * untrimmed, refuses blank text too; blanks at the ends (tabs and line breaks too) are trimmed, not refused.
 */
export const text = () =>
  z
    .string({
      error: (issue) =>
        issue.input === undefined
          ? 'is required'
          : // An order reference or a code written as a JSON number: the service takes text there.
            typeof issue.input === 'number' && Number.isFinite(issue.input)
            ? `must be text, not the number ${issue.input} (in quotes: "${issue.input}")`
            : 'must be text',
    })
    .check(sendableText)
    .trim()
    .regex(withoutForbiddenCharacters, { error: (issue) => forbiddenCharacterMessage(issue.input) })
    .regex(/\S/, { error: 'must not be empty' });

/** Half of a character: a high surrogate without its low one, or a low one alone. */
const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** What text holding U+FFFD is told: characters that were not text in the encoding its file was read in. */
export const unreadableTextMessage =
  'holds characters that could not be read (shown as \uFFFD): it was saved in another encoding than the one read';

/**
 * What makes text impossible to send as typed, if anything: U+FFFD, the mark a decoder leaves where bytes were not
 * text in the encoding read (a sheet saved in Windows-1256 and read as UTF-8), or a lone surrogate (`"\ud800"` in
 * JSON), half of a character.
 */
export function unsendableTextProblem(value: string): string | undefined {
  if (value.includes('\uFFFD')) return unreadableTextMessage;
  const lone = loneSurrogate.exec(value)?.[0];
  if (lone !== undefined) {
    const code = `U+${(lone.codePointAt(0) ?? 0).toString(16).toUpperCase()}`;
    return `holds a lone surrogate (${code}), half of a character: it is not text that can be sent`;
  }
  return undefined;
}

/** The check of `unsendableTextProblem`. Without `abort`, which would stop the invoice's e-mail rule from running. */
function sendableText(ctx: z.core.ParsePayload<string>): void {
  const message = unsendableTextProblem(ctx.value);
  if (message) ctx.issues.push({ code: 'custom', input: ctx.value, message, continue: true });
}

/** The first money rule `value` breaks, if any: from its hundredths when it has at most two decimals, else its text. */
function moneyProblemOf(value: number, positive: boolean): string | undefined {
  const minor = minorOfTwoDecimals(value);
  if (minor === undefined) return moneyProblem(decimalOfNumber(value), positive);
  if (minor < 0 || (positive && minor === 0)) return positive ? 'must be greater than 0' : 'must be 0 or more';
  return minor > Number(maxAmountMinor) ? `must be at most ${maxAmountText}` : undefined;
}

/** The first money rule a decimal breaks, if any. */
function moneyProblem(decimal: Decimal | undefined, positive: boolean): string | undefined {
  if (!decimal) return 'must be a finite number';
  if (decimal.negative || (positive && decimal.digits === '0'))
    return positive ? 'must be greater than 0' : 'must be 0 or more';
  if (decimalPlaces(decimal) > 2) return `must have at most two decimals${computedNote(decimal)}`;
  if (decimalToMinor(decimal) > maxAmountMinor) return `must be at most ${maxAmountText}`;
  return undefined;
}

/**
 * What a value a spreadsheet or a program computed says of itself: 99.99000000000001 is 99.99 plus the rounding of
 * binary fractions, twelve decimals and more from it. Told, never rounded here: where it was computed knows.
 */
function computedNote(decimal: Decimal): string {
  if (decimalPlaces(decimal) < 12) return '';
  const text = decimalToText(decimal);
  const near = Number(text).toFixed(2);
  return Math.abs(Number(text) - Number(near)) < 1e-9
    ? `: ${text} is ${near} as a computation left it; round it where it is computed (=ROUND(..., 2) in a sheet)`
    : '';
}

/**
 * A finite amount in range with at most two decimals (the currency has two minor digits), at most the ceiling, read
 * from its decimal text. One check reports the first rule broken, without `abort`: an aborting issue would stop the
 * invoice's e-mail rule from running too.
 */
const money = (positive: boolean) =>
  z
    .number({ error: numberError('must be a number', maxAmountText) })
    .check((ctx) => {
      const message = moneyProblemOf(ctx.value, positive);
      // `continue` keeps the issue from counting as a wrong type, so a union holding this reports it as it is.
      if (message) ctx.issues.push({ code: 'custom', input: ctx.value, message, continue: true });
    })
    .meta({ ...(positive ? { exclusiveMinimum: 0 } : { minimum: 0 }), maximum: maxAmount, multipleOf: 0.01 });

/** An amount that must be above zero. */
export const positiveMoney = () => money(true);

/** An amount that may be zero. */
export const nonNegativeMoney = () => money(false);

/** Text a string amount may hold: digits with an optional fraction, an optional minus, surrounding blanks. */
const numericText = /^\s*-?\d+(\.\d+)?\s*$/;
/** Numeric text above zero, at most the ceiling, with at most two decimals: what `positiveMoneyText` accepts. */
const positiveMoneyTextPattern = String.raw`^\s*(?:0*[1-9]\d{0,12}(?:\.\d{1,2}0*)?|0+\.(?:0[1-9]|[1-9]\d?)0*)\s*$`;

/**
 * An amount above zero written as text (`"12.50"`); `Number()` makes it the amount, exactly, as it is within the
 * ceiling. Its decimals are read from the digits, so the JSON Schema pattern says exactly what this accepts.
 */
export const positiveMoneyText = () =>
  z
    .string()
    .check((ctx) => {
      const hint = spreadsheetNumberHint(ctx.value);
      const message = numericText.test(ctx.value)
        ? moneyProblem(parseDecimal(ctx.value), true)
        : `must be a number${hint ? `, ${hint}` : ''}`;
      if (message) ctx.issues.push({ code: 'custom', input: ctx.value, message, continue: true });
    })
    .meta({ pattern: positiveMoneyTextPattern });

/** A whole number of at least `min`, and at most `max` when given (with the text a merchant reads). */
export const wholeNumber = (min: number, max?: { value: number; text: string }) => {
  const number = z
    .number({ error: numberError('must be a whole number', max?.text) })
    .min(min, { error: `must be at least ${min}` });
  // Whole is checked only within the range: past it, "must be a whole number" would say less. Without `abort`, which
  // would stop the invoice's e-mail rule from running too.
  return (max ? number.max(max.value, { error: `must be at most ${max.text}` }) : number)
    .check((ctx) => {
      if (ctx.issues.length === 0 && !Number.isInteger(ctx.value)) {
        ctx.issues.push({ code: 'custom', input: ctx.value, message: 'must be a whole number' });
      }
    })
    .meta({ type: 'integer' });
};

/** The quantity of an item: a whole number from 1 to the ceiling. */
export const quantity = () => wholeNumber(1, { value: maxQuantity, text: maxQuantityText });

/** Each letter of `value` in either case, as a pattern: `sms` -> `[Ss][Mm][Ss]`. */
const anyCase = (value: string) =>
  [...value]
    .map((char) =>
      char.toLowerCase() === char.toUpperCase()
        ? char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
        : `[${char.toUpperCase()}${char.toLowerCase()}]`,
    )
    .join('');

/**
 * One of the listed values, in any case and with surrounding blanks (`sms`, ` Sms `), sent as documented (`SMS`);
 * the list is in the message. Editors suggest the values from the JSON Schema's `examples`.
 */
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T, message?: string) => {
  const documented = new Map<string, T[number]>(values.map((value) => [value.toLowerCase(), value]));
  const error = message ?? `must be one of ${values.join(', ')}`;
  return z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : error) })
    .check((ctx) => {
      if (!documented.has(ctx.value.trim().toLowerCase()))
        ctx.issues.push({ code: 'custom', input: ctx.value, message: error });
    })
    .transform((value) => documented.get(value.trim().toLowerCase()) as T[number])
    .meta({ pattern: `^\\s*(?:${values.map(anyCase).join('|')})\\s*$`, examples: [...values] });
};

const mobilePattern = /^\s*\+?[ ()-]*(?:\d[ ()-]*){7,15}\s*$/;
const mobileMessage =
  'must be a mobile number: an optional + and 7 to 15 digits (spaces, dashes and parentheses allowed)';
/** Blanks, dashes and parentheses a mobile number is often written with; dropped before it is sent. */
const mobileSeparators = /[ ()-]/g;

/**
 * A mobile number: an optional `+` and 7 to 15 digits, which may be grouped with spaces, dashes or parentheses
 * (`+20 (101) 234-5678`); it is sent without them (`+201012345678`). The pattern allows the blanks `trim()`
 * removes, so the JSON Schema, which sees the text untrimmed, accepts what this does.
 */
export const mobileNumber = () =>
  text()
    .check((ctx) => {
      // A number holding a control character has been told so already.
      if (ctx.issues.length === 0 && !mobilePattern.test(ctx.value)) {
        // Digits other than 0-9 (Arabic-Indic ٠-٩, Persian ۰-۹) are named: the number looks right to the eye.
        const otherDigits = /[\u0660-\u0669\u06f0-\u06f9]/.test(ctx.value);
        // A spreadsheet that read the number as a number writes it as 2.01012E+11: its last digits are lost.
        const scientific = /^\s*\d(\.\d+)?e\+?\d+\s*$/i.test(ctx.value);
        const message = scientific
          ? `is ${ctx.value.trim()}, a number a spreadsheet wrote in scientific notation and lost digits of: format the column as text and type the number again`
          : otherDigits
            ? `${mobileMessage}; write its digits as 0-9`
            : mobileMessage;
        ctx.issues.push({ code: 'custom', input: ctx.value, message });
      }
    })
    .overwrite((value) => value.replace(mobileSeparators, ''))
    .meta({ allOf: [{ pattern: mobilePattern.source }] });

/**
 * Text sent as it is, in no particular format, untrimmed and possibly empty: text that can be sent (see
 * `unsendableTextProblem`) without the characters `text()` refuses, which a customer's e-mail must not hide either.
 */
export const sendableString = () =>
  z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be text') })
    .check(sendableText)
    .regex(withoutForbiddenCharactersAnywhere, { error: (issue) => forbiddenCharacterMessage(issue.input) });

/**
 * True when `value` is an e-mail address, by zod's own e-mail pattern. A pattern rather than `z.email()`, so the JSON
 * Schema carries no `format: email`, which validators check with patterns of their own that disagree with this one.
 */
export function isEmailAddress(value: string): boolean {
  return z.regexes.email.test(value);
}

/** zod's e-mail pattern, for the JSON Schema. */
export const emailPattern = z.regexes.email.source;

/**
 * A percentage from 0 to 100 as text: digits with an optional fraction, surrounding blanks allowed. The range is
 * read from the digits (0-99 with any fraction, or 100 with zeros), so the JSON Schema pattern is the whole rule.
 */
const percentageText = /^\s*0*(?:\d{1,2}(?:\.\d+)?|100(?:\.0+)?)\s*$/;

/**
 * A percentage from 0 to 100, taken as text or number; sent as text, the type the service documents: the decimal
 * as written, without blanks and leading or trailing zeros (` 014.50 ` is sent as `14.5`), never through a float.
 */
export const taxesPercentage = () => {
  const error = 'must be a percentage from 0 to 100 (e.g. 14)';
  return z
    .union([z.number().min(0, { error }).max(100, { error }), z.string().regex(percentageText, { error })], {
      error: numberError(error, '100'),
    })
    .transform((value) => {
      const decimal = typeof value === 'number' ? decimalOfNumber(value) : parseDecimal(value);
      return decimal ? decimalToText(decimal) : String(value);
    });
};

/** A yes or no; the service's samples send the text "true"/"false", so both shapes are read as a boolean. */
export const yesNo = () =>
  z
    .union([z.boolean(), z.enum(['true', 'false'])], { error: 'must be true or false' })
    .transform((value) => value === true || value === 'true');

/**
 * A field that belongs to the other kind of invoice: present at all, it is an error naming the right place. In JSON
 * Schema, `not: {}`.
 */
export const notInScope = (message: string) => z.never({ error: message }).optional();

/**
 * What an invoice number may be, wherever einvoice meets one: in a request path, and in the answer to a create. The
 * service's interface names no length; 64 characters is ours (docs/sandbox.md, where the interface is silent).
 */
export const invoiceNumberPattern = /^[A-Za-z0-9_-]{1,64}$/;

/** An invoice number as it may appear in a URL path: letters, digits, `-` and `_`. */
export const invoiceNumber = () =>
  text().regex(invoiceNumberPattern, { error: 'must be an invoice number: letters, digits, - or _ only' });
