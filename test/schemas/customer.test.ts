import { describe, expect, test } from 'vitest';
import { customerSchema } from '../../src/schemas/customer.js';
import { customer, issuesOf, parsed, without } from './fixtures.js';

// The customer object of spec 2.1. Whether the e-mail is required depends on the invoice (see invoice-common.test.ts).

describe('customerSchema', () => {
  test('is kept as given, key order included, with text trimmed', () => {
    const given = { name: ' Mona Adel ', email: 'mona@example.com', mobile: '+201001234567 ' };
    expect(JSON.stringify(parsed(customerSchema, given))).toBe(JSON.stringify(customer()));
  });

  test('the e-mail is optional on its own and not added when absent', () => {
    expect(parsed(customerSchema, without(customer(), 'email'))).not.toHaveProperty('email');
  });

  test.each(['+201001234567', '01001234567', '1234567', '+123456789012345'])('mobile %s is accepted', (mobile) => {
    expect(parsed(customerSchema, { ...customer(), mobile }).mobile).toBe(mobile);
  });

  test.each([
    ['0100 123 4567', '01001234567'],
    ['010-0123-4567', '01001234567'],
    ['+20 (100) 123-4567', '+201001234567'],
    [' (0100) 1234567 ', '01001234567'],
  ])('mobile "%s" is accepted and sent as %s', (mobile, sent) => {
    expect(parsed(customerSchema, { ...customer(), mobile }).mobile).toBe(sent);
  });

  test.each(['123456', '+1234567890123456', '++201001234567', 'mobile', '0100.123.4567', '0100\n1234567', '+ 20'])(
    'mobile "%s" is rejected',
    (mobile) => {
      expect(issuesOf(customerSchema, { ...customer(), mobile })).toEqual([
        {
          path: 'mobile',
          message: expect.stringMatching(/^must (be a mobile number: an optional \+ and 7 to 15 digits|not contain)/),
        },
      ]);
    },
  );

  test.each(['mona@example.com', 'Mona.Adel+inv@shop.example.eg'])('email %s is accepted', (email) => {
    expect(parsed(customerSchema, { ...customer(), email }).email).toBe(email);
  });

  // The spec gives the customer's e-mail no format: whether it must be an address depends on the invoice's
  // communicationMethod (invoice-common.test.ts).
  test.each(['mona', 'mona@', '20231187', ''])('email "%s" is taken as given by the customer alone', (email) => {
    expect(parsed(customerSchema, { ...customer(), email }).email).toBe(email);
  });

  test.each(['mona\uFFFD', 'mona\ud800'])('email %j, which cannot be sent as text, is rejected', (email) => {
    expect(issuesOf(customerSchema, { ...customer(), email })).toEqual([
      { path: 'email', message: expect.stringMatching(/^holds (characters that could not be read|a lone surrogate)/) },
    ]);
  });

  // As every other text field: such a character can hide or reorder what the customer and the merchant read.
  test.each([
    ['mona\u0000@example.com', 'control characters (found U+0000)'],
    ['mona@example.com\u001b[2J', 'control characters (found U+001B)'],
    ['mona@example.com\n', 'control characters (found a line break, U+000A)'],
    ['mona@example.com\u2028', 'control characters (found a line break, U+2028)'],
    ['mona\u2029@example.com', 'control characters (found a line break, U+2029)'],
    ['mona@\u202eelpmaxe.com', 'bidirectional override or isolate characters (found U+202E)'],
    ['\u2066mona@example.com\u2069', 'bidirectional override or isolate characters (found U+2066)'],
  ])('email %j is rejected, naming the character', (email, found) => {
    expect(issuesOf(customerSchema, { ...customer(), email })).toEqual([
      { path: 'email', message: `must not contain ${found}` },
    ]);
  });

  test.each([
    ['Mona\u2028Adel', 'control characters (found a line break, U+2028)'],
    ['Mona\u2029Adel', 'control characters (found a line break, U+2029)'],
  ])('name %j, holding a line or paragraph separator, is rejected as a line break', (name, found) => {
    expect(issuesOf(customerSchema, { ...customer(), name })).toEqual([
      { path: 'name', message: `must not contain ${found}` },
    ]);
  });

  test.each([
    { path: 'name', patch: { name: undefined }, message: 'is required' },
    { path: 'name', patch: { name: '' }, message: 'must not be empty' },
    { path: 'name', patch: { name: ['Mona'] }, message: 'must be text' },
    {
      path: 'mobile',
      patch: { mobile: '+٢٠١٠٠١٢٣٤٥٦٧' },
      message:
        'must be a mobile number: an optional + and 7 to 15 digits (spaces, dashes and parentheses allowed); write its digits as 0-9',
    },
    { path: 'mobile', patch: { mobile: undefined }, message: 'is required' },
    {
      path: 'mobile',
      patch: { mobile: 201001234567 },
      message: 'must be text, not the number 201001234567 (in quotes: "201001234567")',
    },
    { path: 'phone', patch: { phone: '+201001234567' }, message: 'is not a known field' },
  ])('$path rejects $patch', ({ path, patch, message }) => {
    expect(issuesOf(customerSchema, { ...customer(), ...patch })).toEqual([{ path, message }]);
  });
});
