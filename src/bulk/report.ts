import { once } from 'node:events';
import { extname } from 'node:path';
import type { Writable } from 'node:stream';
import type { KindWords } from './kind.js';
import type { RecordResult } from './results.js';
import type { FieldIssue } from '../errors.js';
import type { BatchSummary } from './summary.js';
import { junitLines, type JunitSuite } from './report-junit.js';
import { openPrivate } from '../private-file.js';
import { csvCell } from '../csv-writer.js';
import type { WorkbookValue } from '../workbook-writer.js';

// The per-record report: `--report FILE` as CSV, a workbook, JUnit XML or NDJSON (by the file's extension), and the
// `--json` document.

/** What a record's `line` is called: a line of a JSON file, or a row of a spreadsheet. */
export type Numbered = 'line' | 'row';

/** A record's status as the report names it, in the kind's words: a refund is `refunded`, not `created`. */
export function shownStatus(status: RecordResult['status'], words: KindWords): string {
  return status === 'created' ? words.done : status === 'created-earlier' ? `${words.done}-earlier` : status;
}

/** A record as the report and --json show it; absent fields are left out. */
export function reportEntry(result: RecordResult, numbered: Numbered, words: KindWords): Record<string, unknown> {
  return {
    record: result.record,
    ...(result.line !== undefined ? { [numbered]: result.line } : {}),
    // A kind without a reference (a refund) has no businessReference: its invoiceNumber names it.
    ...(words.reference === undefined ? {} : { businessReference: result.businessReference ?? null }),
    status: shownStatus(result.status, words),
    ...(result.invoiceNumber !== undefined ? { invoiceNumber: result.invoiceNumber } : {}),
    ...(result.afterLostAnswer ? { afterLostAnswer: true } : {}),
    ...(result.error !== undefined ? { error: result.error } : {}),
    ...(result.issues ? { issues: result.issues.map(pathAndMessage) } : {}),
    ...(result.warnings ? { warnings: result.warnings.map(pathAndMessage) } : {}),
    ...(result.duplicateOf !== undefined ? { duplicateOf: result.duplicateOf } : {}),
    ...(result.duplicateOfLine !== undefined
      ? { [`duplicateOf${numbered === 'row' ? 'Row' : 'Line'}`]: result.duplicateOfLine }
      : {}),
  };
}

/** An issue or warning as reports show it. */
function pathAndMessage({ path, message }: FieldIssue): FieldIssue {
  return { path, message };
}

const csvColumns = ['record', 'line', 'businessReference', 'status', 'invoiceNumber', 'error', 'warnings'] as const;

/** The report's columns for a kind: one without a reference (a refund) has no businessReference. */
function columnsOf(words: KindWords): ReadonlyArray<(typeof csvColumns)[number]> {
  return csvColumns.filter((column) => column !== 'businessReference' || words.reference !== undefined);
}

/**
 * The summary as --json gives it, in the kind's words: a refund run counts `refunded` and `refundedEarlier`, and no
 * records that already existed (a kind without a reference has none the service could know it by).
 */
function shownSummary(summary: BatchSummary): Record<string, unknown> {
  const { words, kind, environment, dryRun, total, created, createdEarlier, ...rest } = summary;
  const { alreadyExisted, alreadyExistedAfterLostAnswer, ...counts } = rest;
  return {
    kind,
    environment,
    dryRun,
    total,
    [words.done]: created,
    [`${words.done}Earlier`]: createdEarlier,
    ...(words.reference === undefined ? {} : { alreadyExisted, alreadyExistedAfterLostAnswer }),
    ...counts,
  };
}

/** The cells of a record's row of a report; an invalid record's error lists its issues. */
function reportCells(result: RecordResult, words: KindWords): Record<string, unknown> {
  const error =
    result.error ?? result.issues?.map((issue) => `${issue.path}: ${issue.message}`).join('; ') ?? undefined;
  const warnings = result.warnings?.map((warning) => `${warning.path}: ${warning.message}`).join('; ');
  return { ...result, status: shownStatus(result.status, words), error, warnings };
}

/** One CSV row of a record; an invalid record's error lists its issues (`line` is the row for a CSV input). */
export function csvRow(result: RecordResult, words: KindWords): string {
  const cells = reportCells(result, words);
  return columnsOf(words)
    .map((column) => csvCell(cells[column] as string | number | undefined))
    .join(',');
}

