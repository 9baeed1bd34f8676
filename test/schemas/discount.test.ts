import { describe, expect, test } from 'vitest';
import { itemDiscountSchema, recurringDiscountSchema } from '../../src/schemas/discount.js';
import { issuesOf, parsed } from './fixtures.js';

// The discount object of spec 2.2: FLAT only on an item of a single invoice; FLAT or PERCENTAGE (at most 100) on a
// recurring invoice.

const FLAT_ONLY = 'must be FLAT (the only discount type for an item of a single invoice)';

describe('itemDiscountSchema', () => {
  test.each([
    { value: 5, type: 'FLAT' },
    { value: 0, type: 'FLAT' },
    { value: 12.5, type: 'FLAT' },
    { value: 0.01, type: 'FLAT' },
  ])('$type $value is accepted as given', (discount) => {
    expect(JSON.stringify(parsed(itemDiscountSchema, discount))).toBe(JSON.stringify(discount));
  });

  test.each(['flat', ' Flat '])('type %s is sent as FLAT', (type) => {
    expect(parsed(itemDiscountSchema, { value: 5, type })).toEqual({ value: 5, type: 'FLAT' });
  });

  test.each([
    { path: 'type', discount: { value: 5, type: 'PERCENTAGE' }, message: FLAT_ONLY },
    { path: 'type', discount: { value: 5, type: 'FIXED' }, message: FLAT_ONLY },
    { path: 'type', discount: { value: 5 }, message: 'is required' },
    { path: 'value', discount: { value: -0.5, type: 'FLAT' }, message: 'must be 0 or more' },
    { path: 'value', discount: { value: 5.555, type: 'FLAT' }, message: 'must have at most two decimals' },
    { path: 'value', discount: { value: '5', type: 'FLAT' }, message: 'must be a number, not text ("5")' },
    { path: 'value', discount: { type: 'FLAT' }, message: 'is required' },
    { path: 'reason', discount: { value: 5, type: 'FLAT', reason: 'loyal' }, message: 'is not a known field' },
    { path: '(request)', discount: 5, message: 'must be an object' },
  ])('$discount is rejected at $path', ({ path, discount, message }) => {
    expect(issuesOf(itemDiscountSchema, discount)).toEqual([{ path, message }]);
  });
});

describe('recurringDiscountSchema', () => {
  test.each([
    { value: 0, type: 'FLAT' },
    { value: 150, type: 'FLAT' }, // above 100 is fine for an amount
    { value: 0, type: 'PERCENTAGE' },
    { value: 100, type: 'PERCENTAGE' },
  ])('$type $value is accepted as given', (discount) => {
    expect(JSON.stringify(parsed(recurringDiscountSchema, discount))).toBe(JSON.stringify(discount));
  });

  test.each([
    {
      path: 'value',
      discount: { value: 101, type: 'PERCENTAGE' },
      message: 'must be at most 100 for a PERCENTAGE discount',
    },
    {
      path: 'value',
      discount: { value: 1000, type: 'PERCENTAGE' },
      message: 'must be at most 100 for a PERCENTAGE discount',
    },
    { path: 'value', discount: { value: 12.5, type: 'FLAT' }, message: 'must be a whole number' },
    { path: 'value', discount: { value: -1, type: 'PERCENTAGE' }, message: 'must be at least 0' },
    { path: 'value', discount: { value: '10', type: 'FLAT' }, message: 'must be a whole number, not text ("10")' },
    { path: 'value', discount: { type: 'FLAT' }, message: 'is required' },
    {
      path: 'value',
      discount: { value: 10_000_000_000_000, type: 'FLAT' },
      message: 'must be at most 9,999,999,999,999',
    },
    { path: 'type', discount: { value: 10, type: 'PERCENTS' }, message: 'must be one of FLAT, PERCENTAGE' },
    { path: 'type', discount: { value: 10, type: 'PERCENT' }, message: 'must be one of FLAT, PERCENTAGE' },
    { path: 'type', discount: { value: 10 }, message: 'is required' },
    { path: 'note', discount: { value: 10, type: 'FLAT', note: 'x' }, message: 'is not a known field' },
  ])('$discount is rejected at $path', ({ path, discount, message }) => {
    expect(issuesOf(recurringDiscountSchema, discount)).toEqual([{ path, message }]);
  });

  test('a wrong type and a wrong value are both named', () => {
    expect(issuesOf(recurringDiscountSchema, { value: -1, type: 'flt' })).toEqual([
      { path: 'value', message: 'must be at least 0' },
      { path: 'type', message: 'must be one of FLAT, PERCENTAGE' },
    ]);
  });
});
