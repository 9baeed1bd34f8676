import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { text } from 'node:stream/consumers';
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { reportEntry, reportFormat, writeJsonReport, writeReport } from '../../src/bulk/report.js';
import { RecordResults, unfinishedStatuses, type RecordResult } from '../../src/bulk/results.js';
import { summarize } from '../../src/bulk/summary.js';
import { renderSummary } from '../../src/output/bulk-summary.js';
import { formatDuration, progressLine } from '../../src/bulk/progress.js';
import { invoiceWords } from '../../src/bulk/record-check.js';
import { tempDir } from './helpers.js';

const results: RecordResult[] = [
  { record: 1, line: 1, businessReference: 'R1', status: 'created', invoiceNumber: '1000001' },
  { record: 2, line: 2, status: 'uncertain', error: 'the connection was dropped, "maybe" created' },
  { record: 3, line: 3, status: 'invalid', issues: [{ path: 'customer.mobile', message: 'is required' }] },
  { record: 4, line: 4, businessReference: 'R1', status: 'duplicate', duplicateOf: 1, error: 'same as record 1' },
  { record: 5, line: 5, businessReference: 'R5', status: 'already-existed', invoiceNumber: '999' },
  {
    record: 6,
    line: 6,
    businessReference: 'R6',
    status: 'created',
    invoiceNumber: '1000002',
    warnings: [
      { path: 'customer.mobile', message: '1012345678 looks like a number whose leading 0 a spreadsheet dropped' },
      { path: 'amount', message: "150.00 differs from the items' total 281.10; sent as given (--keep-amount)" },
    ],
  },
];

const words = invoiceWords('single');
const about = { kind: 'single', words, environment: 'staging', dryRun: false, durationMs: 1500 } as const;
const suite = { input: 'invoices.ndjson', words, durationMs: 0, timestamp: new Date(0) };

describe('--report', () => {
  it('writes CSV for .csv: a header, then one quoted-as-needed row per record', async () => {
    const path = join(tempDir(), 'report.csv');
    await writeReport(path, results, 'line', suite);
    expect(readFileSync(path, 'utf8').split('\n')).toEqual([
      'record,line,businessReference,status,invoiceNumber,error,warnings',
      '1,1,R1,created,1000001,,',
      '2,2,,uncertain,,"the connection was dropped, ""maybe"" created",',
      '3,3,,invalid,,customer.mobile: is required,',
      '4,4,R1,duplicate,,same as record 1,',
      '5,5,R5,already-existed,999,,',
      "6,6,R6,created,1000002,,customer.mobile: 1012345678 looks like a number whose leading 0 a spreadsheet dropped; amount: 150.00 differs from the items' total 281.10; sent as given (--keep-amount)",
      '',
    ]);
  });

  it('writes NDJSON for any other extension: one JSON object per record', async () => {
    const path = join(tempDir(), 'report.ndjson');
    await writeReport(path, results, 'line', suite);
    const lines = readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as unknown);
    expect(lines).toHaveLength(6);
    expect(lines[5]).toMatchObject({
      warnings: [
        { path: 'customer.mobile', message: expect.stringContaining('leading 0') },
        { path: 'amount', message: expect.stringContaining('--keep-amount') },
      ],
    });
    expect(lines[0]).toEqual({
      record: 1,
      line: 1,
      businessReference: 'R1',
      status: 'created',
      invoiceNumber: '1000001',
    });
    expect(lines[2]).toMatchObject({ businessReference: null, issues: [{ path: 'customer.mobile' }] });
    expect(reportFormat('x.CSV')).toBe('csv');
    expect(reportFormat('x.jsonl')).toBe('ndjson');
  });
});

