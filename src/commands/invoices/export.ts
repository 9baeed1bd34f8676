import { resolve } from 'node:path';
import type { CommandContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { writeProblem } from '../../input/json-file.js';
import { exportColumns, exportRow, type ExportValue } from '../../ledger/export-rows.js';
import { writeLines } from '../../output/write-lines.js';
import { formatCount } from '../../schemas/number-text.js';
import { openPrivate } from '../../private-file.js';
import { openSession } from '../../session.js';
import type { ExportOptions } from './flags.js';
import { emptyLedgerNote, filterOf, readLedger } from './ledger-of.js';

/**
 * `einvoice invoices export`: one row per invoice of the ledger with its refund's columns, streamed to stdout or a
 * private file. CSV as Excel opens it: UTF-8 with a byte order mark (Arabic intact), CRLF line ends.
 */
export async function exportInvoices(options: ExportOptions, context: CommandContext): Promise<void> {
  const session = await openSession(options, context);
  const filter = filterOf(options, session);
  const ledger = await readLedger(session, context);
  const handle = options.output
    ? await openPrivate(resolve(context.cwd, options.output), 'w').catch((error: unknown) => {
        ledger?.close();
        throw new UsageError(`Cannot write --output ${options.output}: ${writeProblem(error)}.`);
      })
    : undefined;
  const stream = handle ? handle.createWriteStream() : context.stdout;
  let count = 0;
  try {
    const rows = function* (): Generator<string> {
      if (options.format === 'csv') yield `\uFEFF${exportColumns.join(',')}\r`;
      for (const { invoice, refund } of ledger?.each(filter) ?? []) {
        const row = exportRow(invoice, refund);
        count += 1;
        yield options.format === 'csv'
          ? `${exportColumns.map((column) => csvCell(row[column])).join(',')}\r`
          : JSON.stringify(Object.fromEntries(exportColumns.map((column) => [column, jsonValue(row[column])])));
      }
    };
    await writeLines(stream, rows());
  } finally {
    ledger?.close();
    if (handle)
      await new Promise<void>((done, fail) => stream.end((error?: Error | null) => (error ? fail(error) : done())));
  }
  if (!ledger) session.terminal.info(emptyLedgerNote(session, context));
  else
    session.terminal.info(
      `Exported ${formatCount(count)} invoice${count === 1 ? '' : 's'}${options.output ? ` to ${options.output}` : ''}.`,
    );
}

/** A CSV cell: quoted when it holds a comma, a quote or a line end. */
function csvCell(value: ExportValue): string {
  if (value.type === 'empty') return '';
  let text = value.value;
  // Text a spreadsheet would run as a formula is kept as text; + and - begin mobiles and amounts, and stay.
  if (value.type === 'text' && /^[=@]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function jsonValue(value: ExportValue): string | null {
  return value.type === 'empty' ? null : value.value;
}
