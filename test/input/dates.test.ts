import { describe, expect, it } from 'vitest';
import { isRealDate, normalizeDate, relativeDay, type DateField } from '../../src/input/dates.js';
import { addMonths } from '../../src/schemas/months.js';
import { invoiceSchemas, validate } from '../../src/schemas/index.js';

// A fixed `now` late in a UTC day, so a date computed in local time instead of UTC would be a day off.
const now = new Date('2024-01-31T22:30:00.000Z');
const at = (instant: string) => new Date(instant);

/** True when the request schema accepts `value` for `field`. */
function schemaAccepts(field: DateField, value: unknown): boolean {
  return validate(invoiceSchemas.single.shape[field], value).success;
}

describe('normalizeDate: sendingDate is a calendar date', () => {
  it.each([
    ['2030-03-01', '2030-03-01'],
    ['2024-02-29', '2024-02-29'],
    ['today', '2024-01-31'],
    ['TODAY ', '2024-01-31'],
    ['tomorrow', '2024-02-01'],
    ['+7d', '2024-02-07'],
    ['+2w', '2024-02-14'],
    ['+1m', '2024-02-29'],
    ['2030-03-01T10:00:00Z', '2030-03-01'],
    // An instant is read in UTC: 01:00 at +03:00 is still the 28th in UTC.
    ['2030-03-01T01:00:00+03:00', '2030-02-28'],
  ])('%j becomes %j', (typed, expected) => {
    const normalized = normalizeDate('sendingDate', typed, now);
    expect(normalized).toBe(expected);
    expect(schemaAccepts('sendingDate', normalized)).toBe(true);
  });
});

describe('normalizeDate: expiry and release are UTC instants with milliseconds', () => {
  it.each<[DateField, string, string]>([
    // A bare expiry date lasts to the end of that UTC day; a bare release date starts at its beginning.
    ['expiryDate', '2030-03-31', '2030-03-31T23:59:59.999Z'],
    ['releaseDate', '2030-03-01', '2030-03-01T00:00:00.000Z'],
    ['expiryDate', '2024-02-29', '2024-02-29T23:59:59.999Z'],
    ['expiryDate', '2030-12-31', '2030-12-31T23:59:59.999Z'],
    ['releaseDate', '2030-04-30', '2030-04-30T00:00:00.000Z'],
    ['releaseDate', 'today', '2024-01-31T22:30:00.000Z'],
    // A relative expiry is the end of that day; without a sending date it counts from today.
    ['expiryDate', 'tomorrow', '2024-02-01T23:59:59.999Z'],
    ['expiryDate', '+7d', '2024-02-07T23:59:59.999Z'],
    ['expiryDate', '+2w', '2024-02-14T23:59:59.999Z'],
    ['expiryDate', '+1m', '2024-02-29T23:59:59.999Z'],
    ['releaseDate', 'tomorrow', '2024-02-01T00:00:00.000Z'],
    ['expiryDate', '2030-03-01T10:00:00+02:00', '2030-03-01T08:00:00.000Z'],
    ['expiryDate', '2030-03-01T10:00-0530', '2030-03-01T15:30:00.000Z'],
    ['releaseDate', '2030-03-01T10:00:00.5Z', '2030-03-01T10:00:00.500Z'],
    ['releaseDate', '2030-03-01T10:00:00.123456Z', '2030-03-01T10:00:00.123Z'],
    ['releaseDate', '2030-03-01T10:00:00.000Z', '2030-03-01T10:00:00.000Z'],
  ])('%s: %j becomes %j', (field, typed, expected) => {
    const normalized = normalizeDate(field, typed, now);
    expect(normalized).toBe(expected);
    expect(schemaAccepts(field, normalized)).toBe(true);
  });
});

describe("normalizeDate: on the merchant's clock", () => {
  // 22:30 UTC on January 31 is already February 1 in Cairo (UTC+2), and still January 31 in Pago Pago (UTC-11).
  it.each<[string, DateField, string, string]>([
    ['Africa/Cairo', 'sendingDate', 'today', '2024-02-01'],
    ['Pacific/Pago_Pago', 'sendingDate', 'today', '2024-01-31'],
    ['Africa/Cairo', 'sendingDate', 'tomorrow', '2024-02-02'],
    ['Africa/Cairo', 'releaseDate', '2024-02-01', '2024-01-31T22:00:00.000Z'],
    ['Africa/Cairo', 'expiryDate', '2024-02-01', '2024-02-01T21:59:59.999Z'],
    ['Asia/Kolkata', 'expiryDate', '2024-02-01', '2024-02-01T18:29:59.999Z'],
    ['Africa/Cairo', 'expiryDate', '+7d', '2024-02-08T21:59:59.999Z'],
    // Cairo moves its clocks to summer time at midnight on the last Friday of April 2024.
    ['Africa/Cairo', 'releaseDate', '2024-04-26', '2024-04-25T22:00:00.000Z'],
    ['Africa/Cairo', 'expiryDate', '2024-04-26', '2024-04-26T20:59:59.999Z'],
    ['America/New_York', 'expiryDate', '2024-03-10', '2024-03-11T03:59:59.999Z'],
  ])('%s, %s: %j becomes %j', (timeZone, field, typed, expected) => {
    const normalized = normalizeDate(field, typed, { now, timeZone });
    expect(normalized).toBe(expected);
    expect(schemaAccepts(field, normalized)).toBe(true);
  });

  it('counts a relative expiry from the sending date, not from now', () => {
    expect(normalizeDate('expiryDate', '+30d', { now, timeZone: 'UTC' }, '2026-12-01')).toBe(
      '2026-12-31T23:59:59.999Z',
    );
    expect(normalizeDate('expiryDate', '+1m', { now, timeZone: 'Africa/Cairo' }, '2026-12-01')).toBe(
      '2027-01-01T21:59:59.999Z',
    );
    // A sending date that is no date leaves the expiry counted from today.
    expect(normalizeDate('expiryDate', '+1d', { now, timeZone: 'UTC' }, 'soon')).toBe('2024-02-01T23:59:59.999Z');
  });
});

