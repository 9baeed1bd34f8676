import { repeatable } from '../../input/flag-parsers.js';
import type { OptionsOf, Root } from '../root.js';

/** `einvoice stats`: its flags and help. */
export function declareStats(root: Root) {
  return root
    .command('stats')
    .description('show counts and amounts of your invoices by status')
    .option(
      '--fail-if <condition>',
      "exit 7 when a condition holds, e.g. 'expired.count>0' or 'unpaid.amount>=5000' (repeatable)",
      repeatable,
    )
    .addHelpText(
      'after',
      `
Examples:
  $ einvoice stats --env staging
  $ einvoice stats --json | jq .paidInvoices
  $ einvoice stats --env production --fail-if 'expired.count>0'`,
    );
}

export type StatsOptions = OptionsOf<ReturnType<typeof declareStats>>;
