import { UsageError, type FieldIssue } from '../../errors.js';
import { jsonProblem } from '../../input/json-file.js';
import { undecodableMessage } from '../../input/encoding-messages.js';
import type { ReconcileStore } from '../../ledger/reconcile-store.js';
import { groupedFindings } from '../../output/findings.js';
import { countOf } from '../../output/format.js';
import type { Numbered } from '../../output/reconcile-view.js';
import { parseJsonExactly } from '../../schemas/exact-json.js';
import { toMinorUnits } from '../../schemas/money.js';
import { orderSchema } from '../../schemas/order.js';
import { validate } from '../../schemas/validate.js';
import {
  orderColumns,
  recordAndLine,
  recordsOf,
  type IssuePlace,
  type ManyInvoices,
  type OrderColumnNames,
  type RecordFinding,
  type SheetOptions,
  type SourceRecord,
} from '../../sheet/index.js';

// The merchant's orders, read by the sheet readers a bulk run reads with (CSV in any encoding, a workbook, NDJSON, a
// JSON array, stdin), checked, and handed to the reconciliation's store. A file with a problem is refused whole,
// every problem told at once, before anything is compared.

/** How the orders are read. */
export interface OrdersReading {
  names: OrderColumnNames;
  sheet: SheetOptions;
  /** Keep each order's record, to write the orders without an invoice out again (`--emit-missing`). */
  keepRecords: boolean;
}

/** The fields of an order a reconciliation reads, by the names of the invoice they become. */
const fields = ['businessReference', 'amount', 'sendingDate'] as const;
type OrderField = (typeof fields)[number];

/** Reads every order of `input` into `store`; how rows are numbered. A file with a problem adds nothing. */
export async function readOrders(
  input: ManyInvoices,
  reading: OrdersReading,
  store: ReconcileStore,
): Promise<Numbered> {
  const sheet = input.format === 'csv' || input.format === 'xlsx';
  const columns = orderColumns(reading.names, reading.keepRecords);
  const { records, place = recordAndLine } = await recordsOf(input, { ...reading.sheet, columns }).catch(
    readInTheWrongEncoding(input),
  );
  // A sheet's cells are read into an invoice's fields; the keys of a JSON order are as the file names them.
  const keyOf: Record<OrderField, string> = {
    businessReference: sheet ? 'businessReference' : (reading.names.reference ?? 'businessReference'),
    amount: sheet ? 'amount' : (reading.names.amount ?? 'amount'),
    sendingDate: sheet ? 'sendingDate' : (reading.names.date ?? 'sendingDate'),
  };
  const findings: RecordFinding[] = [];
  let headerChecked = !sheet;
  const checkHeader = () => {
    if (!headerChecked) refuseMissingColumns(input.name, columns.headers, columns.found, reading.names);
    headerChecked = true;
  };
  try {
    for await (const batch of records) {
      checkHeader();
      for (const source of batch) {
        const order = orderOf(source, keyOf);
        if ('issues' in order) {
          for (const issue of order.issues) findings.push(placed(place, source, issue));
        } else if (findings.length === 0) {
          store.addOrder(
            { row: source.line, businessReference: order.businessReference, amountMinor: order.amountMinor },
            reading.keepRecords ? JSON.stringify(order.record) : undefined,
          );
        }
      }
    }
    checkHeader();
  } catch (error) {
    readInTheWrongEncoding(input)(error);
  }
  // Bytes that are not text in the file's encoding mean the whole file was read in the wrong one.
  const undecodable = input.undecodable();
  if (undecodable) {
    const { problem, hint } = undecodableMessage(undecodable, input.name, input.format === 'csv');
    throw new UsageError(`${problem}; nothing was compared.`, { issues: groupedFindings(findings), hint });
  }
  if (findings.length > 0) {
    const count = new Set(findings.map((finding) => finding.where)).size;
    throw new UsageError(`${input.name}: ${countOf(count, 'order')} cannot be read; nothing was compared.`, {
      issues: groupedFindings(findings),
      hint: `Fix them and run the same command again; the columns are named with --reference-column and --amount-column.\nsee: einvoice help reconcile`,
    });
  }
  return sheet ? 'row' : 'line';
}

