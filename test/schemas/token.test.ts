import { describe, expect, it } from 'vitest';
import { tokenProblem } from '../../src/schemas/token.js';

// A token goes into the Authorization header as it is: what cannot be sent there is named before any request.

describe('tokenProblem', () => {
  it.each([
    ['eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig-_~+/=', undefined],
    ['first\nsecond', 'has 2 lines (it contains a line break)'],
    ['one\r\ntwo\r\nthree', 'has 3 lines (it contains a line break)'],
    ['two words', 'contains a space'],
    ['tab\there', 'contains a control character (U+0009)'],
    ['bell\u0007', 'contains a control character (U+0007)'],
    ['del\u007f', 'contains a control character (U+007F)'],
    ['no\u00a0break', 'contains a space'],
    ['café', 'contains a character that is not ASCII'],
  ])('%j: %s', (token, problem) => {
    expect(tokenProblem(token)).toBe(problem);
  });
});
