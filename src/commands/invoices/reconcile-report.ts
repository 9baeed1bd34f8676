import { once } from 'node:events';
import { resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { reportFormat, xmlText } from '../../bulk/index.js';
import type { CommandContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { writeProblem } from '../../input/json-file.js';
import type { ShownReconcileRow } from '../../ledger/reconcile.js';
import { csvCell } from '../../csv-writer.js';
import { rowSentence, type Numbered, type ShownTotals } from '../../output/reconcile-view.js';
import { writeLines } from '../../output/write-lines.js';
import { openPrivate } from '../../private-file.js';
import type { WorkbookColumnType } from '../../workbook-writer.js';

// `--report FILE` of a reconciliation: every row, as CSV (as Excel opens it), a workbook, JUnit XML or NDJSON, by the
// file's extension as a bulk run's report. The rows hold customers' references: the file is the user's alone.

/** The report's columns: the --json rows' fields, in their order. */
const columns: ReadonlyArray<{ name: keyof ShownReconcileRow; type: WorkbookColumnType }> = [
  { name: 'class', type: 'text' },
  { name: 'businessReference', type: 'text' },
  { name: 'row', type: 'number' },
  { name: 'invoiceNumber', type: 'text' },
  { name: 'ordersAmount', type: 'amount' },
  { name: 'ledgerAmount', type: 'amount' },
  { name: 'difference', type: 'amount' },
  { name: 'refundedAmount', type: 'amount' },
  { name: 'ledgerStatus', type: 'text' },
  { name: 'ledgerReference', type: 'text' },
];

/** What a report is of: the orders' name, how their rows are numbered, and each class's count. */
export interface ReconcileReportOf {
  input: string;
  numbered: Numbered;
  totals: ShownTotals;
}

/** Writes `rows` to the report at `path` (resolved from the working folder) in the format its extension names. */
export async function writeReconcileReport(
  path: string,
  rows: Iterable<ShownReconcileRow>,
  of: ReconcileReportOf,
  context: CommandContext,
): Promise<void> {
  const format = reportFormat(path);
  await writePrivately(path, '--report', context, async (out) => {
    if (format === 'xlsx') {
      const { WorkbookStream } = await import('../../workbook-writer.js');
      const workbook = WorkbookStream.start(out, {
        name: 'Reconciliation',
        columns: columns.map(({ name, type }) => ({ header: name, type, width: name === 'class' ? 20 : undefined })),
      });
      for (const row of rows) workbook.addRow(columns.map(({ name }) => row[name]));
      await workbook.end();
      return;
    }
    await writeLines(
      out,
      format === 'csv' ? csvLines(rows) : format === 'junit' ? junitLines(rows, of) : ndjsonLines(rows),
    );
    out.end();
  });
}

/** Opens `path` the user's alone (0600) and lets `write` fill it; a file that cannot be opened is refused by `flag`. */
export async function writePrivately(
  path: string,
  flag: string,
  context: CommandContext,
  write: (out: Writable) => Promise<void>,
): Promise<void> {
  const handle = await openPrivate(resolve(context.cwd, path), 'w').catch((error: unknown) => {
    throw new UsageError(`Cannot write ${flag} ${path}: ${writeProblem(error)}.`);
  });
  const out = handle.createWriteStream();
  const closed = once(out, 'close');
  const failed = once(out, 'error').then(([error]) => Promise.reject(error as Error));
  failed.catch(() => undefined);
  try {
    await Promise.race([write(out), failed]);
    await Promise.race([closed, failed]);
  } finally {
    if (!out.closed) out.destroy();
  }
}

/** CSV as Excel opens it: UTF-8 with a byte order mark (Arabic intact), CRLF, text that would run as a formula kept as text. */
function* csvLines(rows: Iterable<ShownReconcileRow>): Generator<string> {
  yield `\uFEFF${columns.map(({ name }) => name).join(',')}\r`;
  for (const row of rows) {
    yield `${columns.map(({ name, type }) => csvCell(row[name], type === 'text' ? 'text' : 'number')).join(',')}\r`;
  }
}

function* ndjsonLines(rows: Iterable<ShownReconcileRow>): Generator<string> {
  for (const row of rows) yield JSON.stringify(row);
}

/** What needs no look: a row matched, or refunded as ordered. */
const passing = new Set(['matched', 'refunded']);

/**
 * JUnit XML, the test report CI servers show: a test case per row, named by its place and reference, grouped by class;
 * every row that is neither matched nor refunded is a failure with its sentence.
 */
function* junitLines(rows: Iterable<ShownReconcileRow>, of: ReconcileReportOf): Generator<string> {
  const entries = Object.entries(of.totals);
  const tests = entries.reduce((sum, [, total]) => sum + total.count, 0);
  const failures = entries.reduce((sum, [name, total]) => (passing.has(name) ? sum : sum + total.count), 0);
  const name = xmlText(`einvoice invoices reconcile ${of.input}`);
  const counts = `tests="${tests}" failures="${failures}" errors="0" skipped="0"`;
  yield '<?xml version="1.0" encoding="UTF-8"?>';
  yield `<testsuites name="${name}" ${counts}>`;
  yield `  <testsuite name="${name}" ${counts}>`;
  for (const row of rows) {
    const where = row.row === null ? 'no order' : `${of.numbered} ${row.row}`;
    const open = `    <testcase name="${xmlText(`${where} (${row.businessReference ?? `invoice ${row.invoiceNumber ?? '-'}`})`)}" classname="${row.class}"`;
    if (passing.has(row.class)) {
      yield `${open}/>`;
      continue;
    }
    const sentence = xmlText(rowSentence(row, of.numbered));
    yield `${open}>`;
    yield `      <failure type="${row.class}" message="${sentence}">${sentence}</failure>`;
    yield '    </testcase>';
  }
  yield '  </testsuite>';
  yield '</testsuites>';
}
