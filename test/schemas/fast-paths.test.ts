import { describe, expect, test } from 'vitest';
import { dayProblem } from '../../src/schemas/calendar.js';
import { InexactNumber, parseJsonExactly } from '../../src/schemas/exact-json.js';
import { decimalOfNumber, decimalToMinor, minorOfTwoDecimals, toMinorUnits } from '../../src/schemas/money.js';

// The shortcuts a bulk run takes for every record must give the answers of the exact rules they stand in for.

/** A seeded generator, so a failure can be run again. */
function random(seed: number) {
  return () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}

describe('minorOfTwoDecimals', () => {
  test('gives m for every m / 100 below 10^15 hundredths, as the decimal text does', () => {
    const next = random(7);
    // The edges of the range, then seeded draws over every number of digits.
    for (const m of [0, 1, -1, 29, 1005, 999_999_999_999_999, -999_999_999_999_999, 999_999_999_999_998]) {
      expect(minorOfTwoDecimals(m / 100), String(m / 100)).toBe(m);
    }
    for (let run = 0; run < 2_000; run++) {
      const digits = 1 + Math.floor(next() * 15);
      const m = Math.floor(next() * 10 ** digits) * (next() < 0.1 ? -1 : 1);
      const amount = m / 100;
      expect(minorOfTwoDecimals(amount), String(amount)).toBe(m);
      expect(BigInt(m)).toBe(decimalToMinor(decimalOfNumber(amount)!));
    }
  });

  test('answers nothing for a number of more decimals or past the ceiling, which the text then answers', () => {
    for (const amount of [0.001, 1.005, 0.1 + 0.2, 12.345, 1e13, 1e308, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(minorOfTwoDecimals(amount), String(amount)).toBeUndefined();
    }
    expect(toMinorUnits(9_999_999_999_999.99)).toBe(999_999_999_999_999n);
    expect(toMinorUnits(0.29)).toBe(29n);
  });
});

describe('dayProblem', () => {
  test("knows each month's days in every year from 2000 to 2100, as the calendar does", () => {
    for (let year = 2000; year <= 2100; year++) {
      for (let month = 1; month <= 12; month++) {
        const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
        const date = (day: number) => `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
        expect(dayProblem(date(days)), date(days)).toBeUndefined();
        if (days < 31) expect(dayProblem(date(days + 1)), date(days + 1)).toMatch(/has no \d+\w\w day/);
      }
    }
  });
});

describe('parseJsonExactly', () => {
  const inexact = '90071992547409.93';
  test.each([
    ['after a key', `{"amount":${inexact}}`],
    ['after a key and blanks', `{"amount" :\n  ${inexact}}`],
    ['in an array', `{"items":[{"price":1},${inexact}]}`],
    ['first in an array, after a line break', `[\n  ${inexact}\n]`],
    ['negative', `{"amount":-${inexact}}`],
    ['as the whole text', inexact],
    ['with an exponent', '{"amount":1.00000000000000001e5}'],
  ])('finds a number no double carries %s', (_where, text) => {
    const found: string[] = [];
    const walk = (value: unknown): void => {
      if (value instanceof InexactNumber) found.push(value.text);
      else if (value && typeof value === 'object') Object.values(value).forEach(walk);
    };
    walk(parseJsonExactly(text));
    expect(found).toEqual([expect.stringMatching(/^-?(90071992547409\.93|1.00000000000000001e5)$/)]);
  });

  test('reads digits inside strings as text, and numbers a double carries as numbers', () => {
    expect(
      parseJsonExactly(
        '{"mobile":"+2010012345678901234","note":"ref: 1e5","amount":12.5,"when":"2030-01-01T00:00:00.000Z"}',
      ),
    ).toEqual({ mobile: '+2010012345678901234', note: 'ref: 1e5', amount: 12.5, when: '2030-01-01T00:00:00.000Z' });
  });
});
