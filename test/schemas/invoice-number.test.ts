import { describe, expect, test } from 'vitest';
import { parseCreatedInvoiceNumber } from '../../src/api/invoice-number.js';
import { invoiceNumberSchema } from '../../src/schemas/invoice-number.js';
import { validate } from '../../src/schemas/validate.js';

// The invoice number: read from a create response (spec 4.3, 4.4) and given on the command line or in a URL path.

describe('parseCreatedInvoiceNumber', () => {
  test.each([
    ['1001', '1001'],
    ['0042', '0042'], // leading zeros are part of the number as text
    [' 1001\n', '1001'],
    ['12345678901234567890', '12345678901234567890'], // past 2^53: kept digit for digit, not rounded
    ['9007199254740993', '9007199254740993'],
    ['"1001"', '1001'],
    ['"INV-2026_03"', 'INV-2026_03'],
    [' "12345678901234567890" ', '12345678901234567890'],
    // As long as a number the command line takes, so every number the service gives can be refunded.
    ['1'.repeat(64), '1'.repeat(64)],
    [`"${'A'.repeat(64)}"`, 'A'.repeat(64)],
  ])('%j is read as %j', (body, number) => {
    expect(parseCreatedInvoiceNumber(body)).toBe(number);
  });

  test.each([
    '',
    '   ',
    'null',
    'true',
    '-1001',
    '1001.5',
    '1e21',
    '10 01',
    '""',
    '"1001',
    "'1001'",
    '"INV 1001"',
    '"../admin"',
    '{"invoiceNumber":"1001"}',
    '[1001]',
    '<html>Created</html>',
    '1'.repeat(65),
    `"${'A'.repeat(65)}"`,
  ])('%j is not an invoice number', (body) => {
    expect(parseCreatedInvoiceNumber(body)).toBeUndefined();
  });
});

describe('invoiceNumberSchema', () => {
  test.each(['1001', 'INV-2026_03', ' 1001 '])('%j is accepted', (number) => {
    expect(validate(invoiceNumberSchema, number)).toEqual({ success: true, data: number.trim() });
  });

  test.each([
    { number: '1001/refund', message: 'must be an invoice number: letters, digits, - or _ only' },
    { number: '../1001', message: 'must be an invoice number: letters, digits, - or _ only' },
    { number: 'x'.repeat(65), message: 'must be an invoice number: letters, digits, - or _ only' },
    { number: undefined, message: 'is required' },
    { number: 1001, message: 'must be text, not the number 1001 (in quotes: "1001")' },
  ])('$number is rejected: $message', ({ number, message }) => {
    expect(validate(invoiceNumberSchema, number)).toEqual({ success: false, issues: [{ path: '(request)', message }] });
  });

  test('an empty number is told it must not be empty', () => {
    const result = validate(invoiceNumberSchema, ' ');
    expect(result.success ? [] : result.issues).toContainEqual({ path: '(request)', message: 'must not be empty' });
  });
});
