import { invoiceFields } from '../input/field-descriptions.js';
import { jsonSchemaOf } from '../schemas/json-schema.js';
import { nearestName } from '../schemas/nearest-name.js';

// Which invoice field a CSV column holds. The one place of the CSV reader that knows the fields' names and kinds of
// value: the dotted paths of both request schemas, and the flag names of the invoice field descriptions. Item fields are columns per item
// (`items[0].price`); `items` (or the flag name `item`) is one column of items in the --item syntax.

/** How a cell of the column is read. */
export type CellKind = 'text' | 'number' | 'boolean' | 'date' | 'item-specs';

/** A column of the header, resolved: a field, a column none knows, or one the sheet's kind skips. */
export type ResolvedColumn =
  { path: string; cell: CellKind } | { unknown: string; suggestion?: string } | { skipped: string };

interface KnownField {
  /** The path with `items[]` for an item's fields. */
  path: string;
  cell: CellKind;
}

const dateFields = new Set(['sendingDate', 'expiryDate', 'releaseDate']);
let known: Map<string, KnownField> | undefined;

/** Every field of either kind of invoice by its dotted path, then by flag name (lower case). */
function knownFields(): Map<string, KnownField> {
  if (known) return known;
  known = new Map();
  const walk = (properties: Record<string, Record<string, unknown>>, prefix: string) => {
    for (const [key, schema] of Object.entries(properties)) {
      if (key === '$schema') continue;
      const path = `${prefix}${key}`;
      const nested = schema.type === 'array' ? (schema.items as Record<string, unknown>) : schema;
      if (nested.properties)
        walk(nested.properties as typeof properties, schema.type === 'array' ? `${path}[].` : `${path}.`);
      if (schema.type === 'array') known?.set(path.toLowerCase(), { path, cell: 'item-specs' });
      else if (!nested.properties) known?.set(path.toLowerCase(), { path, cell: cellKind(path, schema) });
    }
  };
  for (const kind of ['single', 'recurring'] as const) {
    walk(jsonSchemaOf(kind).properties as Record<string, Record<string, unknown>>, '');
  }
  for (const { flag, path } of invoiceFields) {
    const field = known.get(path.toLowerCase());
    if (field) known.set(flag.slice(2), field);
  }
  return known;
}

function cellKind(path: string, schema: Record<string, unknown>): CellKind {
  if (dateFields.has(path)) return 'date';
  if (schema.type === 'number' || schema.type === 'integer') return 'number';
  const choices = (schema.anyOf as Array<{ type?: string }> | undefined)?.map((choice) => choice.type);
  return choices?.includes('boolean') ? 'boolean' : 'text';
}

/** The column names of the service dashboard's batch upload sheet, so a sheet made for it is read as it is. */
const dashboardColumns = new Map([
  ['customer name', 'customer.name'],
  ['customer mobile number', 'customer.mobile'],
  ['customer email', 'customer.email'],
  ['invoice amount', 'amount'],
  ['businesses reference number', 'businessReference'],
  ['business reference number', 'businessReference'],
]);

/**
 * The field a header names: a dotted path (`customer.mobile`, `items[0].price`), a flag name (`customer-mobile`) or
 * a column name of the dashboard's batch upload (`Customer Mobile Number`).
 */
export function resolveColumn(header: string): ResolvedColumn {
  const name =
    dashboardColumns.get(header.trim().replace(/\s+/g, ' ').toLowerCase()) ?? header.trim().replace(/^--/, '');
  const index = /\[(\d+)\]/.exec(name)?.[1];
  const field = knownFields().get(name.replace(/\[\d+\]/, '[]').toLowerCase());
  if (field && (index === undefined) === !field.path.includes('[]')) {
    return {
      path: index === undefined ? field.path : field.path.replace('[]', `[${Number(index)}]`),
      cell: field.cell,
    };
  }
  return { unknown: header, suggestion: closest(name.replace(/\[\d+\]/, '[0]').toLowerCase()) };
}

/** The known column name nearest to `name`, when it is near enough to be a slip. */
function closest(name: string): string | undefined {
  const candidates = [...knownFields()].map(([key, field]) =>
    key === field.path.toLowerCase() ? field.path.replace('[]', '[0]') : key,
  );
  return nearestName(name, candidates);
}