describe('--json and the summary', () => {
  it('is one JSON document: the summary and every record', async () => {
    const out = new PassThrough();
    const summary = summarize(RecordResults.of(results), about);
    const written = text(out);
    await writeJsonReport(out, summary, results);
    out.end();
    const document = JSON.parse(await written) as { summary: Record<string, unknown>; records: unknown[] };
    expect(document.summary).toMatchObject({
      total: 6,
      created: 2,
      withWarnings: 1,
      alreadyExisted: 1,
      uncertain: 1,
      invalid: 1,
      duplicatesInFile: 1,
      failed: 0,
    });
    expect(document.records).toHaveLength(6);
    expect(document.records[5]).toMatchObject({ warnings: [{ path: 'customer.mobile' }, { path: 'amount' }] });
    // The summary is the first line, each record a line of its own.
    const lines = (await written).trimEnd().split('\n');
    const { words: _words, ...counts } = summary;
    expect(lines[0]).toBe(`{"summary":${JSON.stringify(counts)},`);
    expect(lines.slice(2, 8).map((line) => JSON.parse(line.replace(/,$/, '')) as unknown)).toEqual(document.records);
  });

  it('counts every status, and tells the records that leave the batch unfinished', () => {
    const unfinished = results.filter((result) => unfinishedStatuses.has(result.status));
    expect(unfinished.map((result) => result.status)).toEqual(['uncertain', 'invalid']);
    const rendered = renderSummary(
      summarize(RecordResults.of(results), about),
      RecordResults.of(results),
      new Chalk({ level: 0 }),
    );
    expect(rendered).toContain('6 single invoice records in staging, 1.5 s:');
    const one = results.slice(0, 1);
    expect(
      renderSummary(summarize(RecordResults.of(one), about), RecordResults.of(one), new Chalk({ level: 0 })),
    ).toContain('1 single invoice record in staging, 1.5 s:');
    expect(rendered).toMatch(/ {2}uncertain +1 {2}\(sent, outcome unknown: check them\)/);
    expect(rendered).toContain('record 2: uncertain: the connection was dropped');
  });

  it('notes what a rerun does with the failed records', () => {
    const failed: RecordResult[] = [{ record: 1, line: 1, status: 'failed', error: 'HTTP 500' }];
    expect(
      renderSummary(summarize(RecordResults.of(failed), about), RecordResults.of(failed), new Chalk({ level: 0 })),
    ).toMatch(/ {2}failed +1 {2}\(run the same command again to retry them\)/);
  });

  it('says why records already existed, in parts that add up to the count', () => {
    const existing: RecordResult[] = [
      { record: 1, line: 1, status: 'created-earlier', invoiceNumber: '1000001' },
      { record: 2, line: 2, status: 'already-existed', invoiceNumber: '1000002', afterLostAnswer: true },
      { record: 3, line: 3, status: 'already-existed', invoiceNumber: '1000003' },
    ];
    const summary = summarize(RecordResults.of(existing), about);
    expect(summary).toMatchObject({ createdEarlier: 1, alreadyExisted: 2, alreadyExistedAfterLostAnswer: 1 });
    expect(renderSummary(summary, RecordResults.of(existing), new Chalk({ level: 0 }))).toMatch(
      / {2}already existed +3 {2}\(1 created by an earlier run; 1 most likely created by an attempt whose answer was lost; 1 found in the service, no attempt journaled\)/,
    );
    expect(reportEntry(existing[1] as RecordResult, 'line', words)).toMatchObject({ afterLostAnswer: true });
    expect(reportEntry(existing[2] as RecordResult, 'line', words)).not.toHaveProperty('afterLostAnswer');
  });

  it('lines up every count of a summary, whatever its longest label', () => {
    const rerun: RecordResult[] = [
      { record: 1, line: 1, status: 'created-earlier', invoiceNumber: '1000001' },
      { record: 2, line: 2, status: 'valid' },
      { record: 3, line: 3, status: 'invalid', issues: [{ path: 'amount', message: 'must be greater than 0' }] },
    ];
    for (const dryRun of [true, false]) {
      const rendered = renderSummary(
        summarize(RecordResults.of(rerun), { ...about, dryRun }),
        RecordResults.of(rerun),
        new Chalk({ level: 0 }),
      );
      const counts = rendered.split('\n').filter((line) => /^ {2}\S.*\d$/.test(line));
      expect(counts.length, rendered).toBeGreaterThanOrEqual(4);
      // Every count ends in the same column, with at least two spaces between label and count.
      expect(new Set(counts.map((line) => line.length)).size, rendered).toBe(1);
      for (const line of counts) expect(line, rendered).toMatch(/^ {2}\S.*\S {2,}\d+$/);
    }
  });

  it('draws progress as sent/total, rate, ETA, and failed and uncertain as the summary counts them', () => {
    expect(progressLine(100, { done: 25, failed: 2, uncertain: 1, retries: 0 }, 5000, 8)).toBe(
      '[##------] 25/100 sent (25%)  5.0/s  ETA 15s  failed 2  uncertain 1',
    );
    expect(formatDuration(75_000)).toBe('1m15s');
  });
});
