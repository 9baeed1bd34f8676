import { Option, type Command, type OptionValues } from '@commander-js/extra-typings';
import type { AmountChoice } from '../../input/invoice-input.js';
import type { InvoiceKind } from '../../schemas/invoice.js';
import { repeatable } from '../../input/flag-parsers.js';
import { encodingNames } from '../../input/text-encoding.js';
import { helpOf, inScope, invoiceFields, type InvoiceFlags } from '../../input/field-descriptions.js';
import { bulkFlag, sheetFlag } from '../shared/bulk-flags.js';
import type { OptionsOf, Root } from '../root.js';

const examples: Record<InvoiceKind, string> = {
  single: `
Examples:
  $ einvoice create single --customer-name "Amr Hassan" --customer-mobile +201012345678 \\
      --item "code=SKU1,qty=2,price=150,en=Shirt,ar=قميص" --sending-date today --release-date today \\
      --expiry-date +30d --note "Order 1043"
  $ einvoice create single --file invoice.json --env staging --yes
  $ einvoice create single --file invoices.ndjson --env staging --yes --concurrency 16 --report report.csv
  $ einvoice create single --file invoices.ndjson --shard 2/4 --reference-prefix ci-2026-06-
  $ einvoice create single --file invoices.csv --date-format DD/MM/YYYY --report report.csv
  $ einvoice create single            # in a terminal: asks for each field`,
  recurring: `
Examples:
  $ einvoice create recurring --cycle-type MONTH --cycle-value 1 --discount-value 0 --discount-type FLAT \\
      --customer-name "Amr Hassan" --customer-mobile +201012345678 --amount 499 \\
      --sending-date 2026-12-01 --release-date 2026-12-01 --expiry-date 2026-12-31 --note "Monthly plan"
  $ einvoice create recurring --file plan.json --dry-run`,
};

/** `einvoice create`: the group of `single` and `recurring`. */
export function declareCreateGroup(root: Root) {
  return root
    .command('create')
    .description('create invoices from flags, a JSON file or prompts, or many from a file')
    .addHelpText(
      'after',
      '\nExamples:\n  $ einvoice create single --file invoice.json\n  $ einvoice create single --file invoices.ndjson --report report.csv\n  $ einvoice create recurring --file plan.json --dry-run',
    );
}

const bulkGroup = 'Many invoices (--file holding a JSON array, NDJSON or CSV):';

/** `einvoice create single|recurring`: its flags and help. */
export function declareCreate(create: ReturnType<typeof declareCreateGroup>, kind: InvoiceKind) {
  const command = create
    .command(kind)
    .description(kind === 'single' ? 'create a single invoice' : 'create a recurring invoice');
  return withInvoiceFlags(command, kind)
    .addOption(bulkFlag.concurrency(bulkGroup))
    .addOption(bulkFlag.rate(bulkGroup))
    .addOption(bulkFlag.retries(bulkGroup))
    .addOption(bulkFlag.stopAfterFailures(bulkGroup))
    .addOption(bulkFlag.journal(bulkGroup))
    .addOption(bulkFlag.report(bulkGroup))
    .addOption(bulkFlag.referencePrefix(bulkGroup))
    .addOption(bulkFlag.resendUncertain(bulkGroup))
    .addOption(bulkFlag.markCreated(bulkGroup))
    .addOption(bulkFlag.markNotCreated(bulkGroup))
    .addOption(bulkFlag.skipInvalid(bulkGroup))
    .addOption(bulkFlag.allowExpired(bulkGroup))
    .addOption(bulkFlag.shard(bulkGroup))
    .addOption(bulkFlag.quiet(bulkGroup))
    .addOption(sheetFlag.format())
    .addOption(sheetFlag.delimiter())
    .addOption(sheetFlag.sheet())
    .addOption(sheetFlag.dateFormat())
    .addOption(sheetFlag.ignoreColumn())
    .option(
      '-f, --file <file>',
      'read the invoice as JSON (the request shape) from a file, or - for stdin; a JSON array, NDJSON or CSV creates many',
    )
    .addOption(
      new Option(
        '--encoding <name>',
        'the encoding --file was saved in (default: UTF-8, or UTF-16 by its byte order mark)',
      ).choices(encodingNames),
    )
    .option('--drop-unknown-fields', 'send the invoices without the fields the spec does not list, naming them')
    .option('-y, --yes', 'send without the preview and confirmation (it answers no other question)')
    .addOption(
      new Option('--keep-amount', "send an amount that differs from its items' total as given").conflicts(
        'amountFromItems',
      ),
    )
    .option('--amount-from-items', "send the items' total instead of an amount that differs from it")
    .option(
      '--fix-mobiles',
      'send a mobile as its warning suggests: a leading 0 a spreadsheet dropped, +20 without its + or as 0020 (each change told)',
    )
    .option(
      '--strict',
      'refuse what has a warning (a mobile that is not an Egyptian mobile, an e-mail on an SMS invoice, a record without a businessReference)',
    )
    .option('--no-strict', "send what has a warning (overrides the profile's strict)")
    .option('--dry-run', 'send nothing: print the exact JSON body of one invoice, or check a file of many')
    .option('--save <file>', 'write the final request to a JSON file (reusable with --file)')
    .option('--print-command', 'print the equivalent flag-only command line on stderr')
    .addHelpText('after', examples[kind]);
}

/** What `einvoice create single|recurring` is given: the global options and its own. */
export type CreateOptions = OptionsOf<ReturnType<typeof declareCreate>>;

/** The merchant's word on an amount that differs from its items' total: `--keep-amount` or `--amount-from-items`. */
export function amountChoiceOf(options: CreateOptions): AmountChoice | undefined {
  return options.keepAmount ? 'keep' : options.amountFromItems ? 'items' : undefined;
}

/**
 * Adds the invoice flags, generated from the field descriptions; flags of the other kind are accepted but hidden, so
 * using one is reported by the schema with the kind it belongs to.
 */
function withInvoiceFlags<Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(
  command: Command<Args, Opts, Globals>,
  kind: InvoiceKind,
): Command<Args, Opts & InvoiceFlags, Globals> {
  for (const field of invoiceFields) {
    const option = new Option(field.valueName ? `${field.flag} ${field.valueName}` : field.flag, helpOf(field, kind));
    if (field.input === 'items') option.argParser(repeatable);
    if (!inScope(field, kind)) option.hideHelp();
    command.addOption(option);
    if (field.input === 'yes-no') {
      command.addOption(new Option(`--no-${field.flag.slice(2)}`, `do not ${helpOf(field, kind)}`).hideHelp());
    }
  }
  // A loop cannot tell commander the flags it adds; their types come from the same table (InvoiceFlags).
  return command as Command<Args, Opts & InvoiceFlags, Globals>;
}
