import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parse, CsvError, type Parser } from 'csv-parse';
import { UsageError, type FieldIssue } from '../errors.js';
import { visible } from '../schemas/visible-text.js';
import { invoiceColumns, type ColumnSet } from './csv-columns.js';
import { pathKeys, rowToRecord, type CsvField, type DateFormat } from './csv-cells.js';
import { replay } from './input-format.js';
import type { IssuePlace, SourceRecord } from './records.js';

// Streams the rows of a CSV file as records, a batch at a time, each numbered as a spreadsheet shows it (the header
// is row 1; blank rows count) and carrying the record built from its cells. Parsing is csv-parse's: quotes, commas
// and line breaks inside quotes, a byte order mark, CRLF.

/** How a CSV input is read. */
export interface CsvReadOptions {
  /** How messages name the input. */
  name: string;
  /** The separator; sniffed from the header when absent. */
  delimiter?: string;
  dateFormat?: DateFormat;
  /** Header names of columns to skip. */
  ignoreColumns?: readonly string[];
  /** The columns the sheet may have (default: an invoice's). */
  columns?: ColumnSet;
}

/** The records of a CSV input, and how a record's issues name their row and column. */
export interface CsvRecords {
  records: AsyncGenerator<SourceRecord[]>;
  place: IssuePlace;
}

/**
 * How a sheet's issues name their place: the row, then the column by its header and where it is (`cell`: its letter
 * in a CSV file, the cell as Excel names it in a workbook; without a row, the column as many rows share it).
 */
export function sheetPlace(
  columns: () => readonly HeaderColumn[],
  cell: (column: HeaderColumn, row?: number) => string,
): IssuePlace {
  const named = (path: string, row?: number) => {
    const column = columnOf(columns(), path);
    if (!column) return path;
    const name = `column ${column.header.trim()} (${cell(column, row)})`;
    return column.field?.path === path ? name : `${name}: ${path}`;
  };
  return Object.assign(
    (source: Pick<SourceRecord, 'line'>, path?: string) =>
      path === undefined ? `row ${source.line}` : `row ${source.line}, ${named(path, source.line)}`,
    { field: (path: string) => named(path) },
  );
}

/** A header column: what it is called in the sheet, its letter, and the field it holds (none when ignored). */
export interface HeaderColumn {
  header: string;
  letter: string;
  field?: CsvField;
}

/**
 * The parser's records, read as they are ready: a loop of read() calls costs less than async iteration of the
 * stream, a promise per record, over a sheet of 100,000 rows.
 */
async function* parsedRows(parser: Parser): AsyncGenerator<string[]> {
  for (;;) {
    for (let cells = parser.read() as string[] | null; cells !== null; cells = parser.read() as string[] | null) {
      yield cells;
    }
    if (parser.readableEnded) return;
    if (parser.errored) throw parser.errored;
    await new Promise<void>((resolve, reject) => {
      const settle = (error?: Error) => {
        parser.off('readable', settle);
        parser.off('end', settle);
        parser.off('error', settle);
        if (error) reject(error);
        else resolve();
      };
      parser.on('readable', settle);
      parser.on('end', settle);
      parser.on('error', settle);
    });
  }
}

const candidates = [',', ';', '\t', '|'];
/** Rows built into records per batch: a batch stays in memory until the plan has checked it, so small is flat. */
const batchSize = 32;

