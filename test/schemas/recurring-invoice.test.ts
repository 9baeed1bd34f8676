import { describe, expect, test } from 'vitest';
import { recurringInvoiceSchema } from '../../src/schemas/invoice.js';
import { issuesOf, item, parsed, recurringInvoice, without } from './fixtures.js';

// What only the recurring invoice allows or forbids (spec 2.1 scope column, 2.2, 4.4, 8), and what it sends.

describe('recurringInvoiceSchema: scope', () => {
  test.each(['PUSH_TO_CUSTOMER', 'PUSH_TO_SERVICE_PAY'])(
    'a single-only paymentType (%s) is rejected',
    (paymentType) => {
      expect(issuesOf(recurringInvoiceSchema, { ...recurringInvoice(), paymentType })).toEqual([
        { path: 'paymentType', message: 'applies only to single invoices' },
      ]);
    },
  );

  test('an item discount is rejected at its path: a recurring invoice takes one top-level discount', () => {
    const items = [item(), { ...item(), discount: { value: 5, type: 'FLAT' } }];
    expect(issuesOf(recurringInvoiceSchema, { ...recurringInvoice(), items })).toEqual([
      {
        path: 'items[1].discount',
        message: 'applies only to items of a single invoice; a recurring invoice takes one top-level discount',
      },
    ]);
  });

  test('items are optional', () => {
    expect(parsed(recurringInvoiceSchema, without(recurringInvoice(), 'items'))).not.toHaveProperty('items');
  });
});

describe('recurringInvoiceSchema: cycle', () => {
  test.each(['MONTH', 'WEEK'])('cycleType %s is accepted', (cycleType) => {
    expect(parsed(recurringInvoiceSchema, { ...recurringInvoice(), cycleType }).cycleType).toBe(cycleType);
  });

  test.each([
    { cycleType: 'months', message: 'must be one of MONTH, WEEK' },
    { cycleType: 'DAY', message: 'must be one of MONTH, WEEK' },
    { cycleType: 1, message: 'must be one of MONTH, WEEK' },
    { cycleType: undefined, message: 'is required' },
  ])('cycleType $cycleType is rejected', ({ cycleType, message }) => {
    expect(issuesOf(recurringInvoiceSchema, { ...recurringInvoice(), cycleType })).toEqual([
      { path: 'cycleType', message },
    ]);
  });

  test.each([1, 2, 52])('cycleValue %d is accepted', (cycleValue) => {
    expect(parsed(recurringInvoiceSchema, { ...recurringInvoice(), cycleValue }).cycleValue).toBe(cycleValue);
  });

  test.each([
    { cycleValue: 0, message: 'must be at least 1' },
    { cycleValue: -3, message: 'must be at least 1' },
    { cycleValue: 1.5, message: 'must be a whole number' },
    { cycleValue: '2', message: 'must be a whole number, not text ("2")' },
    { cycleValue: undefined, message: 'is required' },
  ])('cycleValue $cycleValue is rejected', ({ cycleValue, message }) => {
    expect(issuesOf(recurringInvoiceSchema, { ...recurringInvoice(), cycleValue })).toEqual([
      { path: 'cycleValue', message },
    ]);
  });
});

