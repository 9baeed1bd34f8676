import { resolve } from 'node:path';
import { once } from 'node:events';
import { PassThrough, type Writable } from 'node:stream';
import type { CommandContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { writeProblem } from '../../input/json-file.js';
import { exportColumns, exportRow, isInstantColumn, type ExportValue } from '../../ledger/export-rows.js';
import { csvCell } from '../../csv-writer.js';
import type { LedgerInvoice, LedgerRefund } from '../../ledger/ledger.js';
import { wallClockIn } from '../../schemas/time-zone.js';
import { WorkbookStream, type WorkbookColumn, type WorkbookValue } from '../../workbook-writer.js';
import { writeLines } from '../../output/write-lines.js';
import { formatCount } from '../../schemas/number-text.js';
import { openPrivate } from '../../private-file.js';
import { openSession } from '../../session.js';
import type { ExportOptions } from './flags.js';
import { emptyLedgerNote, filterOf, readLedger } from './ledger-of.js';

/**
 * `einvoice invoices export`: one row per invoice of the ledger with its refund's columns, streamed to stdout or a
 * private file. CSV as Excel opens it: UTF-8 with a byte order mark (Arabic intact), CRLF line ends, times in the
 * profile's time zone, which the header names; a workbook with typed cells; NDJSON with instants in UTC.
 */
export async function exportInvoices(options: ExportOptions, context: CommandContext): Promise<void> {
  const session = await openSession(options, context, 'ledger');
  if (options.format === 'xlsx' && !options.output && context.stdout.isTTY) {
    throw new UsageError('A workbook is not text to show in a terminal: nothing was written.', {
      hint: 'Give it a file: einvoice invoices export --format xlsx --output invoices.xlsx (or pipe it).',
    });
  }
  const filter = await filterOf(options, session);
  const ledger = await readLedger(session, context);
  const handle = options.output
    ? await openPrivate(resolve(context.cwd, options.output), 'w').catch((error: unknown) => {
        ledger?.close();
        throw new UsageError(`Cannot write --output ${options.output}: ${writeProblem(error)}.`);
      })
    : undefined;
  const workbook = options.format === 'xlsx';
  // A workbook's writer ends the stream it is given: stdout gets the workbook through a stream of its own.
  const sink: Writable | undefined = handle ? handle.createWriteStream() : workbook ? new PassThrough() : undefined;
  const stream = sink ?? context.stdout;
  const ended = sink ? once(sink, handle ? 'close' : 'end') : undefined;
  if (!handle && sink) sink.pipe(context.stdout, { end: false });
  let count = 0;
  const { timeZone } = session.profile;
  try {
    if (workbook && sink) count = await writeWorkbook(sink, ledger?.each(filter) ?? [], timeZone);
    else {
      const rows = function* (): Generator<string> {
        if (options.format === 'csv')
          yield `\uFEFF${headers(timeZone)
            .map((header) => csvCell(header))
            .join(',')}\r`;
        for (const { invoice, refund } of ledger?.each(filter) ?? []) {
          const row = exportRow(invoice, refund);
          count += 1;
          yield options.format === 'csv'
            ? `${exportColumns.map((column) => csvValue(row[column], timeZone)).join(',')}\r`
            : JSON.stringify(Object.fromEntries(exportColumns.map((column) => [column, jsonValue(row[column])])));
        }
      };
      await writeLines(stream, rows());
      sink?.end();
    }
    await ended;
  } finally {
    ledger?.close();
    if (sink && !sink.writableEnded) sink.destroy();
  }
  if (!ledger) session.terminal.info(emptyLedgerNote(session, context));
  else
    session.terminal.info(
      `Exported ${formatCount(count)} invoice${count === 1 ? '' : 's'}${options.output ? ` to ${options.output}` : ''}.`,
    );
}

/** The columns' headers in a sheet: each column of times names the zone they are of (`sentAt (Africa/Cairo)`). */
function headers(timeZone: string): string[] {
  return exportColumns.map((column) => (isInstantColumn(column) ? `${column} (${timeZone})` : column));
}

/**
 * The workbook's columns: amounts as numbers with two decimals, days as dates, instants as date-times in the
 * merchant's zone (which the header names).
 */
function workbookColumns(timeZone: string): WorkbookColumn[] {
  const names = headers(timeZone);
  return exportColumns.map((column, index) => ({
    header: names[index] as string,
    type:
      column === 'amount' || column === 'refundAmount'
        ? 'amount'
        : isInstantColumn(column)
          ? 'date-time'
          : column === 'sendingDate'
            ? 'date'
            : 'text',
  }));
}

/** Writes the rows as one worksheet on `stream` and ends it; the number of rows. */
async function writeWorkbook(
  stream: Writable,
  entries: Iterable<{ invoice: LedgerInvoice; refund?: LedgerRefund }>,
  timeZone: string,
): Promise<number> {
  const workbook = WorkbookStream.start(stream, { name: 'Invoices', columns: workbookColumns(timeZone) });
  let count = 0;
  for (const { invoice, refund } of entries) {
    const row = exportRow(invoice, refund);
    workbook.addRow(exportColumns.map((column) => workbookValue(row[column], timeZone)));
    count += 1;
    // The writer hands rows to the stream without waiting: let it write them out now and then.
    if (count % 1000 === 0) await new Promise((next) => setImmediate(next));
  }
  await workbook.end();
  return count;
}

function workbookValue(value: ExportValue, timeZone: string): WorkbookValue {
  if (value.type === 'empty') return null;
  if (value.type === 'instant') return wallClockIn(new Date(value.value), timeZone);
  return value.value;
}

/** A CSV cell: an instant as the wall clock of the merchant's zone (`2026-11-28 12:44:13`), which a sheet reads as a date-time. */
function csvValue(value: ExportValue, timeZone: string): string {
  switch (value.type) {
    case 'empty':
      return '';
    case 'amount':
      return csvCell(value.value, 'number');
    case 'instant': {
      const wall = wallClockIn(new Date(value.value), timeZone).toISOString();
      return csvCell(`${wall.slice(0, 10)} ${wall.slice(11, 19)}`);
    }
    default:
      return csvCell(value.value);
  }
}

function jsonValue(value: ExportValue): string | null {
  return value.type === 'empty' ? null : value.value;
}
