import type { OptionsOf, Root } from '../root.js';

/** `einvoice refund <invoiceNumber>`: its argument, flags and help. */
export function declareRefund(root: Root) {
  return root
    .command('refund')
    .description('refund a paid invoice')
    .argument('<invoiceNumber>', 'number of the paid invoice')
    .option('--amount <amount>', 'amount to refund')
    .option('--reason <text>', 'reason for the refund')
    .option('--order-ref <reference>', 'order reference number of the payment (orderReferenceNumber)')
    .option('-f, --file <file>', 'read the refund as JSON from a file, or - for stdin (flags win over it)')
    .option('-y, --yes', 'do not ask for confirmation')
    .option('--dry-run', 'print the request that would be sent, send nothing')
    .addHelpText(
      'after',
      `
Examples:
  $ einvoice refund 1000007 --amount 150 --reason "Damaged item" --order-ref 3712345
  $ einvoice refund 1000007 --file refund.json --yes --env production
  $ einvoice refund 1000007 --amount 150 --reason "Late" --order-ref 3712345 --dry-run`,
    );
}

export type RefundOptions = OptionsOf<ReturnType<typeof declareRefund>> & { invoiceNumber: string };
