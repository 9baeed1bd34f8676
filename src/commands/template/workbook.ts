import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { resolve } from 'node:path';
import { PassThrough, type Writable } from 'node:stream';
import type { CommandContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { refundColumns, resolveColumn, type ResolvedColumn } from '../../sheet/index.js';
import { fieldByPath } from '../../input/field-descriptions.js';
import { relativeDay } from '../../input/dates.js';
import { calendarDateIn, processTimeZone } from '../../schemas/time-zone.js';
import { WorkbookStream, type WorkbookColumn, type WorkbookValue } from '../../workbook-writer.js';
import type { InvoiceKind } from '../../schemas/invoice.js';

/** What a template is of (as run.ts names it). */
type TemplateKind = InvoiceKind | 'refunds' | 'orders';

// `einvoice template KIND --format xlsx`: the template as a workbook a merchant fills in Excel. Its text columns are
// formatted as text, so a mobile number or a reference keeps its leading 0; its dates are dates (today's, as the
// other templates' relative dates resolve today); each header cell has a note saying what the field takes.

/** What the fields without a description of their own take. */
const notes: Record<string, string> = {
  'items[0].itemCode': "the item's code (SKU)",
  'items[0].purchasedQuantity': 'how many, a whole number',
  'items[0].price': 'the price of one, at most two decimals',
  'items[0].nameEn': 'its name in English',
  'items[0].nameAr': 'its name in Arabic',
  invoiceNumber: 'the number of the paid invoice to refund',
  reason: 'why it is refunded, as the customer will read it',
  orderReferenceNumber: "the payment's order reference number",
};

/** Writes the workbook, a row per example, to `--output`, or to stdout when it is not a terminal. */
export async function writeTemplateWorkbook(
  kind: TemplateKind,
  columns: readonly string[],
  examples: ReadonlyArray<(column: string) => unknown>,
  output: string | undefined,
  context: CommandContext,
): Promise<void> {
  if (output === undefined && context.stdout.isTTY) {
    throw new UsageError('A workbook is not text to show in a terminal: nothing was written.', {
      hint: `Give it a file: einvoice template ${kind} --format xlsx --output ${kind}.xlsx (or pipe it).`,
    });
  }
  const today = calendarDateIn(new Date(), processTimeZone());
  const resolved = columns.map((column) =>
    kind === 'refunds' ? refundColumns.resolve(column) : resolveColumn(column),
  );
  const sheetColumns = columns.map((header, index) => templateColumn(header, resolved[index], kind));
  const valuesOf = (valueOf: (column: string) => unknown) =>
    columns.map((column, index): WorkbookValue => {
      const value = valueOf(column);
      if (sheetColumns[index]?.type === 'date' && typeof value === 'string') return relativeDay(value, today) ?? value;
      return value as WorkbookValue;
    });
  const target = output === undefined ? toStdout(context) : fileTarget(resolve(context.cwd, output));
  const workbook = WorkbookStream.start(target.stream, {
    name: kind === 'refunds' ? 'Refunds' : kind === 'orders' ? 'Orders' : 'Invoices',
    columns: sheetColumns,
  });
  for (const valueOf of examples) workbook.addRow(valuesOf(valueOf));
  await workbook.end();
  await target.done;
}

function templateColumn(header: string, resolved: ResolvedColumn | undefined, kind: TemplateKind): WorkbookColumn {
  const cell = resolved && 'path' in resolved ? resolved.cell : 'text';
  const type =
    cell === 'date'
      ? 'date'
      : cell === 'boolean'
        ? 'boolean'
        : cell === 'number'
          ? /(amount|price|value)$/.test(header)
            ? 'amount'
            : 'number'
          : 'text';
  const help = fieldByPath(header)?.help;
  const described = typeof help === 'string' ? help : help?.[kind === 'recurring' ? 'recurring' : 'single'];
  const note = described ?? notes[header] ?? (header === 'amount' ? 'the amount to refund, at most two decimals' : '');
  const asText = type === 'text' ? ' Formatted as text, so a leading 0 stays.' : '';
  return { header, type, note: `${header}: ${note}.${asText}`, width: type === 'text' ? 22 : 14 };
}

/** Stdout, kept open after the workbook ends (the process owns it). */
function toStdout(context: CommandContext): { stream: Writable; done: Promise<unknown> } {
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => context.stdout.write(chunk));
  return { stream, done: once(stream, 'end') };
}

function fileTarget(path: string): { stream: Writable; done: Promise<unknown> } {
  const stream = createWriteStream(path);
  return { stream, done: once(stream, 'close') };
}
