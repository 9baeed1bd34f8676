import { describe, expect, it } from 'vitest';
import { groupedFindings, placesOf } from '../../src/output/findings.js';
import type { RecordFinding } from '../../src/sheet/index.js';

// The problems of many records as one screen shows them: one line per cause, the records it names in ranges, each
// beside its own figure where the cause leaves one out.

function finding(where: string, extra: Partial<RecordFinding> = {}): RecordFinding {
  return { path: `${where}, column amount (D)`, message: 'is 1.00', where, field: 'column amount (D)', ...extra };
}

describe('groupedFindings', () => {
  it('tells one cause of many rows once, the rows in ranges, the column once', () => {
    const dates = ['row 2', 'row 3', 'row 4', 'row 7'].map((where) =>
      finding(where, {
        message: `is 1/2/2030: read as declared`,
        cause: 'read as declared',
        field: 'column sendingDate (E)',
      }),
    );
    expect(groupedFindings(dates)).toEqual([
      { path: 'rows 2-4, 7: column sendingDate (E)', message: 'read as declared' },
    ]);
  });

  it("keeps each record's figure beside it, and two of one record side by side", () => {
    const cause = "differs from the items' total";
    expect(
      groupedFindings([
        finding('record 1 (line 1)', { message: 'is 150.00 ...', cause, figure: '150.00 ≠ 140.00', field: 'amount' }),
        finding('record 3 (line 3)', { message: 'is 150.00 ...', cause, figure: '150.00 ≠ 281.10', field: 'amount' }),
        finding('record 3 (line 3)', { message: 'is 9.00 ...', cause, figure: '9.00 ≠ 8.00', field: 'amount' }),
      ]),
    ).toEqual([{ path: 'records 1 (150.00 ≠ 140.00), 3 (150.00 ≠ 281.10; 9.00 ≠ 8.00): amount', message: cause }]);
  });

  it('names the first ten records with their figures, and how many more', () => {
    const many = Array.from({ length: 12 }, (_, index) =>
      finding(`row ${index + 2}`, { cause: 'has passed', figure: `day ${index + 1}` }),
    );
    const [line] = groupedFindings(many);
    expect(line?.path).toBe(
      'rows 2 (day 1), 3 (day 2), 4 (day 3), 5 (day 4), 6 (day 5), 7 (day 6), 8 (day 7), 9 (day 8), 10 (day 9), 11 (day 10) and 2 more: column amount (D)',
    );
  });

  it('keeps the whole message of a cause only one record has', () => {
    const alone = finding('row 5', { message: 'is 150.00, the items add up to 140.00', cause: 'differs', figure: 'x' });
    expect(groupedFindings([alone])).toEqual([{ path: alone.path, message: alone.message }]);
  });
});

describe('placesOf', () => {
  it('names records of different nouns as given', () => {
    expect(placesOf([{ where: 'row 2' }, { where: 'record 4 (line 5)' }])).toBe('row 2, record 4 (line 5)');
  });
});
