import { describe, expect, test } from 'vitest';
import { numberOrText } from '../../src/input/item-spec.js';
import { InexactNumber, parseJsonExactly } from '../../src/schemas/exact-json.js';
import { recurringInvoiceSchema, singleInvoiceSchema } from '../../src/schemas/invoice.js';
import { refundSchema } from '../../src/schemas/refund.js';
import { issuesOf, item, parsed, recurringInvoice, singleInvoice } from './fixtures.js';

// Money is exact or refused: every amount, price, quantity and discount is read from its decimal text, and one that
// a JSON number would not carry exactly, or that passes its ceiling, is refused naming the field and the ceiling.
// The same rule answers a JSON file (parseJsonExactly), a flag or a prompt (numberOrText) and the sandbox.

const AMOUNT_CEILING = 'must be at most 9,999,999,999,999.99';

/** The three ways a number reaches the schema: a JSON file's text, a flag's text, and a number in code. */
const readers = {
  'a JSON file': (text: string) => (parseJsonExactly(`{"value":${text}}`) as { value: unknown }).value,
  'a flag or a prompt': (text: string) => numberOrText(text),
};

describe.each(Object.entries(readers))('a number read from %s', (_source, read) => {
  test.each([
    { field: 'amount', text: '90071992547409.93', carried: '90071992547409.94' },
    { field: 'amount', text: '12345678901234567.89', carried: '12345678901234568' },
    { field: 'amount', text: '19.9900000000000001', carried: '19.99' },
  ])('amount $text is refused, never sent as $carried', ({ field, text, carried }) => {
    const invoice = { ...singleInvoice(), items: undefined, [field]: read(text) };
    expect(issuesOf(singleInvoiceSchema, invoice)).toEqual([
      {
        path: field,
        message: `${text} cannot be sent exactly (a JSON number would carry ${carried}): give at most 15 significant digits, at most 9,999,999,999,999.99`,
      },
    ]);
  });

  test.each([
    { path: 'amount', text: '1e308', message: AMOUNT_CEILING },
    { path: 'amount', text: '10000000000000', message: AMOUNT_CEILING },
    { path: 'items[0].price', text: '10000000000000.5', message: AMOUNT_CEILING },
    { path: 'items[0].purchasedQuantity', text: '1e18', message: 'must be at most 999,999,999,999,999' },
  ])('$path $text is refused: $message', ({ path, text, message }) => {
    const value = read(text);
    const invoice =
      path === 'amount'
        ? { ...singleInvoice(), items: undefined, amount: value }
        : {
            ...singleInvoice(),
            items: [{ ...item(), [path.replace('items[0].', '')]: value }],
          };
    expect(issuesOf(singleInvoiceSchema, invoice)).toEqual([{ path, message }]);
  });

  test.each(['9999999999999.99', '0.01', '1234567890123.45', '1e3'])('amount %s is sent exactly as typed', (text) => {
    const invoice = parsed(singleInvoiceSchema, { ...singleInvoice(), items: undefined, amount: read(text) });
    expect(JSON.stringify(invoice.amount)).toBe(String(Number(text)));
    expect(Number(JSON.stringify(invoice.amount))).toBe(Number(text));
  });
});

describe('ceilings of what is added up', () => {
  test('items whose total passes the largest amount are refused with the total', () => {
    const items = [{ ...item(), price: 9_999_999_999_999.99, purchasedQuantity: 2 }];
    expect(issuesOf(singleInvoiceSchema, { ...singleInvoice(), items })).toEqual([
      { path: 'items', message: 'add up to 19999999999999.98, more than the largest amount (9,999,999,999,999.99)' },
    ]);
  });

  test('items adding up to exactly the largest amount are accepted', () => {
    const items = [{ ...item(), price: 0.01, purchasedQuantity: 999_999_999_999_999 }];
    expect(parsed(singleInvoiceSchema, { ...singleInvoice(), amount: 9_999_999_999_999.99, items }).items).toEqual(
      items,
    );
  });

  test('a recurring FLAT discount passing its ceiling names it', () => {
    expect(
      issuesOf(recurringInvoiceSchema, { ...recurringInvoice(), discount: { value: 1e16, type: 'FLAT' } }),
    ).toEqual([{ path: 'discount.value', message: 'must be at most 9,999,999,999,999' }]);
  });

  test.each([
    ['12345678901234.5', 'must be at most 9,999,999,999,999.99'],
    ['99999999999999999999', 'must be at most 9,999,999,999,999.99'],
    ['1.000000001', 'must have at most two decimals'],
    [
      '99.99000000000001',
      'must have at most two decimals: 99.99000000000001 is 99.99 as a computation left it; round it where it is computed (=ROUND(..., 2) in a sheet)',
    ],
    ['99.991234567891', 'must have at most two decimals'],
  ])('a refund amount written as text %s is refused: %s', (amount, message) => {
    expect(issuesOf(refundSchema, { amount, reason: 'Damaged', orderReferenceNumber: '3712345' })).toEqual([
      { path: 'amount', message },
    ]);
  });
});

describe('a refund amount', () => {
  test('in a file, a number no double carries is refused naming the ceiling', () => {
    const refund = parseJsonExactly('{"amount":90071992547409.93,"reason":"Damaged","orderReferenceNumber":"1"}');
    expect(issuesOf(refundSchema, refund)).toEqual([
      {
        path: 'amount',
        message:
          '90071992547409.93 cannot be sent exactly (a JSON number would carry 90071992547409.94): give at most 15 significant digits, at most 9,999,999,999,999.99',
      },
    ]);
  });
});

describe('taxes are sent as the decimal written, never through a float', () => {
  test.each([
    ['14', '14'],
    [' 014.50 ', '14.5'],
    ['14.0000000000000001', '14.0000000000000001'],
    ['99.9999999', '99.9999999'],
    [14.5, '14.5'],
    [0, '0'],
  ])('taxes %j are sent as %s', (taxes, sent) => {
    expect(parsed(singleInvoiceSchema, { ...singleInvoice(), taxes }).taxes).toBe(sent);
  });

  test('a JSON number of taxes no double carries is refused with the ceiling', () => {
    const taxes = parseJsonExactly('14.0000000000000001');
    expect(taxes).toBeInstanceOf(InexactNumber);
    expect(issuesOf(singleInvoiceSchema, { ...singleInvoice(), taxes })).toEqual([
      {
        path: 'taxes',
        message:
          '14.0000000000000001 cannot be sent exactly (a JSON number would carry 14): give at most 15 significant digits, at most 100',
      },
    ]);
  });
});

describe('parseJsonExactly', () => {
  test('reads ordinary JSON as JSON.parse does', () => {
    const text = '{"a":[1,2.5,-3e2,"x\\"1234567890123456789"],"b":{"c":null,"d":true}}';
    expect(parseJsonExactly(text)).toEqual(JSON.parse(text));
  });

  test('keeps every inexact number as written, wherever it is, and leaves strings alone', () => {
    const value = parseJsonExactly(
      '{"n":"90071992547409.93","items":[{"price":90071992547409.93}],"q":9007199254740993}',
    );
    expect(value).toEqual({
      n: '90071992547409.93',
      items: [{ price: new InexactNumber('90071992547409.93') }],
      q: new InexactNumber('9007199254740993'),
    });
  });

  test('text that is not JSON fails with JSON.parse own message and position', () => {
    const text = '{"amount": 90071992547409.93,, }';
    expect(() => parseJsonExactly(text)).toThrow(/position 29|line 1 column 30/);
  });
});
