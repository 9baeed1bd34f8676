import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { wholeNumberFlag } from '../../src/input/flag-parsers.js';

describe('wholeNumberFlag', () => {
  it.each([
    ['0', 0, undefined, 0],
    ['4010', 0, 65_535, 4010],
    [' 65535 ', 0, 65_535, 65_535],
    ['30', 1, undefined, 30],
  ])('reads %j (min %i, max %s) as %i', (text, min, max, expected) => {
    expect(wholeNumberFlag(min, max)(text)).toBe(expected);
  });

  it.each([
    ['99999', 0, 65_535, 'must be a whole number from 0 to 65535'],
    ['0', 1, undefined, 'must be a whole number of at least 1'],
    ['-1', 0, undefined, 'must be a whole number of at least 0'],
    ['1.5', 0, 10, 'must be a whole number from 0 to 10'],
    ['ten', 0, undefined, 'must be a whole number of at least 0'],
  ])('refuses %j (min %i, max %s) saying %j', (text, min, max, message) => {
    const parse = wholeNumberFlag(min, max);
    expect(() => parse(text)).toThrow(InvalidArgumentError);
    expect(() => parse(text)).toThrow(message);
  });
});