describe('recurringInvoiceSchema: top-level discount', () => {
  test.each([
    { value: 0, type: 'FLAT' },
    { value: 99, type: 'FLAT' }, // the fixture's amount is 99.98
    { value: 100, type: 'PERCENTAGE' },
    { value: 15, type: 'PERCENTAGE' },
  ])('$type $value is accepted', (discount) => {
    expect(parsed(recurringInvoiceSchema, { ...recurringInvoice(), discount }).discount).toEqual(discount);
  });

  test.each([
    { amount: 99.98, value: 100, shown: '99.98' },
    { amount: 10, value: 11, shown: '10.00' },
    { amount: 0.5, value: 1, shown: '0.50' },
    { amount: 1250, value: 2000, shown: '1,250.00' },
  ])('a FLAT discount of $value is more than the amount $amount: refused', ({ amount, value, shown }) => {
    expect(
      issuesOf(recurringInvoiceSchema, { ...recurringInvoice(), amount, discount: { value, type: 'FLAT' } }),
    ).toEqual([{ path: 'discount.value', message: `must not be more than the amount (${shown}) for a FLAT discount` }]);
  });

  test('a FLAT discount over the amount is named with the other fields that fail, not after them', () => {
    const invoice = { ...recurringInvoice(), amount: 10, discount: { value: 50, type: 'FLAT' }, note: '' };
    expect(issuesOf(recurringInvoiceSchema, invoice)).toEqual([
      { path: 'note', message: 'must not be empty' },
      { path: 'discount.value', message: 'must not be more than the amount (10.00) for a FLAT discount' },
    ]);
    // Not compared when the amount or the discount is itself wrong: their own issues say so.
    expect(issuesOf(recurringInvoiceSchema, { ...invoice, amount: -1 }).map((issue) => issue.path)).toEqual([
      'amount',
      'note',
    ]);
    const badDiscount = issuesOf(recurringInvoiceSchema, { ...invoice, discount: { value: 50.555, type: 'FLAT' } });
    expect(badDiscount.map((issue) => issue.path)).toEqual(['note', 'discount.value']);
    expect(badDiscount[1]?.message).not.toContain('more than the amount');
  });

  test('a FLAT discount equal to the amount is accepted, and a PERCENTAGE is not compared with it', () => {
    expect(
      parsed(recurringInvoiceSchema, { ...recurringInvoice(), amount: 10, discount: { value: 10, type: 'FLAT' } })
        .discount,
    ).toEqual({ value: 10, type: 'FLAT' });
    expect(
      parsed(recurringInvoiceSchema, { ...recurringInvoice(), amount: 5, discount: { value: 50, type: 'PERCENTAGE' } })
        .discount,
    ).toEqual({ value: 50, type: 'PERCENTAGE' });
  });

  test.each([
    { path: 'discount', discount: undefined, message: 'is required' },
    { path: 'discount', discount: 10, message: 'must be an object' },
    {
      path: 'discount.value',
      discount: { value: 101, type: 'PERCENTAGE' },
      message: 'must be at most 100 for a PERCENTAGE discount',
    },
    { path: 'discount.value', discount: { value: 2.5, type: 'FLAT' }, message: 'must be a whole number' },
    { path: 'discount.value', discount: { value: -1, type: 'FLAT' }, message: 'must be at least 0' },
    { path: 'discount.value', discount: { type: 'FLAT' }, message: 'is required' },
    { path: 'discount.type', discount: { value: 5, type: 'percent' }, message: 'must be one of FLAT, PERCENTAGE' },
    { path: 'discount.type', discount: { value: 5, type: 'AMOUNT' }, message: 'must be one of FLAT, PERCENTAGE' },
    { path: 'discount.type', discount: { value: 5 }, message: 'is required' },
    {
      path: 'discount.currency',
      discount: { value: 5, type: 'FLAT', currency: 'EGP' },
      message: 'is not a known field',
    },
  ])('$discount is rejected at $path', ({ path, discount, message }) => {
    expect(issuesOf(recurringInvoiceSchema, { ...recurringInvoice(), discount })).toEqual([{ path, message }]);
  });
});

describe('recurringInvoiceSchema: output is the wire body', () => {
  test('a full invoice in the documented order comes out exactly as given, key order included', () => {
    const payload = recurringInvoice();
    expect(JSON.stringify(parsed(recurringInvoiceSchema, payload))).toBe(JSON.stringify(payload));
  });

  test('sample shapes are sent in the documented types, and text is trimmed', () => {
    const invoice = parsed(recurringInvoiceSchema, {
      ...recurringInvoice(),
      businessReference: ' SUB-1001 ',
      alertMerchantUponExpiry: 'false',
      taxes: 14,
      preferredPaymentMethod: 'CARD ',
    });
    expect(JSON.stringify(invoice)).toBe(JSON.stringify(recurringInvoice()));
    expect(invoice.alertMerchantUponExpiry).toBe(false);
    expect(invoice.taxes).toBe('14');
  });

  test('every missing required field is named at once', () => {
    expect(issuesOf(recurringInvoiceSchema, {}).map((issue) => issue.path)).toEqual([
      'cycleType',
      'cycleValue',
      'customer',
      'amount',
      'sendingDate',
      'expiryDate',
      'releaseDate',
      'note',
      'discount',
    ]);
  });
});
