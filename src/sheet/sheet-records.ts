import type { CsvReadOptions } from './csv-records.js';
import type { InvoiceFileInput } from './input-format.js';
import { readRecords, type IssuePlace, type SourceRecord } from './records.js';
import type { XlsxReadOptions } from './xlsx-records.js';

// The records of a file of many, whatever it is written in: the CSV and workbook readers are loaded only for a
// sheet, so a JSON file never loads the CSV parser or the workbook library.

/** How a sheet is read: a CSV file's options, and a workbook's worksheet and the zone its date-times are in. */
export type SheetOptions = Omit<CsvReadOptions, 'name' | 'columns'> &
  Pick<XlsxReadOptions, 'sheet' | 'timeZone' | 'dayRead'>;

/** A file of many invoices, as `--file` reads it. */
export type ManyInvoices = Extract<InvoiceFileInput, { kind: 'many' }>;

/** The records of the input, and how their issues are placed (CSV: by row and column). */
export async function recordsOf(
  input: ManyInvoices,
  sheet: SheetOptions & Pick<CsvReadOptions, 'columns'>,
): Promise<{ records: AsyncIterable<SourceRecord[]>; place?: IssuePlace }> {
  if (input.format === 'xlsx') {
    const { readXlsxRecords } = await import('./xlsx-records.js');
    return readXlsxRecords({ ...sheet, name: input.name, path: input.absolutePath ?? input.path });
  }
  if (input.format !== 'csv') return { records: readRecords(input.open(), input.format, input.name) };
  const { readCsvRecords } = await import('./csv-records.js');
  return readCsvRecords(input.open(), { ...sheet, name: input.name });
}
