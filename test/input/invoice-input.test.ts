import { describe, expect, it } from 'vitest';
import { checkAmount, defaultsFor, itemsTotal, mergeInvoiceSources } from '../../src/input/invoice-input.js';
import type { InvoiceDefaults } from '../../src/schemas/index.js';

const now = new Date('2030-03-01T10:00:00.000Z');

const item = (price: unknown, purchasedQuantity: unknown = 1, discount?: unknown) => ({
  itemCode: 'SKU',
  purchasedQuantity,
  price,
  nameEn: 'Thing',
  nameAr: 'شيء',
  ...(discount === undefined ? {} : { discount: { value: discount, type: 'FLAT' } }),
});

const defaults: InvoiceDefaults = {
  communicationLang: 'ar-eg',
  communicationMethod: 'NONE',
  paymentType: 'PUSH_TO_SERVICE_PAY',
  preferredPaymentMethod: 'PayAtService',
  alertMerchantUponExpiry: true,
  taxes: '5',
};

describe('mergeInvoiceSources: profile defaults < file < flags', () => {
  it('lets the file override the defaults and the flags override both', () => {
    const merged = mergeInvoiceSources({
      kind: 'single',
      defaults,
      file: { communicationLang: 'en-gb', communicationMethod: 'SMS', note: 'from the file', taxes: 14 },
      flags: { communicationMethod: 'EMAIL', note: 'from the flags' },
      now,
    });
    expect(merged).toStrictEqual({
      communicationLang: 'en-gb',
      communicationMethod: 'EMAIL',
      paymentType: 'PUSH_TO_SERVICE_PAY',
      preferredPaymentMethod: 'PayAtService',
      alertMerchantUponExpiry: true,
      taxes: 14,
      note: 'from the flags',
    });
  });

  it('merges the customer field by field', () => {
    const merged = mergeInvoiceSources({
      kind: 'single',
      defaults: {},
      file: { customer: { name: 'Mona Adel', mobile: '+201001234567', email: 'mona@example.com' } },
      flags: { customer: { mobile: '+201119998887' } },
      now,
    });
    expect(merged.customer).toStrictEqual({ name: 'Mona Adel', mobile: '+201119998887', email: 'mona@example.com' });
  });

  it('merges the recurring discount field by field', () => {
    const merged = mergeInvoiceSources({
      kind: 'recurring',
      defaults: {},
      file: { discount: { value: 5, type: 'FLAT' } },
      flags: { discount: { type: 'PERCENTAGE' } },
      now,
    });
    expect(merged.discount).toStrictEqual({ value: 5, type: 'PERCENTAGE' });
  });

  it('replaces the file items with the flag items instead of adding to them', () => {
    const merged = mergeInvoiceSources({
      kind: 'single',
      defaults: {},
      file: { items: [item(1), item(2)] },
      flags: { items: [item(3)] },
      now,
    });
    expect(merged.items).toStrictEqual([item(3)]);
  });

  it('keeps the file items when no --item is given', () => {
    const merged = mergeInvoiceSources({ kind: 'single', defaults: {}, file: { items: [item(1)] }, flags: {}, now });
    expect(merged.items).toStrictEqual([item(1)]);
  });

  it('applies the paymentType default to single invoices only', () => {
    const single = mergeInvoiceSources({ kind: 'single', defaults, flags: {}, now });
    const recurring = mergeInvoiceSources({ kind: 'recurring', defaults, flags: {}, now });
    expect(single.paymentType).toBe('PUSH_TO_SERVICE_PAY');
    expect(recurring).not.toHaveProperty('paymentType');
    expect(recurring).toStrictEqual({
      communicationLang: 'ar-eg',
      communicationMethod: 'NONE',
      preferredPaymentMethod: 'PayAtService',
      alertMerchantUponExpiry: true,
      taxes: '5',
    });
  });

  it('keeps a paymentType that a recurring file or flag gives, so the schema reports it', () => {
    const merged = mergeInvoiceSources({
      kind: 'recurring',
      defaults,
      flags: { paymentType: 'PUSH_TO_CUSTOMER' },
      now,
    });
    expect(merged.paymentType).toBe('PUSH_TO_CUSTOMER');
  });

  it('normalises the dates of every layer to their wire shapes', () => {
    const merged = mergeInvoiceSources({
      kind: 'single',
      defaults: {},
      file: { sendingDate: 'today', expiryDate: '2030-03-31' },
      flags: { releaseDate: '+1d' },
      now,
    });
    expect(merged).toStrictEqual({
      sendingDate: '2030-03-01',
      expiryDate: '2030-03-31T23:59:59.999Z',
      // A relative release is the start of that day (UTC without a time zone).
      releaseDate: '2030-03-02T00:00:00.000Z',
    });
  });

  it('does not change the layers it is given', () => {
    const file = { customer: { name: 'Mona' }, sendingDate: 'today' };
    const flags = { customer: { mobile: '+201001234567' } };
    mergeInvoiceSources({ kind: 'single', defaults, file, flags, now });
    expect(file).toStrictEqual({ customer: { name: 'Mona' }, sendingDate: 'today' });
    expect(flags).toStrictEqual({ customer: { mobile: '+201001234567' } });
  });
});

