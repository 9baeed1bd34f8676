import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { handMadeWorkbook, type HandCell } from '../../test/helpers/workbook.ts';
import { Dice } from './dice.ts';
import { range, type Scenario, type SheetFormat } from './scenario.ts';

// The files a merchant hands einvoice: invoices to create and refunds to make, as CSV, NDJSON or a workbook. Each
// invoice carries a note of its own, by which the checker finds it at the service whatever number it got.

/** An invoice of the create file. */
export interface CreateRecord {
  /** Its position in the file, from 1. */
  record: number;
  /** Its row (a sheet's, after the header) or line (NDJSON), as a run and the ledger name it. */
  row: number;
  note: string;
  amount: string;
  businessReference?: string;
}

/** A refund of the refund file. */
export interface RefundRecord {
  record: number;
  invoiceNumber: string;
  amount: string;
  reason: string;
  orderReferenceNumber: string;
}

/** A paid invoice the refund file refunds, made before the runs. */
export interface RefundTarget {
  note: string;
  amount: string;
}

/** The invoices of the create file. */
export function createRecords(scenario: Scenario): CreateRecord[] {
  const dice = new Dice(scenario.seed);
  return range(scenario.creates.count).map((record) => ({
    record,
    row: scenario.creates.format === 'ndjson' ? record : record + 1,
    note: `torture ${scenario.seed} invoice ${record}`,
    amount: `${dice.int(`amount ${record}`, 10, 5000)}.${String(dice.int(`cents ${record}`, 0, 99)).padStart(2, '0')}`,
    ...(scenario.creates.withoutReference.includes(record) ? {} : { businessReference: `T${scenario.seed}-${record}` }),
  }));
}

/** The invoices the refunds are of: created and paid before the runs, as the merchant's customers paid them. */
export function refundTargets(scenario: Scenario): RefundTarget[] {
  return range(scenario.refunds.count).map((refund) => ({
    note: `torture ${scenario.seed} paid ${refund}`,
    amount: `${200 + refund}.50`,
  }));
}

/** The refund file's records, for the targets as paid. */
export function refundRecords(
  scenario: Scenario,
  paid: Array<{ invoiceNumber: string; amount: string; orderReferenceNumber: string }>,
): RefundRecord[] {
  return paid.map((invoice, index) => {
    const record = index + 1;
    const partial = scenario.refunds.partial.includes(record);
    return {
      record,
      invoiceNumber: invoice.invoiceNumber,
      amount: partial ? `${Math.floor(Number(invoice.amount) / 2)}.00` : invoice.amount,
      reason: partial ? 'Part returned' : 'Returned',
      orderReferenceNumber: invoice.orderReferenceNumber,
    };
  });
}

/** A record as a file holds it: its fields by their dotted path (`customer.name`), as a sheet's header names them. */
type Fields = Record<string, string | number>;

/** Writes the create file into `dir`; returns its name. */
export async function writeCreateFile(dir: string, format: SheetFormat, records: CreateRecord[]): Promise<string> {
  const fields = records.map((record): Fields => ({
    'customer.name': `Customer ${record.note}`,
    // An Egyptian mobile (+20 10, then 8 digits), so that no record carries a warning of its own.
    'customer.mobile': `+2010${String(10_000_000 + record.record * 7919).slice(-8)}`,
    amount: Number(record.amount),
    sendingDate: 'today',
    releaseDate: 'today',
    expiryDate: '+30d',
    ...(record.businessReference ? { businessReference: record.businessReference } : {}),
    note: record.note,
  }));
  return writeSheet(dir, 'invoices', format, fields);
}

/** Writes the refund file into `dir`; returns its name. */
export async function writeRefundFile(dir: string, format: SheetFormat, records: RefundRecord[]): Promise<string> {
  const fields = records.map(({ invoiceNumber, amount, reason, orderReferenceNumber }): Fields => ({
    invoiceNumber,
    amount: Number(amount),
    reason,
    orderReferenceNumber,
  }));
  return writeSheet(dir, 'refunds', format, fields);
}

/** Writes one sheet of `records`; in a workbook, numbers are number cells, as Excel keeps amounts. */
async function writeSheet(dir: string, name: string, format: SheetFormat, records: Fields[]): Promise<string> {
  const file = `${name}.${format}`;
  const path = join(dir, file);
  const columns = [...new Set(records.flatMap((record) => Object.keys(record)))];
  if (format === 'ndjson') {
    writeFileSync(path, records.map((record) => `${JSON.stringify(nested(record))}\n`).join(''));
  } else if (format === 'csv') {
    const rows = records.map((record) => columns.map((column) => String(record[column] ?? '')));
    writeFileSync(path, [columns, ...rows].map((cells) => `${cells.map(csvCell).join(',')}\r\n`).join(''));
  } else {
    const cell = (value: string | number | undefined): HandCell =>
      value === undefined ? null : typeof value === 'number' ? { number: value } : { inline: value };
    const header = columns.map((text): HandCell => ({ shared: text }));
    const body = records.map((record) => columns.map((column) => cell(record[column])));
    writeFileSync(path, await handMadeWorkbook({ sheets: [{ name, rows: [header, ...body] }] }));
  }
  return file;
}

/** The record as a JSON object: `customer.name` inside `customer`. */
function nested(record: Fields): Record<string, unknown> {
  const object: Record<string, Record<string, unknown>> = {};
  for (const [path, value] of Object.entries(record)) {
    const [head, ...rest] = path.split('.');
    if (rest.length === 0) Object.assign(object, { [head!]: value });
    else object[head!] = { ...object[head!], [rest.join('.')]: value };
  }
  return object;
}

function csvCell(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
