import { describe, expect, test } from 'vitest';
import {
  decimalToText,
  fromMinorUnits,
  itemsTotalMinor,
  minorToText,
  parseDecimal,
  readsBackExactly,
  toMinorUnits,
} from '../../src/schemas/money.js';

// Money is added up in whole hundredths, so float noise (0.1 + 0.2 = 0.30000000000000004) never reaches a total.

describe('toMinorUnits and fromMinorUnits', () => {
  test.each([
    [0, 0],
    [0.1, 10],
    [0.2, 20],
    [0.07, 7], // 0.07 * 100 is 7.000000000000001
    [1.15, 115], // 1.15 * 100 is 114.99999999999999
    [19.99, 1999],
    [49.99, 4999],
    [1234.56, 123456],
    [0.1 + 0.2, 30],
  ])('%d is %d minor units', (amount, minor) => {
    expect(toMinorUnits(amount)).toBe(BigInt(minor));
  });

  test.each([
    [30, 0.3],
    [1999, 19.99],
    [0, 0],
  ])('%d minor units is %d', (minor, amount) => {
    expect(fromMinorUnits(BigInt(minor))).toBe(amount);
  });
});

describe('itemsTotalMinor', () => {
  const line = (price: number, purchasedQuantity = 1, discount?: number) => ({
    price,
    purchasedQuantity,
    discount: discount === undefined ? undefined : { value: discount },
  });

  test.each([
    { name: 'no items', items: [], total: 0 },
    { name: '0.1 and 0.2', items: [line(0.1), line(0.2)], total: 30 },
    { name: '3 x 0.1', items: [line(0.1, 3)], total: 30 },
    { name: '2 x 49.99', items: [line(49.99, 2)], total: 9998 },
    { name: '3 x 19.99 less 5', items: [line(19.99, 3, 5)], total: 5497 },
    { name: 'a discount of the whole line', items: [line(10, 2, 20)], total: 0 },
    { name: 'a free item', items: [line(0, 4), line(1.15)], total: 115 },
    { name: 'ten lines of 0.1', items: Array.from({ length: 10 }, () => line(0.1)), total: 100 },
    { name: 'mixed lines', items: [line(0.1, 1, 0.05), line(0.2, 2), line(99.99, 1, 0.99)], total: 9945 },
  ])('$name is $total minor units', ({ items, total }) => {
    expect(itemsTotalMinor(items)).toBe(BigInt(total));
  });

  test('gives the exact total where float addition does not', () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(fromMinorUnits(itemsTotalMinor([line(0.1), line(0.2)]))).toBe(0.3);
  });
});

describe('exact at every size', () => {
  test('a huge quantity times a price is the exact product, past 2^53', () => {
    const total = itemsTotalMinor([{ price: 9_999_999_999_999.99, purchasedQuantity: 999_999_999_999_999 }]);
    expect(total).toBe(999_999_999_999_999n * 999_999_999_999_999n);
    expect(minorToText(total)).toBe('9999999999999980000000000000.01');
  });

  test.each([
    [0n, '0.00'],
    [5n, '0.05'],
    [-150n, '-1.50'],
    [999_999_999_999_999n, '9999999999999.99'],
  ])('%s minor units are written %s', (minor, text) => {
    expect(minorToText(minor)).toBe(text);
  });
});

describe('reading decimal text', () => {
  test.each([
    ['12.50', { negative: false, digits: '125', exponent: -1 }],
    ['0012.500', { negative: false, digits: '125', exponent: -1 }],
    ['-3', { negative: true, digits: '3', exponent: 0 }],
    ['1e308', { negative: false, digits: '1', exponent: 308 }],
    ['1.5E-7', { negative: false, digits: '15', exponent: -8 }],
    ['1200', { negative: false, digits: '12', exponent: 2 }],
    ['0.00', { negative: false, digits: '0', exponent: 0 }],
    ['abc', undefined],
    ['1.', undefined],
  ])('%s', (text, decimal) => {
    expect(parseDecimal(text)).toEqual(decimal);
  });

  test.each([
    ['14.5', '14.5'],
    [' 014.50 ', '14.5'],
    ['100', '100'],
    ['0.25', '0.25'],
    ['0', '0'],
    ['1e2', '100'],
  ])('%s is written %s', (text, written) => {
    expect(decimalToText(parseDecimal(text) as NonNullable<ReturnType<typeof parseDecimal>>)).toBe(written);
  });

  test.each([
    ['90071992547409.93', false],
    ['12345678901234567.89', false],
    ['0.30000000000000001', false],
    ['9007199254740993', false],
    ['9999999999999.99', true],
    ['999999999999999', true],
    ['1e308', true],
    ['0.1', true],
    ['-0', true],
    ['19.990', true],
  ])('%s reads back exactly from a JSON number: %s', (text, exact) => {
    expect(readsBackExactly(text)).toBe(exact);
  });
});
