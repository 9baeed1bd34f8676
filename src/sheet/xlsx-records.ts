import { excelToDate, WorkbookReader } from '@cj-tech-master/excelts';
import { EinvoiceError, UsageError, type FieldIssue } from '../errors.js';
import { workbookLimits } from './workbook-file.js';
import { decimalOfNumber, decimalToText } from '../schemas/money.js';
import { formatCount } from '../schemas/number-text.js';
import { instantOfWallClock } from '../schemas/time-zone.js';
import { visible } from '../schemas/visible-text.js';
import { rowToRecord } from './csv-cells.js';
import type { CsvField } from './csv-cells.js';
import {
  readHeader,
  sheetPlace,
  strayCells,
  type CsvReadOptions,
  type CsvRecords,
  type HeaderColumn,
} from './csv-records.js';
import type { SourceRecord } from './records.js';
import { readWorkbookParts, sharedText, type WorkbookTexts } from './workbook-texts.js';

// Streams the rows of one worksheet of an .xlsx workbook as records, through the CSV reader's path: the same header,
// the same cells to record, each cell first turned into what Excel shows by its type. The workbook was checked before
// (workbook-file.ts); reading it is the library's.

/** How a workbook is read. */
export interface XlsxReadOptions extends Pick<CsvReadOptions, 'name' | 'ignoreColumns' | 'columns' | 'dateFormat'> {
  /** The workbook's path. */
  path: string;
  /** The worksheet to read; the first when absent. */
  sheet?: string;
  /** The merchant's time zone, whose wall clock a date-time cell reads. */
  timeZone: string;
  /** Heard each time a date-time cell is read on the zone's wall clock. */
  dayRead?: () => void;
}

/** Excel's own largest sheet. */
const maxRows = 1_048_576;
/** Rows built into records per batch, as for CSV. */
const batchSize = 32;

/** A cell as the workbook reader gives it. */
type CellValue = unknown;

/** What a cell of a row holds for the record: text for the CSV path, or the problem with it. */
type ReadCell = { text: string } | { issue: string; cause: string };

/** Reads the rows of a workbook's worksheet; the header is checked before the first record comes out. */
export function readXlsxRecords(options: XlsxReadOptions): CsvRecords {
  let columns: HeaderColumn[] = [];
  let sheetName = '';
  const place = sheetPlace(
    () => columns,
    (column, row) => `${sheetReference(sheetName)}!${column.letter}${row ?? ''}`,
  );
  const records = async function* (): AsyncGenerator<SourceRecord[]> {
    try {
      yield* worksheetRecords();
    } catch (error) {
      if (error instanceof EinvoiceError) throw error;
      // The library's words for a part it cannot read (broken XML, a truncated zip).
      throw new UsageError(
        `--file ${options.name} is not a readable workbook: ${visible((error as Error).message)}; nothing was sent.`,
      );
    }
  };
  const worksheetRecords = async function* (): AsyncGenerator<SourceRecord[]> {
    // A worksheet that comes before the workbook's own part waits in a temporary file of the reader's until it is
    // read. The workbook's check bounded what all its parts unpack to, and the table of texts held while the rows are
    // read (workbook-file.ts).
    const { texts, styles } = await readWorkbookParts(options.path, workbookLimits.unpackedBytes);
    const reader = new WorkbookReader(options.path, {
      worksheets: 'emit',
      // A text cell comes as its index in the table, and a cell's style from the styles, both read above.
      sharedStrings: 'ignore',
      styles: 'ignore',
      hyperlinks: 'ignore',
      entries: 'ignore',
      maxBufferedWorksheetBytes: workbookLimits.unpackedBytes,
    });
    reader.styles = styles;
    let found = false;
    const names: string[] = [];
    for await (const event of reader.parse()) {
      if (event.eventType !== 'worksheet') continue;
      const worksheet = event.value;
      const sheets = reader.model?.sheets ?? [];
      const name = sheets.find((sheet) => sheet.id === Number(worksheet.id))?.name ?? `Sheet${String(worksheet.id)}`;
      names.push(name);
      const wanted = options.sheet === undefined ? sheets[0]?.id === Number(worksheet.id) : name === options.sheet;
      if (found || !wanted) {
        // The library reads a workbook's parts in order: a worksheet not read is passed over.
        for await (const row of worksheet) void row;
        continue;
      }
      found = true;
      sheetName = name;
      const date1904 = Boolean(reader.properties?.model?.date1904);
      let fields: Array<CsvField | undefined> = [];
      let headerRow = 0;
      let position = 0;
      let batch: SourceRecord[] = [];
      for await (const row of worksheet) {
        if (row.number > maxRows) {
          throw new UsageError(`--file ${options.name} has more rows than Excel holds; nothing was sent.`);
        }
        const values = (row.values as CellValue[]).slice(1).map((value) => withText(value, texts));
        if (headerRow === 0) {
          if (values.every((value) => value === null || value === undefined || value === '')) continue;
          headerRow = row.number;
          columns = readHeader(
            values.map((value) => headerText(value)),
            options,
            headerRow,
            'xlsx',
          );
          fields = columns.map((column) => column.field);
          continue;
        }
        const cells: string[] = [];
        const issues: FieldIssue[] = [];
        for (let index = 0; index < Math.max(values.length, fields.length); index++) {
          const field = fields[index];
          const cell = readCell(values[index], row.getCell(index + 1).numFmt, field, date1904, options);
          if ('text' in cell) cells.push(cell.text);
          else {
            cells.push('');
            const path = field?.path ?? `column ${columns[index]?.letter ?? index}`;
            issues.push({ path, message: cell.issue, cause: cell.cause });
          }
        }
        if (issues.length === 0 && cells.every((cell) => cell.trim() === '')) continue;
        // A date cell is read as a date; a text cell holding one (`05/12/2026`) as the merchant declared, as in CSV.
        const built = rowToRecord(cells, fields, options.dateFormat);
        const all = [...issues, ...built.issues, ...strayCells(cells, columns)];
        batch.push({
          position: position++,
          line: row.number,
          text: '',
          value: built.value,
          ...(all.length > 0 ? { issues: all } : {}),
        });
        if (batch.length >= batchSize) {
          yield batch;
          batch = [];
        }
      }
      if (headerRow === 0) {
        throw new UsageError(`--file ${options.name}: the worksheet ${name} has no header row; nothing was sent.`);
      }
      if (batch.length > 0) yield batch;
    }
    if (!found) {
      const shown = names.map((name) => `"${visible(name)}"`).join(', ');
      throw new UsageError(
        options.sheet === undefined
          ? `--file ${options.name} has no worksheet; nothing was sent.`
          : `--file ${options.name} has no worksheet named "${visible(options.sheet)}"; nothing was sent.`,
        { hint: names.length > 0 ? `Its worksheets: ${shown}.` : undefined },
      );
    }
  };
  return { records: records(), place };
}

