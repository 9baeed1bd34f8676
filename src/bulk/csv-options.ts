import { InvalidArgumentError, Option } from 'commander';
import { repeatable } from '../input/flag-parsers.js';

// The flags of reading CSV, and how commander reads them. Loaded with the command tree, so it holds nothing heavier
// than commander.

/** What `--format` forces the input to be read as. */
export const inputFormats = ['csv', 'ndjson', 'json', 'xlsx'] as const;
export type InputFormat = (typeof inputFormats)[number];

/** Flags of a CSV input. */
export interface CsvFlags {
  format?: InputFormat;
  delimiter?: string;
  sheet?: string;
  dateFormat?: 'YYYY-MM-DD' | 'DD/MM/YYYY';
  ignoreColumn?: string[];
}

/** Each flag of a sheet, and the sheets it applies to: a CSV file, a workbook. */
const csvFlagNames: ReadonlyArray<[keyof CsvFlags, string, ReadonlyArray<'csv' | 'xlsx'>]> = [
  ['delimiter', '--delimiter', ['csv']],
  ['sheet', '--sheet', ['xlsx']],
  ['dateFormat', '--date-format', ['csv']],
  ['ignoreColumn', '--ignore-column', ['csv', 'xlsx']],
];

/** The flags of a sheet given that do not apply to `format` (any of them when the input is no sheet). */
export function csvFlagsGiven(options: CsvFlags, format?: string): string[] {
  return csvFlagNames
    .filter(([key, , formats]) => options[key] !== undefined && !formats.some((sheet) => sheet === format))
    .map(([, flag]) => flag);
}

const delimiterNames: Record<string, string> = { tab: '\t', '\\t': '\t', comma: ',', semicolon: ';', pipe: '|' };

/** One separator character: `,` `;` `|`, or `tab`. */
export function parseDelimiter(value: string): string {
  const delimiter = delimiterNames[value.toLowerCase()] ?? value;
  if (delimiter.length !== 1 || /[\w"\r\n ]/.test(delimiter)) {
    throw new InvalidArgumentError('must be one character such as , ; | or the word tab');
  }
  return delimiter;
}

const group = 'Spreadsheets (--file holding CSV or an .xlsx workbook, header row of field names):';

/** Flags of reading CSV. */
export function csvOptions(): Option[] {
  return [
    new Option(
      '--format <format>',
      'read --file as csv, ndjson, json or xlsx (default: by its extension and content)',
    ).choices(inputFormats),
    new Option('--delimiter <char>', 'the CSV separator: , ; | or tab (default: sniffed from the header)').argParser(
      parseDelimiter,
    ),
    new Option('--sheet <name>', 'the worksheet of an .xlsx workbook to read (default: the first)'),
    new Option('--date-format <format>', 'read dates with slashes as DD/MM/YYYY (never guessed)').choices([
      'YYYY-MM-DD',
      'DD/MM/YYYY',
    ]),
    new Option(
      '--ignore-column <name>',
      'skip a column of the sheet that is not an invoice field (repeatable)',
    ).argParser(repeatable),
  ].map((option) => option.helpGroup(group));
}
