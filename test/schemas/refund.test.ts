import { describe, expect, test } from 'vitest';
import { refundSchema } from '../../src/schemas/refund.js';
import { issuesOf, parsed } from './fixtures.js';

// The refund request of spec 2.5: the samples send the amount as a string holding a number.

const refund = () => ({ amount: 12.5, reason: 'Damaged on delivery', orderReferenceNumber: '9876543' });

describe('refundSchema', () => {
  test('is kept as given, key order included', () => {
    expect(JSON.stringify(parsed(refundSchema, refund()))).toBe(JSON.stringify(refund()));
  });

  test.each([
    ['12.50', 12.5],
    [' 12.5 ', 12.5],
    ['7', 7],
    ['0.01', 0.01],
    [12.5, 12.5],
    [100, 100],
  ])('amount %j is sent as the number %d', (amount, sent) => {
    expect(parsed(refundSchema, { ...refund(), amount }).amount).toBe(sent);
  });

  test('text is trimmed', () => {
    const given = { amount: '12.50', reason: ' Damaged on delivery ', orderReferenceNumber: '\t9876543\n' };
    expect(JSON.stringify(parsed(refundSchema, given))).toBe(JSON.stringify(refund()));
  });

  test.each([
    { path: 'amount', patch: { amount: undefined }, message: 'is required' },
    { path: 'amount', patch: { amount: 0 }, message: 'must be greater than 0' },
    { path: 'amount', patch: { amount: '0' }, message: 'must be greater than 0' },
    { path: 'amount', patch: { amount: '-5' }, message: 'must be greater than 0' },
    { path: 'amount', patch: { amount: -5 }, message: 'must be greater than 0' },
    { path: 'amount', patch: { amount: '12.505' }, message: 'must have at most two decimals' },
    { path: 'amount', patch: { amount: 12.505 }, message: 'must have at most two decimals' },
    { path: 'amount', patch: { amount: 'twelve' }, message: 'must be a number' },
    { path: 'amount', patch: { amount: '1e3' }, message: 'must be a number' },
    { path: 'amount', patch: { amount: '12,50' }, message: 'must be a number, written with a decimal point: 12.50' },
    {
      path: 'amount',
      patch: { amount: '1,250.00' },
      message: 'must be a number, written without thousands separators: 1250.00',
    },
    { path: 'amount', patch: { amount: '' }, message: 'must be a number' },
    { path: 'amount', patch: { amount: null }, message: 'must be a number' },
    { path: 'reason', patch: { reason: undefined }, message: 'is required' },
    { path: 'reason', patch: { reason: '  ' }, message: 'must not be empty' },
    { path: 'orderReferenceNumber', patch: { orderReferenceNumber: undefined }, message: 'is required' },
    {
      path: 'orderReferenceNumber',
      patch: { orderReferenceNumber: 9876543 },
      message: 'must be text, not the number 9876543 (in quotes: "9876543")',
    },
    { path: 'invoiceNumber', patch: { invoiceNumber: '1001' }, message: 'is not a known field' },
  ])('$path rejects $patch', ({ path, patch, message }) => {
    expect(issuesOf(refundSchema, { ...refund(), ...patch })).toEqual([{ path, message }]);
  });

  test('every missing field is named at once', () => {
    expect(issuesOf(refundSchema, {})).toEqual([
      { path: 'amount', message: 'is required' },
      { path: 'reason', message: 'is required' },
      { path: 'orderReferenceNumber', message: 'is required' },
    ]);
  });
});