/** A cell's value with a text from the table in place of its index. */
function withText(value: CellValue, texts: WorkbookTexts): CellValue {
  if (value === null || typeof value !== 'object' || !('sharedString' in value)) return value;
  const text = texts.text((value as { sharedString: number }).sharedString);
  // A broken workbook, named as the library's words are (see records() above).
  if (text === undefined) throw new Error('a cell refers to a text its table of texts (shared strings) does not have');
  return text;
}

/** How a sheet is named in a cell's reference: quoted when it holds more than letters, digits and `_`. */
export function sheetReference(name: string): string {
  return /^[\p{L}_][\p{L}\p{N}_.]*$/u.test(name) ? name : `'${name.replaceAll("'", "''")}'`;
}

function headerText(value: CellValue): string {
  const plain = resolved(value);
  if (typeof plain === 'string') return plain;
  if (typeof plain === 'number') return String(plain);
  return '';
}

/** A cell's value with a rich text's runs read as text. */
function resolved(value: CellValue): CellValue {
  if (value !== null && typeof value === 'object' && Array.isArray((value as { richText?: unknown }).richText)) {
    return sharedText(value);
  }
  return value;
}

/** A number format shows a date when it has day, month, year or time parts outside quotes and brackets. */
function isDateFormat(format: unknown): boolean {
  if (typeof format !== 'string') return false;
  const bare = format.replace(/"[^"]*"|\[[^\]]*\]|\\./g, '');
  return /[dmyhs]/i.test(bare) && !/^[#0.,%\s]*$/.test(bare);
}

/** The text a number shows as: the shortest decimal that reads back as it (`150.55`), never an exponent. */
export function numberText(value: number): string {
  const decimal = decimalOfNumber(value);
  return decimal ? decimalToText(decimal) : String(value);
}

/** A workbook date (its fields in UTC, as the reader gives them) as a field takes it: a date, or an instant. */
function dateText(value: Date, field: CsvField | undefined, options: XlsxReadOptions): string {
  const day = value.toISOString().slice(0, 10);
  const midnight = value.getUTCHours() + value.getUTCMinutes() + value.getUTCSeconds() + value.getUTCMilliseconds();
  if (midnight === 0 || field?.path === 'sendingDate' || field?.cell !== 'date') return day;
  options.dayRead?.();
  return instantOfWallClock(value, options.timeZone).toISOString();
}

/** One cell turned into the text of a CSV cell, or the problem with it. */
function readCell(
  raw: CellValue,
  numberFormat: unknown,
  field: CsvField | undefined,
  date1904: boolean,
  options: XlsxReadOptions,
): ReadCell {
  let value = resolved(raw);
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    const object = value as Record<string, unknown>;
    if ('error' in object) {
      const cause = 'an error value of Excel is no value to send: correct the cell or its formula';
      return { issue: `is the error ${String(object.error)}: ${cause}`, cause };
    }
    if ('formula' in object || 'sharedFormula' in object) {
      if (!('result' in object) || object.result === undefined) {
        const cause = 'a formula without its value (the workbook was saved by a program that does not compute)';
        return { issue: `is ${cause}: open it in Excel and save it again`, cause };
      }
      value = object.result;
      if (typeof value === 'number' && Number.isNaN(value)) {
        const cause = 'a formula whose value is an error (#N/A, #VALUE!, ...): correct the formula or its inputs';
        return { issue: `is ${cause}`, cause };
      }
      if (typeof value === 'number' && isDateFormat(numberFormat)) value = excelToDate(value, date1904);
    } else {
      return { text: '' };
    }
  }
  if (value === null || value === undefined) return { text: '' };
  if (typeof value === 'string' && value.length > workbookLimits.cellCharacters) {
    const cause = `more than the ${formatCount(workbookLimits.cellCharacters)} characters a cell of Excel holds`;
    return { issue: `is ${formatCount(value.length)} characters long, ${cause}`, cause };
  }
  if (typeof value === 'string') return { text: value };
  if (typeof value === 'boolean') return { text: value ? 'TRUE' : 'FALSE' };
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return { issue: 'is no date Excel can show', cause: 'no date' };
    if (field?.cell === 'number') {
      const cause = 'a date in a column of numbers: format the cell as a number';
      return { issue: `is the date ${value.toISOString().slice(0, 10)}: ${cause}`, cause };
    }
    return { text: dateText(value, field, options) };
  }
  if (typeof value === 'number') return { text: numberText(value) };
  return { text: String(value) };
}
