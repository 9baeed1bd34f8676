import { describe, expect, test } from 'vitest';
import { singleInvoiceSchema } from '../../src/schemas/invoice.js';
import { issuesOf, item, parsed, singleInvoice, without } from './fixtures.js';

// What only the single invoice allows or forbids (spec 2.1 scope column, 2.2, 4.3), and what it sends.

describe('singleInvoiceSchema: scope', () => {
  test.each([
    { field: 'cycleType', patch: { cycleType: 'MONTH' }, message: 'applies only to recurring invoices' },
    { field: 'cycleValue', patch: { cycleValue: 1 }, message: 'applies only to recurring invoices' },
    { field: 'cycleValue', patch: { cycleValue: null }, message: 'applies only to recurring invoices' },
    {
      field: 'discount',
      patch: { discount: { value: 10, type: 'FLAT' } },
      message:
        'a top-level discount applies only to recurring invoices; give a single invoice discounts per item (items[n].discount)',
    },
  ])('a recurring-only $field is rejected naming it', ({ field, patch, message }) => {
    expect(issuesOf(singleInvoiceSchema, { ...singleInvoice(), ...patch })).toEqual([{ path: field, message }]);
  });

  test.each(['PUSH_TO_CUSTOMER', 'PUSH_TO_SERVICE_PAY'])('paymentType %s is accepted', (paymentType) => {
    expect(parsed(singleInvoiceSchema, { ...singleInvoice(), paymentType }).paymentType).toBe(paymentType);
  });

  test.each(['push-to-customer', 'PUSH_TO_SERVICEPAY', 'CARD'])('paymentType %s is rejected', (paymentType) => {
    expect(issuesOf(singleInvoiceSchema, { ...singleInvoice(), paymentType })).toEqual([
      { path: 'paymentType', message: 'must be one of PUSH_TO_CUSTOMER, PUSH_TO_SERVICE_PAY' },
    ]);
  });

  test('paymentType is optional', () => {
    expect(parsed(singleInvoiceSchema, without(singleInvoice(), 'paymentType'))).not.toHaveProperty('paymentType');
  });

  test('items are optional: amount is then the total (rule 2.3.1)', () => {
    expect(parsed(singleInvoiceSchema, without(singleInvoice(), 'items'))).not.toHaveProperty('items');
  });
});

describe('singleInvoiceSchema: item discounts', () => {
  const withDiscount = (discount: unknown, index = 0) => {
    const items: unknown[] = [item(), item(), item()];
    items[index] = { ...item(), discount };
    return { ...singleInvoice(), items };
  };

  test('a FLAT discount on an item is accepted and kept', () => {
    const invoice = parsed(singleInvoiceSchema, withDiscount({ value: 5.5, type: 'FLAT' }, 1));
    expect(invoice.items?.[1]?.discount).toEqual({ value: 5.5, type: 'FLAT' });
  });

  test.each([
    { path: 'items[2].discount.type', discount: { value: 5, type: 'PERCENTAGE' } },
    { path: 'items[2].discount.type', discount: { value: 5, type: 'FIXED' } },
  ])('$discount is rejected at $path: FLAT only', ({ path, discount }) => {
    expect(issuesOf(singleInvoiceSchema, withDiscount(discount, 2))).toEqual([
      { path, message: 'must be FLAT (the only discount type for an item of a single invoice)' },
    ]);
  });

  test.each([
    { path: 'items[1].discount.value', discount: { value: -1, type: 'FLAT' }, message: 'must be 0 or more' },
    {
      path: 'items[1].discount.value',
      discount: { value: 1.234, type: 'FLAT' },
      message: 'must have at most two decimals',
    },
    { path: 'items[1].discount.value', discount: { type: 'FLAT' }, message: 'is required' },
    {
      path: 'items[1].discount.reason',
      discount: { value: 1, type: 'FLAT', reason: 'x' },
      message: 'is not a known field',
    },
    { path: 'items[1].discount', discount: 'FLAT 5', message: 'must be an object' },
  ])('$discount is rejected at $path', ({ path, discount, message }) => {
    expect(issuesOf(singleInvoiceSchema, withDiscount(discount, 1))).toEqual([{ path, message }]);
  });

  test('a discount above price x quantity is rejected at its value', () => {
    // The item is 2 x 49.99 = 99.98.
    expect(issuesOf(singleInvoiceSchema, withDiscount({ value: 99.99, type: 'FLAT' }))).toEqual([
      { path: 'items[0].discount.value', message: 'must not be more than the item total (price x purchasedQuantity)' },
    ]);
    expect(parsed(singleInvoiceSchema, withDiscount({ value: 99.98, type: 'FLAT' })).items).toHaveLength(3);
  });
});

describe('singleInvoiceSchema: output is the wire body', () => {
  test('a full invoice in the documented order comes out exactly as given, key order included', () => {
    const payload = singleInvoice();
    const invoice = parsed(singleInvoiceSchema, payload);
    expect(invoice).toEqual(payload);
    expect(JSON.stringify(invoice)).toBe(JSON.stringify(payload));
  });

  test('sample shapes are sent in the documented types, and text is trimmed', () => {
    const invoice = parsed(singleInvoiceSchema, {
      ...singleInvoice(),
      customer: { name: '  Mona Adel ', email: 'mona@example.com', mobile: ' +201001234567 ' },
      note: ' March order\n',
      alertMerchantUponExpiry: 'false',
      taxes: 14,
      items: [{ ...item(), itemCode: ' SKU-1 ', nameEn: 'Mug ', discount: { value: 5, type: 'FLAT' } }],
    });
    expect(JSON.stringify(invoice)).toBe(
      JSON.stringify({ ...singleInvoice(), items: [{ ...item(), discount: { value: 5, type: 'FLAT' } }] }),
    );
    expect(invoice.alertMerchantUponExpiry).toBe(false);
    expect(invoice.taxes).toBe('14');
  });

  test('a minimal invoice gains no fields: no defaults are filled in', () => {
    const minimal = {
      customer: { name: 'Mona Adel', mobile: '+201001234567' },
      amount: 250,
      sendingDate: '2026-03-01',
      expiryDate: '2026-03-31T21:59:59.000Z',
      releaseDate: '2026-03-01T08:00:00.000Z',
      note: 'Consultation',
    };
    expect(JSON.stringify(parsed(singleInvoiceSchema, minimal))).toBe(JSON.stringify(minimal));
  });

  test('every missing required field is named at once', () => {
    expect(issuesOf(singleInvoiceSchema, {})).toEqual([
      { path: 'customer', message: 'is required' },
      { path: 'amount', message: 'is required' },
      { path: 'sendingDate', message: 'is required' },
      { path: 'expiryDate', message: 'is required' },
      { path: 'releaseDate', message: 'is required' },
      { path: 'note', message: 'is required' },
    ]);
  });

  test.each([null, [], 'invoice', 42])(
    'a body that is not an object (%j) is reported for the whole request',
    (body) => {
      expect(issuesOf(singleInvoiceSchema, body)).toEqual([{ path: '(request)', message: 'must be an object' }]);
    },
  );
});
