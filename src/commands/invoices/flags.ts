import { Option, type Command, type OptionValues } from '@commander-js/extra-typings';
import { wholeNumberFlag } from '../../input/flag-parsers.js';
import type { OptionsOf, Root } from '../root.js';
import { declareReconcile } from './reconcile-flags.js';

// `einvoice invoices list|show|export|import|forget|reconcile`: the merchant's ledger of what einvoice sent from this
// machine (or imported from journals), not the service's list, which its interface does not offer.

const statuses = ['created', 'uncertain', 'refused', 'not-created', 'refunded', 'refund-uncertain'] as const;

const whatItIs =
  "What einvoice sent from this machine (and journals imported into it), per environment: not the service's list " +
  '(the service offers none). Off with ledger: false in the profile or --no-ledger.';

/** The flags that choose which invoices of the ledger a command works on. */
function withFilters<A extends unknown[], O extends OptionValues, G extends OptionValues>(command: Command<A, O, G>) {
  return command
    .option('--since <date>', 'sent on or after this day (YYYY-MM-DD or -7d in your time zone, or an ISO instant)')
    .option('--until <date>', 'sent on or before this day (YYYY-MM-DD or -1d in your time zone, or an ISO instant)')
    .option('--ref <businessReference>', 'with this businessReference')
    .option('--customer <text>', "whose customer's name contains this text, or whose mobile does")
    .addOption(new Option('--status <status>', 'in this state').choices(statuses))
    .addOption(new Option('--kind <kind>', 'of this kind').choices(['single', 'recurring'] as const))
    .option('--run <id>', 'sent by this batch: its run id, or its journal file');
}

/** The declaration of `einvoice invoices` and its verbs. */
export function declareInvoices(root: Root) {
  const invoices = root
    .command('invoices')
    .description('list, look up, export and reconcile the invoices and refunds sent from this machine (the ledger)')
    .addHelpText(
      'after',
      `\n${whatItIs}\n\nExamples:\n  $ einvoice invoices list --since 2026-11-01\n  $ einvoice invoices show 1000123\n  $ einvoice invoices export --format csv --output invoices.csv`,
    );
  const list = withFilters(
    invoices.command('list').description('list the invoices sent from this machine, newest first'),
  )
    .option('--limit <n>', 'at most n invoices (on a terminal the default is 20)', wholeNumberFlag(1))
    .option('--all', 'every invoice (what a pipe gets unless --limit)')
    .option('--ndjson', 'one JSON object per line on stdout')
    .addHelpText(
      'after',
      `\n${whatItIs}\n\nExamples:\n  $ einvoice invoices list\n  $ einvoice invoices list --since -7d\n  $ einvoice invoices list --ref ORDER-1043\n  $ einvoice invoices list --status uncertain --json\n  $ einvoice invoices list --customer "Amr" --since 2026-11-01 --until 2026-11-30 --all`,
    );
  const show = invoices
    .command('show')
    .description('the invoice as sent, its refunds, where it came from and every request that met it')
    .argument('<id>', 'its id in the ledger (L12, as list shows it), its invoice number, or its businessReference')
    .addHelpText(
      'after',
      `\n${whatItIs}\n\nExamples:\n  $ einvoice invoices show 1000123\n  $ einvoice invoices show L12\n  $ einvoice invoices show ORDER-1043 --json`,
    );
  const settle = invoices
    .command('settle')
    .description('record what you found of an invoice or refund whose outcome is unknown (uncertain)')
    .argument('<id>', 'the invoice: its id in the ledger (L12), its number, or its businessReference')
    .option('--created', 'the invoice was created (you found it in the merchant dashboard)')
    .option('--not-created', 'the invoice was not created')
    .option('--refunded', "the invoice's uncertain refund was made")
    .option('--not-refunded', "the invoice's uncertain refund was not made")
    .addHelpText(
      'after',
      "\nThe ledger keeps your word, and a later word replaces it. A bulk run's journal keeps its own: a rerun of its file takes --mark-created ROW (create) or --mark-refunded INVOICE (refund).\n\nExamples:\n  $ einvoice invoices settle L12 --created\n  $ einvoice invoices settle 1000123 --not-refunded",
    );
  const exported = withFilters(
    invoices.command('export').description('every invoice sent from this machine, one row each with its refund'),
  )
    .addOption(
      new Option('--format <format>', 'csv (as Excel opens it), xlsx (a workbook: amounts and dates typed) or ndjson')
        .choices(['csv', 'xlsx', 'ndjson'] as const)
        .default('csv' as const),
    )
    .option('-o, --output <file>', 'write to this file (made private, 0600) instead of stdout')
    .addHelpText(
      'after',
      `\n${whatItIs}\n\nExamples:\n  $ einvoice invoices export --output invoices.csv\n  $ einvoice invoices export --format xlsx --output invoices.xlsx\n  $ einvoice invoices export --format ndjson --since 2026-01-01 > invoices.ndjson`,
    );
  const imported = invoices
    .command('import')
    .description("bring the journals of other machines or CI runs into this machine's ledger (each entry once)")
    .argument('<journal...>', 'journal files of bulk runs (.einvoice-journal/*.ndjson)')
    .addHelpText(
      'after',
      '\nEach journal goes into the ledger of the environment it names (with --env, each must name that one). Importing one again adds nothing twice.\n\nExamples:\n  $ einvoice invoices import artifacts/*/journal*.ndjson\n  $ einvoice invoices import invoices.csv.staging.journal.ndjson --env staging',
    );
  const forget = invoices
    .command('forget')
    .description("remove from the ledger what was sent before a day (customers' data is not kept for ever)")
    .requiredOption('--before <date>', 'remove what was sent before this day (YYYY-MM-DD or -1m in your time zone)')
    .addHelpText(
      'after',
      '\nExamples:\n  $ einvoice invoices forget --before 2025-01-01\n  $ einvoice invoices forget --before 2026-01-01 --env production',
    );
  const reconcile = declareReconcile(invoices);
  return { list, show, settle, exported, imported, forget, reconcile };
}

type Declared = ReturnType<typeof declareInvoices>;
export type ListOptions = OptionsOf<Declared['list']>;
export type ShowOptions = OptionsOf<Declared['show']>;
export type SettleOptions = OptionsOf<Declared['settle']>;
export type ExportOptions = OptionsOf<Declared['exported']>;
export type ImportOptions = OptionsOf<Declared['imported']>;
export type ForgetOptions = OptionsOf<Declared['forget']>;
export type ReconcileOptions = OptionsOf<Declared['reconcile']>;
/** The filters list and export share. */
export type FilterOptions = Pick<ListOptions, 'since' | 'until' | 'ref' | 'customer' | 'status' | 'kind' | 'run'>;
