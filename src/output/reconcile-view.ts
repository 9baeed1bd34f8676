import type { ChalkInstance } from 'chalk';
import type { ShownReconcileRow } from '../ledger/reconcile.js';
import { formatCount, formatDecimal } from './format.js';
import { terminalSafe } from './safe-text.js';

// A reconciliation as the merchant reads it: each class's count and total, the rows that are not matched as a table,
// one sentence per row (annotations, a report's failures), and the --json document. References came from the
// merchant's file or the ledger: they are printed without escape sequences or line breaks of their own.

/** How a row's place in the orders is named: a sheet's row, or a line of a JSON or NDJSON file. */
export type Numbered = 'row' | 'line';

/** Each class's count and total, in the classes' order. */
export type ShownTotals = Record<string, { count: number; amount: string }>;

/** Outside text on one line, without escape sequences. */
function oneLine(text: string): string {
  return terminalSafe(text).replace(/\s*[\r\n\t]+\s*/g, ' ');
}

/**
 * A table's lines: right-aligned columns for numbers, left for the rest, two spaces apart. The rows are read twice,
 * once for the columns' widths and once to write them, so a table of a million rows is never held.
 */
function* tableLines(
  header: string[],
  rows: () => Iterable<{ cells: string[]; color: (text: string) => string }>,
  right: ReadonlySet<number>,
): Generator<string> {
  const widths = header.map((title) => title.length);
  for (const { cells } of rows())
    cells.forEach((cell, column) => (widths[column] = Math.max(widths[column] ?? 0, cell.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) =>
        right.has(column) ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0),
      )
      .join('  ')
      .trimEnd();
  yield line(header);
  for (const { cells, color } of rows()) yield color(line(cells));
}

function amount(text: string | null): string {
  return text === null ? '-' : formatDecimal(text);
}

/** The totals: one line per class, its count of rows and its amount (what each class's amount is: docs/reconcile.md). */
export function renderTotals(totals: ShownTotals, colors: ChalkInstance, currency?: string): string {
  const rows = () =>
    Object.entries(totals).map(([name, total]) => ({
      cells: [name, formatCount(total.count), amount(total.amount)],
      color: colorOf(name, colors),
    }));
  const [header = '', ...lines] = tableLines(
    ['Class', 'Rows', currency ? `Amount (${currency})` : 'Amount'],
    rows,
    new Set([1, 2]),
  );
  return [colors.bold(header), ...lines].join('\n');
}

/** The rows that are not matched, as a table's lines: where, class, references, invoice and amounts. */
export function* discrepancyLines(
  rows: () => Iterable<ShownReconcileRow>,
  colors: ChalkInstance,
  numbered: Numbered,
): Generator<string> {
  const header = [
    numbered === 'row' ? 'Row' : 'Line',
    'Class',
    'Reference',
    'Invoice',
    'Orders',
    'Ledger',
    'Difference',
    'Refunded',
  ];
  const cells = function* () {
    for (const row of rows()) {
      yield {
        cells: [
          row.row === null ? '-' : String(row.row),
          row.class,
          referenceText(row),
          row.invoiceNumber === null ? '-' : oneLine(row.invoiceNumber),
          amount(row.ordersAmount),
          amount(row.ledgerAmount),
          amount(row.difference),
          amount(row.refundedAmount),
        ],
        color: colorOf(row.class, colors),
      };
    }
  };
  let first = true;
  for (const line of tableLines(header, cells, new Set([0, 4, 5, 6, 7]))) {
    yield first ? colors.bold(line) : line;
    first = false;
  }
}

/** The order's reference as written, and the invoice's beside it when it is written otherwise. */
function referenceText(row: ShownReconcileRow): string {
  const own = row.businessReference === null ? '-' : oneLine(row.businessReference);
  if (row.ledgerReference === null || row.ledgerReference === row.businessReference) return own;
  return `${own} (ledger: ${oneLine(row.ledgerReference)})`;
}

function colorOf(name: string, colors: ChalkInstance): (text: string) => string {
  if (name === 'matched') return colors.green;
  return name === 'uncertain' || name === 'refunded' ? colors.yellow : colors.red;
}

/** What a class says of a row, in words. */
const classWords: Record<string, string> = {
  matched: 'invoiced once, for the amount ordered',
  'amount-differs': 'invoiced for another amount than ordered',
  'not-invoiced': 'ordered, and no invoice in the ledger',
  'not-in-orders': 'invoiced, and in no order',
  'duplicate-in-orders': 'the reference is on more than one order',
  'duplicate-in-ledger': 'more than one invoice has the reference',
  uncertain: 'the ledger does not know whether the invoice, or a refund of it, was made',
  refunded: 'invoiced for the amount ordered, and refunded',
};

/** One row in a sentence: `row 7 (RC-5): invoiced for another amount than ordered: orders 106.00, ledger 105.00 ...`. */
export function rowSentence(row: ShownReconcileRow, numbered: Numbered): string {
  const where = row.row === null ? 'no order' : `${numbered} ${row.row}`;
  const facts = [
    row.ordersAmount === null ? undefined : `orders ${formatDecimal(row.ordersAmount)}`,
    row.ledgerAmount === null ? undefined : `ledger ${formatDecimal(row.ledgerAmount)}`,
    row.difference === null || row.difference === '0.00' ? undefined : `difference ${formatDecimal(row.difference)}`,
    row.refundedAmount === null ? undefined : `refunded ${formatDecimal(row.refundedAmount)}`,
    row.invoiceNumber === null
      ? undefined
      : `invoice ${oneLine(row.invoiceNumber)}${row.ledgerStatus === 'created' || row.ledgerStatus === null ? '' : ` (${row.ledgerStatus})`}`,
  ].filter((fact) => fact !== undefined);
  return `${where} (${referenceText(row)}): ${classWords[row.class] ?? row.class}${facts.length > 0 ? `; ${facts.join(', ')}` : ''}`;
}

/** How many rows are not matched. */
export function discrepancyCount(totals: ShownTotals): number {
  return Object.entries(totals).reduce((sum, [name, total]) => (name === 'matched' ? sum : sum + total.count), 0);
}

/**
 * The --json document, `{"compared":{...},"summary":{...},"rows":[...]}`, line by line: what was compared and the
 * totals first, then one row per line, so `head -2` or a line-oriented reader gets them without parsing every row.
 */
export function* reconcileJsonLines(
  compared: Record<string, unknown>,
  totals: ShownTotals,
  rows: Iterable<ShownReconcileRow>,
): Generator<string> {
  yield `{"compared":${JSON.stringify(compared)},`;
  yield `"summary":${JSON.stringify(totals)},`;
  yield '"rows":[';
  let previous: string | undefined;
  for (const row of rows) {
    if (previous !== undefined) yield `${previous},`;
    previous = JSON.stringify(row);
  }
  if (previous !== undefined) yield previous;
  yield ']}';
}
