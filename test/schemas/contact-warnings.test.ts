import { describe, expect, it } from 'vitest';
import { contactWarnings, egyptianMobileProblem, withFixedMobile } from '../../src/schemas/contact-warnings.js';

// The contact values sent as given with a word to the merchant: the value is quoted back as the merchant can read it.

describe('contactWarnings', () => {
  it('names an e-mail that is no address on an SMS invoice, as it is when all of it can be seen', () => {
    expect(contactWarnings({ customer: { email: '20231187', mobile: '+201001234567' } })).toEqual([
      { path: 'customer.email', message: '20231187 is not an e-mail address (the invoice notifies by SMS)' },
    ]);
  });

  it.each([
    ['mona\u200b@shop', '"mona\\u200B@shop"'],
    ['mona\u00ad@shop', '"mona\\u00AD@shop"'],
    ['\ufeffmona', '"\\uFEFFmona"'],
    ['mona\u202e', '"mona\\u202E"'],
    ['mona\u0007', '"mona\\u0007"'],
  ])('quotes %j with its unseen characters shown, never raw', (email, shown) => {
    const [warning] = contactWarnings({ communicationMethod: 'NONE', customer: { email, mobile: '+201001234567' } });
    expect(warning?.message).toBe(`${shown} is not an e-mail address (the invoice notifies by NONE)`);
  });
});

describe('the number a mobile most likely is', () => {
  it.each([
    ['1012345678', '01012345678'],
    ['101 234-5678', '01012345678'],
    ['201012345678', '+201012345678'],
    ['2001012345678', '+201012345678'],
    ['00201012345678', '+201012345678'],
    ['002001012345678', '+201012345678'],
    ['+2001012345678', '+201012345678'],
  ])('suggests %s be sent as %s', (mobile, fix) => {
    expect(egyptianMobileProblem(mobile)?.fix).toBe(fix);
    const [warning] = contactWarnings({ customer: { mobile } });
    expect(warning?.message).toContain(`(${fix}?)`);
  });

  it.each(['010123456', '0123556677', '01312345678', '1312345678', '20131234567', '+20131234567'])(
    'guesses nothing for %s, which has no one reading',
    (mobile) => {
      expect(egyptianMobileProblem(mobile)).toMatchObject({ why: expect.any(String) });
      expect(egyptianMobileProblem(mobile)?.fix).toBeUndefined();
      expect(withFixedMobile({ customer: { name: 'Amr', mobile } })).toEqual({
        invoice: { customer: { name: 'Amr', mobile } },
      });
    },
  );

  it.each(['01012345678', '+201012345678', '+33612345678'])('finds nothing to say of %s', (mobile) => {
    expect(egyptianMobileProblem(mobile)).toBeUndefined();
  });

  it('sends the suggested number in a copy, and says what it changed', () => {
    const invoice = { amount: 10, customer: { name: 'Amr', mobile: '1012345678' } };
    expect(withFixedMobile(invoice)).toEqual({
      invoice: { amount: 10, customer: { name: 'Amr', mobile: '01012345678' } },
      fixed: {
        path: 'customer.mobile',
        message:
          '1012345678 looks like a number whose leading 0 a spreadsheet dropped; sent as 01012345678 (--fix-mobiles)',
        cause:
          'looks like a number whose leading 0 a spreadsheet dropped; sent as the number suggested (--fix-mobiles)',
        figure: '1012345678 → 01012345678',
      },
    });
    expect(invoice.customer.mobile).toBe('1012345678');
  });
});
