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
      // An e-mail invoice's customer e-mail must be an address (on an SMS one it is sent as given).
      patch: { customer: { ...customer(), email: 'mona' }, communicationMethod: 'EMAIL' },
      message: 'must be an e-mail address when communicationMethod is EMAIL or BOTH',
    },
    { field: 'customer.phone', patch: { customer: { ...customer(), phone: '1' } }, message: 'is not a known field' },
    { field: 'amount', patch: { amount: undefined }, message: 'is required' },
    { field: 'amount', patch: { amount: 0 }, message: 'must be greater than 0' },
    { field: 'amount', patch: { amount: -5 }, message: 'must be greater than 0' },
    { field: 'amount', patch: { amount: -0.001 }, message: 'must be greater than 0' },
    { field: 'amount', patch: { amount: 10.005 }, message: 'must have at most two decimals' },
    { field: 'amount', patch: { amount: '100' }, message: 'must be a number, not text ("100")' },
    { field: 'amount', patch: { amount: 'ten' }, message: 'must be a number' },
    { field: 'amount', patch: { amount: null }, message: 'must be a number' },
    { field: 'note', patch: { note: undefined }, message: 'is required' },
    { field: 'note', patch: { note: '   ' }, message: 'must not be empty' },
    { field: 'note', patch: { note: 42 }, message: 'must be text, not the number 42 (in quotes: "42")' },
    { field: 'note', patch: { note: ['a'] }, message: 'must be text' },
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

  describe('text is text: control characters and bidirectional overrides are refused, naming the field', () => {
    const textFields = [
      { path: 'customer.name', patch: (value: string) => ({ customer: { ...customer(), name: value } }) },
      { path: 'note', patch: (value: string) => ({ note: value }) },
      { path: 'businessReference', patch: (value: string) => ({ businessReference: value }) },
      { path: 'preferredPaymentMethod', patch: (value: string) => ({ preferredPaymentMethod: value }) },
      { path: 'items[0].itemCode', patch: (value: string) => ({ items: [{ ...item(), itemCode: value }] }) },
      { path: 'items[0].nameEn', patch: (value: string) => ({ items: [{ ...item(), nameEn: value }] }) },
      { path: 'items[0].nameAr', patch: (value: string) => ({ items: [{ ...item(), nameAr: value }] }) },
    ];
    const forbidden = [
      ['NUL', 'A\u0000B', 'must not contain control characters (found U+0000)'],
      ['ESC (a terminal sequence)', 'A\u001b[2JB', 'must not contain control characters (found U+001B)'],
      ['BEL', 'A\u0007', 'must not contain control characters (found U+0007)'],
      ['a line break inside', 'A\nB', 'must not contain control characters (found a line break, U+000A)'],
      ['DEL', 'A\u007fB', 'must not contain control characters (found U+007F)'],
      ['C1 NEL', 'A\u0085B', 'must not contain control characters (found U+0085)'],
      [
        'RIGHT-TO-LEFT OVERRIDE',
        'A\u202eB',
        'must not contain bidirectional override or isolate characters (found U+202E)',
      ],
      [
        'LEFT-TO-RIGHT EMBEDDING',
        'A\u202aB',
        'must not contain bidirectional override or isolate characters (found U+202A)',
      ],
      [
        'FIRST STRONG ISOLATE',
        'A\u2068B',
        'must not contain bidirectional override or isolate characters (found U+2068)',
      ],
      [
        'POP DIRECTIONAL ISOLATE',
        'A\u2069B',
        'must not contain bidirectional override or isolate characters (found U+2069)',
      ],
    ] as const;
    const cases = textFields.flatMap(({ path, patch }) =>
      forbidden.map(([name, value, message]) => ({ path, name, patch: patch(value), message })),
    );
    test.each(cases)('$path with $name', ({ path, patch, message }) => {
      expect(issuesOf(schema, { ...valid(), ...patch })).toEqual([{ path, message }]);
    });

    test('a refused character does not hide the other problems of the invoice', () => {
      const invoice = { ...valid(), communicationMethod: 'EMAIL', customer: { ...noEmail(), name: 'A\u0000' } };
      expect(issuesOf(schema, { ...invoice, amount: 1e308 })).toEqual([
        { path: 'customer.name', message: 'must not contain control characters (found U+0000)' },
        { path: 'amount', message: 'must be at most 9,999,999,999,999.99' },
        { path: 'customer.email', message: EMAIL_REQUIRED_MESSAGE },
      ]);
    });

    test.each(textFields)('$path is trimmed of blanks at its ends', ({ path, patch }) => {
      const invoice = parsed(schema, { ...valid(), ...patch('  Mona  ') }) as Record<string, unknown>;
      const value = path
        .replace('[0]', '.0')
        .split('.')
        .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], invoice);
      expect(value).toBe('Mona');
    });

    test.each(['مُنى عَادِل', 'كوبٌ كبيرٌ للقهوة', 'فاتورة\u061c رقم ١٢٣', 'Mona \u200fعادل'])(
      'Arabic text with its marks is kept unchanged: %s',
      (name) => {
        const invoice = parsed(schema, { ...valid(), customer: { ...customer(), name }, note: name });
        expect([invoice.customer.name, invoice.note]).toEqual([name, name]);
      },
    );
  });

  describe('dates', () => {
    test.each([
      ['2026-02-30', 'February 2026 has no 30th day'],
      ['2025-02-29', 'February 2025 has no 29th day'],
      ['2026-04-31', 'April 2026 has no 31st day'],
      ['2026-13-01', 'has no month 13 (months are 01 to 12)'],
      ['1999-12-31', 'must be from 2000-01-01 to 2100-12-31 (is the year a typo?)'],
      ['2101-01-01', 'must be from 2000-01-01 to 2100-12-31 (is the year a typo?)'],
      ['0206-03-01', 'must be from 2000-01-01 to 2100-12-31 (is the year a typo?)'],
    ])('sendingDate %s is rejected: %s', (sendingDate, message) => {
      expect(issuesOf(schema, { ...valid(), sendingDate })).toEqual([{ path: 'sendingDate', message }]);
    });

    test.each([
      ['expiryDate', '2026-02-30T10:00:00.000Z', 'February 2026 has no 30th day'],
      ['releaseDate', '2025-02-29T10:00:00.000Z', 'February 2025 has no 29th day'],
      ['expiryDate', '2126-03-31T21:59:59.000Z', 'must be from 2000-01-01 to 2100-12-31 (is the year a typo?)'],
      ['releaseDate', '1970-01-01T00:00:00.000Z', 'must be from 2000-01-01 to 2100-12-31 (is the year a typo?)'],
    ])('%s %s is rejected: %s', (field, instant, message) => {
      expect(issuesOf(schema, { ...valid(), [field]: instant })).toEqual([{ path: field, message }]);
    });

    test.each(['2026-3-1', '01/03/2026', '2026-03-01T00:00:00.000Z'])('sendingDate %s is rejected', (sendingDate) => {
      expect(issuesOf(schema, { ...valid(), sendingDate })).toEqual([{ path: 'sendingDate', message: DATE_MESSAGE }]);
    });

    test.each(['2024-02-29', '2026-12-31', '2000-02-29', '2000-01-01', '2100-12-31'])(
      'sendingDate %s is accepted as given',
      (sendingDate) => {
        expect(parsed(schema, { ...valid(), sendingDate }).sendingDate).toBe(sendingDate);
      },
    );

    const badInstants = [
      '2026-03-31T21:59:59Z', // no fraction
      '2026-03-31T21:59:59.0Z', // one fraction digit
      '2026-03-31T21:59:59.0000Z', // four fraction digits
      '2026-03-31T21:59:59.000+00:00', // offset instead of Z
      '2026-03-31T23:59:59.000+02:00',
      '2026-03-31T21:59:59.000', // no zone at all
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

  describe('enums are read in any case and sent exactly as the spec lists them', () => {
    test.each([
      ['en-gb', 'en-gb'],
      ['EN-GB', 'en-gb'],
      ['ar-EG', 'ar-eg'],
      [' Ar-Eg ', 'ar-eg'],
    ])('communicationLang %s is sent as %s', (communicationLang, sent) => {
      expect(parsed(schema, { ...valid(), communicationLang }).communicationLang).toBe(sent);
    });
    test.each([
      ['sms', 'SMS'],
      ['Email', 'EMAIL'],
      ['both', 'BOTH'],
      ['nOnE', 'NONE'],
    ])('communicationMethod %s is sent as %s', (communicationMethod, sent) => {
      expect(parsed(schema, { ...valid(), communicationMethod, customer: customer() }).communicationMethod).toBe(sent);
    });
    test.each(['en', 'en_gb', 'fr-fr'])('communicationLang %s is rejected', (communicationLang) => {
      expect(issuesOf(schema, { ...valid(), communicationLang })).toEqual([
        { path: 'communicationLang', message: 'must be one of en-gb, ar-eg' },
      ]);
    });
    test.each(['SMS', 'EMAIL', 'BOTH', 'NONE'])('communicationMethod %s is accepted', (communicationMethod) => {
      expect(parsed(schema, { ...valid(), communicationMethod }).communicationMethod).toBe(communicationMethod);
    });
    test.each(['SMSS', 'E-MAIL', 'PUSH', ''])('communicationMethod "%s" is rejected', (communicationMethod) => {
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
      ).toEqual([
        { path: 'customer.email', message: 'must be an e-mail address when communicationMethod is EMAIL or BOTH' },
      ]);
    });

    test.each(['SMS', 'NONE', 'EMAIL'])(
      'a %s invoice refuses an e-mail holding a bidirectional override, whatever its format rule',
      (method) => {
        const email = 'mona@\u202eelpmaxe.com';
        expect(
          issuesOf(schema, { ...valid(), communicationMethod: method, customer: { ...customer(), email } }),
        ).toContainEqual({
          path: 'customer.email',
          message: 'must not contain bidirectional override or isolate characters (found U+202E)',
        });
      },
    );

    test.each(['SMS', 'NONE'])(
      'a %s invoice takes an e-mail that is no address, as the spec gives it no format',
      (method) => {
        const invoice = parsed(schema, {
          ...valid(),
          communicationMethod: method,
          customer: { ...customer(), email: '20231187' },
        });
        expect(invoice.customer.email).toBe('20231187');
      },
    );
  });
});