/** Reads a CSV input of invoices; the header is checked before the first record comes out. */
export function readCsvRecords(chunks: AsyncIterable<Buffer>, options: CsvReadOptions): CsvRecords {
  let columns: HeaderColumn[] = [];
  const place = sheetPlace(
    () => columns,
    (column) => column.letter,
  );
  const records = async function* (): AsyncGenerator<SourceRecord[]> {
    const { head, rest } = await untilFirstLine(chunks);
    const delimiter = options.delimiter ?? sniffDelimiter(head.toString('utf8'), options.name);
    // Blank lines come out as rows of one empty cell: counted, so rows are numbered as a spreadsheet numbers them.
    const parser = parse({ bom: true, delimiter, relax_column_count: true, skip_empty_lines: false });
    const fed = pipeline(Readable.from(replay(head, rest)), parser);
    fed.catch(() => undefined);
    let batch: SourceRecord[] = [];
    let position = 0;
    let row = 0;
    try {
      let header = true;
      let fields: Array<CsvField | undefined> = [];
      for await (const cells of parsedRows(parser)) {
        row += 1;
        if (header) {
          columns = readHeader(cells, options);
          fields = columns.map((column) => column.field);
          header = false;
          continue;
        }
        if (cells.every((cell) => cell.trim() === '')) continue;
        const built = rowToRecord(cells, fields, options.dateFormat);
        const issues = [...built.issues, ...strayCells(cells, columns)];
        batch.push({
          position: position++,
          line: row,
          text: '',
          value: built.value,
          ...(issues.length > 0 ? { issues } : {}),
        });
        if (batch.length >= batchSize) {
          yield batch;
          batch = [];
        }
      }
      await fed;
    } catch (error) {
      if (error instanceof CsvError) {
        const { problem, hint } = csvProblem(error);
        throw new UsageError(`--file ${options.name} is not valid CSV: ${problem}; nothing was sent.`, { hint });
      }
      throw error;
    }
    if (columns.length === 0) throw new UsageError(`--file ${options.name} has no header row; nothing was sent.`);
    if (batch.length > 0) yield batch;
  };
  return { records: records(), place };
}

/**
 * The parser's error in the words of the other messages: the row as the spreadsheet numbers it (csv-parse counts
 * the records before it, the header included) and the column's letter, and how to write the cell. Other errors
 * keep csv-parse's own message.
 */
function csvProblem(error: CsvError): { problem: string; hint?: string } {
  const { records, column } = error as CsvError & { records?: number; column?: number | string | null };
  const row = `row ${(records ?? 0) + 1}`;
  const at = typeof column === 'number' ? `${row}, column ${columnLetter(column)}` : row;
  const hint = 'A cell with a quote in it is written in quotes, each quote in it twice: "Amr ""Sam"" Hassan".';
  switch (error.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return { problem: `${at}: a quote opens a cell that is never closed (it runs to the end of the file)`, hint };
    case 'CSV_INVALID_CLOSING_QUOTE':
      return { problem: `${at}: a quoted cell goes on after its closing quote`, hint };
    case 'INVALID_OPENING_QUOTE':
      return { problem: `${at}: a quote inside a cell that does not begin with one`, hint };
    default:
      return { problem: error.message };
  }
}