describe('normalizeDate: what it does not understand is passed on for the schema to reject', () => {
  it.each<[DateField, unknown]>([
    ['sendingDate', '2025-02-29'],
    ['sendingDate', '2030-04-31'],
    ['sendingDate', '2030-13-01'],
    ['expiryDate', '2025-02-29'],
    ['releaseDate', '2030-02-30'],
    ['expiryDate', '2030-02-30T10:00:00Z'],
    ['releaseDate', '2030-03-01T25:00:00Z'],
    // Without a zone the instant would depend on the machine's time zone, so it is not guessed.
    ['expiryDate', '2030-03-01T10:00:00'],
    ['sendingDate', '01/03/2030'],
    ['expiryDate', 'next friday'],
    ['expiryDate', '+1y'],
    ['sendingDate', '-7d'],
    ['sendingDate', 20300301],
  ])('%s: %j is unchanged and invalid', (field, typed) => {
    const normalized = normalizeDate(field, typed, now);
    expect(normalized).toBe(typed);
    expect(schemaAccepts(field, normalized)).toBe(false);
  });
});

describe('relativeDay and addMonths', () => {
  it('counts relative dates on the calendar from the day given, and gives undefined for anything else', () => {
    expect(relativeDay('today', '2024-01-31')).toBe('2024-01-31');
    expect(relativeDay('NOW', '2024-01-31')).toBe('2024-01-31');
    expect(relativeDay('tomorrow', '2024-01-31')).toBe('2024-02-01');
    expect(relativeDay('+0d', '2024-01-31')).toBe('2024-01-31');
    expect(relativeDay('+30d', '2024-01-31')).toBe('2024-03-01');
    expect(relativeDay('+2W', '2024-01-31')).toBe('2024-02-14');
    expect(relativeDay('+1m', '2024-01-31')).toBe('2024-02-29');
    expect(relativeDay('2030-03-01', '2024-01-31')).toBeUndefined();
    expect(relativeDay('+d', '2024-01-31')).toBeUndefined();
  });

  it('adds months keeping the day, clamped to the last day of the month', () => {
    expect(addMonths(at('2024-01-31T10:00:00Z'), 1)).toEqual(at('2024-02-29T10:00:00Z'));
    expect(addMonths(at('2025-01-31T10:00:00Z'), 1)).toEqual(at('2025-02-28T10:00:00Z'));
    expect(addMonths(at('2030-03-31T00:00:00Z'), 1)).toEqual(at('2030-04-30T00:00:00Z'));
    expect(addMonths(at('2024-02-29T00:00:00Z'), 12)).toEqual(at('2025-02-28T00:00:00Z'));
    expect(addMonths(at('2024-12-31T23:59:59.999Z'), 1)).toEqual(at('2025-01-31T23:59:59.999Z'));
    expect(addMonths(at('2024-11-30T00:00:00Z'), 3)).toEqual(at('2025-02-28T00:00:00Z'));
    expect(addMonths(at('2024-01-15T00:00:00Z'), 0)).toEqual(at('2024-01-15T00:00:00Z'));
  });

  it('resolves +1m from January 31 to the end of February, in leap and common years', () => {
    expect(normalizeDate('sendingDate', '+1m', at('2024-01-31T12:00:00Z'))).toBe('2024-02-29');
    expect(normalizeDate('sendingDate', '+1m', at('2025-01-31T12:00:00Z'))).toBe('2025-02-28');
  });
});

describe('isRealDate', () => {
  it('knows leap years and month lengths', () => {
    expect(isRealDate('2024-02-29')).toBe(true);
    expect(isRealDate('2025-02-29')).toBe(false);
    expect(isRealDate('2000-02-29')).toBe(true);
    expect(isRealDate('1900-02-29')).toBe(false);
    expect(isRealDate('2030-04-31')).toBe(false);
    expect(isRealDate('2030-12-31')).toBe(true);
    expect(isRealDate('2030-00-10')).toBe(false);
    expect(isRealDate('2030-3-1')).toBe(false);
  });
});
