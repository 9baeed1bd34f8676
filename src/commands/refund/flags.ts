import { Option } from '@commander-js/extra-typings';
import { repeatable, wholeNumberFlag } from '../../input/flag-parsers.js';
import { encodingNames } from '../../input/text-encoding.js';
import { bulkFlag, sheetFlag } from '../shared/bulk-flags.js';
import type { OptionsOf, Root } from '../root.js';

const bulkGroup = 'Many refunds (--file holding CSV, a workbook, NDJSON or a JSON array, without <invoiceNumber>):';

/** `einvoice refund [invoiceNumber]`: its argument, flags and help. */
export function declareRefund(root: Root) {
  return (
    root
      .command('refund')
      .description('refund a paid invoice, or many from a file')
      .argument('[invoiceNumber]', 'number of the paid invoice (none with a --file of many refunds)')
      .option('--amount <amount>', 'amount to refund')
      .option('--reason <text>', 'reason for the refund')
      .option('--order-ref <reference>', 'order reference number of the payment (orderReferenceNumber)')
      .option(
        '-f, --file <file>',
        'read the refund as JSON from a file, or - for stdin (flags win over it); CSV, .xlsx, NDJSON or a JSON array refunds many',
      )
      .addOption(
        new Option('--encoding <name>', 'the encoding --file was saved in (default: UTF-8)').choices(encodingNames),
      )
      .option('-y, --yes', 'do not ask for confirmation')
      .option(
        '--strict',
        'refuse a refund the ledger warns of (more than its invoice holds, an invoice already refunded): nothing is sent',
      )
      .option('--no-strict', "send a refund the ledger warns of, with its warning (overrides the profile's strict)")
      .option('--dry-run', 'print the request that would be sent (or check a file of many), send nothing')
      .addOption(
        new Option(
          '--expect-count <n>',
          'refuse to send unless the file holds exactly n refunds (those already made included)',
        )
          .argParser(wholeNumberFlag(0))
          .helpGroup(bulkGroup),
      )
      .addOption(
        new Option(
          '--expect-total <amount>',
          "refuse to send unless the file's refunds add up to exactly this amount",
        ).helpGroup(bulkGroup),
      )
      .addOption(
        new Option(
          '--mark-refunded <invoiceNumber>',
          'an uncertain refund of the journal was done (you checked): record it, never send it again (repeatable)',
        )
          .argParser(repeatable)
          .helpGroup(bulkGroup),
      )
      .addOption(
        new Option(
          '--mark-not-refunded <invoiceNumber>',
          'an uncertain refund of the journal was not done (you checked): a run may send it again (repeatable)',
        )
          .argParser(repeatable)
          .helpGroup(bulkGroup),
      )
      // A refund is never sent again once it may have left: no --resend-uncertain.
      .addOption(bulkFlag.concurrency(bulkGroup))
      .addOption(bulkFlag.rate(bulkGroup))
      .addOption(bulkFlag.retries(bulkGroup))
      .addOption(bulkFlag.stopAfterFailures(bulkGroup))
      .addOption(bulkFlag.journal(bulkGroup))
      .addOption(bulkFlag.report(bulkGroup))
      .addOption(bulkFlag.skipInvalid(bulkGroup))
      .addOption(bulkFlag.shard(bulkGroup))
      .addOption(bulkFlag.quiet(bulkGroup))
      .addOption(sheetFlag.format())
      .addOption(sheetFlag.delimiter())
      .addOption(sheetFlag.sheet())
      .addOption(sheetFlag.dateFormat())
      .addOption(sheetFlag.ignoreColumn())
      .addHelpText(
        'after',
        `
Examples:
  $ einvoice refund 1000007 --amount 150 --reason "Damaged item" --order-ref 3712345
  $ einvoice refund 1000007 --file refund.json --yes --env production
  $ einvoice refund 1000007 --amount 150 --reason "Late" --order-ref 3712345 --dry-run
  $ einvoice refund --file refunds.csv --dry-run                  # every row checked, the count and the total
  $ einvoice refund --file refunds.csv --env production --yes --expect-count 200 --expect-total 41250.00
  $ einvoice refund --file refunds.csv --mark-refunded 1000012    # an uncertain one you found refunded`,
      )
  );
}

/** What `einvoice refund` is given: the global options, its own, and the invoice number it names. */
export type RefundOptions = OptionsOf<ReturnType<typeof declareRefund>> & { invoiceNumber?: string };
