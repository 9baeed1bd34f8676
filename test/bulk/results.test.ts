import { describe, expect, it } from 'vitest';
import { RecordResults, type RecordResult } from '../../src/bulk/results.js';

const sample: RecordResult[] = [
  { record: 1, line: 2, status: 'created', businessReference: 'BR-1', invoiceNumber: '1000001' },
  { record: 2, line: 3, status: 'invalid', issues: [{ path: 'amount', message: 'must be greater than 0' }] },
  { record: 3, line: 5, status: 'duplicate', businessReference: 'BR-1', duplicateOf: 1, duplicateOfLine: 2 },
  {
    record: 4,
    status: 'already-existed',
    businessReference: 'مرجع-٤',
    invoiceNumber: '1000004',
    afterLostAnswer: true,
  },
  { record: 5, line: 7, status: 'uncertain', error: 'the connection was dropped' },
];

describe('the results of a run', () => {
  it('gives back every result as it was pushed, by index and in order', () => {
    const results = RecordResults.of(sample);
    expect(results.length).toBe(5);
    expect([...results]).toEqual(sample);
    expect(results.get(3)).toEqual(sample[3]);
    expect(results.get(3)).not.toHaveProperty('line');
    expect(results.status(1)).toBe('invalid');
  });

  it('changes a result only through update(): a field given replaces it, one given as undefined clears it', () => {
    const results = RecordResults.of(sample);
    results.get(4).status = 'created';
    expect(results.status(4)).toBe('uncertain');

    results.update(4, { status: 'created', invoiceNumber: '1000005', error: undefined });
    expect(results.get(4)).toEqual({ record: 5, line: 7, status: 'created', invoiceNumber: '1000005' });
    expect(results.get(4)).not.toHaveProperty('error');
    results.update(0, { status: 'changed', error: 'changed since an earlier run created it' });
    expect(results.get(0)).toEqual({
      ...sample[0],
      status: 'changed',
      error: 'changed since an earlier run created it',
    });
    results.update(1, { businessReference: 'BR-2' });
    expect(results.get(1)).toEqual({ ...sample[1], businessReference: 'BR-2' });
  });

  it('counts, lists and moves results by status', () => {
    const results = RecordResults.of([...sample, { record: 6, line: 8, status: 'pending' }]);
    expect(results.count('created', 'already-existed')).toBe(2);
    expect(results.withStatus('uncertain', 'invalid').map((result) => result.record)).toEqual([2, 5]);
    results.replaceStatus('pending', 'not-sent');
    expect(results.count('pending')).toBe(0);
    expect(results.get(5).status).toBe('not-sent');
  });

  it('holds 100,000 results, each with its own reference', () => {
    const results = new RecordResults();
    for (let index = 0; index < 100_000; index++) {
      results.push({ record: index + 1, line: index + 2, status: 'pending', businessReference: `BR-${index}` });
    }
    expect(results.get(99_999)).toEqual({
      record: 100_000,
      line: 100_001,
      status: 'pending',
      businessReference: 'BR-99999',
    });
    expect(results.get(1_234).businessReference).toBe('BR-1234');
  });
});
