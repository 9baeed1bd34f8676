import { extname } from 'node:path';
import type { CommandContext } from '../../context.js';
import { csvCell } from '../../csv-writer.js';
import { writeLines } from '../../output/write-lines.js';
import { jsonSchemaOf } from '../../schemas/json-schema.js';
import { templateColumns } from '../template/run.js';
import { writePrivately } from './reconcile-report.js';

// `--emit-missing FILE`: the orders no invoice was found for, as a sheet `einvoice create single --file` sends, so the
// next run sends them with the journal's guarantees. Its columns are the single invoice template's, then any other
// field the orders held; each cell holds what the order held, as written, or nothing: a field no order gave is left
// empty for the merchant to fill, and create's check names it on every row where it is still missing.

/** An order without an invoice: its row, and its record under the invoice's field names (JSON). */
export interface MissingOrder {
  row: number;
  record: string;
}

/** What was written: how many orders, and the required fields left empty, with the number of rows each is empty on. */
export interface EmittedOrders {
  count: number;
  empty: Array<{ field: string; rows: number }>;
}

/**
 * Writes the orders `read()` gives (read twice: once for the columns, once for the rows) to `path`: a workbook for
 * .xlsx, else CSV. Every cell is text as the order held it, so nothing is rounded or reformatted on the way back in.
 */
export async function writeMissingOrders(
  path: string,
  read: () => Iterable<MissingOrder>,
  context: CommandContext,
): Promise<EmittedOrders> {
  const columns = [...templateColumns.single];
  const known = new Set(columns);
  for (const { record } of read()) {
    for (const column of Object.keys(flatten(JSON.parse(record) as unknown))) {
      if (!known.has(column)) {
        known.add(column);
        columns.push(column);
      }
    }
  }
  const required = requiredFields();
  const emptyRows = new Map(required.map((field) => [field, 0]));
  let count = 0;
  const rows = function* (): Generator<string[]> {
    for (const { record } of read()) {
      const cells = flatten(JSON.parse(record) as unknown);
      count += 1;
      for (const field of required)
        if ((cells[field] ?? '') === '') emptyRows.set(field, (emptyRows.get(field) ?? 0) + 1);
      yield columns.map((column) => cells[column] ?? '');
    }
  };
  await writePrivately(path, '--emit-missing', context, async (out) => {
    if (extname(path).toLowerCase() === '.xlsx') {
      const { WorkbookStream } = await import('../../workbook-writer.js');
      const workbook = WorkbookStream.start(out, {
        name: 'Invoices',
        columns: columns.map((header) => ({ header, type: 'text' })),
      });
      for (const row of rows()) workbook.addRow(row);
      await workbook.end();
      return;
    }
    const lines = function* (): Generator<string> {
      // Excel opens it as UTF-8 (Arabic intact) by its byte order mark; the sheet readers skip the mark.
      yield `\uFEFF${columns.join(',')}\r`;
      // Text a spreadsheet would run as a formula gets a leading ', which the sheet readers take off again.
      for (const row of rows()) yield `${row.map((text) => csvCell(text)).join(',')}\r`;
    };
    await writeLines(out, lines());
    out.end();
  });
  return {
    count,
    empty: [...emptyRows].filter(([, rows]) => rows > 0).map(([field, rows]) => ({ field, rows })),
  };
}

/** The fields a single invoice must have, by their column names (`customer.name`). */
function requiredFields(): string[] {
  const schema = jsonSchemaOf('single') as {
    required?: string[];
    properties: Record<string, { required?: string[] }>;
  };
  return (schema.required ?? []).flatMap((field) => {
    const nested = schema.properties[field]?.required;
    return nested ? nested.map((inner) => `${field}.${inner}`) : [field];
  });
}

/** A record's cells by column name: `customer.name`, `items[0].price`; every value as text, exactly as held. */
function flatten(value: unknown, prefix = '', cells: Record<string, string> = {}): Record<string, string> {
  if (Array.isArray(value)) value.forEach((item, index) => flatten(item, `${prefix}[${index}]`, cells));
  else if (typeof value === 'object' && value !== null) {
    for (const [key, inner] of Object.entries(value)) flatten(inner, prefix === '' ? key : `${prefix}.${key}`, cells);
  } else if (value !== null && value !== undefined && prefix !== '') cells[prefix] = String(value);
  return cells;
}
