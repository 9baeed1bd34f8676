import type { FieldIssue } from '../errors.js';
import { numberOrText, parseItemSpec } from '../input/item-spec.js';
import type { CellKind } from './csv-columns.js';
import { ungrouped } from '../schemas/number-text.js';
import { withoutTextMark } from '../csv-writer.js';

// Turns the cells of one CSV row into the invoice record a JSON file would hold: numbers as exact decimals (never
// through a float), dates in the order the merchant declared, TRUE/FALSE as booleans, empty cells left out.

/** The order of a date written with slashes; never guessed, so `03/04/2026` is read only when it is declared. */
export const dateFormats = ['YYYY-MM-DD', 'DD/MM/YYYY'] as const;
export type DateFormat = (typeof dateFormats)[number];

/** A column of the header that holds an invoice field. */
export interface CsvField {
  /** The field's path, e.g. `customer.mobile` or `items[1].price`. */
  path: string;
  cell: CellKind;
  /** The path's keys, `['items', 1, 'price']`: split once per column rather than once per cell. */
  keys?: ReadonlyArray<string | number>;
}

/** The keys of a field path: `items[1].discount.value` is `['items', 1, 'discount', 'value']`. */
export function pathKeys(path: string): Array<string | number> {
  return path.split(/\.|(?=\[)/).map((key) => (key.startsWith('[') ? Number(key.slice(1, -1)) : key));
}

/** A plain decimal of at most 15 digits, which a double carries exactly. */
const plainNumber = /^-?(?:\d{1,15}|(?=[\d.]{3,16}$)\d+\.\d+)$/;
const slashDate = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
/** Three groups of digits with `-`, `.` or `/` between: a date, in some shape. */
const dateLike = /^\d{1,4}[-./]\d{1,2}[-./]\d{1,4}$/;
const isoDay = /^\d{4}-\d{2}-\d{2}$/;

/** The value of one non-empty cell, or the problem with it. */
export function readCell(
  cell: string,
  field: CsvField,
  dateFormat: DateFormat | undefined,
): { value: unknown } | { issue: string; cause: string } {
  // A template einvoice wrote marks a mobile (+2010...) as text, as it marks anything a spreadsheet would run.
  const text = withoutTextMark(cell);
  const trimmed = text.trim();
  switch (field.cell) {
    case 'number':
      // At most 15 digits always read back exactly (the common case, checked cheaply); text that is no number goes
      // to the schema as written, which says what the field takes.
      if (plainNumber.test(trimmed)) return { value: Number(trimmed) };
      return { value: numberOrText(ungrouped(trimmed)) };
    case 'boolean':
      return { value: /^(true|false)$/i.test(trimmed) ? trimmed.toLowerCase() === 'true' : text };
    case 'date': {
      const match = slashDate.exec(trimmed);
      if (!match && dateLike.test(trimmed) && !isoDay.test(trimmed)) {
        // A date in another shape (01-12-2026, 01/12/26, 2026/12/01): named with the shapes that are read.
        const cause =
          dateFormat === 'DD/MM/YYYY'
            ? 'not a date as declared with --date-format DD/MM/YYYY (31/12/2026), nor YYYY-MM-DD'
            : 'write a date as YYYY-MM-DD (2026-12-31), or declare DD/MM/YYYY with --date-format';
        return { issue: `is ${trimmed}: ${cause}`, cause };
      }
      if (!match) return { value: text };
      if (dateFormat !== 'DD/MM/YYYY') {
        const cause = 'a date with slashes is read only as declared, with --date-format DD/MM/YYYY';
        return { issue: `is ${trimmed}: ${cause}`, cause };
      }
      const [, day = '', month = '', year = ''] = match;
      return { value: `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}` };
    }
    default:
      return { value: text };
  }
}

/** Splits a cell of items in the --item syntax on `;`, `|` or a line break (one item per line) outside quotes. */
export function splitItemSpecs(text: string): string[] {
  const specs: string[] = [];
  let current = '';
  let quote: string | undefined;
  for (let index = 0; index < text.length; index++) {
    const char = text[index] as string;
    if (char === '\\' && index + 1 < text.length) current += char + (text[++index] as string);
    else if (quote) {
      if (char === quote) quote = undefined;
      current += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      current += char;
    } else if (char === ';' || char === '|' || char === '\n' || char === '\r') {
      specs.push(current);
      current = '';
    } else current += char;
  }
  specs.push(current);
  return specs.filter((spec) => spec.trim() !== '');
}

/** Builds the record of one row: `fields[i]` says what cell `i` holds (undefined: an ignored column). */
export function rowToRecord(
  cells: readonly string[],
  fields: ReadonlyArray<CsvField | undefined>,
  dateFormat: DateFormat | undefined,
): { value: Record<string, unknown>; issues: FieldIssue[] } {
  const value: Record<string, unknown> = {};
  const issues: FieldIssue[] = [];
  for (let index = 0; index < fields.length; index++) {
    const field = fields[index];
    const text = cells[index];
    if (field === undefined || text === undefined || text.trim() === '') continue;
    if (field.cell === 'item-specs') {
      value.items = splitItemSpecs(text).map((spec, position) => {
        const parsed = parseItemSpec(spec, position);
        for (const issue of parsed.issues) issues.push({ ...issue, path: issue.path.replace(' (--item)', '') });
        return parsed.item;
      });
      continue;
    }
    const read = readCell(text, field, dateFormat);
    if ('issue' in read) issues.push({ path: field.path, message: read.issue, cause: read.cause });
    else setPath(value, field.keys ?? pathKeys(field.path), read.value);
  }
  if (Array.isArray(value.items)) {
    const items = value.items as unknown[];
    for (let position = 0; position < items.length; position++) {
      if (items[position] === undefined) {
        issues.push({ path: `items[${position}]`, message: 'is empty while a later item is given' });
      }
    }
  }
  return { value, issues };
}

/** Sets the field at `keys` in `target`, making the objects and arrays on the way. */
function setPath(target: Record<string, unknown>, keys: ReadonlyArray<string | number>, value: unknown): void {
  let node: Record<string | number, unknown> = target;
  for (let index = 0; index < keys.length - 1; index++) {
    const key = keys[index] as string | number;
    node[key] ??= typeof keys[index + 1] === 'number' ? [] : {};
    node = node[key] as Record<string | number, unknown>;
  }
  node[keys.at(-1) as string | number] = value;
}
