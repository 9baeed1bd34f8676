import { describe, expect, it } from 'vitest';
import { contactWarnings } from '../../src/schemas/contact-warnings.js';

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
