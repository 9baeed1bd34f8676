// The merchant's clock: calendar dates and the start and end of a day in an IANA time zone, with the platform's Intl
// (no table of our own). Zod-free: the input, the bulk plan and the previews use it.

/** True when `name` is a time zone the platform knows (an IANA name such as `Africa/Cairo`, or `UTC`). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The time zone of this process: `TZ`, else the system's. */
export function processTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock fields of `instant` in `timeZone`. */
function wallClock(instant: number, timeZone: string): number[] {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(timeZone, format);
  }
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(instant)) parts[part.type] = Number(part.value);
  return [parts.year ?? 0, parts.month ?? 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0];
}

/** How far `timeZone`'s wall clock is ahead of UTC at `instant`, in milliseconds. */
function offsetAt(instant: number, timeZone: string): number {
  const [year, month, day, hour, minute, second] = wallClock(instant, timeZone) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  return Date.UTC(year, month - 1, day, hour, minute, second) - (instant - (((instant % 1000) + 1000) % 1000));
}

/** The calendar date `YYYY-MM-DD` of `instant` in `timeZone`. */
export function calendarDateIn(instant: Date, timeZone: string): string {
  const [year, month, day] = wallClock(instant.getTime(), timeZone) as [number, number, number];
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** `date` (`YYYY-MM-DD`) moved by `days` on the calendar. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00.000Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * The days already worked out, by zone and date, as the text sent: a bulk file gives the same few dates on every
 * record, and each costs several Intl calls. Dates run from 2000 to 2100, so the map stays small.
 */
const dayEdges = new Map<string, string>();

/**
 * The first instant of `date` (`YYYY-MM-DD`, a day that exists) in `timeZone`, as `YYYY-MM-DDThh:mm:ss.sssZ`: its
 * midnight, or the first hour a DST change leaves.
 */
export function startOfDayIn(date: string, timeZone: string): string {
  const key = `${timeZone} ${date}`;
  let start = dayEdges.get(key);
  if (start === undefined) {
    start = new Date(startInstant(date, timeZone)).toISOString();
    dayEdges.set(key, start);
  }
  return start;
}

/** The last millisecond of `date` (`YYYY-MM-DD`, a day that exists) in `timeZone`, as `YYYY-MM-DDThh:mm:ss.sssZ`. */
export function endOfDayIn(date: string, timeZone: string): string {
  const key = `${timeZone} ${date} end`;
  let end = dayEdges.get(key);
  if (end === undefined) {
    end = new Date(startInstant(addDays(date, 1), timeZone) - 1).toISOString();
    dayEdges.set(key, end);
  }
  return end;
}

function startInstant(date: string, timeZone: string): number {
  const midnight = Date.parse(`${date}T00:00:00.000Z`);
  let instant = midnight - offsetAt(midnight, timeZone);
  // The offset at the instant found may differ from the one guessed (a DST change that night): once more.
  instant = midnight - offsetAt(instant, timeZone);
  // A day that starts with a skipped hour begins at the first instant that is on that date.
  if (calendarDateIn(new Date(instant), timeZone) !== date) instant += 3_600_000;
  return instant;
}

/**
 * The instant a wall clock reads in `timeZone`: `wall` holds the clock's fields as UTC (as a workbook's date-time
 * cell does). A time a DST change skips is read an hour later.
 */
export function instantOfWallClock(wall: Date, timeZone: string): Date {
  const clock = wall.getTime();
  let instant = clock - offsetAt(clock, timeZone);
  instant = clock - offsetAt(instant, timeZone);
  return new Date(instant);
}

/** What the wall clock of `timeZone` reads at `instant`, as a date whose UTC fields are that clock (for a workbook). */
export function wallClockIn(instant: Date, timeZone: string): Date {
  const time = instant.getTime();
  return new Date(time + offsetAt(time, timeZone));
}
