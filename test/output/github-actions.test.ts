import { describe, expect, it } from 'vitest';
import { invoiceWords } from '../../src/bulk/record-check.js';
import { refundWords } from '../../src/bulk/refund-check.js';
import { RecordResults } from '../../src/bulk/results.js';
import { summarize } from '../../src/bulk/summary.js';
import { FileWriteError } from '../../src/errors.js';
import { errorAnnotation, recordAnnotations, stepSummary, workflowCommand } from '../../src/output/github-actions.js';

// GitHub's workflow commands and the step summary, from a bulk run's results: what the runner reads back is what
// einvoice meant, whatever the records' text holds.

const results = RecordResults.of([
  { record: 1, line: 2, businessReference: 'A-1', status: 'created', invoiceNumber: '7' },
  { record: 2, line: 3, businessReference: 'A-2', status: 'failed', error: 'HTTP 500: 100% down\r\nretry later' },
  { record: 3, line: 4, businessReference: 'A-1', status: 'duplicate', duplicateOf: 1, error: 'same as row 2' },
  { record: 4, line: 5, businessReference: 'x|<b>*y*</b>', status: 'uncertain', error: 'the connection dropped' },
]);

describe('workflow commands', () => {
  it('escape % and line breaks in the message (a CR is dropped with the other control characters), and also : and , in a property', () => {
    expect(workflowCommand('error', { file: 'in,put:1.csv', line: 3 }, '50% done\r\nnext')).toBe(
      '::error file=in%2Cput%3A1.csv,line=3::50%25 done%0Anext',
    );
  });

  it('make an error of a failed or uncertain record and a warning of a duplicate, each on its line', () => {
    const lines = recordAnnotations(results, { file: 'data/sheet.csv', numbered: 'row' });
    expect(lines).toEqual([
      '::error file=data/sheet.csv,line=3,title=einvoice%3A failed::row 3 (A-2): HTTP 500: 100%25 down%0Aretry later',
      '::error file=data/sheet.csv,line=5,title=einvoice%3A uncertain::row 5 (x|<b>*y*</b>): the connection dropped',
      '::warning file=data/sheet.csv,line=4,title=einvoice%3A duplicate::row 4 (A-1): same as row 2',
    ]);
  });

  it('name no file or line for stdin', () => {
    const [first] = recordAnnotations(results, { numbered: 'line' });
    expect(first).toBe('::error title=einvoice%3A failed::record 2 (A-2): HTTP 500: 100%25 down%0Aretry later');
  });
});

describe('the error a command ends with', () => {
  it('is one error annotation of its message, escaped; an unexpected one says so', () => {
    expect(errorAnnotation(new FileWriteError('Cannot make the folder 100%\nruns; nothing was sent.'))).toBe(
      '::error title=einvoice::Cannot make the folder 100%25%0Aruns; nothing was sent.',
    );
    expect(errorAnnotation(new TypeError('boom'))).toBe('::error title=einvoice::Unexpected error: boom');
  });
});

describe('the step summary', () => {
  it('is a Markdown table of counts and of the records to look at, their text unable to break the table', () => {
    const summary = summarize(results, {
      kind: 'single',
      words: invoiceWords('single'),
      environment: 'staging',
      dryRun: false,
      durationMs: 1200,
    });
    const markdown = stepSummary(summary, results, 'row', 'sheet.csv', 'Run the same command again.');
    expect(markdown).toContain('| created | 1 |\n| failed | 1 |\n| uncertain (sent, outcome unknown) | 1 |');
    expect(markdown).toContain('| 3 (A-2) | failed | HTTP 500: 100% down retry later |');
    expect(markdown).toContain('| 5 (x\\|&lt;b&gt;\\*y\\*&lt;/b&gt;) | uncertain | the connection dropped |');
    expect(markdown).toContain('**What to do next:** Run the same command again.');
    // Each row of the table has as many cells as its header.
    for (const row of markdown.split('\n').filter((line) => line.startsWith('| '))) {
      const cells = row.replace(/\\\|/g, '').split('|').length - 2;
      expect(cells === 2 || cells === 3, row).toBe(true);
    }
  });

  it("counts a run of refunds in a refund's words, with no row a refund cannot have", () => {
    const refunds = RecordResults.of([
      { record: 1, line: 2, status: 'created', invoiceNumber: '7' },
      { record: 2, line: 3, status: 'created-earlier', invoiceNumber: '8' },
    ]);
    const about = {
      kind: 'refund',
      words: refundWords,
      environment: 'staging',
      dryRun: false,
      durationMs: 1200,
    } as const;
    const summary = summarize(refunds, about);
    const markdown = stepSummary(summary, refunds, 'row', 'refunds.csv');
    expect(markdown).toContain('| refunded | 1 |\n| refunded by an earlier run | 1 |\n');
    expect(markdown).not.toMatch(/created|already existed|duplicates/);
    expect(summary).not.toHaveProperty('duplicatesInFile');
  });
});
