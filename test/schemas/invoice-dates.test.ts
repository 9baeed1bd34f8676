import { describe, expect, it } from 'vitest';
import { dateWarnings } from '../../src/schemas/invoice-dates.js';

const now = '2030-01-15T10:00:00.000Z';
const dates = (expiryDate: string, releaseDate = '2030-01-20T00:00:00.000Z', sendingDate = '2030-01-20') => ({
  expiryDate,
  releaseDate,
  sendingDate,
});

describe('the dates a merchant is warned about', () => {
  it('says nothing of an expiry after now, the release and the sending date', () => {
    expect(dateWarnings(dates('2030-02-01T23:59:59.999Z'), now)).toEqual([]);
  });

  it('names an expiry already past, and the dates it is not after', () => {
    expect(dateWarnings(dates('2030-01-10T23:59:59.999Z'), now)).toEqual([
      'expiryDate 2030-01-10T23:59:59.999Z has already passed (it is now 2030-01-15T10:00:00.000Z): the customer could not pay it.',
      'expiryDate 2030-01-10T23:59:59.999Z is not after releaseDate 2030-01-20T00:00:00.000Z or sendingDate 2030-01-20.',
    ]);
    expect(dateWarnings(dates('2030-01-20T00:00:00.000Z', '2030-01-16T00:00:00.000Z'), now)).toEqual([
      'expiryDate 2030-01-20T00:00:00.000Z is not after sendingDate 2030-01-20.',
    ]);
    expect(dateWarnings(dates('2030-01-15T10:00:00.000Z', '2030-01-01T00:00:00.000Z', '2030-01-01'), now)).toEqual([
      'expiryDate 2030-01-15T10:00:00.000Z has already passed (it is now 2030-01-15T10:00:00.000Z): the customer could not pay it.',
    ]);
  });

  it('compares as the instants compare, one millisecond apart', () => {
    const release = '2030-01-20T12:00:00.000Z';
    for (const expiry of ['2030-01-20T11:59:59.999Z', '2030-01-20T12:00:00.000Z', '2030-01-20T12:00:00.001Z']) {
      const warned = dateWarnings(dates(expiry, release, '2030-01-01'), now).length > 0;
      expect(warned, expiry).toBe(Date.parse(expiry) <= Date.parse(release));
    }
  });
});
