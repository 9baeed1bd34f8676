import type { FieldIssue } from '../errors.js';
import { addMonths } from '../schemas/months.js';

// Turns what a merchant types for a date into the wire shape. Anything not understood is passed through unchanged,
// so the schema reports it with its own message. Calendar dates are UTC dates.

/** Which wire shape a date field takes, and where a bare date falls in the day. */
export type DateField = 'sendingDate' | 'releaseDate' | 'expiryDate';

/** The date fields of an invoice. */
export const dateFields: readonly DateField[] = ['sendingDate', 'expiryDate', 'releaseDate'];

/** True when `path` is one of the date fields. */
const isDateField = (path: string): path is DateField => (dateFields as readonly string[]).includes(path);

const relativePattern = /^\+(\d{1,4})([dwm])$/;
const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/;
const wireInstantPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The UTC calendar date of an instant: `YYYY-MM-DD`. */
export function toCalendarDate(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

/** Resolves `today`, `tomorrow` and `+7d`/`+2w`/`+1m` against `now`; undefined for anything else. */
export function resolveRelative(text: string, now: Date): Date | undefined {
  const value = text.trim().toLowerCase();
  if (value === 'today' || value === 'now') return new Date(now.getTime());
  if (value === 'tomorrow') return new Date(now.getTime() + 86_400_000);
  const match = relativePattern.exec(value);
  if (!match) return undefined;
  const amount = Number(match[1]);
  const unit = match[2];
  if (unit === 'm') return addMonths(now, amount);
  return new Date(now.getTime() + amount * (unit === 'w' ? 7 : 1) * 86_400_000);
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

/**
 * Normalises a date as typed to the wire shape of `field`:
 * - sendingDate: `YYYY-MM-DD` (from a date, an instant, or a relative date);
 * - releaseDate / expiryDate: `YYYY-MM-DDThh:mm:ss.sssZ`. A bare date means the start of that UTC day for the
 *   release and its last millisecond for the expiry, so an invoice stays payable through its expiry date.
 */
export function normalizeDate(field: DateField, input: unknown, now: Date): unknown {
  if (typeof input !== 'string') return input;
  // Already in its wire shape (the usual case in bulk files): the schema checks it, nothing to convert.
  if ((field === 'sendingDate' ? datePattern : wireInstantPattern).test(input)) return input;
  const text = input.trim();
  const relative = resolveRelative(text, now);
  const bareDate = datePattern.exec(text);

  if (field === 'sendingDate') {
    if (relative) return toCalendarDate(relative);
    if (bareDate) return text;
    const instant = parseInstant(text);
    return instant ? toCalendarDate(instant) : input;
  }

  if (relative) return relative.toISOString();
  if (bareDate) {
    if (!isRealDate(text)) return input;
    return field === 'expiryDate' ? `${text}T23:59:59.999Z` : `${text}T00:00:00.000Z`;
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
