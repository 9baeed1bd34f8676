import type { FieldIssue } from '../errors.js';
import { addMonths } from '../schemas/months.js';
import { addDays, calendarDateIn, endOfDayIn, startOfDayIn } from '../schemas/time-zone.js';

// Turns what a merchant types for a date into the wire shape. Anything not understood is passed through unchanged,
// so the schema reports it with its own message. Days are the merchant's: counted in their time zone.

/** Which wire shape a date field takes, and where a bare date falls in the day. */
export type DateField = 'sendingDate' | 'releaseDate' | 'expiryDate';

/** The date fields of an invoice. */
export const dateFields: readonly DateField[] = ['sendingDate', 'expiryDate', 'releaseDate'];

/** True when `path` is one of the date fields. */
const isDateField = (path: string): path is DateField => (dateFields as readonly string[]).includes(path);

const relativePattern = /^\+(\d{1,4})([dwm])$/;
/** A day counted back as well as forward (`-7d`), for the days a merchant looks back on (`invoices list --since`). */
const signedPattern = /^([+-])(\d{1,4})([dwm])$/;
const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/;
const wireInstantPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The UTC calendar date of an instant: `YYYY-MM-DD`. */
export function toCalendarDate(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

/**
 * An issue of a date field's shape worded with every form the CLI reads: the schema names only the shape the service
 * takes, and a merchant may type `+30d`. A missing date stays "is required", and a day that does not exist or a year
 * out of range keeps its own message ("February 2026 has no 30th day").
 */
export function withDateForms(issue: FieldIssue): FieldIssue {
  return isDateField(issue.path) && issue.message.startsWith('must be a real')
    ? { ...issue, message: `must be ${acceptedDateForms(issue.path)}` }
    : issue;
}

/** What `normalizeDate` understands for `field`, worded for an error message: more than the wire shape. */
function acceptedDateForms(field: DateField): string {
  const relative = 'today, tomorrow, or +Nd, +Nw, +Nm (e.g. +30d)';
  return field === 'sendingDate'
    ? `a date YYYY-MM-DD (e.g. 2026-12-31), ${relative}`
    : `a date YYYY-MM-DD, a UTC date-time YYYY-MM-DDThh:mm:ss.sssZ, ${relative}`;
}

/** The merchant's clock: the instant relative dates count from, and the time zone whose days they name. */
export interface MerchantClock {
  now: Date;
  /** An IANA time zone (`Africa/Cairo`); UTC when absent. */
  timeZone?: string;
  /** Heard each time a date is read as a day of the zone (a bare day, today, +30d): a run may owe a warning. */
  dayRead?: () => void;
}

/** True when `value` (trimmed, lower case) is a relative date: `today`, `now`, `tomorrow`, `+7d`, `+2w`, `+1m`. */
function isRelative(value: string): boolean {
  return value === 'today' || value === 'now' || value === 'tomorrow' || relativePattern.test(value);
}

/**
 * `today`, `tomorrow`, `+7d`, `+2w`, `+1m` as a calendar date counted from `from`; with `past`, `yesterday` and
 * `-7d`, `-2w`, `-1m` too. Undefined for anything else.
 */
export function relativeDay(text: string, from: string, { past = false } = {}): string | undefined {
  const value = text.trim().toLowerCase();
  if (value === 'today' || value === 'now') return from;
  if (value === 'tomorrow') return addDays(from, 1);
  if (past && value === 'yesterday') return addDays(from, -1);
  const match = (past ? signedPattern : relativePattern).exec(value);
  if (!match) return undefined;
  const [, sign, digits, unit] = past ? match : ['', '+', match[1], match[2]];
  const amount = Number(digits) * (sign === '-' ? -1 : 1);
  if (unit === 'm') return toCalendarDate(addMonths(new Date(`${from}T00:00:00.000Z`), amount));
  return addDays(from, amount * (unit === 'w' ? 7 : 1));
}

/**
 * Normalises a date as typed to the wire shape of `field`, on the merchant's clock (`now`, or a clock with its
 * time zone; UTC when none is given):
 * - sendingDate: `YYYY-MM-DD` (from a date, an instant, or a relative date counted from today in the zone);
 * - releaseDate / expiryDate: `YYYY-MM-DDThh:mm:ss.sssZ`. A bare date means the start of that day in the zone for
 *   the release and its last millisecond for the expiry, so an invoice stays payable through its expiry date. A
 *   relative release is the start of that day (`today` and `now`: this instant); a relative expiry is the end of
 *   that day, `+30d` counted from `sendingDate` when it is known (a recurring invoice sent on 2026-12-01 expires 30
 *   days after that), else from today.
 */
export function normalizeDate(
  field: DateField,
  input: unknown,
  at: Date | MerchantClock,
  sendingDate?: unknown,
): unknown {
  if (typeof input !== 'string') return input;
  // Already in its wire shape (the usual case in bulk files): the schema checks it, nothing to convert.
  if ((field === 'sendingDate' ? datePattern : wireInstantPattern).test(input)) return input;
  const { now, timeZone = 'UTC', dayRead } = at instanceof Date ? { now: at } : at;
  const text = input.trim();
  const today = () => {
    dayRead?.();
    return calendarDateIn(now, timeZone);
  };
  const bareDate = datePattern.exec(text);

  if (field === 'sendingDate') {
    const relative = relativeDay(text, today());
    if (relative) return relative;
    if (bareDate) return text;
    const instant = parseInstant(text);
    return instant ? toCalendarDate(instant) : input;
  }

  const lower = text.toLowerCase();
  if (field === 'releaseDate' && (lower === 'today' || lower === 'now')) return now.toISOString();
  const countsFromSending =
    field === 'expiryDate' && relativePattern.test(lower) && typeof sendingDate === 'string' && isRealDate(sendingDate);
  // A bare date (the usual case in a bulk file) needs no today: that takes the zone's calendar, some Intl calls.
  const day = bareDate
    ? text
    : isRelative(lower)
      ? relativeDay(text, countsFromSending ? (sendingDate as string) : today())
      : undefined;
  if (day) {
    if (!isRealDate(day)) return input;
    dayRead?.();
    return field === 'expiryDate' ? endOfDayIn(day, timeZone) : startOfDayIn(day, timeZone);
  }
  const instant = parseInstant(text);
  return instant ? instant.toISOString() : input;
}

/** True when `YYYY-MM-DD` names a day that exists. */
export function isRealDate(text: string): boolean {
  const match = datePattern.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** A full ISO 8601 date-time with a zone (Z or an offset); impossible dates are refused, not rolled over. */
function parseInstant(text: string): Date | undefined {
  const match = /^(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i.exec(text);
  if (!match || !isRealDate(match[1] as string)) return undefined;
  const parsed = new Date(text);
  return Number.isNaN(parsed.getTime()) ? undefined : parsed;
}