/** The column an issue's path belongs to: its own, or the nearest enclosing one (`items` for `items[1].price`). */
function columnOf(columns: readonly HeaderColumn[], path: string): HeaderColumn | undefined {
  for (let prefix = path; prefix !== ''; prefix = prefix.replace(/(\.[^.[]*|\[\d+\])$/, '')) {
    const column = columns.find((candidate) => candidate.field?.path === prefix);
    if (column) return column;
    if (!/(\.[^.[]*|\[\d+\])$/.test(prefix)) break;
  }
  return undefined;
}

/** The spreadsheet's letter of a column from 0: A ... Z, AA ... */
export function columnLetter(index: number): string {
  let letter = '';
  for (let rest = index + 1; rest > 0; rest = Math.floor((rest - 1) / 26)) {
    letter = String.fromCharCode(65 + ((rest - 1) % 26)) + letter;
  }
  return letter;
}

/** Checks the header: every column an invoice field (or ignored), none twice, items in one form only. */
export function readHeader(
  cells: readonly string[],
  options: Pick<CsvReadOptions, 'name' | 'ignoreColumns' | 'columns'>,
  row = 1,
  format: 'csv' | 'xlsx' = 'csv',
): HeaderColumn[] {
  const ignored = new Set(options.ignoreColumns?.map((name) => name.trim().toLowerCase()));
  const columnSet = options.columns ?? invoiceColumns;
  const problems: string[] = [];
  const unknown: UnknownColumn[] = [];
  const seen = new Map<string, string>();
  const columns = cells.map((header, index): HeaderColumn => {
    const letter = columnLetter(index);
    if (header.trim() === '' || ignored.has(header.trim().toLowerCase())) return { header, letter };
    const resolved = columnSet.resolve(header);
    if ('skipped' in resolved) return { header, letter };
    if ('unknown' in resolved) {
      const hint = resolved.suggestion ? `; did you mean ${resolved.suggestion}?` : '';
      problems.push(`column ${letter} "${visible(header.trim())}" is not ${columnSet.fieldWords}${hint}`);
      unknown.push({ header: header.trim(), suggestion: resolved.suggestion });
      return { header, letter };
    }
    const earlier = seen.get(resolved.path);
    if (earlier) problems.push(`column ${letter} "${header.trim()}" gives ${resolved.path} again (column ${earlier})`);
    seen.set(resolved.path, letter);
    return { header, letter, field: { ...resolved, keys: pathKeys(resolved.path) } };
  });
  const paths = [...seen.keys()];
  if (paths.includes('items') && paths.some((path) => path.startsWith('items['))) {
    problems.push('items are given both as one items column and as items[n] columns: keep one form');
  }
  if (problems.length > 0) {
    throw new HeaderError(
      `The header of --file ${options.name} has columns einvoice cannot read; nothing was sent.`,
      problems.length === unknown.length ? unknown : undefined,
      {
        issues: problems.map((problem) => ({ path: `header (row ${row})`, message: problem })),
        hint:
          `--ignore-column NAME skips a column; ${columnSet.template(format)} prints ` +
          `${format === 'xlsx' ? 'a workbook' : 'a header'} to start from.\nsee: einvoice help ${format === 'xlsx' ? 'excel' : 'csv'}`,
      },
    );
  }
  return columns;
}

/** A column of a header that names no field, and the field it was most likely meant to name. */
export interface UnknownColumn {
  header: string;
  suggestion?: string;
}

/** A header einvoice cannot read: `unknown` names its columns that are no field, when they are its only problem. */
export class HeaderError extends UsageError {
  readonly unknown?: readonly UnknownColumn[];

  constructor(
    message: string,
    unknown: readonly UnknownColumn[] | undefined,
    options: ConstructorParameters<typeof UsageError>[1],
  ) {
    super(message, options);
    this.unknown = unknown;
  }
}

/** Cells outside the named columns that hold something: never silently dropped. */
export function strayCells(cells: readonly string[], columns: readonly HeaderColumn[]): FieldIssue[] {
  const issues: FieldIssue[] = [];
  for (let index = 0; index < cells.length; index++) {
    if ((cells[index] as string).trim() === '') continue;
    const column = columns[index];
    if (column === undefined) {
      issues.push({
        path: `column ${columnLetter(index)}`,
        message: `has a value but no header (the header has ${columns.length} columns)`,
      });
    } else if (column.header.trim() === '') {
      issues.push({ path: `column ${column.letter}`, message: 'has a value but no header: name the field it holds' });
    }
  }
  return issues;
}

/** The separator of the header: the only candidate it holds, `,` when it holds none; two is ambiguous. */
export function sniffDelimiter(text: string, name: string): string {
  const header = (text.replace(/^\uFEFF/, '').split('\n')[0] ?? '').replace(/"[^"]*"/g, '');
  const found = candidates.filter((candidate) => header.includes(candidate));
  if (found.length <= 1) return found[0] ?? ',';
  const shown = found.map((candidate) => (candidate === '\t' ? 'tabs' : `"${candidate}"`)).join(' and ');
  throw new UsageError(`Cannot tell the separator of --file ${name}: its header holds ${shown}; nothing was sent.`, {
    hint: 'Name it with --delimiter, e.g. --delimiter ";" or --delimiter tab.\nsee: einvoice help csv',
  });
}

/** Reads until the header's line break (or the end), so the separator can be sniffed before parsing. */
async function untilFirstLine(chunks: AsyncIterable<Buffer>): Promise<{ head: Buffer; rest: AsyncIterator<Buffer> }> {
  const rest = chunks[Symbol.asyncIterator]();
  const read: Buffer[] = [];
  for (;;) {
    const next = await rest.next();
    if (next.done) break;
    read.push(next.value);
    if (next.value.includes(10)) break;
  }
  return { head: Buffer.concat(read), rest };
}
