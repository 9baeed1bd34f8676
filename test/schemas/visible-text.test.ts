import { describe, expect, it } from 'vitest';
import { formatPath } from '../../src/schemas/validate.js';
import { visible } from '../../src/schemas/visible-text.js';

describe('text quoted back with what cannot be seen shown', () => {
  it.each([
    ['amount\u200b', 'amount\\u200B'],
    ['e\u001b[2Jmail', 'e\\u001B[2Jmail'],
    ['1000007\u200b', '1000007\\u200B'],
    ['\ufeffname', '\\uFEFFname'],
    ['bad \u202egnp', 'bad \\u202Egnp'],
    ['عربي مُشكّل', 'عربي مُشكّل'],
    ['plain-text_1', 'plain-text_1'],
  ])('%j is shown as %j', (text, shown) => {
    expect(visible(text)).toBe(shown);
  });

  it('quotes a field path key that holds one', () => {
    expect(formatPath(['customer', 'e\u001b[2Jmail'])).toBe('customer."e\\u001B[2Jmail"');
    expect(formatPath(['items', 2, 'price'])).toBe('items[2].price');
  });
});
