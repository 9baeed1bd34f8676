import { describe, expect, it } from 'vitest';
import { countOf, formatAmount, formatCount } from '../../src/output/format.js';

describe('formatAmount', () => {
  it.each([
    [0, '0.00'],
    [7, '7.00'],
    [999.5, '999.50'],
    [1000, '1,000.00'],
    [18450, '18,450.00'],
    [1234567.891, '1,234,567.89'],
    [4995.740000000001, '4,995.74'],
    [-42.1, '-42.10'],
    [-1234.5, '-1,234.50'],
    [123456789012.34, '123,456,789,012.34'],
  ])('%s prints as %s, as en-US does', (amount, expected) => {
    expect(formatAmount(amount)).toBe(expected);
    expect(formatAmount(amount)).toBe(
      new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(amount),
    );
  });
});

describe('formatCount', () => {
  it.each([
    [0, '0'],
    [12, '12'],
    [999, '999'],
    [1000, '1,000'],
    [12345, '12,345'],
    [1000000, '1,000,000'],
  ])('%s prints as %s', (count, expected) => {
    expect(formatCount(count)).toBe(expected);
    expect(formatCount(count)).toBe(new Intl.NumberFormat('en-US').format(count));
  });
});

describe('countOf', () => {
  it('gives the noun for one, and its plural for every other count', () => {
    expect(countOf(1, 'single invoice')).toBe('1 single invoice');
    expect(countOf(0, 'single invoice')).toBe('0 single invoices');
    expect(countOf(1500, 'recurring invoice')).toBe('1,500 recurring invoices');
  });
});
