import { Option, type Command, type OptionValues } from '@commander-js/extra-typings';
import { repeatable } from '../../input/flag-parsers.js';
import { encodingNames } from '../../input/text-encoding.js';
import { reconcileClasses } from '../../ledger/reconcile.js';
import { sheetFlag } from '../shared/bulk-flags.js';

// `einvoice invoices reconcile ORDERS`: the merchant's own orders matched against the ledger. Loaded with the command
// tree, so it holds nothing heavier than commander.

const classes = reconcileClasses.join(', ');

const columnsGroup = "Your orders' columns (by name; the invoice template's names by default):";

/** The declaration of `einvoice invoices reconcile`, a verb of `invoices`. */
export function declareReconcile<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  invoices: Command<A, O, G>,
) {
  return invoices
    .command('reconcile')
    .description(
      'match a file of your orders against the invoices sent (the ledger): missing, twice, or for another amount',
    )
    .argument('<orders>', 'your orders: CSV, an .xlsx workbook, NDJSON or a JSON array; - reads stdin')
    .addOption(
      new Option(
        '--reference-column <name>',
        "the column of each order's reference (default: businessReference)",
      ).helpGroup(columnsGroup),
    )
    .addOption(
      new Option('--amount-column <name>', "the column of each order's amount (default: amount)").helpGroup(
        columnsGroup,
      ),
    )
    .addOption(
      new Option(
        '--date-column <name>',
        "the column of each order's date, --emit-missing's sendingDate (default: sendingDate)",
      ).helpGroup(columnsGroup),
    )
    .option(
      '--since <date>',
      'only invoices sent on or after this day (YYYY-MM-DD in your time zone, or an ISO instant)',
    )
    .option(
      '--until <date>',
      'only invoices sent on or before this day (YYYY-MM-DD in your time zone, or an ISO instant)',
    )
    .option('--fail-on <classes>', `exit 11 when a class has rows: a comma-separated list of ${classes}`, repeatable)
    .option(
      '--report <file>',
      'write every row: .csv, .xlsx (a workbook), .xml (JUnit: a test case each), or NDJSON otherwise',
    )
    .option(
      '--emit-missing <file>',
      'write the orders no invoice was found for as a file create single --file sends: .csv, or .xlsx (0600)',
    )
    .addOption(sheetFlag.format('ORDERS'))
    .addOption(sheetFlag.delimiter('ORDERS'))
    .addOption(sheetFlag.sheet('ORDERS'))
    .addOption(sheetFlag.dateFormat('ORDERS'))
    .addOption(sheetFlag.ignoreColumn('ORDERS'))
    .addOption(
      new Option(
        '--encoding <name>',
        'the encoding the orders were saved in (default: UTF-8, or UTF-16 by its byte order mark)',
      ).choices(encodingNames),
    )
    .addHelpText(
      'after',
      `
Reads the orders and the ledger of this machine only: it sends nothing, and works offline.
Classes: ${classes}. see: einvoice help reconcile

Examples:
  $ einvoice invoices reconcile orders.csv
  $ einvoice invoices reconcile shop-export.csv --reference-column "Order No" --amount-column Total --since 2026-11-01 --until 2026-11-30
  $ einvoice invoices reconcile orders.xlsx --json --fail-on amount-differs,not-invoiced,duplicate-in-ledger
  $ einvoice invoices reconcile orders.csv --emit-missing missing.csv && einvoice create single --file missing.csv`,
    );
}