type ReadOrder =
  { businessReference: string; amountMinor: number; record: Record<string, unknown> } | { issues: FieldIssue[] };

/** One order of the file, checked, with its record under the invoice's field names. */
function orderOf(source: SourceRecord, keyOf: Record<OrderField, string>): ReadOrder {
  const parsed = source.value ? { value: source.value } : parseOrder(source.text);
  if ('issue' in parsed) return { issues: [parsed.issue] };
  const { value } = parsed;
  const checked = validate(orderSchema, {
    businessReference: value[keyOf.businessReference],
    amount: value[keyOf.amount],
  });
  const issues = [
    ...(source.issues ?? []),
    ...(checked.success
      ? []
      : checked.issues.map((issue) => ({ ...issue, path: keyOf[issue.path as OrderField] ?? issue.path }))),
  ];
  if (issues.length > 0 || !checked.success) return { issues };
  // Under the invoice's names, as `create --file` reads them.
  const record: Record<string, unknown> = { ...value };
  for (const field of fields) {
    if (keyOf[field] === field || !(keyOf[field] in value)) continue;
    record[field] = value[keyOf[field]];
    delete record[keyOf[field]];
  }
  return {
    businessReference: value[keyOf.businessReference] as string,
    amountMinor: Number(toMinorUnits(checked.data.amount)),
    record,
  };
}

/** A JSON order: an object, or why it is none. */
function parseOrder(text: string): { value: Record<string, unknown> } | { issue: FieldIssue } {
  let value: unknown;
  try {
    value = parseJsonExactly(text);
  } catch (error) {
    return {
      issue: { path: '(record)', message: `is not valid JSON: ${jsonProblem(text, (error as Error).message)}` },
    };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { issue: { path: '(record)', message: 'must be a JSON object (one order)' } };
  }
  return { value: value as Record<string, unknown> };
}

/** An issue of a record, named by where it is: `row 4, column Total (C)`, `record 3 (line 4): amount`. */
function placed(place: IssuePlace, source: SourceRecord, issue: FieldIssue): RecordFinding {
  const where = place(source);
  const path = place(source, issue.path === '(record)' ? undefined : issue.path);
  const field = path.slice(where.length).replace(/^[:,]\s*/, '') || undefined;
  return { ...issue, path, where, field };
}

/** Refuses a sheet without a column of the references or of the amounts, naming the columns it has. */
function refuseMissingColumns(
  name: string,
  headers: readonly string[],
  found: ReadonlySet<string>,
  names: OrderColumnNames,
): void {
  const missing = [
    { path: 'businessReference', given: names.reference, flag: '--reference-column', what: "the orders' references" },
    { path: 'amount', given: names.amount, flag: '--amount-column', what: "the orders' amounts" },
    { path: 'sendingDate', given: names.date, flag: '--date-column', what: "the orders' dates" },
  ].filter(({ path, given }) => !found.has(path) && (path !== 'sendingDate' || given !== undefined));
  if (missing.length === 0) return;
  const columns = headers.filter((header) => header.trim() !== '').map((header) => `"${header.trim()}"`);
  throw new UsageError(
    `${name} has no column of ${missing.map(({ what }) => what).join(' nor of ')}; nothing was compared.`,
    {
      issues: missing.map(({ path, given, flag }) => ({
        path: 'header (row 1)',
        message: given
          ? `has no column ${JSON.stringify(given)} (${flag})`
          : `has no column ${path}: name the column that holds it with ${flag} NAME`,
      })),
      hint: `Its columns: ${columns.length > 0 ? columns.join(', ') : 'none'}.\nsee: einvoice help reconcile`,
    },
  );
}

/**
 * A file refused as it was read whose bytes were not text in the encoding it was read in: the encoding is the cause to
 * tell, not what it garbled.
 */
function readInTheWrongEncoding(input: ManyInvoices): (error: unknown) => never {
  return (error) => {
    const undecodable = error instanceof UsageError ? input.undecodable() : undefined;
    if (!undecodable) throw error;
    const { problem, hint } = undecodableMessage(undecodable, input.name, input.format === 'csv');
    throw new UsageError(`${problem}; nothing was compared.`, { hint });
  };
}