/** The report's format by its extension: `.csv`, `.xlsx` (a workbook), `.xml` (JUnit), else NDJSON. */
export function reportFormat(path: string): 'csv' | 'xlsx' | 'junit' | 'ndjson' {
  const extension = extname(path).toLowerCase();
  return extension === '.csv' ? 'csv' : extension === '.xlsx' ? 'xlsx' : extension === '.xml' ? 'junit' : 'ndjson';
}

/** Writes the report: one line (one test case, in JUnit XML) per record, in file order. */
export async function writeReport(
  path: string,
  results: Iterable<RecordResult>,
  numbered: Numbered,
  suite: JunitSuite,
): Promise<void> {
  const format = reportFormat(path);
  // The report holds customers' references and the service's messages: the user's alone.
  const out = (await openPrivate(path, 'w')).createWriteStream();
  const failed = once(out, 'error').then(([error]) => Promise.reject(error as Error));
  failed.catch(() => undefined);
  if (format === 'xlsx') {
    await Promise.race([writeWorkbookReport(out, results, numbered, suite.words), failed]);
    return;
  }
  const write = async (line: string) => {
    if (!out.write(`${line}\n`)) await Promise.race([once(out, 'drain'), failed]);
  };
  for (const line of reportLines(format, results, numbered, suite)) await write(line);
  out.end();
  await Promise.race([once(out, 'finish'), failed]);
}

/** The report as a workbook: the CSV report's columns, typed, one row per record. */
async function writeWorkbookReport(
  out: Writable,
  results: Iterable<RecordResult>,
  numbered: Numbered,
  words: KindWords,
): Promise<void> {
  const finished = once(out, 'finish');
  // Loaded only for a workbook report: the library is large.
  const { WorkbookStream } = await import('../workbook-writer.js');
  const workbook = WorkbookStream.start(out, {
    name: 'Report',
    columns: columnsOf(words).map((column) => ({
      header: column === 'line' ? numbered : column,
      type: column === 'record' || column === 'line' ? 'number' : 'text',
      width: column === 'error' || column === 'warnings' ? 60 : undefined,
    })),
  });
  for (const result of results) {
    const cells = reportCells(result, words);
    workbook.addRow(columnsOf(words).map((column) => cells[column] as WorkbookValue));
  }
  await workbook.end();
  await finished;
}

/** The report's lines in `format`: a CSV header and rows, JUnit XML, or one JSON object per line. */
function* reportLines(
  format: ReturnType<typeof reportFormat>,
  results: Iterable<RecordResult>,
  numbered: Numbered,
  suite: JunitSuite,
): Generator<string> {
  if (format === 'junit') {
    yield* junitLines(results, suite, numbered);
    return;
  }
  if (format === 'csv') {
    yield columnsOf(suite.words)
      .map((column) => (column === 'line' ? numbered : column))
      .join(',');
  }
  for (const result of results) {
    yield format === 'csv' ? csvRow(result, suite.words) : JSON.stringify(reportEntry(result, numbered, suite.words));
  }
}

/** Resolves when `stream` takes more, or will never again (closed: a reader that left, as `| head` does). */
function drained(stream: NodeJS.WritableStream): Promise<void> {
  if ((stream as Writable).destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

/**
 * Writes the --json document, `{"summary":{...},"records":[...]}`: the summary on the first line, then one record per
 * line, so `head -1` or a line-oriented reader gets the summary without parsing the records.
 */
export async function writeJsonReport(
  stream: NodeJS.WritableStream,
  summary: BatchSummary,
  results: Iterable<RecordResult>,
  numbered: Numbered = 'line',
): Promise<void> {
  let chunk = `{"summary":${JSON.stringify(shownSummary(summary))},\n"records":[`;
  let first = true;
  for (const result of results) {
    chunk += `${first ? '\n' : ',\n'}${JSON.stringify(reportEntry(result, numbered, summary.words))}`;
    first = false;
    if (chunk.length > 1 << 16) {
      if (!stream.write(chunk)) await drained(stream);
      chunk = '';
    }
  }
  stream.write(`${chunk}\n]}\n`);
}
