import { describe, expect, test } from 'vitest';
import { recurringInvoiceSchema, singleInvoiceSchema } from '../../src/schemas/invoice.js';
import {
  DATE_MESSAGE,
  EMAIL_REQUIRED_MESSAGE,
  INSTANT_MESSAGE,
  TAXES_MESSAGE,
  customer,
  issuesOf,
  item,
  parsed,
  recurringInvoice,
  singleInvoice,
  without,
} from './fixtures.js';

// Rules of the fields both kinds of invoice share (spec 2.1, 2.3, 8), checked against each schema.

const kinds = [
  { kind: 'single', schema: singleInvoiceSchema, valid: singleInvoice },
  { kind: 'recurring', schema: recurringInvoiceSchema, valid: recurringInvoice },
] as const;

const noEmail = () => without(customer(), 'email');

describe.each(kinds)('$kind invoice: shared fields', ({ schema, valid }) => {
  test('the valid sample is accepted', () => {
    expect(parsed(schema, valid())).toBeDefined();
  });

  test.each([
    { field: 'customer', patch: { customer: undefined }, message: 'is required' },
    { field: 'customer', patch: { customer: 'Mona' }, message: 'must be an object' },
    { field: 'customer.name', patch: { customer: { ...customer(), name: '  ' } }, message: 'must not be empty' },
    { field: 'customer.mobile', patch: { customer: without(customer(), 'mobile') }, message: 'is required' },
    {
      field: 'customer.email',
      patch: { customer: { ...customer(), email: 'mona' } },
      message: 'must be an e-mail address',
    },
    { field: 'customer.phone', patch: { customer: { ...customer(), phone: '1' } }, message: 'is not a known field' },
    { field: 'amount', patch: { amount: undefined }, message: 'is required' },
    { field: 'amount', patch: { amount: 0 }, message: 'must be greater than 0' },
    { field: 'amount', patch: { amount: -5 }, message: 'must be greater than 0' },
    { field: 'amount', patch: { amount: -0.001 }, message: 'must be greater than 0' },
    { field: 'amount', patch: { amount: 10.005 }, message: 'must have at most two decimals' },
    { field: 'amount', patch: { amount: '100' }, message: 'must be a number' },
    { field: 'amount', patch: { amount: null }, message: 'must be a number' },
    { field: 'note', patch: { note: undefined }, message: 'is required' },
    { field: 'note', patch: { note: '   ' }, message: 'must not be empty' },
    { field: 'note', patch: { note: 42 }, message: 'must be text' },
    { field: 'businessReference', patch: { businessReference: '' }, message: 'must not be empty' },
    { field: 'preferredPaymentMethod', patch: { preferredPaymentMethod: ' ' }, message: 'must not be empty' },
    { field: 'items', patch: { items: { 0: item() } }, message: 'must be a list of items' },
    { field: 'items[0]', patch: { items: [null] }, message: 'must be an object' },
    {
      field: 'items[2].price',
      patch: { items: [item(), item(), { ...item(), price: -1 }] },
      message: 'must be 0 or more',
    },
    {
      field: 'items[1].colour',
      patch: { items: [item(), { ...item(), colour: 'red' }] },
      message: 'is not a known field',
    },
    { field: 'colour', patch: { colour: 'red' }, message: 'is not a known field' },
  ])('$field rejects $patch', ({ field, patch, message }) => {
    expect(issuesOf(schema, { ...valid(), ...patch })).toEqual([{ path: field, message }]);
  });

  describe('dates', () => {
    test.each([
      '2026-02-30',
      '2025-02-29',
      '2026-13-01',
      '2026-04-31',
      '2026-3-1',
      '01/03/2026',
      '2026-03-01T00:00:00.000Z',
    ])('sendingDate %s is rejected', (sendingDate) => {
      expect(issuesOf(schema, { ...valid(), sendingDate })).toEqual([{ path: 'sendingDate', message: DATE_MESSAGE }]);
    });

    test.each(['2024-02-29', '2026-12-31', '2000-02-29'])('sendingDate %s is accepted as given', (sendingDate) => {
      expect(parsed(schema, { ...valid(), sendingDate }).sendingDate).toBe(sendingDate);
    });

    const badInstants = [
      '2026-03-31T21:59:59Z', // no fraction
      '2026-03-31T21:59:59.0Z', // one fraction digit
      '2026-03-31T21:59:59.0000Z', // four fraction digits
      '2026-03-31T21:59:59.000+00:00', // offset instead of Z
      '2026-03-31T23:59:59.000+02:00',
      '2026-03-31T21:59:59.000', // no zone at all
      '2026-02-30T10:00:00.000Z', // no such day
      '2025-02-29T10:00:00.000Z',
      '2026-03-31T24:00:00.000Z', // no such hour
      '2026-03-31T21:60:00.000Z',
      '2026-03-31 21:59:59.000Z',
      '2026-03-31',
    ];
    test.each(badInstants)('expiryDate %s is rejected', (expiryDate) => {
      expect(issuesOf(schema, { ...valid(), expiryDate })).toEqual([{ path: 'expiryDate', message: INSTANT_MESSAGE }]);
    });
    test.each(badInstants)('releaseDate %s is rejected', (releaseDate) => {
      expect(issuesOf(schema, { ...valid(), releaseDate })).toEqual([
        { path: 'releaseDate', message: INSTANT_MESSAGE },
      ]);
    });

    test.each(['2024-02-29T00:00:00.000Z', '2026-12-31T23:59:59.999Z'])('%s is accepted as given', (instant) => {
      const invoice = parsed(schema, { ...valid(), expiryDate: instant, releaseDate: instant });
      expect([invoice.expiryDate, invoice.releaseDate]).toEqual([instant, instant]);
    });

    test('a missing date names its field', () => {
      expect(issuesOf(schema, without(valid(), 'releaseDate'))).toEqual([
        { path: 'releaseDate', message: 'is required' },
      ]);
    });
  });

  describe('enums are case-sensitive and exactly as the spec lists them', () => {
    test.each(['en-gb', 'ar-eg'])('communicationLang %s is accepted', (communicationLang) => {
      expect(parsed(schema, { ...valid(), communicationLang }).communicationLang).toBe(communicationLang);
    });
    test.each(['EN-GB', 'en', 'ar-EG', 'fr-fr'])('communicationLang %s is rejected', (communicationLang) => {
      expect(issuesOf(schema, { ...valid(), communicationLang })).toEqual([
        { path: 'communicationLang', message: 'must be one of en-gb, ar-eg' },
      ]);
    });
    test.each(['SMS', 'EMAIL', 'BOTH', 'NONE'])('communicationMethod %s is accepted', (communicationMethod) => {
      expect(parsed(schema, { ...valid(), communicationMethod }).communicationMethod).toBe(communicationMethod);
    });
    test.each(['sms', 'Email', 'PUSH', ''])('communicationMethod "%s" is rejected', (communicationMethod) => {
      expect(issuesOf(schema, { ...valid(), communicationMethod })).toEqual([
        { path: 'communicationMethod', message: 'must be one of SMS, EMAIL, BOTH, NONE' },
      ]);
    });
    test.each(['PayAtService', 'CARD', 'VALU', 'INSTALMENTS'])('preferredPaymentMethod %s is accepted', (method) => {
      expect(parsed(schema, { ...valid(), preferredPaymentMethod: method }).preferredPaymentMethod).toBe(method);
    });
  });

  describe('taxes: a percentage from 0 to 100, sent as text', () => {
    test.each([
      [0, '0'],
      [14, '14'],
      [14.5, '14.5'],
      [100, '100'],
      ['14', '14'],
      [' 14 ', '14'],
      ['100.0', '100'],
    ])('%j is sent as %j', (taxes, sent) => {
      expect(parsed(schema, { ...valid(), taxes }).taxes).toBe(sent);
    });
    test.each([101, -1, 100.01, '101', '-5', '14%', 'abc', '', '1e2', true, null])('%j is rejected', (taxes) => {
      expect(issuesOf(schema, { ...valid(), taxes })).toEqual([{ path: 'taxes', message: TAXES_MESSAGE }]);
    });
  });

  describe('alertMerchantUponExpiry: a boolean, the text samples read as one', () => {
    test.each([
      [false, false],
      [true, true],
      ['false', false],
      ['true', true],
    ])('%j is sent as %j', (flag, sent) => {
      expect(parsed(schema, { ...valid(), alertMerchantUponExpiry: flag }).alertMerchantUponExpiry).toBe(sent);
    });
    test.each(['False', 'TRUE', 'yes', 0, 1, null])('%j is rejected', (flag) => {
      expect(issuesOf(schema, { ...valid(), alertMerchantUponExpiry: flag })).toEqual([
        { path: 'alertMerchantUponExpiry', message: 'must be true or false' },
      ]);
    });
  });

  describe('customer.email is required when the customer is notified by e-mail (rule 2.3.4)', () => {
    test.each(['EMAIL', 'BOTH'])('%s without an e-mail is rejected at customer.email', (communicationMethod) => {
      expect(issuesOf(schema, { ...valid(), communicationMethod, customer: noEmail() })).toEqual([
        { path: 'customer.email', message: EMAIL_REQUIRED_MESSAGE },
      ]);
    });

    test.each(['SMS', 'NONE', undefined])('%s without an e-mail is accepted', (communicationMethod) => {
      const invoice = parsed(schema, { ...valid(), communicationMethod, customer: noEmail() });
      expect(invoice.customer).toEqual(noEmail());
    });

    test('is reported together with every other failing field', () => {
      const payload = {
        ...valid(),
        communicationMethod: 'EMAIL',
        customer: noEmail(),
        amount: -1,
        note: '',
        items: [{ ...item(), price: 1.234 }],
        colour: 'red',
      };
      expect(issuesOf(schema, payload)).toEqual(
        expect.arrayContaining([
          { path: 'amount', message: 'must be greater than 0' },
          { path: 'note', message: 'must not be empty' },
          { path: 'items[0].price', message: 'must have at most two decimals' },
          { path: 'colour', message: 'is not a known field' },
          { path: 'customer.email', message: EMAIL_REQUIRED_MESSAGE },
        ]),
      );
      expect(issuesOf(schema, payload)).toHaveLength(5);
    });

    test('an invalid address is reported once, as a format problem', () => {
      expect(
        issuesOf(schema, { ...valid(), communicationMethod: 'BOTH', customer: { ...customer(), email: 'mona@' } }),
      ).toEqual([{ path: 'customer.email', message: 'must be an e-mail address' }]);
    });
  });
});