/** The columns a sheet of one kind of record may have, and how messages speak of them. */
export interface ColumnSet {
  resolve(header: string): ResolvedColumn;
  /** What a column that is none of them is not: `an invoice field`. */
  readonly fieldWords: string;
  /** The command that prints a sheet to start from, in the format of the one read (a CSV file or a workbook). */
  template(format: 'csv' | 'xlsx'): string;
}

/** The columns of a sheet of invoices of `kind` (single by default). */
export function invoiceColumnsOf(kind: 'single' | 'recurring' = 'single'): ColumnSet {
  return {
    resolve: resolveColumn,
    fieldWords: 'an invoice field',
    template: (format) => `einvoice template ${kind} --format ${format}`,
  };
}

/** The columns of a sheet of single invoices. */
export const invoiceColumns: ColumnSet = invoiceColumnsOf('single');

/** The fields of a refund of a sheet (the invoice it refunds, then the request's body), by their lower-case names. */
const refundFields = new Map<string, KnownField>([
  ['invoicenumber', { path: 'invoiceNumber', cell: 'text' }],
  ['amount', { path: 'amount', cell: 'number' }],
  ['reason', { path: 'reason', cell: 'text' }],
  ['orderreferencenumber', { path: 'orderReferenceNumber', cell: 'text' }],
  // The refund command's flag names, as for invoices.
  ['invoice-number', { path: 'invoiceNumber', cell: 'text' }],
  ['order-ref', { path: 'orderReferenceNumber', cell: 'text' }],
]);

/** The columns of a sheet of refunds. */
export const refundColumns: ColumnSet = {
  resolve(header) {
    const name = header.trim().replace(/^--/, '');
    const field = refundFields.get(name.toLowerCase());
    if (field) return { path: field.path, cell: field.cell };
    const names = ['invoiceNumber', 'amount', 'reason', 'orderReferenceNumber'];
    return { unknown: header, suggestion: nearestName(name.toLowerCase(), names) };
  },
  fieldWords: 'a refund field',
  template: (format) => `einvoice template refunds${format === 'csv' ? '' : ` --format ${format}`}`,
};

/** The columns of a merchant's orders that name themselves otherwise than an invoice's fields (a shop's export). */
export interface OrderColumnNames {
  /** The column of each order's reference (default: businessReference). */
  reference?: string;
  /** The column of each order's amount (default: amount). */
  amount?: string;
  /** The column of each order's date, read as the invoice's sendingDate (default: sendingDate). */
  date?: string;
}

/** A sheet of orders' columns, and what its header held once it is read. */
export interface OrderColumnSet extends ColumnSet {
  /** The header's columns, as written. */
  readonly headers: readonly string[];
  /** The fields some column holds (`businessReference`, `amount`, ...). */
  readonly found: ReadonlySet<string>;
}

const orderFields = [
  { name: 'reference', path: 'businessReference', cell: 'text' },
  { name: 'amount', path: 'amount', cell: 'number' },
  { name: 'date', path: 'sendingDate', cell: 'date' },
] as const;

/**
 * The columns of a sheet of orders: the reference and the amount (and the date) by the names given, else by the
 * invoice's names; with `invoiceFields`, the other columns an invoice has too, and the date. Any other column is the
 * shop's and is skipped.
 */
export function orderColumns(names: OrderColumnNames, invoiceFields: boolean): OrderColumnSet {
  const headers: string[] = [];
  const found = new Set<string>();
  const same = (header: string, name: string) => header.trim().toLowerCase() === name.trim().toLowerCase();
  const fields = orderFields.filter((field) => invoiceFields || field.name !== 'date');
  return {
    headers,
    found,
    resolve(header) {
      headers.push(header);
      const named = fields.find((field) => names[field.name] !== undefined && same(header, names[field.name] ?? ''));
      const resolved: ResolvedColumn = named ? { path: named.path, cell: named.cell } : resolveColumn(header);
      if (!('path' in resolved)) return { skipped: header };
      const own = orderFields.find((field) => field.path === resolved.path);
      // A column named for the field another column was given to is the shop's; so is an invoice's field not wanted.
      const taken = own !== undefined && !named && names[own.name] !== undefined;
      const wanted = own ? fields.includes(own) : invoiceFields;
      if (taken || !wanted) return { skipped: header };
      found.add(resolved.path);
      return resolved;
    },
    fieldWords: 'an order field',
    template: (format) => `einvoice template orders${format === 'csv' ? '' : ` --format ${format}`}`,
  };
}
