import * as z from 'zod';

// The rules of the dates of an invoice: their wire shapes, days that exist, and years that are not typos.

/** The first and last years a date may fall in: a date outside is far more likely a typo than an invoice. */
export const dateRange = { first: 2000, last: 2100 } as const;
const inRangePrefix = '(?:20\\d{2}|2100)-\\d{2}-\\d{2}';
const monthNames = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
/** Days of each month in a year that is not a leap year. */
const daysOfMonth = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;
/** The Gregorian rule: 2000 and 2096 are leap years, 2100 is not. */
const isLeapYear = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
const ordinal = (day: number) =>
  `${day}${day % 10 === 1 && day !== 11 ? 'st' : day % 10 === 2 && day !== 12 ? 'nd' : day % 10 === 3 && day !== 13 ? 'rd' : 'th'}`;

/**
 * What is wrong with the day a date text starts with (`YYYY-MM-DD...`), if anything: a day the month does not have
 * ("February 2026 has no 30th day"), or a year outside `dateRange`. Undefined for text of another shape.
 */
export function dayProblem(input: unknown): string | undefined {
  const match = typeof input === 'string' ? /^\s*\d{4}-\d{2}-\d{2}/.exec(input) : null;
  return match ? problemOfDay(match[0].trimStart()) : undefined;
}

/** What is wrong with the day of `date`, text that starts `YYYY-MM-DD` (read by position: a bulk run checks 300,000). */
function problemOfDay(date: string): string | undefined {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  const day = Number(date.slice(8, 10));
  if (month < 1 || month > 12) return `has no month ${date.slice(5, 7)} (months are 01 to 12)`;
  const daysInMonth = month === 2 ? (isLeapYear(year) ? 29 : 28) : (daysOfMonth[month - 1] as number);
  if (day < 1 || day > daysInMonth) return `${monthNames[month - 1]} ${year} has no ${ordinal(day)} day`;
  if (year < dateRange.first || year > dateRange.last) {
    return `must be from ${dateRange.first}-01-01 to ${dateRange.last}-12-31 (is the year a typo?)`;
  }
  return undefined;
}

/** The check of a date's day and year, once its shape is right (a wrong shape has said it already). */
const checkDay = (ctx: z.core.ParsePayload<string>) => {
  if (ctx.issues.length > 0) return;
  const message = problemOfDay(ctx.value);
  if (message) ctx.issues.push({ code: 'custom', input: ctx.value, message });
};

/** A calendar date `YYYY-MM-DD` that exists (2026-02-30 does not), from 2000 to 2100. */
export const calendarDate = () =>
  z.iso
    .date({
      error: (issue) =>
        issue.input === undefined
          ? 'is required'
          : (dayProblem(issue.input) ?? 'must be a real date in the form YYYY-MM-DD (e.g. 2026-12-31)'),
    })
    .check(checkDay)
    .meta({ allOf: [{ pattern: `^${inRangePrefix}$` }] });

/** A UTC instant in the exact shape `YYYY-MM-DDThh:mm:ss.sssZ`, from 2000 to 2100. */
export const utcInstant = () =>
  z.iso
    .datetime({
      precision: 3,
      error: (issue) =>
        issue.input === undefined
          ? 'is required'
          : (dayProblem(issue.input) ??
            'must be a real UTC date-time in the form YYYY-MM-DDThh:mm:ss.sssZ (e.g. 2026-12-31T23:59:59.000Z)'),
    })
    .check(checkDay)
    .meta({ allOf: [{ pattern: `^${inRangePrefix}T` }] });