describe('defaultsFor', () => {
  it('drops the payment type for recurring invoices', () => {
    expect(defaultsFor('single', { paymentType: 'PUSH_TO_CUSTOMER' })).toEqual({ paymentType: 'PUSH_TO_CUSTOMER' });
    expect(defaultsFor('recurring', { paymentType: 'PUSH_TO_CUSTOMER', taxes: '5' })).toEqual({ taxes: '5' });
  });
});

describe('itemsTotal: minor units, never float sums', () => {
  it('adds 0.1 and 0.2 to exactly 30 hundredths', () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(itemsTotal([item(0.1), item(0.2)])).toBe(30n);
    expect(itemsTotal([item(0.1, 3)])).toBe(30n);
    expect(itemsTotal([item(1.15, 3)])).toBe(345n);
    expect(itemsTotal([item(19.99, 7), item(0.01, 1)])).toBe(13_994n);
  });

  it('subtracts each item discount', () => {
    expect(itemsTotal([item(10.5, 2, 1), item(0.1, 3)])).toBe(2030n);
    expect(itemsTotal([item(0.3, 1, 0.1)])).toBe(20n);
    expect(itemsTotal([item(5, 1, 5)])).toBe(0n);
  });

  it('is undefined while an item lacks a usable price, quantity or discount', () => {
    expect(itemsTotal(undefined)).toBeUndefined();
    expect(itemsTotal([])).toBeUndefined();
    expect(itemsTotal('items')).toBeUndefined();
    expect(itemsTotal([item(1), item('abc')])).toBeUndefined();
    expect(itemsTotal([item(1, 1.5)])).toBeUndefined();
    expect(itemsTotal([item(1, '2')])).toBeUndefined();
    expect(itemsTotal([item(1, 1, 'x')])).toBeUndefined();
    expect(itemsTotal([null])).toBeUndefined();
  });
});

describe('checkAmount', () => {
  it('computes the amount from the items when none is given', () => {
    expect(checkAmount({ items: [item(0.1), item(0.2)] })).toEqual({ kind: 'computed', amount: 0.3 });
    expect(checkAmount({ items: [item(10.5, 2, 1), item(0.1, 3)] })).toEqual({ kind: 'computed', amount: 20.3 });
  });

  it('a huge quantity: the total is exact, and an amount equal to it is not told that it differs', () => {
    const items = [item(0.07, 999_999_999_999_999)];
    expect(itemsTotal(items)).toBe(6_999_999_999_999_993n);
    expect(checkAmount({ amount: 3_333_333_333_333.33, items: [item(1.11, 3_003_003_003_003)] })).toEqual({
      kind: 'as-given',
    });
  });

  it('accepts a given amount equal to the total, with no float false alarm', () => {
    expect(checkAmount({ amount: 0.3, items: [item(0.1), item(0.2)] })).toEqual({ kind: 'as-given' });
    expect(checkAmount({ amount: 3.45, items: [item(1.15, 3)] })).toEqual({ kind: 'as-given' });
  });

  it('reports a given amount that differs from the total', () => {
    expect(checkAmount({ amount: 0.31, items: [item(0.1), item(0.2)] })).toEqual({
      kind: 'conflict',
      given: 0.31,
      computed: 0.3,
    });
    expect(checkAmount({ amount: 25, items: [item(10, 2)] })).toEqual({ kind: 'conflict', given: 25, computed: 20 });
  });

  it('leaves the amount alone without usable items, or when it is not a number', () => {
    expect(checkAmount({ amount: 100 })).toEqual({ kind: 'as-given' });
    expect(checkAmount({ amount: 100, items: [item('abc')] })).toEqual({ kind: 'as-given' });
    expect(checkAmount({ amount: '25', items: [item(10, 2)] })).toEqual({ kind: 'as-given' });
  });
});
