import { Option, type Command } from 'commander';
import type { CommandContext, GlobalOptions } from '../../context.js';
import type { InvoiceKind } from '../../schemas/invoice.js';
import { bulkDefaults, parseRate, parseShard } from '../../bulk/options.js';
import { csvOptions } from '../../bulk/csv-options.js';
import { repeatable, wholeNumberFlag } from '../../input/flag-parsers.js';

// Declares `create single` and `create recurring`; each runs its own file, imported only when it runs. Only
// commander is loaded here, so `--help` stays fast.

const list = (values: readonly string[]) => values.join('|');

/** The invoice flags, shared by both kinds; flags of the other kind are accepted but hidden, so using one is
 * reported by the schema with the kind it belongs to. */
function invoiceOptions(kind: InvoiceKind): Option[] {
  const forKinds = (kinds: InvoiceKind[], option: Option) => (kinds.includes(kind) ? option : option.hideHelp());
  return [
    new Option('--customer-name <name>', 'customer name'),
    new Option('--customer-mobile <mobile>', 'customer mobile number, e.g. +201012345678'),
    new Option('--customer-email <email>', 'customer e-mail (required with --method EMAIL or BOTH)'),
    new Option('--amount <amount>', 'invoice total (default: the total of the items)'),
    new Option('--sending-date <date>', 'due date: YYYY-MM-DD, today, tomorrow, +7d, +2w, +1m'),
    new Option('--expiry-date <date>', 'expiry: a date (end of that UTC day), an ISO instant, or +30d ...'),
    new Option('--release-date <date>', 'issue date: a date (start of that UTC day), an ISO instant, or today ...'),
    new Option('--business-reference <ref>', 'your reference; unique per amount and sending date'),
    new Option('--note <text>', 'what the customer pays for'),
    new Option('--lang <lang>', `notification language: ${list(['en-gb', 'ar-eg'])} (default en-gb)`),
    new Option('--method <method>', `notify by: ${list(['SMS', 'EMAIL', 'BOTH', 'NONE'])} (default SMS)`),
    new Option('--alert-on-expiry', 'e-mail me when the invoice expires'),
    new Option('--no-alert-on-expiry', 'do not e-mail me when the invoice expires').hideHelp(),
    forKinds(['single'], new Option('--payment-type <type>', `${list(['PUSH_TO_CUSTOMER', 'PUSH_TO_SERVICE_PAY'])}`)),
    new Option('--taxes <percent>', 'taxes percentage, 0 to 100'),
    new Option('--preferred-payment-method <method>', 'PayAtService, CARD, VALU, or another allowed method'),
    new Option(
      '--item <spec>',
      kind === 'single'
        ? 'a line item, repeatable: code=SKU1,qty=2,price=10.50,en=Shirt,ar=قميص[,discount=5]'
        : 'a line item, repeatable: code=SKU1,qty=2,price=10.50,en=Shirt,ar=قميص',
    ).argParser(repeatable),
    forKinds(['recurring'], new Option('--cycle-type <type>', `repeat unit: ${list(['MONTH', 'WEEK'])}`)),
    forKinds(['recurring'], new Option('--cycle-value <n>', 'repeat every n units (at least 1)')),
    forKinds(['recurring'], new Option('--discount-value <n>', 'discount of the invoice (a whole number)')),
    forKinds(['recurring'], new Option('--discount-type <type>', `discount type: ${list(['FLAT', 'PERCENTAGE'])}`)),
  ];
}

const bulkGroup = 'Many invoices (--file holding a JSON array or NDJSON, one invoice per line):';

/** Flags of bulk creation from a file of many invoices. */
function bulkOptions(): Option[] {
  return [
    new Option('--concurrency <n>', `requests in flight at once (default ${bulkDefaults.concurrency})`).argParser(
      wholeNumberFlag(1, 256),
    ),
    new Option('--rate <n>', 'at most n requests per second').argParser(parseRate),
    new Option('--retries <n>', `automatic retries of a create, when safe (default ${bulkDefaults.retries})`).argParser(
      wholeNumberFlag(0, 20),
    ),
    new Option(
      '--stop-after-failures <n>',
      `stop once n attempts in a row fail as every record would (service down, TLS, a login page); default ${bulkDefaults.stopAfterFailures}, 0 never`,
    ).argParser(wholeNumberFlag(0, 1_000_000)),
    new Option('--journal <file>', 'the run journal (default FILE.ENV.journal.ndjson; required with --file -)'),
    new Option('--report <file>', 'write one line per record: .csv, or NDJSON otherwise'),
    new Option('--reference-prefix <prefix>', 'give records without a businessReference one: prefix + content hash'),
    new Option('--resend-uncertain', 'send again records an earlier run sent without learning the outcome'),
    new Option('--skip-invalid', 'send the valid records and report the invalid ones (default: send nothing)'),
    new Option('--shard <i/n>', 'only the records whose position modulo n is i-1 (one CI job of n)').argParser(
      parseShard,
    ),
    new Option('--quiet', 'no progress display'),
  ].map((option) => option.helpGroup(bulkGroup));
}

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

/** Adds `create single` and `create recurring` to the program. */
export function addCreateCommands(program: Command, context: CommandContext): void {
  const create = program
    .command('create')
    .description('create invoices from flags, a JSON file or prompts, or many from a file')
    .addHelpText(
      'after',
      '\nExamples:\n  $ einvoice create single --file invoice.json\n  $ einvoice create single --file invoices.ndjson --report report.csv\n  $ einvoice create recurring --file plan.json --dry-run',
    );
  for (const kind of ['single', 'recurring'] as const) {
    const command = create
      .command(kind)
      .description(kind === 'single' ? 'create a single invoice' : 'create a recurring invoice');
    for (const option of [...invoiceOptions(kind), ...bulkOptions(), ...csvOptions()]) command.addOption(option);
    command
      .option(
        '-f, --file <file>',
        'read the invoice as JSON (the request shape) from a file, or - for stdin; a JSON array, NDJSON or CSV creates many',
      )
      .option('-y, --yes', 'send without the preview and confirmation; keep --amount when it differs from the items')
      .option('--dry-run', 'print the exact JSON body that would be sent, send nothing')
      .option('--save <file>', 'write the final request to a JSON file (reusable with --file)')
      .option('--print-command', 'print the equivalent flag-only command line on stderr')
      .addHelpText('after', examples[kind])
      .action(async (_options, self: Command) => {
        const options = self.optsWithGlobals<GlobalOptions>();
        if (kind === 'single') await (await import('./single.js')).createSingle(options, context);
        else await (await import('./recurring.js')).createRecurring(options, context);
      });
  }
}
