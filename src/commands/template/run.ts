import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { CommandContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { csvCell } from '../../csv-writer.js';
import { toJson } from '../../output/format.js';
import type { InvoiceKind } from '../../schemas/invoice.js';

// `einvoice template`: a file to start from, in each format --file reads. The CSV header holds the fields a merchant
// most often fills, with the item's fields as items[0].* columns; an empty cell means "not given".

/** The formats a template is printed in. */
export const templateFormats = ['csv', 'xlsx', 'ndjson', 'json'] as const;
export type TemplateFormat = (typeof templateFormats)[number];

const customer = { name: 'Amr Hassan', mobile: '+201012345678', email: 'amr.hassan@example.com' };
const shared = { sendingDate: 'today', releaseDate: 'today', expiryDate: '+30d' };

/** What a template is of: a kind of invoice, refunds, or a shop's orders (to try `invoices reconcile` on). */
export type TemplateKind = InvoiceKind | 'refunds' | 'orders';

/** A shop's orders, each with the fields a single invoice takes: reconciled as they are, or sent as invoices. */
const orders = [
  ['ORD-1001', 'Amr Hassan', '+201012345678', 250],
  ['ORD-1002', 'منى عادل', '+201001234567', 1250.5],
  ['ORD-1003', 'Karim Nabil', '+201112345678', 99.99],
  ['ORD-1004', 'سارة محمود', '+201212345678', 480],
  ['ORD-1005', 'Omar Fathy', '+201512345678', 75],
].map(([businessReference, name, mobile, amount]) => ({
  customer: { name, mobile },
  amount,
  ...shared,
  businessReference,
  note: `Order ${String(businessReference).slice(4)}`,
}));

/** The examples of each kind, valid as they stand; relative dates keep an invoice valid whenever it is used. */
const examples: Record<Exclude<TemplateKind, 'orders'>, Record<string, unknown>> = {
  // The built-in sandbox's paid demo invoice, refunded whole: the example runs as printed.
  refunds: { invoiceNumber: '1000007', amount: 150, reason: 'Damaged item', orderReferenceNumber: '3712345' },
  single: {
    customer,
    ...shared,
    businessReference: 'INV-0001',
    note: 'Order 1043',
    communicationLang: 'en-gb',
    communicationMethod: 'SMS',
    paymentType: 'PUSH_TO_CUSTOMER',
    items: [{ itemCode: 'SKU1', purchasedQuantity: 2, price: 150.5, nameEn: 'Shirt', nameAr: 'قميص' }],
  },
  recurring: {
    cycleType: 'MONTH',
    cycleValue: 1,
    discount: { value: 0, type: 'FLAT' },
    customer,
    amount: 499,
    ...shared,
    businessReference: 'PLAN-0001',
    note: 'Monthly plan',
    communicationLang: 'ar-eg',
    communicationMethod: 'SMS',
  },
};

const customerColumns = ['customer.name', 'customer.mobile', 'customer.email'];
const commonColumns = [
  'amount',
  'sendingDate',
  'releaseDate',
  'expiryDate',
  'businessReference',
  'note',
  'communicationLang',
  'communicationMethod',
];
const trailingColumns = ['taxes', 'preferredPaymentMethod', 'alertMerchantUponExpiry'];
const itemColumns = ['itemCode', 'purchasedQuantity', 'price', 'nameEn', 'nameAr'].map((field) => `items[0].${field}`);

/** The columns of each kind's CSV template, in the order a sheet shows them. */
export const templateColumns: Record<TemplateKind, readonly string[]> = {
  refunds: ['invoiceNumber', 'amount', 'reason', 'orderReferenceNumber'],
  // A single invoice's columns up to its note: what a shop's order holds.
  orders: [...customerColumns.slice(0, 2), ...commonColumns.slice(0, 6)],
  single: [...customerColumns, ...commonColumns, 'paymentType', ...trailingColumns, ...itemColumns],
  recurring: [
    'cycleType',
    'cycleValue',
    'discount.value',
    'discount.type',
    ...customerColumns,
    ...commonColumns,
    ...trailingColumns,
  ],
};

/** How the template was asked for: `--format` (and whether it was given, or is its default), `--json`, `--output`. */
export interface TemplateChoice {
  format: TemplateFormat;
  formatGiven: boolean;
  json?: boolean;
  output?: string;
}

/**
 * `einvoice template single|recurring --format csv|ndjson|json`: prints the template on stdout. `--json`, which asks
 * every command for JSON, prints the JSON template; with another `--format` given as well it is refused.
 */
export async function printTemplate(
  kind: TemplateKind,
  choice: TemplateChoice,
  context: CommandContext,
): Promise<void> {
  if (choice.json && choice.formatGiven && choice.format !== 'json') {
    throw new UsageError(`--json asks for the JSON template and --format ${choice.format} for another.`, {
      hint: 'Give one of them.',
    });
  }
  // Orders are many records, so their JSON is an array; any other kind's is one record.
  const rows = kind === 'orders' ? orders : [examples[kind]];
  const chosen = choice.json ? 'json' : choice.format;
  const columns = templateColumns[kind];
  if (chosen === 'xlsx') {
    const { writeTemplateWorkbook } = await import('./workbook.js');
    return writeTemplateWorkbook(
      kind,
      columns,
      rows.map((row) => (column: string) => valueAt(row, column)),
      choice.output,
      context,
    );
  }
  let text: string;
  if (chosen === 'json') text = `${toJson(kind === 'orders' ? rows : rows[0])}\n`;
  else if (chosen === 'ndjson') text = rows.map((row) => `${JSON.stringify(row)}\n`).join('');
  else {
    const lines = rows.map((row) =>
      columns.map((column) => csvCell(valueAt(row, column) as string | number | boolean | undefined)).join(','),
    );
    text = `${[columns.join(','), ...lines].join('\n')}\n`;
  }
  if (choice.output === undefined) context.stdout.write(text);
  else await writeFile(resolve(context.cwd, choice.output), text);
}

/** The value at a column's path (`customer.name`, `items[0].price`) in an example. */
function valueAt(example: Record<string, unknown>, path: string): unknown {
  return path
    .split(/\.|(?=\[)/)
    .reduce<unknown>(
      (node, key) => (node as Record<string, unknown> | undefined)?.[key.startsWith('[') ? key.slice(1, -1) : key],
      example,
    );
}
