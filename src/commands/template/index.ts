import { Argument, Option } from '@commander-js/extra-typings';
import type { CommandContext } from '../../context.js';
import type { Root } from '../root.js';

/** `einvoice template <kind>`. */
function declareTemplate(root: Root) {
  return root
    .command('template')
    .description(
      'print a file of invoices, refunds or orders to start from: a CSV header and example rows, an Excel workbook, or NDJSON or JSON',
    )
    .addArgument(
      new Argument('<kind>', "single, recurring, refunds, or orders (a shop's, to try invoices reconcile on)").choices([
        'single',
        'recurring',
        'refunds',
        'orders',
      ] as const),
    )
    .addOption(
      new Option('--format <format>', 'csv, xlsx, ndjson or json')
        .choices(['csv', 'xlsx', 'ndjson', 'json'] as const)
        .default('csv'),
    )
    .addOption(new Option('--output <file>', 'write it to a file (an xlsx workbook goes to stdout only when piped)'))
    .addHelpText(
      'after',
      `
Examples:
  $ einvoice template single --format csv > invoices.csv
  $ einvoice template single --format xlsx --output invoices.xlsx
  $ einvoice template recurring --format ndjson > plans.ndjson
  $ einvoice template single --format json > invoice.json
  $ einvoice template refunds > refunds.csv
  $ einvoice template orders > orders.csv && einvoice invoices reconcile orders.csv`,
    );
}

/** Adds `einvoice template`; its implementation is imported only when it runs. */
export function addTemplateCommand(root: Root, context: CommandContext): void {
  declareTemplate(root).action(async (kind, _options, command) => {
    const { printTemplate } = await import('./run.js');
    const formatGiven = command.getOptionValueSource('format') === 'cli';
    await printTemplate(kind, { ...command.optsWithGlobals(), formatGiven }, context);
  });
}
